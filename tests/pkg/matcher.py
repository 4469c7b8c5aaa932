#!/usr/bin/python3
# matcher.py MATCHER.json [TEXT-OUTPUT]: the GitHub problem matcher of
# pdwiz's text format, FILE:LINE:COL: SEVERITY: MESSAGE [RULE], read as
# the Actions runner reads it (its regexps are ECMAScript; the ones here use
# nothing Python's re reads differently, which is checked): each sample
# line gives the file, line, column, severity (the matched word, else the
# matcher's default), message and code expected, or no match. With
# TEXT-OUTPUT (pdwiz check's text output), every diagnostic line of it that
# says error, warning or note must match. Prints "N passed, N failed".
import json
import re
import sys

passed = failed = 0


def ok():
    global passed
    passed += 1


def bad(msg):
    global failed
    failed += 1
    print("FAIL: " + msg)


cfg = json.load(open(sys.argv[1], encoding="utf-8"))
matchers = []
owners = set()
for m in cfg.get("problemMatcher", []):
    if not m.get("owner") or m["owner"] in owners:
        bad("matcher without an owner, or a duplicate one: %r" % m)
        continue
    owners.add(m["owner"])
    if m.get("severity", "") not in ("", "error", "warning", "notice"):
        bad("%s: default severity %r" % (m["owner"], m["severity"]))
    pats = m.get("pattern", [])
    if len(pats) != 1:
        bad("%s: %d patterns, want one (a one-line format)" % (m["owner"],
                                                               len(pats)))
        continue
    p = pats[0]
    rx = p["regexp"]
    # Constructs ECMAScript and Python read differently, or that one lacks.
    if re.search(r"\(\?[<P=!]|\\[AZzGhHQE]|\(\?[a-z]", rx):
        bad("%s: a construct outside the common subset: %s" % (m["owner"],
                                                              rx))
    c = re.compile(rx)
    for k in ("file", "line", "column", "severity", "message", "code"):
        if k in p and not 1 <= p[k] <= c.groups:
            bad("%s: group %s=%d out of range" % (m["owner"], k, p[k]))
    if "message" not in p:
        bad("%s: no message group" % m["owner"])
    matchers.append((m, p, c))
if matchers:
    ok()


def match(line):
    """What the runner makes of line: the first matcher that matches."""
    for m, p, c in matchers:
        r = c.search(line)
        if r is None:
            continue
        got = {}
        for k in ("file", "line", "column", "severity", "message", "code"):
            got[k] = r.group(p[k]) if k in p else None
        if not got["severity"]:
            got["severity"] = m.get("severity") or "error"
        return got
    return None


SAMPLES = [
    # file with colons and spaces
    ("launch 1:2 node.sh:3:4: error: unrecognized arguments: --tp-sizee 2 [argparse-unrecognized]",
     ("launch 1:2 node.sh", "3", "4", "error", "unrecognized arguments: --tp-sizee 2", "argparse-unrecognized")),
    # a message that itself holds FILE:LINE:COL: error: and brackets
    ("dir with space/a:b.yaml:12:1: warning: see x.sh:1:2: error: y [in a list] here [tb-ib-none]",
     ("dir with space/a:b.yaml", "12", "1", "warning", "see x.sh:1:2: error: y [in a list] here", "tb-ib-none")),
    # notes are notices
    ("<command>:1:1: note: memory per GPU: weights 79.1 GiB/GPU exceed the 76.6 GiB free [fit-estimate]",
     ("<command>", "1", "1", "notice", "memory per GPU: weights 79.1 GiB/GPU exceed the 76.6 GiB free", "fit-estimate")),
    # a file name made of digits and colons
    ("12:34:5:6: error: m [xs-port-collision]",
     ("12:34", "5", "6", "error", "m", "xs-port-collision")),
    ("C:\\deploy\\x.sh:7:30: warning: w [stg-backend]",
     ("C:\\deploy\\x.sh", "7", "30", "warning", "w", "stg-backend")),
    # not diagnostics
    ("    fix: pin the RDMA NICs (--disaggregation-ib-device mlx5_0)", None),
    ("    hint: did you mean --tp-size?", None),
    ("1 error, 1 warning, 0 not checked, in 1 command", None),
    ("x.sh:1:2: unknown: could not check: model architecture unknown [ms-minicpm-sparse-pd]", None),
    ("x.sh:1:2: error: a message with no rule", None),
]
KEYS = ("file", "line", "column", "severity", "message", "code")
for line, want in SAMPLES:
    got = match(line)
    if want is None:
        if got is None:
            ok()
        else:
            bad("matched, should not: %r -> %r" % (line, got))
        continue
    if got is None:
        bad("no match: %r" % line)
        continue
    gotv = tuple(got[k] for k in KEYS)
    if gotv == want:
        ok()
    else:
        bad("%r:\n  got  %r\n  want %r" % (line, gotv, want))

if len(sys.argv) > 2:
    n = 0
    for line in open(sys.argv[2], encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        if not re.search(r": (error|warning|note): ", line) or line.startswith(" "):
            continue
        n += 1
        if match(line) is None:
            bad("pdwiz's own output not matched: %r" % line)
        else:
            ok()
    if n == 0:
        bad("no diagnostic lines in %s" % sys.argv[2])

print("problem matcher: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
