#include "cli_util.h"

#include "golgen.h"

#include "rule_gen.h"

#include "backend_auto.h"
#include "cli_config.h"
#include "config.h"
#include "search_note.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


int gg_cli_error(const char *cmd, int status, const gg_err *err)
{
    if (!err->msg[0]) /* said by another MPI rank (cli/run_ranks.h) */
        return status;
    fprintf(stderr, "golgen %s: %s\n", cmd, err->msg);
    return status;
}

int gg_cli_int(const char *option, const char *text, int64_t min, int64_t max,
               int64_t *value, gg_err *err)
{
    return gg_cli_parse_int(option, text, min, max, value, err->msg,
                            sizeof err->msg);
}

int gg_cli_seconds(const char *option, const char *text, double max,
                   double *value, gg_err *err)
{
    return gg_cli_parse_seconds(option, text, max, value, err->msg,
                                sizeof err->msg);
}

int gg_cli_backend(const char *name, const gg_backend_info **backend,
                   gg_err *err)
{
    if (gg_backend_is_auto(name)) {
        *backend = NULL;
        return 0;
    }
    *backend = gg_backend_find(name, err);
    if (!*backend) /* "auto" is a choice too */
        strncat(err->msg, ", or auto (the default)",
                sizeof err->msg - strlen(err->msg) - 1);
    return *backend ? 0 : -1;
}

int gg_cli_open_backend(const gg_backend_info *backend, const gg_rule *rule,
                        const gg_backend_opts *o, gg_backend **out,
                        int *status, gg_err *err)
{
    gg_fail_kind why;
    gg_auto_line line;
    int bad = backend ? gg_backend_open(backend, rule, o, out, &why, err)
                      : gg_backend_open_auto(rule, o, out, &line, &why, err);
    /* a new rule's networks are searched for as its kernel is built */
    gg_search_note_finish();
    if (!backend && !bad)
        fprintf(stderr, "golgen: %s\n", line.text);
    *status = bad ? gg_fail_exit_status(why) : GG_EXIT_OK;
    return bad;
}

/* The engine's search event (sat/choose/choose.h) in the library's shape
 * (include/golgen.h), for the note (cli/search_note.c), which needs
 * nothing of the engine. */
static void on_search(void *ctx, const gg_choose_search *s)
{
    char rule[128];
    gg_rule_format_transition(s->rule, rule, sizeof rule);
    golgen_search_event e = {
        .rule = rule, .front = gg_front_name(s->front),
        .usual_front = gg_front_name(gg_front_for_rule(s->rule)),
        .lib = gg_lib_name(s->lib), .begin = s->begin, .kept = s->kept};
    gg_search_note_event(ctx, &e);
}

void gg_search_note_install(gg_choose_opts *o)
{
    o->on_search = on_search;
    o->on_search_ctx = NULL;
}

/* main's configuration (cli/cli_config.h): one a process, read before any
 * command runs and not changed after. */
static gg_config process_config;

const gg_config *gg_cli_config_read(char *msg, size_t len)
{
    gg_err err;
    if (gg_config_from_env(&process_config, &err)) {
        snprintf(msg, len, "%s", err.msg);
        return NULL;
    }
    gg_search_note_install(&process_config.choose);
    return &process_config;
}

int gg_cli_launcher_ranks(const gg_config *cfg)
{
    return cfg->launcher_ranks;
}

void gg_cli_backend_names(char *buf, size_t size)
{
    size_t n = (size_t)snprintf(buf, size, "auto|");
    if (n < size)
        gg_backend_names("|", buf + n, size - n);
}

int gg_cli_front(const char *text, const gg_rule *rule, gg_front_kind *front,
                 gg_err *err)
{
    if (gg_rule_is_generations(rule)) { /* verify passes the B/S rule */
        char text[128], two[128];
        gg_rule t = gg_gen_two_state(rule);
        gg_rule_format(rule, text, sizeof text);
        gg_rule_format_transition(&t, two, sizeof two);
        return gg_fail(err, "%s is a Generations rule: its kernels run the "
                       "two-state rule %s on the alive plane, plus a small "
                       "per-cell stage synthesized with the kernel; search "
                       "that rule's network: --rule %s", text, two, two);
    }
    if (text)
        return gg_front_parse(text, front, err);
    *front = gg_front_for_rule(rule);
    return 0;
}

int gg_cli_window(const char *option, const char *arg, int64_t *x,
                  int64_t *y, int64_t *w, int64_t *h, gg_err *err)
{
    int64_t v[4];
    if (gg_cli_parse_window(option, arg, v, err->msg, sizeof err->msg))
        return -1;
    *x = v[0], *y = v[1], *w = v[2], *h = v[3];
    return 0;
}

int gg_cli_bytes(const char *option, const char *text, int64_t *bytes,
                 gg_err *err)
{
    return gg_cli_parse_bytes(option, text, bytes, err->msg,
                              sizeof err->msg);
}

void gg_cli_report_streaming(const gg_memory_stepper *m, const char *name)
{
    if (m->bands.bands_run)
        fprintf(stderr, "golgen: streamed through %s in %lld bands "
                "(--device-mem %lld bytes)\n", name,
                (long long)m->bands.bands_run, (long long)m->max_bytes);
    if (m->stats.bands)
        fprintf(stderr, "golgen: streamed through %s in %lld bands, %lld "
                "passes of %lld generations, %lld rows a band, transfers "
                "overlapped (host: %.2f s setting up, %.2f s copying rows "
                "to staging and back, %.2f s waiting for the device; "
                "--device-mem %lld bytes)\n",
                name, (long long)m->stats.bands, (long long)m->stats.passes,
                (long long)m->stats.t, (long long)m->stats.rows,
                m->stats.setup_seconds, m->stats.copy_seconds,
                m->stats.wait_seconds, (long long)m->max_bytes);
}

bool gg_cli_named_mc(const char *path)
{
    size_t n = path ? strlen(path) : 0;
    return n > 3 && !strcmp(path + n - 3, ".mc");
}

bool gg_cli_file_is_rle3(const char *path)
{
    return golgen_file_is_rle3(path); /* lib/run3d.c */
}

int gg_cli_save_pattern(const char *out, const gg_pattern *p, gg_err *err)
{
    if (strcmp(out, "-"))
        return gg_pattern_write(out, p, err); /* format by name */
    char *text = NULL;
    size_t len = 0;
    int bad = gg_pattern_format_rle(p, &text, &len, err);
    if (!bad && (fwrite(text, 1, len, stdout) != len || fflush(stdout)))
        bad = gg_fail(err, "writing the pattern to stdout failed");
    free(text);
    return bad;
}
