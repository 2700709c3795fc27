/* libFuzzer harness for the 3D rule parser (gen/rules/rule3d.c, 3D.lua's
 * notation plus golgen's :T/:P suffixes). A rule that parses must format
 * and parse back to the same rule. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rule3d.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    gg_rule3d r, back;
    gg_err err;
    if (!gg_rule3d_parse(text, &r, &err)) {
        char canon[1024];
        gg_rule3d_format(&r, canon, sizeof canon);
        if (gg_rule3d_parse(canon, &back, &err) ||
            memcmp(&r, &back, sizeof r) != 0) {
            fprintf(stderr, "3D rule '%s' formats as '%s', which does not "
                    "read back the same\n", text, canon);
            abort();
        }
    }
    free(text);
    return 0;
}
