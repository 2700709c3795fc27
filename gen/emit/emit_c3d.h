/* The 3D C target: a 3D totalistic rule's final stage (a gate network)
 * pasted into templates/c3d/kernel.c.in. The count stages (row, plane and
 * slab sums for Moore; a bitsliced counter for the 6-, 8- and 12-cell
 * neighbourhoods) are the template's; the rule lives only in the final
 * stage, a function of the count bits and the centre. */
#ifndef GG_EMIT_C3D_H
#define GG_EMIT_C3D_H

#include <stddef.h>

#include "emit_net.h"
#include "error.h"
#include "net.h"
#include "rule3d.h"
#include "truth.h"

extern const char gg_template_c3d_kernel[];
extern const size_t gg_template_c3d_kernel_len;

/* Count bits the final stage reads: 5 for Moore (T, the 27-sum including
 * the centre, 0..27), else enough for 0..n. */
int gg_c3d_count_bits(const gg_rule3d *rule);

/* The final stage's table: inputs are the count bits (bit 0 first), then
 * the centre. Moore's input is T = count + centre, so rows with T > 27,
 * T < centre or count > 26 are don't-cares; elsewhere rows with count > n
 * are. */
void gg_c3d_final_tt(const gg_rule3d *rule, gg_tt *t);

/* What the 3D targets (C here, CUDA in gen/emit/emit_cuda3d.c) differ in:
 * their gate macros, their template and a line before the final stage's
 * return. */
typedef struct gg_emit_3d_target {
    const gg_emit_ops *ops;
    const char *tmpl;
    size_t tmpl_len;
    const char *what;     /* the template's name in errors */
    const char *prologue; /* before "return": e.g. "    (void)x;\n" */
} gg_emit_3d_target;

/* final has the count bits and the centre as inputs and one output. */
int gg_c3d_check_final(const gg_rule3d *rule, const gg_net *final,
                       gg_err *err);

/* Target t's template filled for rule: head (the header comment, taken
 * and freed here), the neighbour offsets, the count width and final as
 * its gates. malloc'd, NUL-terminated, *len bytes. */
int gg_emit_3d_fill(const gg_emit_3d_target *t, const gg_rule3d *rule,
                    const gg_net *final, gg_sbuf *head, char **src,
                    size_t *len, gg_err *err);

/* The kernel source for rule with final stage `final` (a gate2 network
 * over gg_c3d_final_tt's inputs), unchecked: the caller vouches for it and
 * validates the compiled kernel. `source` says where the network came
 * from (a comment). malloc'd, NUL-terminated, *len bytes. */
int gg_emit_c3d(const gg_rule3d *rule, const gg_net *final,
                const char *source, char **src, size_t *len, gg_err *err);

#endif
