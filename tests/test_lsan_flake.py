#!/usr/bin/env python3
"""tests/lsan_flake.py on meson test logs made up for each case it must
tell apart: a test whose only failure is LeakSanitizer's tracer crash is
run again, and every other failure still fails the suite."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TRACER = ("Tracer caught signal 11: addr=0xe60 pc=0x7f221eee80f0\n"
          "==888==LeakSanitizer has encountered a fatal error.\n")


def test(name, result, stdout="", stderr=""):
    return {"name": "golgen:unit / " + name, "result": result,
            "stdout": stdout, "stderr": stderr}


CASES = [
    # (what, log rows, exit status, stdout)
    ("the tracer crash alone",
     [test("rule", "OK"), test("generations", "FAIL",
                               "[  PASSED  ] 9 test(s).", TRACER)],
     0, "generations"),
    ("two tests with the tracer crash",
     [test("net", "FAIL", "", TRACER), test("cli", "FAIL", "", TRACER)],
     0, "net cli"),
    ("a leak report beside the crash",
     [test("generations", "FAIL", "",
           TRACER + "==1==ERROR: LeakSanitizer: detected memory leaks\n")],
     1, ""),
    ("a failed assertion in another test",
     [test("generations", "FAIL", "", TRACER),
      test("net", "FAIL", "[  FAILED  ] 1 test(s)")], 1, ""),
    ("a UBSan report", [test("grid", "FAIL", "", TRACER +
                             "grid.c:10:5: runtime error: shift\n")], 1, ""),
    ("a timeout", [test("net", "TIMEOUT")], 1, ""),
    ("no failed test", [test("rule", "OK"), test("cuda", "SKIP")], 1, ""),
]


def main():
    bad = 0
    with tempfile.TemporaryDirectory() as d:
        for what, rows, want_rc, want_out in CASES:
            log = os.path.join(d, "testlog.json")
            with open(log, "w") as f:
                f.writelines(json.dumps(r) + "\n" for r in rows)
            p = subprocess.run([sys.executable,
                                os.path.join(HERE, "lsan_flake.py"), log],
                               capture_output=True, text=True)
            ok = p.returncode == want_rc and p.stdout.strip() == want_out
            print("%s %s: exit %d, %r" % ("ok" if ok else "FAIL", what,
                                          p.returncode, p.stdout.strip()))
            bad += not ok
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
