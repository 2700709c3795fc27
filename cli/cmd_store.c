/* golgen store: the universe store (runtime/formats/store.h) from the command
 * line: info, export (whole or a window) to a pattern file, import from
 * one. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli_util.h"
#include "commands.h"
#include "store.h"
#include "gen_universe.h"
#include "universe.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: golgen store info STORE.ggu\n"
            "       golgen store export STORE.ggu [--window X,Y,W,H] -o OUT\n"
            "       golgen store import IN [--rule RULE] -o STORE.ggu\n\n"
            "A store holds a universe bit-packed on disk with its rule, "
            "generation and\nposition, and a checksum per band of rows "
            "('golgen run --store' writes one,\n'--checkpoint-every N' "
            "keeps it current, 'golgen run --resume' continues it).\n"
            "info prints its header; export writes its live cells (or "
            "those of a window,\nGolly coordinates, reading only the bands "
            "it covers) as RLE, .cells, .lif or\n.mc by OUT's name; import "
            "places a pattern as 'golgen run' would and stores it.\n");
}

static int info(const char *path)
{
    gg_err err;
    gg_store_info s;
    if (gg_store_info_read(path, &s, &err))
        return gg_cli_error("store", GG_EXIT_USAGE, &err);
    char size[96]; /* a 3D store's rows are its layers' rows */
    if (s.depth > 0)
        snprintf(size, sizeof size, "%" PRId64 " x %" PRId64 " x %" PRId64
                 " cells (3D)", s.width, s.height / s.depth, s.depth);
    else
        snprintf(size, sizeof size, "%" PRId64 " x %" PRId64 " cells",
                 s.width, s.height);
    printf("store:      %s (format %d)\nrule:       %s\n"
           "size:       %s, %d state plane%s\n"
           "generation: %" PRId64 "\nposition:   cell (0, 0) at (%" PRId64
           ", %" PRId64 ")\nbands:      %" PRId64 " of %d rows, each "
           "checksummed\n", path, s.version, s.rule, size,
           s.planes, s.planes > 1 ? "s" : "", s.generation, s.x0, s.y0, s.bands, s.band_rows);
    return GG_EXIT_OK;
}

static int export_store(const char *path, const char *window,
                        const char *out)
{
    gg_err err;
    gg_store_info s;
    int64_t x, y, w, h;
    if (gg_store_info_read(path, &s, &err))
        return gg_cli_error("store", GG_EXIT_USAGE, &err);
    if (window) {
        if (gg_cli_window("--window", window, &x, &y, &w, &h, &err))
            return gg_cli_error("store", GG_EXIT_USAGE, &err);
    } else {
        x = s.x0, y = s.y0, w = s.width, h = s.height;
    }
    gg_pattern p;
    if (gg_store_window(path, x, y, w, h, &p, &err))
        return gg_cli_error("store", GG_EXIT_USAGE, &err);
    int bad = gg_pattern_write(out, &p, &err);
    gg_pattern_free(&p);
    return bad ? gg_cli_error("store", GG_EXIT_USAGE, &err) : GG_EXIT_OK;
}

/* Store pattern p placed under rule, in the universe its family takes. */
static int store_pattern(const gg_rule *rule, const gg_pattern *p,
                         const char *out, gg_err *err)
{
    int bad;
    if (gg_rule_is_generations(rule)) {
        gg_gen_universe g;
        if (gg_gen_universe_from_pattern(&g, rule, p, err))
            return -1;
        bad = gg_store_write_gen(out, &g, err);
        gg_gen_universe_free(&g);
        return bad;
    }
    gg_universe u;
    if (gg_universe_from_pattern(&u, rule, p, err))
        return -1;
    bad = gg_store_write(out, &u, err);
    gg_universe_free(&u);
    return bad;
}

static int import_pattern(const char *in, const char *rule_text,
                          const char *out)
{
    gg_err err;
    gg_pattern p;
    gg_rule rule;
    if (gg_pattern_read(in, &p, &err))
        return gg_cli_error("store", GG_EXIT_USAGE, &err);
    const char *text = rule_text ? rule_text : p.rule ? p.rule : "B3/S23";
    int bad = gg_rule_parse(text, &rule, &err) ||
              store_pattern(&rule, &p, out, &err);
    gg_pattern_free(&p);
    return bad ? gg_cli_error("store", GG_EXIT_USAGE, &err) : GG_EXIT_OK;
}

int gg_cmd_store(int argc, char **argv, const gg_config *cfg)
{
    static const struct option opts[] = {
        {"window", required_argument, 0, 'w'},
        {"output", required_argument, 0, 'o'},
        {"rule", required_argument, 0, 'r'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    (void)cfg;
    const char *window = NULL, *out = NULL, *rule = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "w:o:r:h", opts, NULL)) != -1) {
        switch (c) {
        case 'w': window = optarg; break;
        case 'o': out = optarg; break;
        case 'r': rule = optarg; break;
        case 'h': usage(stdout); return GG_EXIT_OK;
        default: usage(stderr); return GG_EXIT_USAGE;
        }
    }
    const char *verb = optind < argc ? argv[optind] : "";
    bool one = optind + 2 == argc;
    if (!strcmp(verb, "info") && one && !out && !window && !rule)
        return info(argv[optind + 1]);
    if (!strcmp(verb, "export") && one && out && !rule)
        return export_store(argv[optind + 1], window, out);
    if (!strcmp(verb, "import") && one && out && !window)
        return import_pattern(argv[optind + 1], rule, out);
    usage(stderr);
    return GG_EXIT_USAGE;
}
