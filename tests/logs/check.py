#!/usr/bin/env python3
"""tests/logs/check.py PDWIZ CASES.TSV DIR TMP - every case of the corpus
through the real binary: each log names where it came from; a case with a
rule is explained with that rule (exit 0), the others say "not explained"
(exit 1); where the log holds the configuration, the re-check reports the
same rule and offers a fix that, applied, clears it: pdwiz check of the
fixed commands no longer reports the rule, and pdwiz check of the commands
as the log states them does. One line per check: "ok: ..." or "FAIL: ...".
"""
import json
import os
import re
import subprocess
import sys

pdwiz, tsv, root, tmp = sys.argv[1:5]
SOURCE = re.compile(r"^# source: (https://github\.com/[\w.-]+/[\w.-]+/"
                    r"(issues|pull)/\d+|written for pdwiz\b)")


def ok(what):
    print("ok: " + what)


def bad(what):
    print("FAIL: " + what)


def run(args, stdin=None):
    p = subprocess.run([pdwiz] + args, stdin=stdin, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def check_ids(path, opts):
    """The rule ids pdwiz check reports (errors and warnings) for a file."""
    rc, out, err = run(["check", "--format", "json"] + opts + [path])
    try:
        doc = json.loads(out)
    except ValueError:
        return None, "pdwiz check gave no JSON (exit %d): %s" % (rc, err[:300])
    return {d["rule"] for d in doc["diagnostics"]
            if d["severity"] in ("error", "warning")}, None


rows = []
with open(tsv) as f:
    for line in f:
        if line.startswith("#") or not line.strip():
            continue
        rows.append(line.rstrip("\n").split("\t"))
head, rows = rows[0], rows[1:]
col = {name: i for i, name in enumerate(head)}
listed = set()
for r in rows:
    name = r[col["case"]]
    logs = r[col["logs"]].split()
    rule, fix = r[col["rule"]], r[col["fix"]]
    opts = [] if r[col["opts"]] == "-" else r[col["opts"]].split()
    listed.update(logs)
    paths = [os.path.join(root, "cases", l) for l in logs]
    for p in paths:
        with open(p, errors="replace") as f:
            first = f.readline()
        if SOURCE.match(first):
            ok("%s: %s names its source" % (name, os.path.basename(p)))
        else:
            bad("%s: %s lacks its '# source:' line: %r" % (name, p, first))
    args = ["explain", "--format", "json"] + opts
    for p in paths:
        args += ["--log", p]
    rc, out, err = run(args)
    try:
        doc = json.loads(out)
    except ValueError:
        bad("%s: explain gave no JSON (exit %d): %s" % (name, rc, err[:300]))
        continue
    prim = [x for x in doc["failures"] if x["primary"]]
    ids = [rr["id"] for x in prim if x["explained"] for rr in x["rules"]]
    text_rc, text, _ = run(["explain"] + opts + sum((["--log", p]
                                                     for p in paths), []))
    if rule == "-":
        if rc == 1 and not doc["explained"] and text_rc == 1 and \
                "not explained" in text:
            ok("%s: not explained (exit 1)" % name)
        else:
            bad("%s: expected not explained, got exit %d, rules %s" %
                (name, rc, ids))
        continue
    if rc == 0 and doc["explained"] and rule in ids and text_rc == 0 and \
            ("explained by " + rule) in text:
        ok("%s: explained by %s" % (name, rule))
    else:
        bad("%s: expected %s, got exit %d, rules %s: %s" %
            (name, rule, rc, ids, err[:200]))
        continue
    hit = [rr for x in prim for rr in x["rules"] if rr["id"] == rule][0]
    if hit["holes"] or "{" not in json.dumps(hit):
        ok("%s: the holes' values are given" % name)
    if fix == "-":
        if doc["configurations"]:
            bad("%s: the log holds a configuration, but the row names no "
                "fix to check" % name)
        continue
    # the configuration of the log, checked again, reports the same rule
    rec = hit["recheck"]
    if not rec or not rec.get("reports"):
        bad("%s: the re-check does not report %s: %s" % (name, rule, rec))
        continue
    ok("%s: the re-check reports %s" % (name, rule))
    cmds = [c["command"] for c in doc["configurations"]]
    orig = os.path.join(tmp, name + ".orig.sh")
    with open(orig, "w") as f:
        f.write("\n".join(cmds) + "\n")
    found, why = check_ids(orig, opts)
    if why is None and rule in found:
        ok("%s: pdwiz check of the commands the log states reports %s" %
           (name, rule))
    else:
        bad("%s: pdwiz check of %s does not report %s: %s" %
            (name, orig, rule, why or sorted(found)))
    fixes = [x for x in rec["diagnostic"]["fixes"] if fix in x["label"]]
    if not fixes or not fixes[0]["script"]:
        bad("%s: no verified fix '%s' among %s" %
            (name, fix, [x["label"] for x in rec["diagnostic"]["fixes"]]))
        continue
    fixed = os.path.join(tmp, name + ".fixed.sh")
    with open(fixed, "w") as f:
        f.write(fixes[0]["script"])
    found, why = check_ids(fixed, opts)
    if why is None and rule not in found:
        ok("%s: the fix '%s' applied clears %s (pdwiz check)" %
           (name, fixes[0]["label"], rule))
    else:
        bad("%s: pdwiz check of the fixed %s still reports %s: %s" %
            (name, fixed, rule, why or sorted(found)))
# every log of cases/ is a case
for l in sorted(os.listdir(os.path.join(root, "cases"))):
    if l not in listed:
        bad("cases/%s is in no row of cases.tsv" % l)
n = len(rows)
nrule = sum(1 for r in rows if r[col["rule"]] != "-")
print("corpus: %d cases, %d with a rule, %d not explained" %
      (n, nrule, n - nrule))
