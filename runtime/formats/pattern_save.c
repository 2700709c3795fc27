/* Writing a pattern in the format its file name asks for: `-o out.cells`
 * once wrote RLE under that name without a word (issue 21). */
#include "pattern.h"

#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <string.h>

#include "atomic_file.h"

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcasecmp(s + n - k, suffix) == 0;
}

/* Names of formats golgen does not write, and what to do instead. */
static const struct {
    const char *suffix, *why;
} refused[] = {
    {".gz", "compressed output is not written; write the uncompressed "
            "file and compress it with gzip"},
    {".zip", "zip archives are not written; write a pattern file and "
             "archive it"},
    {".mcl", "MCell files are not written"},
    {".rle3", "RLE3 is the 3D format; give a 3D rule (3D5..7/6) to write it"},
    {".png", "golgen writes patterns, not pictures, with -o"},
    {".jpg", "golgen writes patterns, not pictures, with -o"},
    {".gif", "golgen writes patterns, not pictures, with -o"},
};

int gg_pattern_format_for_name(const char *path, gg_pattern_format *fmt,
                               gg_err *err)
{
    *fmt = GG_PATTERN_RLE;
    if (!strcmp(path, "-"))
        return 0;
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        if (ends_with(path, refused[i].suffix))
            return gg_fail(err, "cannot write '%s': %s; name it .rle, "
                           ".cells, .lif or .mc", path, refused[i].why);
    if (ends_with(path, ".cells"))
        *fmt = GG_PATTERN_CELLS;
    else if (ends_with(path, ".lif") || ends_with(path, ".life"))
        *fmt = GG_PATTERN_LIFE106;
    else if (ends_with(path, ".mc"))
        *fmt = GG_PATTERN_MC;
    return 0;
}

static int format_text(gg_pattern_format fmt, const gg_pattern *p,
                       char **text, size_t *len, gg_err *err)
{
    switch (fmt) {
    case GG_PATTERN_CELLS:
        return gg_pattern_format_cells(p, text, len, err);
    case GG_PATTERN_LIFE106:
        return gg_pattern_format_life106(p, text, len, err);
    case GG_PATTERN_MC:
        return gg_pattern_format_mc(p, text, len, err);
    default:
        return gg_pattern_format_rle(p, text, len, err);
    }
}

int gg_pattern_write(const char *path, const gg_pattern *p, gg_err *err)
{
    gg_pattern_format fmt;
    if (gg_pattern_format_for_name(path, &fmt, err))
        return -1;
    if (fmt == GG_PATTERN_RLE && strcmp(path, "-"))
        return gg_pattern_write_rle(path, p, err); /* streams: soups */
    char *text = NULL;
    size_t len = 0;
    if (format_text(fmt, p, &text, &len, err))
        return -1;
    int rc = gg_pattern_write_text(path, text, len, err);
    free(text);
    return rc;
}

int gg_pattern_write_text(const char *path, const char *text, size_t len,
                          gg_err *err)
{
    if (!strcmp(path, "-"))
        return fwrite(text, 1, len, stdout) != len || fflush(stdout)
                   ? gg_fail(err, "writing the pattern to standard output "
                             "failed")
                   : 0;
    gg_atomic_file f;
    return gg_atomic_open_lazy(path, &f, err) ||
                   gg_atomic_write(&f, text, len, err) ||
                   gg_atomic_commit(&f, err)
               ? -1
               : 0;
}

int gg_pattern_check_output(const char *path, gg_err *err)
{
    gg_pattern_format fmt;
    if (!path || !strcmp(path, "-"))
        return 0;
    if (gg_pattern_format_for_name(path, &fmt, err))
        return -1;
    return gg_atomic_probe(path, err);
}
