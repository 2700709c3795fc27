/* RLE write/read timing on a random soup: rle_bench W H FILE [DENSITY].
 * Writes a W x H soup (density 0.5 unless given) to FILE with
 * gg_pattern_write_rle, reads it back with gg_pattern_read, checks the two
 * are equal and prints the times. Run through bench/rle_roundtrip.sh. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "pattern.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s W H FILE [DENSITY]\n", argv[0]);
        return 2;
    }
    int64_t w = atoll(argv[1]), h = atoll(argv[2]);
    double density = argc > 4 ? atof(argv[4]) : 0.5;
    gg_err err;
    gg_pattern p, q;
    double t0 = now();
    if (gg_pattern_init(&p, w, h, 1, &err)) {
        fprintf(stderr, "rle_bench: %s\n", err.msg);
        return 1;
    }
    gg_grid_random(&p.plane[0], density, 12345);
    p.rule = "B3/S23"; /* borrowed; cleared before free */
    double t1 = now();
    if (gg_pattern_write_rle(argv[3], &p, &err)) {
        fprintf(stderr, "rle_bench: %s\n", err.msg);
        return 1;
    }
    double t2 = now();
    if (gg_pattern_read(argv[3], &q, &err)) {
        fprintf(stderr, "rle_bench: %s\n", err.msg);
        return 1;
    }
    double t3 = now();
    p.rule = NULL;
    bool same = gg_grid_equal(&p.plane[0], &q.plane[0]) && q.n_planes == 1 &&
                q.x == 0 && q.y == 0;
    struct stat st;
    long long size = stat(argv[3], &st) == 0 ? (long long)st.st_size : -1;
    printf("soup %lldx%lld density %.2f, population %lld\n", (long long)w,
           (long long)h, density, (long long)gg_grid_population(&p.plane[0]));
    printf("generate %.3f s\n", t1 - t0);
    printf("write    %.3f s  (%lld bytes, %.0f MB/s)\n", t2 - t1, size,
           (double)size / 1e6 / (t2 - t1));
    printf("read     %.3f s  (%.0f MB/s)\n", t3 - t2,
           (double)size / 1e6 / (t3 - t2));
    printf("total    %.3f s  read back %s\n", t3 - t1,
           same ? "identical" : "DIFFERENT");
    gg_pattern_free(&p);
    gg_pattern_free(&q);
    return same ? 0 : 1;
}
