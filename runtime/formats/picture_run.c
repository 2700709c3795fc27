#include "picture_run.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "atomic_file.h"

/* DIR exists as a directory, or is made (its parent must exist). */
static int frames_dir(const char *dir, gg_err *err)
{
    struct stat st;
    if (!stat(dir, &st))
        return S_ISDIR(st.st_mode)
                   ? 0
                   : gg_fail(err, "--frames %s is not a directory; name a "
                             "directory for the pictures", dir);
    if (mkdir(dir, 0777))
        return gg_fail(err, "cannot make --frames directory %s: %s; make "
                       "its parent first", dir, strerror(errno));
    return 0;
}

int gg_picture_run_ready(const gg_picture_run *p, gg_fail_kind *why,
                         gg_err *err)
{
    *why = GG_FAIL_INPUT;
    if ((p->png || p->frames) && !gg_png_available()) {
        *why = GG_FAIL_ENV;
        return gg_fail(err, "pictures need libpng, and this golgen was "
                       "built without it; install libpng-dev (Debian) and "
                       "rebuild");
    }
    /* fail before a long run, not after it */
    return (p->png && gg_atomic_probe(p->png, err)) ||
                   (p->frames && frames_dir(p->frames, err))
               ? -1
               : 0;
}

static int frame(const gg_picture_run *p, int64_t k, gg_picture_draw_fn draw,
                 void *ctx, gg_err *err)
{
    char path[4200];
    gg_picture_info info;
    snprintf(path, sizeof path, "%s/frame_%06lld.png", p->frames,
             (long long)k);
    return draw(ctx, path, &p->pic, &info, err) ? -1 : 0;
}

int gg_picture_run_frames(const gg_picture_run *p, int64_t gens,
                          gg_picture_advance_fn advance,
                          gg_picture_draw_fn draw, void *ctx,
                          gg_fail_kind *why, gg_err *err)
{
    bool stopped = false;
    *why = GG_FAIL_ENV;
    if (!p->frames)
        return advance(ctx, gens, &stopped, err) ? -1 : 0;
    int64_t every = p->every ? p->every : 1, k = 0;
    int bad = frame(p, k++, draw, ctx, err);
    for (int64_t done = 0; !bad && done < gens && !stopped;) {
        int64_t n = gens - done < every ? gens - done : every;
        if (advance(ctx, n, &stopped, err))
            return -1;
        done += n;
        if (!stopped) /* an interrupted step is written by the caller */
            bad = frame(p, k++, draw, ctx, err);
    }
    if (bad)
        *why = GG_FAIL_INPUT;
    return bad ? -1 : 0;
}
