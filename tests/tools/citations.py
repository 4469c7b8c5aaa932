#!/usr/bin/env python3
"""The rules' SGLang citations are consistent with each other:

1. every (file, commit) a rule cites is in the catalog's table of SGLang
   commits (rules/options.yaml, sglang.commits);
2. the table gives each file one version, except entries that say why they
   mix (`mix:`);
3. every rule is in rules/sglang-state.tsv (tools/sgcite.py's reading of the
   citations against one SGLang tree), with a known verdict, and the table's
   summary line counts what its rows say;
4. a rule whose citation is "at home" cites no file that is absent there.
Prints "citations: N passed, N failed"; exit 1 on any failure.
"""
import glob
import os
import sys

import yaml

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


opts = yaml.safe_load(open("rules/options.yaml"))
table = opts["sglang"]["commits"]
pairs = {(c["path"], c["commit"]) for c in table}
rules = {}
for f in sorted(glob.glob("rules/checks/*.yaml") + glob.glob("rules/deploy/*.yaml")):
    for r in (yaml.safe_load(open(f)) or {}).get("rules") or []:
        src = r.get("source")
        rules[r["id"]] = src if isinstance(src, list) else [src] if src else []

for rid, srcs in sorted(rules.items()):
    for s in srcs:
        check((s.get("file"), s.get("commit")) in pairs,
              "%s cites %s@%s, not in sglang.commits" %
              (rid, s.get("file"), str(s.get("commit"))[:10]))

byfile = {}
for c in table:
    byfile.setdefault(c["path"], []).append(c)
for path, cs in sorted(byfile.items()):
    commits = {c["commit"] for c in cs}
    unexplained = [c for c in cs if "mix" not in c]
    check(len(commits) == 1 or len({c["commit"] for c in unexplained}) == 1,
          "%s is read at %d versions without a mix: reason" %
          (path, len(commits)))

verdicts = {"at home", "file absent", "function absent", "message absent",
            "message elsewhere"}
seen = {}
summary = None
for line in open("rules/sglang-state.tsv"):
    line = line.rstrip("\n")
    if line.startswith("# sgcite:"):
        summary = line
    if line.startswith("#") or line.startswith("rule\t"):
        continue
    rid, path, func, verdict = line.split("\t")
    check(verdict in verdicts, "sglang-state.tsv: %s: verdict %r" % (rid, verdict))
    check(rid in rules, "sglang-state.tsv names %s, which is no rule" % rid)
    seen.setdefault(rid, []).append((path, verdict))
for rid in rules:
    check(rid in seen, "%s is not in rules/sglang-state.tsv (run tools/sgcite.py)" % rid)
home = sum(1 for v in seen.values() if v == [("", "at home")])
check(summary is not None and (" %d of %d rules" % (home, len(seen))) in summary,
      "sglang-state.tsv summary %r, rows say %d of %d" % (summary, home, len(seen)))
for rid, v in seen.items():
    for path, verdict in v:
        if verdict != "at home":
            cited = {s.get("file") for s in rules.get(rid, [])}
            check(path in cited, "%s: state row for %s, which it does not cite" % (rid, path))

print("citations: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
