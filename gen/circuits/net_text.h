/* A readable text form of one-output-or-more gate networks, for the
 * network cache (generated/networks/) and for people:
 *
 *   inputs sT cT sM cM sB cB C
 *   g0 = lut3 0x96 sT cT sM     # lop3 immediate, then a b c
 *   g1 = andnot g0 C            # and, or, xor, andnot (a & ~b), not
 *   out ~g1                     # ~ inverts; 0 and 1 are constants
 *
 * Gates are named g0, g1, ... in order and read inputs or earlier gates.
 * '#' starts a comment. */
#ifndef GG_NET_TEXT_H
#define GG_NET_TEXT_H

#include <stdio.h>

#include "net.h"

#define GG_NET_NAME_MAX 8
/* Most inputs a network in this form has: the widest front's outputs
 * (rowsum+cells: 15), more than a truth table holds (GG_TT_MAX_INPUTS). */
#define GG_NET_TEXT_MAX_INPUTS 16

/* Writes n; names holds n->n_inputs input names, or is NULL for x0, x1.. */
void gg_net_write_text(FILE *f, const gg_net *n,
                       const char (*names)[GG_NET_NAME_MAX]);

/* Parses text (the format above) into n and, when names is not NULL, the
 * input names (room for GG_NET_TEXT_MAX_INPUTS). Errors name the line,
 * counting from first_line. */
int gg_net_parse_text(const char *text, int first_line, gg_net *n,
                      char (*names)[GG_NET_NAME_MAX], gg_err *err);

#endif
