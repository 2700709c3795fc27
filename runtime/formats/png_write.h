/* Indexed-colour images and their PNG files (libpng). Pictures of
 * universes (runtime/formats/picture.h) need at most 256 colours: dead and alive,
 * a colour per Generations state, or 256 density shades, so one byte per
 * pixel and a palette hold every picture, and the file gets the smallest
 * bit depth that holds the palette (1 bit for two colours). */
#ifndef GG_PNG_WRITE_H
#define GG_PNG_WRITE_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"

typedef struct gg_image {
    int64_t width, height;
    uint8_t *index;           /* width * height palette indices, row by row */
    uint8_t palette[256][3];  /* RGB */
    int colours;              /* palette entries used, 1..256 */
} gg_image;

/* A zeroed image (every pixel palette entry 0); fails on sizes < 1 or
 * beyond PNG's and memory's reach. */
int gg_image_init(gg_image *im, int64_t width, int64_t height, gg_err *err);
void gg_image_free(gg_image *im);

/* Whether this build can write PNG (libpng was found at build time). */
bool gg_png_available(void);

/* Write im to path as PNG, atomically (runtime/base/atomic_file.h): a file
 * that exists is replaced only by a complete picture. */
int gg_png_write(const char *path, const gg_image *im, gg_err *err);

#endif
