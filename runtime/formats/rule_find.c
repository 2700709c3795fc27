#include "rule_find.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rule_dag_cache.h"

/* The whole file into a malloc'd buffer: 1 read, 0 absent, -1 error. */
static int read_file(const char *path, char **text, size_t *len,
                     gg_err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return errno == ENOENT || errno == ENOTDIR
                   ? 0
                   : gg_fail(err, "%s: %s", path, strerror(errno));
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 1 << 16;
            char *b = cap <= (1u << 30) ? realloc(buf, cap) : NULL;
            if (!b) {
                free(buf);
                fclose(f);
                return gg_fail(err, "%s: too large for a rule file", path);
            }
            buf = b;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return gg_fail(err, "%s: read error", path);
    }
    *text = buf;
    *len = n;
    return 1;
}

/* The rule's name part. */
static int split_name(const char *rule, char *name, size_t size, gg_err *err)
{
    const char *colon = strchr(rule, ':');
    size_t n = colon ? (size_t)(colon - rule) : strlen(rule);
    if (n == 0 || n >= size)
        return gg_fail(err, "rule name '%s' is %s", rule,
                       n ? "too long" : "empty");
    memcpy(name, rule, n);
    name[n] = 0;
    for (size_t i = 0; i < n; i++)
        if (name[i] == '/' || name[i] == '\\') /* Golly's "dangerous" */
            name[i] = '_';
    return 0;
}

/* Its topology (the suffix read by the B/S parser, which names a bad
 * one's character); read only once the file is found, so a mistyped B/S
 * rule keeps its own message. */
static int split_topology(const char *rule, gg_rule_found *out, gg_err *err)
{
    const char *colon = strchr(rule, ':');
    out->topo = GG_TOPO_UNBOUNDED;
    if (colon) {
        char probe[256];
        gg_rule r;
        snprintf(probe, sizeof probe, "B3/S23%s", colon);
        if (gg_rule_parse(probe, &r, err))
            return gg_fail(err, "rule %s: bad grid suffix '%s' (give :TW,H "
                           "for a torus or :PW,H for a bounded plane)",
                           rule, colon);
        out->topo = r.topo;
        out->width = r.width;
        out->height = r.height;
    }
    return 0;
}

/* The rule as Golly writes it: name and canonical suffix. */
static void name_rule(gg_rule_found *out, const char *name)
{
    if (out->topo == GG_TOPO_UNBOUNDED)
        snprintf(out->rule, sizeof out->rule, "%s", name);
    else
        snprintf(out->rule, sizeof out->rule, "%s:%c%lld,%lld", name,
                 out->topo == GG_TOPO_TORUS ? 'T' : 'P',
                 (long long)out->width, (long long)out->height);
}

/* The folder of a pattern file ("" for a bare name, NULL for stdin). */
static const char *pattern_dir(const char *path, char *buf, size_t size)
{
    if (!path || !strcmp(path, "-"))
        return NULL;
    const char *slash = strrchr(path, '/');
    if (!slash)
        return ".";
    size_t n = (size_t)(slash - path);
    if (n >= size)
        return NULL;
    memcpy(buf, path, n);
    buf[n] = 0;
    return n ? buf : "/";
}

/* The file's graph: from the cache when this build kept it, else
 * parsed (and kept). */
static int read_graph(const char *text, size_t len, const char *cache_dir,
                      gg_rule_found *out, gg_err *err)
{
    if (gg_rule_dag_load(cache_dir, text, len, &out->rf))
        return 0;
    if (gg_rulefile_parse(text, len, out->path, &out->rf, err))
        return -1;
    gg_rule_dag_save(cache_dir, text, len, &out->rf);
    return 0;
}

int gg_rule_find(const char *rule, const char *pattern_path,
                 const char *rules_dir, const char *cache_dir,
                 gg_rule_found *out, gg_err *err)
{
    memset(out, 0, sizeof *out);
    char name[160], pdir[4096];
    if (split_name(rule, name, sizeof name, err))
        return 0; /* no file could have this name */
    /* Golly tries its JvN algorithm before looking for a file */
    int builtin = gg_rulefile_builtin(name, strlen(name), &out->rf, err);
    if (builtin) {
        if (builtin < 0 || split_topology(rule, out, err)) {
            gg_rulefile_free(&out->rf);
            return -1;
        }
        snprintf(out->path, sizeof out->path, "%s", GG_RULE_BUILTIN_PATH);
        name_rule(out, out->rf.name);
        return 1;
    }
    const char *dirs[3] = {pattern_dir(pattern_path, pdir, sizeof pdir),
                           rules_dir, GG_GOLLY_RULES_DIR};
    for (int i = 0; i < 3; i++) {
        if (!dirs[i])
            continue;
        snprintf(out->path, sizeof out->path, "%s/%s.rule", dirs[i], name);
        char *text = NULL;
        size_t len = 0;
        int got = read_file(out->path, &text, &len, err);
        if (got < 0)
            return -1;
        if (!got)
            continue;
        int bad = split_topology(rule, out, err) ||
                  read_graph(text, len, cache_dir, out, err);
        free(text);
        if (bad)
            return -1;
        name_rule(out, name);
        return 1;
    }
    gg_fail(err, "no %s.rule %s%s%s", name,
            dirs[0] ? "beside the pattern, " : "",
            rules_dir ? "in --rules, " : "", "in " GG_GOLLY_RULES_DIR);
    return 0;
}

void gg_rule_found_free(gg_rule_found *f)
{
    gg_rulefile_free(&f->rf);
}
