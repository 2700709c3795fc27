#include "png_write.h"

#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "gg_config.h"

#if GG_HAVE_PNG
#include <png.h>
#endif

/* PNG allows 2^31 - 1 pixels a side; a quarter of a gigapixel bounds the
 * memory a picture takes (one byte a pixel). */
#define GG_IMAGE_MAX_PIXELS (INT64_C(1) << 28)

int gg_image_init(gg_image *im, int64_t width, int64_t height, gg_err *err)
{
    memset(im, 0, sizeof *im);
    if (width < 1 || height < 1 || width > INT32_MAX || height > INT32_MAX ||
        width > GG_IMAGE_MAX_PIXELS / height)
        return gg_fail(err, "a %lld x %lld pixel picture is too large (at "
                       "most %lld pixels); show fewer cells per picture or "
                       "more cells per pixel", (long long)width,
                       (long long)height, (long long)GG_IMAGE_MAX_PIXELS);
    im->index = gg_alloc((size_t)(width * height), 1, err, "picture");
    if (!im->index)
        return -1;
    im->width = width;
    im->height = height;
    im->colours = 1;
    return 0;
}

void gg_image_free(gg_image *im)
{
    free(im->index);
    im->index = NULL;
}

#if GG_HAVE_PNG

bool gg_png_available(void) { return true; }

/* libpng reports errors through a callback that must not return: the
 * message goes to the caller's gg_err, then back to png_write's setjmp. */
static void on_png_error(png_structp png, png_const_charp msg)
{
    gg_err *err = png_get_error_ptr(png);
    gg_fail(err, "libpng: %s", msg);
    png_longjmp(png, 1);
}

static void on_png_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg; /* warnings (e.g. about chunks) change nothing written */
}

static int bit_depth(int colours)
{
    return colours <= 2 ? 1 : colours <= 4 ? 2 : colours <= 16 ? 4 : 8;
}

/* The libpng calls, apart so that setjmp guards nothing but them. */
static int write_png(FILE *fp, const gg_image *im, gg_err *err)
{
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, err,
                                              on_png_error, on_png_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        return gg_fail(err, "libpng: out of memory");
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return -1; /* on_png_error filled err */
    }
    png_init_io(png, fp);
    /* a scaled-down soup is noise, which zlib's default level packs ten
     * times slower for 5% fewer bytes (a 4096^2 picture of a 16384^2
     * soup: 4.4 s against 0.42 s); sparse pictures stay small either way */
    png_set_compression_level(png, 1);
    png_set_IHDR(png, info, (png_uint_32)im->width, (png_uint_32)im->height,
                 bit_depth(im->colours), PNG_COLOR_TYPE_PALETTE,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_color pal[256];
    for (int i = 0; i < im->colours; i++) {
        pal[i].red = im->palette[i][0];
        pal[i].green = im->palette[i][1];
        pal[i].blue = im->palette[i][2];
    }
    png_set_PLTE(png, info, pal, im->colours);
    png_write_info(png, info);
    png_set_packing(png); /* one index a byte in, 1/2/4 bits a pixel out */
    for (int64_t y = 0; y < im->height; y++)
        png_write_row(png, im->index + y * im->width);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return 0;
}

int gg_png_write(const char *path, const gg_image *im, gg_err *err)
{
    gg_atomic_file f;
    if (gg_atomic_open_lazy(path, &f, err))
        return -1;
    if (write_png(f.fp, im, err)) {
        gg_atomic_abort(&f);
        size_t n = strlen(err->msg);
        snprintf(err->msg + n, sizeof err->msg - n, " (writing %.200s)",
                 path);
        return -1;
    }
    return gg_atomic_commit(&f, err);
}

#else

bool gg_png_available(void) { return false; }

int gg_png_write(const char *path, const gg_image *im, gg_err *err)
{
    (void)im;
    return gg_fail(err, "cannot write %s: this golgen was built without "
                   "libpng; install it (Debian: apt-get install libpng-dev) "
                   "and rebuild", path);
}

#endif
