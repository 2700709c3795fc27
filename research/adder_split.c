/* Does a rule's final stage (rowsum front) have a LUT3 network of the
 * form "two full adders over the row sums' bits, then k more gates over
 * the adders' four outputs and the centre"? The adders turn the three
 * row sums (s + 2c each) into the 9-cell count g1 + 2 (g0 + g3) + 4 g2,
 * so the rest is a function of five signals; this program tries every
 * network of 1 or 2 LUT3s and a last LUT3 over those five and the
 * earlier gates, on the rows the front can produce (the others are
 * don't-cares). A narrow, exhaustive search: "none" rules out only this
 * form (4 + 2 = 6 or 4 + 3 = 7 gates), not networks of that size.
 *
 *   cc -O2 -o adder_split research/adder_split.c
 *   ./adder_split 36 23        (B36/S23; digits of birth, survival)
 *
 * Prints the first network found, or "none". Life (3 23) gives a 7-gate
 * one in under a second; BENCHMARKS.md (History, "Exact synthesis") has
 * the rest. */
#include <stdio.h>
#include <stdlib.h>

typedef unsigned __int128 rows_t; /* one bit per front row (128) */

enum { N_IN = 5, N_MAX = N_IN + 2 };

static rows_t care, want;

static rows_t lut3(int f, rows_t a, rows_t b, rows_t c)
{
    rows_t r = 0;
    for (int m = 0; m < 8; m++)
        if (f >> m & 1)
            r |= (m & 4 ? a : ~a) & (m & 2 ? b : ~b) & (m & 1 ? c : ~c);
    return r;
}

/* Is `want` a function of a, b, c on the care rows? Its table in *f. */
static int fits(rows_t a, rows_t b, rows_t c, int *f)
{
    *f = 0;
    for (int m = 0; m < 8; m++) {
        rows_t t = care & (m & 4 ? a : ~a) & (m & 2 ? b : ~b) &
                   (m & 1 ? c : ~c);
        if ((t & want) && (t & ~want))
            return 0;
        if (t & want)
            *f |= 1 << m;
    }
    return 1;
}

/* Front row index from a 3x3 neighbourhood n (bit 4 the centre):
 * sT cT sM cM sB cB C, most significant first. */
static int front_row(int n, int *count, int *centre)
{
    int t = (n & 1) + (n >> 1 & 1) + (n >> 2 & 1);
    int m = (n >> 3 & 1) + (n >> 4 & 1) + (n >> 5 & 1);
    int b = (n >> 6 & 1) + (n >> 7 & 1) + (n >> 8 & 1);
    *centre = n >> 4 & 1;
    *count = t + m + b - *centre;
    return (t & 1) << 6 | (t >> 1) << 5 | (m & 1) << 4 | (m >> 1) << 3 |
           (b & 1) << 2 | (b >> 1) << 1 | *centre;
}

static int parse_digits(const char *s, int *set)
{
    for (; *s; s++) {
        if (*s < '0' || *s > '8')
            return -1;
        set[*s - '0'] = 1;
    }
    return 0;
}

static const char *const names[N_MAX] = {"C", "g0", "g1", "g2", "g3",
                                         "h1", "h2"};

int main(int argc, char **argv)
{
    int birth[9] = {0}, survive[9] = {0};
    if (argc != 3 || parse_digits(argv[1], birth) ||
        parse_digits(argv[2], survive)) {
        fprintf(stderr, "usage: adder_split BIRTH SURVIVAL (digits 0-8; "
                        "\"\" for none)\n");
        return 2;
    }
    rows_t in[7] = {0};
    for (int n = 0; n < 512; n++) {
        int count, centre, r = front_row(n, &count, &centre);
        care |= (rows_t)1 << r;
        if (centre ? survive[count] : birth[count])
            want |= (rows_t)1 << r;
    }
    for (int r = 0; r < 128; r++)
        for (int i = 0; i < 7; i++)
            if (r >> (6 - i) & 1)
                in[i] |= (rows_t)1 << r;
    /* in: sT cT sM cM sB cB C; the adders: carry and sum of the s's and
     * of the c's */
    rows_t sig[N_MAX] = {
        in[6], lut3(0xe8, in[0], in[2], in[4]), lut3(0x96, in[0], in[2], in[4]),
        lut3(0xe8, in[1], in[3], in[5]), lut3(0x96, in[1], in[3], in[5])};
    int f;
    for (int a = 0; a < N_IN; a++)
        for (int b = a + 1; b < N_IN; b++)
            for (int c = b + 1; c < N_IN; c++)
                for (int f1 = 1; f1 < 255; f1++) {
                    sig[5] = lut3(f1, sig[a], sig[b], sig[c]);
                    for (int x = 0; x < 5; x++)
                        for (int y = x + 1; y < 5; y++)
                            if (fits(sig[x], sig[y], sig[5], &f)) {
                                printf("6 gates: h1 = %02x(%s,%s,%s), out = "
                                       "%02x(%s,%s,h1)\n", f1, names[a],
                                       names[b], names[c], f, names[x],
                                       names[y]);
                                return 0;
                            }
                    for (int d = 0; d < 6; d++)
                        for (int e = d + 1; e < 6; e++)
                            for (int g = e + 1; g < 6; g++)
                                for (int f2 = 1; f2 < 255; f2++) {
                                    sig[6] = lut3(f2, sig[d], sig[e], sig[g]);
                                    for (int x = 0; x < 6; x++)
                                        for (int y = x + 1; y < 6; y++)
                                            if (fits(sig[x], sig[y], sig[6],
                                                     &f)) {
                                                printf("7 gates: h1 = %02x(%s,%s,%s), h2 = %02x(%s,%s,%s), out = %02x(%s,%s,h2)\n",
                                                       f1, names[a], names[b], names[c], f2, names[d], names[e], names[g], f, names[x], names[y]);
                                                return 0;
                                            }
                                }
                }
    printf("none\n");
    return 0;
}
