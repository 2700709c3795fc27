/* libFuzzer harness for the network text reader (gen/circuits/net_text.c), which
 * reads every generated/networks/ entry. A network that reads must write
 * and read back to the same network. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net_text.h"

static void roundtrip(const gg_net *n, char (*names)[GG_NET_NAME_MAX])
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return;
    gg_net_write_text(f, n, (const char(*)[GG_NET_NAME_MAX])names);
    fclose(f);
    gg_net *back = malloc(sizeof *back);
    gg_err err;
    if (!back || gg_net_parse_text(text, 1, back, NULL, &err)) {
        fprintf(stderr, "written network does not read back: %s\n---\n%s",
                back ? err.msg : "out of memory", text);
        abort();
    }
    if (back->n_inputs != n->n_inputs || back->n_gates != n->n_gates ||
        back->n_outputs != n->n_outputs) {
        fprintf(stderr, "written network reads back changed:\n%s", text);
        abort();
    }
    free(back);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0;
    char *text = malloc(size + 1);
    gg_net *n = malloc(sizeof *n);
    char(*names)[GG_NET_NAME_MAX] =
        malloc(GG_NET_TEXT_MAX_INPUTS * sizeof *names);
    if (text && n && names) {
        memcpy(text, data, size);
        text[size] = 0;
        gg_err err;
        if (!gg_net_parse_text(text, 1, n, names, &err))
            roundtrip(n, names);
    }
    free(names);
    free(text);
    free(n);
    return 0;
}
