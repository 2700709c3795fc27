#!/usr/bin/env python3
"""Which failed tests of a meson run failed only because LeakSanitizer's
stop-the-world tracer crashed at their exit.

LeakSanitizer checks for leaks at exit from a tracer thread that stops the
process's other threads; that tracer itself sometimes dies ("Tracer caught
signal 11 ... LeakSanitizer has encountered a fatal error"). Session 22
saw it once in about ten CI runs, in test_generations after all nine of
its tests had passed (the process still had PoCL's threads); the same
test passed when run again. Such a failure says nothing about golgen, so
tests/run_all.sh runs those tests once more.

    tests/lsan_flake.py BUILD/meson-logs/testlog.json

prints the names of the tests to run again (meson test's short names, one
line) and exits 0; exits 1 (naming the test) if any test failed otherwise:
a sanitizer report, a failed assertion, a timeout, or no tracer crash.
"""
import json
import sys

TRACER = "LeakSanitizer has encountered a fatal error"
REPORTS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer",
           "runtime error:", "[  FAILED  ]", "[  ERROR   ]", "not ok")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: lsan_flake.py TESTLOG_JSON")
    again = []
    with open(sys.argv[1]) as f:
        for line in f:
            t = json.loads(line)
            if t.get("result") in ("OK", "SKIP", "EXPECTEDFAIL"):
                continue
            text = (t.get("stdout") or "") + (t.get("stderr") or "")
            if TRACER not in text or any(r in text for r in REPORTS):
                print("lsan_flake: %s failed for another reason (%s)" %
                      (t.get("name"), t.get("result")), file=sys.stderr)
                return 1
            again.append(t["name"].split(" / ")[-1])
    if not again:
        print("lsan_flake: no failed test in the log", file=sys.stderr)
        return 1
    print(" ".join(again))
    return 0


if __name__ == "__main__":
    sys.exit(main())
