/* golgen store: the universe store from the command line: info, export
 * (whole or a window) to a pattern file, import from one. The work is
 * libgolgen's (lib/store.c); this file parses and prints, on the public
 * header alone (tests/check_layers.py). */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "golgen.h"

#include "cli_args.h"
#include "commands.h"

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
    char msg[512];
    golgen_store_info *s;
    if (golgen_store_info_read(path, &s, msg, sizeof msg))
        return gg_cli_say("store", GG_EXIT_USAGE, msg);
    char size[96];
    if (s->depth > 0)
        snprintf(size, sizeof size, "%" PRId64 " x %" PRId64 " x %" PRId64
                 " cells (3D)", s->width, s->height, s->depth);
    else
        snprintf(size, sizeof size, "%" PRId64 " x %" PRId64 " cells",
                 s->width, s->height);
    printf("store:      %s (format %d)\nrule:       %s\nfamily:     %s\n"
           "size:       %s, %d state plane%s\n"
           "generation: %" PRId64 "\nposition:   cell (0, 0) at (%" PRId64
           ", %" PRId64 ")\nbands:      %" PRId64 " of %d rows, each "
           "checksummed\n", path, s->version, s->rule, s->family, size,
           s->planes, s->planes > 1 ? "s" : "", s->generation, s->x0, s->y0,
           s->bands, s->band_rows);
    golgen_store_info_free(s);
    return GG_EXIT_OK;
}

static int export_store(const char *path, const char *window,
                        const char *out)
{
    char msg[512];
    int64_t v[4];
    golgen_store_info *s;
    /* the store first: a missing one is named before a bad window */
    if (golgen_store_info_read(path, &s, msg, sizeof msg))
        return gg_cli_say("store", GG_EXIT_USAGE, msg);
    golgen_store_info_free(s);
    if (window && gg_cli_parse_window("--window", window, v, msg, sizeof msg))
        return gg_cli_say("store", GG_EXIT_USAGE, msg);
    if (golgen_store_export(path, window ? v : NULL, out, msg, sizeof msg))
        return gg_cli_say("store", GG_EXIT_USAGE, msg);
    return GG_EXIT_OK;
}

static int import_pattern(const char *in, const char *rule, const char *out)
{
    char msg[512];
    if (golgen_store_import(in, rule, out, msg, sizeof msg))
        return gg_cli_say("store", GG_EXIT_USAGE, msg);
    return GG_EXIT_OK;
}

int gg_cmd_store(int argc, char **argv, const gg_config *cfg)
{
    static const struct option opts[] = {
        {"window", required_argument, 0, 'w'},
        {"output", required_argument, 0, 'o'},
        {"rule", required_argument, 0, 'r'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    (void)cfg; /* the library reads what it needs */
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
