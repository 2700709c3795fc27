/* What a search that stopped short has proven of its next k, so that a
 * later run resumes the proof instead of starting over.
 *
 * A k is proven impossible one network shape at a time (sat/exact/shape.h), and
 * a proof of many hours is stopped long before its end (a time limit,
 * Ctrl-C, SIGTERM). The record names the shapes of that k already shown
 * to hold no network, by their index in gg_shape_enum's order, as ranges
 * ("0-522,524,530-611"). The cache keeps it beside the lower bound.
 *
 * Soundness: k is impossible only when every shape is, and "shape i is
 * UNSAT" is a fact about the CNF of that shape, which carries symmetry
 * breaking that is sound only for all shapes taken together under the
 * same rules (sat/exact/encode.h). So the record holds a hash of the shape list
 * and of GG_ENC_PRUNING_VERSION; a record whose hash or count differs
 * from today's list is not used, and the k is searched afresh. A record
 * of an older version from GG_ENC_PRUNING_COMPAT on is used: every rule
 * of every version holds for the least network of each orbit (the orbits
 * stay within a shape), and such a version's CNF of a shape admits every
 * network today's admits, so if some network of k gates existed, the
 * least of its orbit would be admitted both by today's CNF of its shape
 * and by the older one, and neither kind of "UNSAT" could hold for that
 * shape. (Clause sets only grew since version 1.) Dropping
 * shapes from the record (a full text buffer) only costs time: a shape
 * not listed is searched again. */
#ifndef GG_SAT_PROOF_H
#define GG_SAT_PROOF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "shape.h"

#define GG_PROOF_TEXT_MAX 1024

typedef struct gg_proof {
    int k;                 /* 0: nothing recorded */
    int shapes_total;      /* gg_shape_enum's count for this k */
    uint32_t shapes_hash;  /* gg_proof_shapes_hash of that list */
    char unsat[GG_PROOF_TEXT_MAX]; /* shape ranges shown impossible */
} gg_proof;

/* The hash of a shape list together with the pruning version: equal
 * hashes mean the same shapes in the same order under the same rules. */
uint32_t gg_proof_shapes_hash(const gg_shape *v, int n);

/* The same under an older pruning version. A record whose hash is that of
 * a version from GG_ENC_PRUNING_COMPAT to the current one holds under
 * today's rules (see GG_ENC_PRUNING_COMPAT): gg_proof_hash_ok says so. */
uint32_t gg_proof_shapes_hash_version(const gg_shape *v, int n,
                                      int version);
bool gg_proof_hash_ok(uint32_t hash, const gg_shape *v, int n);

/* The record of k from the shapes still undecided (any order): every other
 * shape of the list was shown impossible. Ranges that do not fit the text
 * are left out (sound: they are searched again). */
void gg_proof_from_undecided(gg_proof *p, int k, int total, uint32_t hash,
                             const int *undecided, int n_undecided);

/* The shapes a record leaves to search (ascending), malloc'd into *out;
 * p->unsat must be well formed (gg_proof_parse checks it). */
int gg_proof_pending(const gg_proof *p, int **out, int *n, gg_err *err);

/* Shapes the record shows impossible. */
int gg_proof_count(const gg_proof *p);

/* The cache's text form: "k=6 shapes=1781 hash=9a3f12c4 unsat=0-522". */
void gg_proof_format(const gg_proof *p, char *buf, size_t size);

/* Reads that form; -1 (err says why) on anything malformed. */
int gg_proof_parse(const char *text, gg_proof *p, gg_err *err);

#endif
