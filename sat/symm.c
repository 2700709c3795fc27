#include "symm.h"

int gg_symm_essential(const gg_tt *f, bool *essential)
{
    int count = 0;
    for (int i = 0; i < f->n_inputs; i++) {
        bool needed = false;
        for (int r = 0; r < gg_tt_rows(f) && !needed; r++) {
            int s = r | (1 << i);
            if (r == s)
                continue;
            needed = gg_tt_get(f->care, r) && gg_tt_get(f->care, s) &&
                     gg_tt_get(f->on, r) != gg_tt_get(f->on, s);
        }
        if (essential)
            essential[i] = needed;
        count += needed;
    }
    return count;
}

bool gg_symm_swap_ok(const gg_tt *f, int i, int j)
{
    for (int r = 0; r < gg_tt_rows(f); r++) {
        if (((r >> i) & 1) == ((r >> j) & 1))
            continue;
        int s = r ^ (1 << i) ^ (1 << j);
        if (gg_tt_get(f->care, r) != gg_tt_get(f->care, s))
            return false;
        if (gg_tt_get(f->care, r) && gg_tt_get(f->on, r) != gg_tt_get(f->on, s))
            return false;
    }
    return true;
}

int gg_symm_classes(const gg_tt *f, int *class_of)
{
    int classes = 0;
    for (int i = 0; i < f->n_inputs; i++) {
        class_of[i] = i;
        for (int j = 0; j < i; j++)
            if (class_of[j] == j && gg_symm_swap_ok(f, i, j)) {
                class_of[i] = j;
                break;
            }
        classes += class_of[i] == i;
    }
    return classes;
}
