#include "cache.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "circuit.h"
#include "gg_config.h"
#include "net_text.h"

void gg_cache_root(const char *root, char *buf, size_t size)
{
    if (root && *root)
        snprintf(buf, size, "%s", root);
    else
        snprintf(buf, size, "%s/generated", GG_SOURCE_ROOT);
}

static void entry_dir(const char *root, gg_front_kind front, gg_lib lib,
                      char *buf, size_t size)
{
    char base[2048];
    gg_cache_root(root, base, sizeof base);
    snprintf(buf, size, "%s/networks/%s/%s", base, gg_front_name(front),
             gg_lib_name(lib));
}

void gg_cache_path(const char *root, const gg_rule *rule, gg_front_kind front,
                   gg_lib lib, char *buf, size_t size)
{
    char dir[3072], name[128];
    entry_dir(root, front, lib, dir, sizeof dir);
    gg_rule_format_transition(rule, name, sizeof name);
    for (char *c = name; *c; c++)
        if (*c == '/')
            *c = '_';
    snprintf(buf, size, "%s/%s.net", dir, name);
}

/* A composed final stage (front rowsum+cells: 15 inputs, more than a
 * final-stage table holds) is checked whole, front and all, on every
 * neighbourhood. */
static int verify_composed(const gg_rule *rule, gg_lib lib, const gg_net *net,
                           gg_err *err)
{
    gg_circuit *c = gg_alloc(1, sizeof *c, err, "circuit");
    int bad = -1, wrong = 0;
    if (!c)
        return -1;
    c->rule = *rule;
    c->lib = lib;
    c->final = *net;
    if (!gg_front_build_lib(rule, GG_FRONT_ROWSUM_CELLS, lib, &c->front,
                            err)) {
        if (net->n_inputs != c->front.net.n_outputs || net->n_outputs != 1)
            gg_fail(err, "network has %d inputs and %d outputs; the "
                    "rowsum+cells final stage has %d inputs and 1 output",
                    net->n_inputs, net->n_outputs, c->front.net.n_outputs);
        else if (!gg_net_in_lib(net, lib))
            gg_fail(err, "network uses gates outside the %s library",
                    gg_lib_name(lib));
        else if ((wrong = gg_circuit_check(c, &bad)) != 0)
            gg_fail(err, "network is wrong on %d neighbourhoods (first: %d)",
                    wrong, bad);
        else
            bad = 0;
    }
    free(c);
    return bad ? -1 : 0;
}

int gg_cache_verify(const gg_rule *rule, gg_front_kind front, gg_lib lib,
                    const gg_net *net, gg_err *err)
{
    gg_front f;
    gg_tt t;
    int bad;
    if (front == GG_FRONT_ROWSUM_CELLS)
        return verify_composed(rule, lib, net, err);
    if (gg_front_build(rule, front, &f, err) ||
        gg_front_final_tt(rule, &f, &t, err))
        return -1;
    if (net->n_inputs != t.n_inputs || net->n_outputs != 1)
        return gg_fail(err, "network has %d inputs and %d outputs; the %s "
                       "final stage has %d inputs and 1 output",
                       net->n_inputs, net->n_outputs, gg_front_name(front),
                       t.n_inputs);
    if (!gg_net_in_lib(net, lib))
        return gg_fail(err, "network uses gates outside the %s library",
                       gg_lib_name(lib));
    int wrong = gg_net_check(net, 0, &t, &bad);
    if (wrong)
        return gg_fail(err, "network is wrong on %d care rows of the final "
                       "stage (first: row %d)", wrong, bad);
    return 0;
}

/* Reads a whole file; NULL with errno when it cannot. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (len + 4096 + 1 > cap) {
            cap = 2 * cap + 8192;
            char *b = realloc(buf, cap);
            if (!b) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = b;
        }
        got = fread(buf + len, 1, 4096, f);
        len += got;
    } while (got > 0);
    fclose(f);
    buf[len] = 0;
    return buf;
}

/* One "key value" header line into info; checks rule, front and lib. */
static int header_line(char *line, int lineno, const char *want_rule,
                       gg_front_kind front, gg_lib lib, gg_cache_info *info,
                       gg_err *err)
{
    char *val = strchr(line, ' ');
    if (!val)
        return gg_fail(err, "line %d: expected 'key value'", lineno);
    *val++ = 0;
    if (!strcmp(line, "rule") && strcmp(val, want_rule))
        return gg_fail(err, "line %d: entry is for rule %s, not %s", lineno,
                       val, want_rule);
    if (!strcmp(line, "front") && strcmp(val, gg_front_name(front)))
        return gg_fail(err, "line %d: entry is for front %s", lineno, val);
    if (!strcmp(line, "lib") && strcmp(val, gg_lib_name(lib)))
        return gg_fail(err, "line %d: entry is for library %s", lineno, val);
    if (!strcmp(line, "gates"))
        info->gates = atoi(val);
    else if (!strcmp(line, "proven"))
        info->proven = !strcmp(val, "yes");
    else if (!strcmp(line, "lower_bound"))
        info->lower_bound = atoi(val);
    else if (!strcmp(line, "seconds"))
        info->seconds = atof(val);
    else if (!strcmp(line, "search"))
        snprintf(info->search, sizeof info->search, "%s", val);
    else if (!strcmp(line, "proof")) {
        gg_err why;
        if (gg_proof_parse(val, &info->proof, &why))
            return gg_fail(err, "line %d: %s", lineno, why.msg);
    }
    return 0;
}

/* Header lines up to "network", then the network text. */
static int parse_entry(char *text, const gg_rule *rule, gg_front_kind front,
                       gg_lib lib, gg_net *net, gg_cache_info *info,
                       gg_err *err)
{
    char want[128];
    gg_rule_format_transition(rule, want, sizeof want);
    memset(info, 0, sizeof *info);
    info->gates = -1;
    int lineno = 1;
    for (char *line = text, *next; line; line = next, lineno++) {
        next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        if (!strcmp(line, "network")) {
            if (!next || gg_net_parse_text(next, lineno + 1, net, NULL, err))
                return next ? -1 : gg_fail(err, "no network after line %d",
                                           lineno);
            if (info->gates != net->n_gates)
                return gg_fail(err, "header says %d gates, the network has "
                               "%d", info->gates, net->n_gates);
            return 0;
        }
        if (line[0] && line[0] != '#' &&
            header_line(line, lineno, want, front, lib, info, err))
            return -1;
    }
    return gg_fail(err, "no 'network' line");
}

int gg_cache_lookup(const char *root, const gg_rule *rule,
                    gg_front_kind front, gg_lib lib, gg_net *net,
                    gg_cache_info *info, gg_err *err)
{
    char path[4096];
    gg_cache_info local;
    gg_cache_path(root, rule, front, lib, path, sizeof path);
    char *text = slurp(path);
    if (!text) {
        if (errno == ENOENT)
            return 0;
        return gg_fail(err, "cannot read cached network %s: %s", path,
                       strerror(errno));
    }
    gg_err why;
    int rc = parse_entry(text, rule, front, lib, net, info ? info : &local,
                         &why);
    free(text);
    if (!rc)
        rc = gg_cache_verify(rule, front, lib, net, &why);
    if (rc)
        return gg_fail(err, "cached network %s is rejected: %s; delete it or "
                       "re-run 'golgen synth --force'", path, why.msg);
    return 1;
}

int gg_cache_make_dirs(char *path, gg_err *err)
{
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        int rc = mkdir(path, 0777);
        *p = '/';
        if (rc && errno != EEXIST)
            return gg_fail(err, "cannot create directory for %s: %s", path,
                           strerror(errno));
    }
    return 0;
}

static void write_entry(FILE *f, const gg_rule *rule, gg_front_kind front,
                        gg_lib lib, const gg_net *net,
                        const gg_cache_info *info)
{
    char name[128];
    gg_front fr;
    gg_err ignore;
    gg_rule_format_transition(rule, name, sizeof name);
    fprintf(f, "# golgen network cache entry, written by 'golgen synth' and "
               "verified on every load\n");
    fprintf(f, "rule %s\nfront %s\nlib %s\ngates %d\nproven %s\n", name,
            gg_front_name(front), gg_lib_name(lib), net->n_gates,
            info->proven ? "yes" : "no");
    fprintf(f, "lower_bound %d\nseconds %.2f\n", info->lower_bound,
            info->seconds);
    if (info->search[0])
        fprintf(f, "search %s\n", info->search);
    /* only the open k's record: one at a proven or lower k is stale */
    if (info->proof.k > 0 && info->proof.k == info->lower_bound &&
        !info->proven) {
        char text[GG_PROOF_TEXT_MAX + 64];
        gg_proof_format(&info->proof, text, sizeof text);
        fprintf(f, "proof %s\n", text);
    }
    fprintf(f, "network\n");
    bool named = gg_front_build(rule, front, &fr, &ignore) == 0 &&
                 fr.net.n_outputs == net->n_inputs;
    gg_net_write_text(f, net, named ? (const char(*)[8])fr.names : NULL);
}

int gg_cache_store(const char *root, const gg_rule *rule, gg_front_kind front,
                   gg_lib lib, const gg_net *net, const gg_cache_info *info,
                   gg_err *err)
{
    char path[4096], tmp[4200];
    if (gg_cache_verify(rule, front, lib, net, err))
        return -1;
    gg_cache_path(root, rule, front, lib, path, sizeof path);
    if (gg_cache_make_dirs(path, err))
        return -1;
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return gg_fail(err, "cannot write %s: %s", tmp, strerror(errno));
    write_entry(f, rule, front, lib, net, info);
    if (fclose(f) || rename(tmp, path)) {
        unlink(tmp);
        return gg_fail(err, "cannot write %s: %s", path, strerror(errno));
    }
    return 0;
}
