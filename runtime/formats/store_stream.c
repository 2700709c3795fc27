#include "store_stream.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"
#include "band_stepper.h"
#include "store_format.h"

/* The store a pass reads: its header, and the checksum band that the
 * interior rows read so far have reached. */
typedef struct source {
    const char *path;
    FILE *f; /* read with pread on its descriptor, past the header */
    gg_store_info s;
    uint64_t sums[GG_STORE_MAX_BANDS];
    size_t row;
    uint64_t sum; /* FNV-1a of the current checksum band's rows so far */
} source;

/* The store a pass writes: rows in order, the header last. */
typedef struct sink {
    gg_atomic_file f;
    gg_store_info s;
    uint64_t sums[GG_STORE_MAX_BANDS];
    int64_t y; /* rows written */
    int64_t population;
} sink;

static int open_source(const char *path, source *src, gg_err *err)
{
    memset(src, 0, sizeof *src);
    src->path = path;
    src->f = gg_store_open(path, &src->s, src->sums, err);
    if (!src->f)
        return -1;
    src->row = gg_store_row_bytes(src->s.width);
    src->sum = GG_STORE_FNV0;
    /* the rows are read out of order, so a short or long file must be
     * caught before any: gg_store_open compares the file's size with the
     * header's */
    return 0;
}

/* Grid rows a .. z - 1 (modulo the height: the torus wraps) into band. */
static int read_rows(source *src, int64_t a, int64_t z, gg_grid *band,
                     gg_err *err)
{
    int64_t h = src->s.height;
    for (int64_t y = a; y < z;) {
        int64_t at = ((y % h) + h) % h, n = z - y < h - at ? z - y : h - at;
        /* a band's rows are contiguous: stride words = a store row */
        char *dst = (char *)gg_grid_row(band, y - a);
        size_t left = (size_t)n * src->row;
        off_t off = GG_STORE_HEADER + (off_t)at * (off_t)src->row;
        while (left > 0) {
            ssize_t got = pread(fileno(src->f), dst, left, off);
            if (got < 0 && errno == EINTR) /* a stop signal: finish */
                continue;
            if (got <= 0)
                return gg_fail(err, "cannot read store %s: %s", src->path,
                               got < 0 ? strerror(errno)
                                       : "it ended early (cut short?)");
            dst += got, left -= (size_t)got, off += got;
        }
        y += n;
    }
    return 0;
}

/* Fold rows y0 .. y1 - 1 (band rows from a) into the input's checksums;
 * every row is some band's interior exactly once a pass, in order. */
static int check_rows(source *src, const gg_grid *band, int64_t a,
                      int64_t y0, int64_t y1, gg_err *err)
{
    const gg_store_info *s = &src->s;
    for (int64_t y = y0; y < y1; y++) {
        src->sum = gg_store_fnv(src->sum, gg_grid_row(band, y - a), src->row);
        if ((y + 1) % s->band_rows && y + 1 < s->height)
            continue;
        if (src->sum != src->sums[y / s->band_rows])
            return gg_store_band_damaged(err, src->path, s,
                                         y / s->band_rows);
        src->sum = GG_STORE_FNV0;
    }
    return 0;
}

static int open_sink(const char *path, const gg_store_info *in,
                     const gg_rule *rule, int64_t gens, sink *k, gg_err *err)
{
    memset(k, 0, sizeof *k);
    k->s = *in;
    k->s.generation = in->generation + gens;
    k->s.band_rows = gg_store_band_rows_for(in->height);
    k->s.bands = (in->height + k->s.band_rows - 1) / k->s.band_rows;
    memset(k->s.rule, 0, sizeof k->s.rule);
    gg_rule_format(rule, k->s.rule, GG_STORE_RULE_BYTES); /* as gg_store_write */
    for (int64_t b = 0; b < k->s.bands; b++)
        k->sums[b] = GG_STORE_FNV0;
    if (gg_atomic_open(path, &k->f, err))
        return -1;
    if (!k->f.tmp) { /* the header goes last: no FIFO or device */
        gg_atomic_abort(&k->f);
        return gg_fail(err, "store %s is not a regular file; a streamed "
                       "store is written aside and renamed into place",
                       path);
    }
    unsigned char zero[GG_STORE_HEADER] = {0}; /* until the sums are known */
    return gg_atomic_write(&k->f, zero, sizeof zero, err);
}

static int put_rows(sink *k, const gg_grid *band, int64_t a, int64_t y0,
                    int64_t y1, gg_err *err)
{
    size_t row = gg_store_row_bytes(k->s.width);
    for (int64_t y = y0; y < y1; y++, k->y++) {
        const uint64_t *r = gg_grid_row(band, y - a);
        int64_t b = y / k->s.band_rows;
        k->sums[b] = gg_store_fnv(k->sums[b], r, row);
        if (gg_atomic_write(&k->f, r, row, err))
            return -1;
        for (size_t w = 0; w < row / 8; w++)
            k->population += __builtin_popcountll(r[w]);
    }
    return 0;
}

static int commit_sink(sink *k, gg_err *err)
{
    unsigned char h[GG_STORE_HEADER];
    gg_store_header_encode(h, &k->s, k->sums);
    if (fseeko(k->f.fp, 0, SEEK_SET)) {
        int e = errno;
        gg_atomic_abort(&k->f);
        return gg_fail(err, "cannot seek in %s: %s", k->f.tmp, strerror(e));
    }
    return gg_atomic_write(&k->f, h, sizeof h, err) ||
           gg_atomic_commit(&k->f, err) ? -1 : 0;
}

/* Rows of a band with its halo within host_bytes: half of them, the
 * other half being the stepper's copy of the band. */
static int fits(const gg_store_info *s, int64_t host_bytes, int64_t *fit,
                gg_err *err)
{
    size_t row = gg_store_row_bytes(s->width);
    *fit = host_bytes / 2 / (int64_t)row;
    if (*fit < 3)
        return gg_fail(err, "%lld bytes of host memory hold fewer than twice "
                       "3 rows of the %lld-wide universe (%zu bytes a row; "
                       "a band and the backend's copy of it); allow more",
                       (long long)host_bytes, (long long)s->width, row);
    return 0;
}

/* Only bounded two-state universes: those keep their size and place from
 * pass to pass, and the band stepper takes one plane. */
static int bounded(const char *path, const gg_rule *rule, gg_err *err)
{
    if (gg_rule_is_generations(rule))
        return gg_fail(err, "store %s holds a Generations universe: "
                       "out-of-core runs (--host-mem) take two-state rules "
                       "only so far; run it in memory (golgen run --resume "
                       "%s without --host-mem)", path, path);
    if (rule->topo != GG_TOPO_UNBOUNDED)
        return 0;
    return gg_fail(err, "store %s holds an unbounded-plane universe, which "
                   "grows and moves: out-of-core runs take bounded ones (:T "
                   "torus, :P plane) only; run it in memory", path);
}

int gg_store_stream_check(const char *in, int64_t host_bytes, gg_err *err)
{
    gg_store_info s;
    gg_rule rule;
    int64_t fit;
    return gg_store_info_read(in, &s, err) ||
           gg_rule_parse(s.rule, &rule, err) || bounded(in, &rule, err) ||
           fits(&s, host_bytes, &fit, err) ? -1 : 0;
}

/* Generations per pass and interior rows per band: the whole grid when it
 * fits (no halo: the stepper wraps the torus itself), else bands whose
 * halo is at most an eighth of them (runtime/universes/band_stepper.h). */
static int plan(const gg_store_info *s, int64_t host_bytes, int64_t left,
                const gg_stepper *st, gg_band_plan *p, gg_err *err)
{
    int64_t fit;
    if (fits(s, host_bytes, &fit, err))
        return -1;
    if (fit >= s->height) {
        p->t = left, p->rows = s->height;
    } else if (gg_band_plan_for(s->width, s->height, left, fit * s->width, p,
                                err)) {
        return -1;
    }
    if (st->max_batch > 0 && p->t > st->max_batch)
        p->t = st->max_batch;
    return 0;
}

/* One pass of p->t generations from src into k. */
static int pass(source *src, sink *k, const gg_stepper *st,
                const gg_rule *rule, const gg_band_plan *p,
                gg_store_stream_stats *stats, gg_err *err)
{
    int64_t h = src->s.height;
    bool whole = p->rows >= h;
    gg_grid band = {0};
    int bad = 0;
    for (int64_t y0 = 0; y0 < h && !bad; y0 += p->rows) {
        int64_t y1 = y0 + p->rows < h ? y0 + p->rows : h;
        int64_t a = whole ? 0 : y0 - p->t, z = whole ? h : y1 + p->t;
        if (rule->topo != GG_TOPO_TORUS) { /* the plane's edges stay edges */
            a = a < 0 ? 0 : a;
            z = z > h ? h : z;
        }
        if (band.height != z - a) {
            gg_grid_free(&band);
            if (gg_grid_init(&band, src->s.width, z - a, err))
                return -1;
        }
        bad = read_rows(src, a, z, &band, err) ||
              check_rows(src, &band, a, y0, y1, err);
        for (int64_t y = 0; !bad && y < band.height; y++) /* past width */
            gg_grid_row(&band, y)[band.stride - 1] &=
                gg_grid_tail_mask(&band);
        if (!bad && p->t > 0)
            bad = st->step(st->ctx, rule, rule->topo, &band, p->t, err);
        bad = bad || put_rows(k, &band, a, y0, y1, err);
        stats->bands++;
    }
    gg_grid_free(&band);
    return bad;
}

int gg_store_stream(const char *in, const char *out, const gg_stepper *s,
                    const gg_store_stream_opts *o, gg_store_stream_stats *st,
                    gg_err *err)
{
    memset(st, 0, sizeof *st);
    const char *from = in;
    int64_t left = o->gens;
    do {
        source src;
        sink k;
        gg_rule rule;
        gg_band_plan p;
        if (open_source(from, &src, err))
            return -1;
        int bad = gg_rule_parse(src.s.rule, &rule, err);
        bad = bad || bounded(from, &rule, err) ||
              plan(&src.s, o->host_bytes, left, s, &p, err) ||
              open_sink(out, &src.s, &rule, p.t, &k, err);
        if (!bad && pass(&src, &k, s, &rule, &p, st, err)) {
            gg_atomic_abort(&k.f);
            bad = -1;
        }
        bad = bad || commit_sink(&k, err);
        fclose(src.f);
        if (bad)
            return -1;
        if (st->passes++ == 0)
            st->t = p.t, st->rows = p.rows;
        st->generation = k.s.generation;
        st->population = k.population;
        left -= p.t;
        st->done = o->gens - left;
        from = out; /* the next pass reads what this one wrote */
        if (o->progress &&
            !o->progress(o->progress_ctx, o->gens - left, o->gens))
            break;
    } while (left > 0);
    return 0;
}
