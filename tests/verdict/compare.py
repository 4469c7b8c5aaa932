"""compare.py RESULTS KNOWN CORPUS_PRESENT - the verdict suite's judge.

RESULTS: one line per check the suite ran, input<TAB>route<TAB>outcome,
where route is "check" (the input itself), "import", "import refuses",
"emit FORMAT" and outcome a JSON report's path, "exit 2", or (import
refuses) the reason; route "assert" is one of the suite's own checks,
outcome "ok" or what failed. Compares each route's set of error and warning rule
ids with the input's own; KNOWN lists the accepted differences. Prints a
FAIL line for each new difference and each stale KNOWN line, then
"verdict: N passed, N failed"; exit 1 on a failure.
"""
import json
import re
import sys

results, known_path, corpus = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
known = {}
for line in open(known_path, encoding="utf-8"):
    if line.startswith("#") or not line.strip():
        continue
    f, route, why = line.rstrip("\n").split("\t", 2)
    known[(f, route)] = why

passed = failed = met = 0
hit = set()


def fail(msg):
    global failed
    failed += 1
    print("FAIL: " + msg)


def rules(outcome):
    if outcome == "exit 2":
        return "exit 2"
    with open(outcome, encoding="utf-8") as fp:
        o = json.load(fp)
    if all(f["status"] == "nothing" for f in o["files"]):
        return "nothing to check"
    got = sorted({d["rule"] for d in o["diagnostics"]
                  if d["severity"] in ("error", "warning")})
    return " ".join(got) or "-"


want = {}
rows = [l.rstrip("\n").split("\t", 2) for l in open(results, encoding="utf-8")]
for f, route, outcome in rows:
    if route == "check":
        want[f] = rules(outcome)
nrefused = 0
for f, route, outcome in rows:
    if route == "check":
        continue
    if route == "assert":           # the suite's own checks: ok, or why not
        if outcome == "ok":
            passed += 1
        else:
            fail("%s: %s" % (f, outcome))
        continue
    k = (f, route)
    if route == "import refuses":
        nrefused += 1
        if want[f] in ("exit 2", "nothing to check") or "no prefill, decode or router command found" in outcome:
            passed += 1
        elif k in known:
            passed += 1
            met += 1
            hit.add(k)
        else:
            fail("%s: import refuses (%s) what check reads (%s)"
                 % (f, outcome[:300], want[f]))
        continue
    got = rules(outcome)
    if got == want[f]:
        passed += 1
        if k in known:
            fail("%s via %s: listed in known.tsv but agrees now: take it out"
                 % (f, route))
    elif k in known:
        passed += 1
        met += 1
        hit.add(k)
    else:
        fail("%s via %s: '%s', check of the input: '%s'"
             % (f, route, got, want[f]))
for k in sorted(known):
    if k not in hit and (corpus or not k[0].startswith("../shared/")):
        fail("known.tsv line not met (stale?): %s\t%s" % k)
print("inputs: %d, of them refused by import with a reason: %d; known "
      "differences met: %d" % (len(want), nrefused, met))
print("verdict: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
