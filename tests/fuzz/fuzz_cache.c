/* libFuzzer harness for the network-cache reader (sat/choose/cache.c): the input
 * is written as a cache entry and looked up through gg_cache_lookup, so
 * the header lines, the network text and the verification all run as they
 * do on a damaged generated/networks/ file. The first byte picks the rule,
 * front and library the lookup asks for. An entry may be accepted only
 * when it is right (lookup verifies), which the harness checks again. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"

static const char *const rules[] = {"B3/S23", "B36/S23", "B2/S013V",
                                    "B2n3/S23-q"};
enum { N_RULES = sizeof rules / sizeof rules[0] };

static char root[256];

static void remove_tree(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (root[0] && system(cmd) != 0)
        fprintf(stderr, "fuzz_cache: could not remove %s\n", root);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *tmp = getenv("TMPDIR");
    snprintf(root, sizeof root, "%s/gg_fuzz_cache.XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(root)) {
        perror("fuzz_cache: mkdtemp");
        exit(1);
    }
    atexit(remove_tree);
    return 0;
}

/* mkdir -p of path's directory. */
static void make_parent(char *path)
{
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(path, 0777);
            *p = '/';
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 65536)
        return 0;
    uint8_t pick = data[0];
    gg_rule rule;
    gg_err err;
    if (gg_rule_parse(rules[pick % N_RULES], &rule, &err))
        abort();
    gg_front_kind front =
        (gg_front_kind)((pick / N_RULES) % GG_FRONT_KIND_COUNT);
    gg_lib lib = (pick / (N_RULES * GG_FRONT_KIND_COUNT)) & 1 ? GG_LIB_GATE2
                                                             : GG_LIB_LUT3;
    char path[4096];
    gg_cache_path(root, &rule, front, lib, path, sizeof path);
    make_parent(path);
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    fwrite(data + 1, 1, size - 1, f);
    fclose(f);
    gg_net *net = malloc(sizeof *net);
    gg_cache_info info;
    int found = net ? gg_cache_lookup(root, &rule, front, lib, net, &info,
                                      &err)
                    : 0;
    if (found == 1 && gg_cache_verify(&rule, front, lib, net, &err)) {
        fprintf(stderr, "cache accepted a wrong network: %s\n", err.msg);
        abort();
    }
    free(net);
    unlink(path);
    return 0;
}
