/* Why a backend could not open or run: the one failure type of every
 * backend, and its one mapping to the process exit status that every
 * golgen command uses. */
#ifndef GG_FAIL_H
#define GG_FAIL_H

typedef enum gg_fail_kind {
    GG_FAIL_INPUT,   /* bad rule or option: exit 2 */
    GG_FAIL_ENV,     /* no GPU, driver, compiler or cache: exit 3 */
    GG_FAIL_INVALID, /* the kernel disagreed with the reference, or the
                        circuit failed its check (a cached network
                        rejected): exit 1 */
} gg_fail_kind;

/* 2 input, 3 environment, 1 a failed check. */
int gg_fail_exit_status(gg_fail_kind why);

#endif
