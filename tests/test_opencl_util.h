/* Opening the OpenCL backend in a test, shared by test_opencl and
 * test_oracle: skip (with the reason printed) where there is no OpenCL
 * platform, where GOLGEN_SKIP_OPENCL is set, or in an AddressSanitizer
 * build (PoCL's compiler is not ASan-clean); any other failure fails the
 * test. Needs cmocka.h included first. */
#ifndef GG_TEST_OPENCL_UTIL_H
#define GG_TEST_OPENCL_UTIL_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "opencl_backend.h"

/* True (and why printed) when this build or environment skips OpenCL. */
static inline bool gg_test_opencl_skipped(void)
{
    if (getenv("GOLGEN_SKIP_OPENCL")) {
        print_message("GOLGEN_SKIP_OPENCL set; OpenCL tests skipped\n");
        return true;
    }
#if defined(__SANITIZE_ADDRESS__)
    print_message("AddressSanitizer build: PoCL is not ASan-clean; OpenCL "
                  "tests skipped\n");
    return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    print_message("AddressSanitizer build: OpenCL tests skipped\n");
    return true;
#endif
#endif
    return false;
}

/* The backend for rule (src: a kernel source to use instead of the
 * emitted one), or NULL when there is no OpenCL platform at all. A kernel
 * that does not build or validate fails the test. */
static inline gg_opencl *gg_test_opencl_open(const gg_rule *rule,
                                             const char *src)
{
    gg_opencl_opts o = {0, true, NULL};
    gg_opencl *c;
    gg_fail_kind why;
    gg_err err;
    int bad = src ? gg_opencl_open_source(rule, src, &o, &c, &why, &err)
                  : gg_opencl_open(rule, &o, &c, &why, &err);
    if (bad && why == GG_FAIL_ENV && !strstr(err.msg, "build")) {
        print_message("no OpenCL (%s); skipped\n", err.msg);
        return NULL;
    }
    if (bad)
        fail_msg("%s", err.msg);
    return c;
}

#endif
