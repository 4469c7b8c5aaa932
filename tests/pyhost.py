# pyhost.py DIR - one Python for a suite's many small scripts (tests/pyhost.sh):
# each request on DIR/req names the files of one call, which runs as
# `python3 -c CODE ARGS` or `python3 - ARGS` would, in a namespace of its
# own; its exit status goes back on DIR/rep. A start of python3 costs
# ~35 ms of CPU; the cli and deploy suites make hundreds.
import io
import os
import sys
import traceback

d = sys.argv[1]
sys.path[0] = ""
req = open(os.path.join(d, "req"), "r")
rep = open(os.path.join(d, "rep"), "w")
real = sys.stdin, sys.stdout, sys.stderr
home = os.getcwd()
for line in req:
    # "FILES MODE CWD": FILES.src (the code), .args (NUL-ended words),
    # .in (stdin), .out and .err written here.
    base, mode, cwd = line.rstrip("\n").split(" ", 2)
    with open(base + ".src", encoding="utf-8", errors="surrogateescape") as f:
        src = f.read()
    with open(base + ".args", "rb") as f:
        args = [os.fsdecode(a) for a in f.read().split(b"\0")[:-1]]
    out = open(base + ".out", "w")
    err = open(base + ".err", "w")
    sin = open(base + ".in", "r")
    sys.stdin, sys.stdout, sys.stderr = sin, out, err
    sys.argv = [mode] + args
    rc = 0
    try:
        os.chdir(cwd)
        code = compile(src, "<string>" if mode == "-c" else "<stdin>", "exec")
        exec(code, {"__name__": "__main__", "__builtins__": __builtins__})
    except SystemExit as e:
        if e.code is None:
            rc = 0
        elif isinstance(e.code, int):
            rc = e.code & 0xFF
        else:
            print(e.code, file=sys.stderr)
            rc = 1
    except BaseException:
        traceback.print_exc()
        rc = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:
        rc = rc or 1
    sys.stdin, sys.stdout, sys.stderr = real
    for f in (sin, out, err):
        try:
            f.close()
        except Exception:
            pass
    os.chdir(home)
    rep.write("%d\n" % rc)
    rep.flush()
