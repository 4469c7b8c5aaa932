"""compare.py - the oracle suite's two steps (tests/oracle/run.sh).

    compare.py scripts OUT RECORDED...
        For each recorded case (tests/oracle/recorded/TREE.jsonl), a
        one-command script OUT/TREE/ID.sh: the accelerator as a
        PDWIZ_FACT_gpu assignment, the case's environment variables as
        assignments before the command, then python -m
        sglang.launch_server with the case's words. OUT/TREE.version
        holds the SGLang version the tree is, as --sglang-version takes
        it: a release tree's release, main's commit (main@ and its first
        10 digits, from recorded/trees.tsv; pdwiz knows it from
        rules/flag-history.yaml's commits).
    compare.py known OUT REASONS RECORDED... > known.tsv
        known.tsv for today's differences, each with the reason of the
        first line of REASONS (reasons.tsv) that matches it.
    compare.py judge OUT KNOWN RECORDED...
        Reads pdwiz's JSON report OUT/TREE.json of each tree and compares
        its launch-time verdict with SGLang's recorded one, case by case:
        refuse or accept, and whether SGLang's message (its first error:
        SGLang stops at it) is among pdwiz's error messages. Prints the
        agreement, the disagreements grouped by pattern, and
        "oracle: N passed, M failed": a disagreement passes only when
        KNOWN lists it (ID<TAB>KIND<TAB>CATEGORY: reason), and a KNOWN
        line whose case agrees now (or is gone) fails.

Kinds of disagreement:
    missed       SGLang refuses the command, pdwiz gives no launch error
    false-alarm  pdwiz gives a launch error, SGLang accepts the command
    message      both refuse, but SGLang's message is none of pdwiz's
    unread       pdwiz could not read the script (its status is not checked)

pdwiz's launch errors are its error diagnostics whose rule's stage is
"launch" (or that have none: the argparse emulation); "startup" rules
(after the model loads, as the memory estimate) are not what the oracle
runs, and are left out. Standard library only: runs with /usr/bin/python3.
"""
import collections
import json
import os
import re
import shlex
import sys

KINDS = ("missed", "false-alarm", "message", "unread")
KIND_WORDS = {
    "missed": "SGLang refuses, pdwiz silent",
    "false-alarm": "pdwiz refuses, SGLang accepts",
    "message": "both refuse, SGLang's message not pdwiz's",
    "unread": "pdwiz could not read the script",
}
# Why a difference is what it is (the first word of known.tsv's reason):
#   missing        a launch check of SGLang that pdwiz has no rule for
#   catalog        pdwiz's rule or option table models another SGLang
#                  (a check, a choice or a default that this tree has not
#                  or no longer has)
#   host           SGLang asks the machine it runs on (sysfs, drivers):
#                  nothing a command line or pdwiz's facts say
#   process-start  SGLang makes the check only once processes start
#   deliberate     pdwiz differs on purpose
#   defect         pdwiz is wrong and should be fixed
#   oracle         the oracle's stand-ins, not SGLang, decide the verdict
CATEGORIES = ("missing", "catalog", "host", "process-start", "deliberate",
              "defect", "oracle")


def load_recorded(paths):
    cases = []
    for p in paths:
        with open(p, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    cases.append(json.loads(line))
    return cases


def tree_commits(paths):
    """tree -> commit, from trees.tsv beside the recorded corpus."""
    out = {}
    for d in sorted({os.path.dirname(p) for p in paths}):
        t = os.path.join(d, "trees.tsv")
        if not os.path.exists(t):
            continue
        with open(t, encoding="utf-8") as f:
            for line in f:
                if line.startswith("#") or not line.strip():
                    continue
                col = line.rstrip("\n").split("\t")
                out[col[0]] = col[1]
    return out


def version_of(tree, commits):
    """The version a tree is, as pdwiz's --sglang-version takes it: a
    release tree's release, another tree's commit (main@ and 10 digits)."""
    if tree.startswith("v") and tree[1:2].isdigit():
        return tree[1:]
    if tree in commits:
        return "main@" + commits[tree][:10]
    return ""


def write_scripts(out, paths):
    cases = load_recorded(paths)
    commits = tree_commits(paths)
    trees = {}
    for c in cases:
        d = os.path.join(out, "scripts", c["tree"])
        if c["tree"] not in trees:
            os.makedirs(d, exist_ok=True)
            trees[c["tree"]] = d
            with open(os.path.join(out, c["tree"] + ".version"), "w") as f:
                f.write(version_of(c["tree"], commits) + "\n")
        lines = ["PDWIZ_FACT_gpu=%s" % c["gpu"]]
        words = ["%s=%s" % (k, shlex.quote(v))
                 for k, v in sorted(c["env"].items()) if v is not None]
        words += ["python", "-m", "sglang.launch_server"]
        words += [shlex.quote(w) for w in c["argv"]]
        lines.append(" ".join(words))
        with open(os.path.join(d, c["id"] + ".sh"), "w",
                  encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
    for t in sorted(trees):
        print(t)
    return 0


def norm(s):
    return re.sub(r"\s+", " ", s or "").strip()


def short_fn(fn):
    """The function's last name without leading underscores
    (ServerArgs._handle_x -> handle_x): a check that moved from a hook
    function into a method of ServerArgs is the same check."""
    return (fn or "").split(".")[-1].lstrip("_")


def pdwiz_verdicts(out, tree):
    """{case id: (status, [launch error diagnostics])} of one tree."""
    with open(os.path.join(out, tree + ".json"), encoding="utf-8") as f:
        doc = json.load(f)
    v = {}
    for fi in doc["files"]:
        cid = os.path.basename(fi["file"])[:-3]
        v[cid] = (fi["status"], [])
    for d in doc["diagnostics"]:
        cid = os.path.basename(d.get("file", ""))[:-3]
        if cid not in v or d["severity"] != "error":
            continue
        stage = (d.get("source") or {}).get("stage")
        if stage not in (None, "launch"):
            continue
        v[cid][1].append(d)
    return v


def judge_case(c, status, errs):
    """(kind or None when they agree, how they agree)"""
    s = c["sglang"]
    if status != "checked":
        return "unread", None
    p_ref = bool(errs)
    if s["verdict"] == "accepted":
        return ("false-alarm", None) if p_ref else (None, "both accept")
    if s["verdict"] != "refused":
        return "no-verdict", None
    if not p_ref:
        return "missed", None
    msg = norm(s.get("message"))
    msgs = [norm(d["message"]) for d in errs]
    if msg and msg in msgs:
        return None, "both refuse, same message"
    if not msg:
        fns = [short_fn((d.get("source") or {}).get("function")) for d in errs]
        if short_fn(s.get("function")) in fns:
            return None, "both refuse, same function (SGLang's message empty)"
    return "message", None


def load_known(path):
    known = {}
    bad = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.startswith("#") or not line.strip():
                continue
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 3 or parts[1] not in KINDS or \
                    parts[2].split(":")[0] not in CATEGORIES:
                bad.append("%s:%d: not ID<TAB>KIND<TAB>CATEGORY: reason "
                           "(kinds %s; categories %s)"
                           % (path, n, ", ".join(KINDS), ", ".join(CATEGORIES)))
                continue
            known[parts[0]] = (parts[1], parts[2])
    return known, bad


def group_key(kind, c, errs):
    """What a disagreement is about: SGLang's raising function and message
    shape, or pdwiz's rule."""
    s = c["sglang"]
    if kind == "false-alarm":
        return "pdwiz %s" % ",".join(sorted({d["rule"] for d in errs}))
    return sglang_key(s)


def sglang_key(s):
    """SGLang's refusal as FUNCTION: MESSAGE, the values in the message
    (quoted words, numbers) as _ so that one check is one group."""
    fn = s.get("function") or ("argparse" if s.get("stage") == "argparse"
                               else "?")
    msg = re.sub(r"'[^']*'|\[[^]]*\]|\d+", "_", norm(s.get("message")))[:90]
    return "%s: %s" % (fn, msg)


def sglang_text(s):
    """What reasons.tsv patterns are matched against for SGLang's side."""
    fn = s.get("function") or ("argparse" if s.get("stage") == "argparse"
                               else "?")
    return "%s: %s" % (fn, norm(s.get("message")))


def judge(out, known_path, paths):
    cases = load_recorded(paths)
    known, failures = load_known(known_path)
    for b in failures:
        print("FAIL: " + b)
    trees = []
    for c in cases:
        if c["tree"] not in trees:
            trees.append(c["tree"])
    verdicts = {}
    for t in trees:
        try:
            verdicts.update(pdwiz_verdicts(out, t))
        except (OSError, ValueError) as e:
            print("FAIL: pdwiz's report of %s: %s" % (t, e))
            failures.append(t)
    agree = collections.Counter()
    kinds = collections.Counter()
    per_tree = collections.defaultdict(collections.Counter)
    groups = collections.defaultdict(list)
    cats = collections.Counter()
    passed = 0
    failed = len(failures)
    seen = set()
    for c in cases:
        cid = c["id"]
        seen.add(cid)
        status, errs = verdicts.get(cid, ("missing", []))
        kind, how = judge_case(c, status, errs)
        per_tree[c["tree"]]["cases"] += 1
        # issue 23's own examples (examples.tsv), counted apart too
        example = cid.startswith("ex-")
        per_tree["examples"]["cases"] += example
        if kind is None:
            agree[how] += 1
            per_tree[c["tree"]]["agree"] += 1
            per_tree["examples"]["agree"] += example
            if cid in known:
                failed += 1
                print("FAIL: %s: listed in known.tsv (%s) but agrees now "
                      "(%s): take the line out" % (cid, known[cid][0], how))
            else:
                passed += 1
            continue
        kinds[kind] += 1
        groups[(kind, group_key(kind, c, errs))].append(c)
        if cid in known and known[cid][0] == kind:
            passed += 1
            cats[known[cid][1].split(":")[0]] += 1
            continue
        failed += 1
        first = errs[0]["rule"] + ": " + errs[0]["message"][:200] if errs else "-"
        print("FAIL: %s: %s, not in known.tsv%s\n  SGLang: %s %s: %s\n  "
              "pdwiz:  %s" % (
                  cid, KIND_WORDS.get(kind, kind),
                  " (listed as %s)" % known[cid][0] if cid in known else "",
                  c["sglang"]["verdict"], c["sglang"].get("function") or "",
                  norm(c["sglang"].get("message"))[:200], first))
    for cid in sorted(set(known) - seen):
        failed += 1
        print("FAIL: known.tsv line for a case not recorded: %s" % cid)
    n = len(cases)
    na = sum(agree.values())
    print()
    if per_tree["examples"]["cases"]:
        pe = per_tree["examples"]
        print("oracle examples (examples.tsv, issue 23's): %d cases, agree "
              "%d (%.1f%%)" % (pe["cases"], pe["agree"],
                               100.0 * pe["agree"] / pe["cases"]))
    for t in trees:
        pt = per_tree[t]
        print("oracle %s: %d cases, agree %d (%.1f%%)" % (
            t, pt["cases"], pt["agree"], 100.0 * pt["agree"] / max(1, pt["cases"])))
    print("oracle: %d cases, agree %d (%.1f%%): %s" % (
        n, na, 100.0 * na / max(1, n),
        ", ".join("%s %d" % (k, v) for k, v in agree.most_common())))
    print("disagree %d: %s" % (n - na, ", ".join(
        "%s %d" % (KIND_WORDS.get(k, k), v) for k, v in kinds.most_common())))
    if cats:
        print("known differences by reason: %s" % ", ".join(
            "%s %d" % (k, v) for k, v in cats.most_common()))
    print("largest groups:")
    order = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    for (kind, key), cs in order[:int(os.environ.get("ORACLE_GROUPS", "12"))]:
        print("  %4d %-11s %s  (e.g. %s)" % (len(cs), kind, key[:150],
                                              cs[0]["id"]))
    print("oracle: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def load_reasons(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            kind, pat, why = line.rstrip("\n").split("\t")
            out.append((kind, re.compile(pat), why))
    return out


def write_known(out, reasons_path, paths):
    """known.tsv for today's disagreements: each case's reason is the
    first line of reasons.tsv (KIND[|KIND], a pattern, the reason) whose
    kinds include the case's and whose pattern is found in SGLang's FUNCTION: MESSAGE
    (for a false alarm: in "pdwiz RULE,RULE"). Cases no pattern explains
    are named on standard error, and the exit status is 1."""
    reasons = load_reasons(reasons_path)
    cases = load_recorded(paths)
    verdicts = {}
    for t in sorted({c["tree"] for c in cases}):
        verdicts.update(pdwiz_verdicts(out, t))
    lines, left = [], []
    for c in cases:
        status, errs = verdicts.get(c["id"], ("missing", []))
        kind, _ = judge_case(c, status, errs)
        if kind is None:
            continue
        text = ("pdwiz " + ",".join(sorted({d["rule"] for d in errs}))
                if kind == "false-alarm" else sglang_text(c["sglang"]))
        for k, pat, why in reasons:
            if kind in k.split("|") and pat.search(text):
                lines.append("%s\t%s\t%s" % (c["id"], kind, why))
                break
        else:
            left.append("%s\t%s\t%s" % (c["id"], kind, text[:200]))
    print("# Known differences of the oracle suite: ID<TAB>KIND<TAB>CATEGORY: reason.\n"
          "# Written by compare.py known from reasons.tsv (see run.sh); a line\n"
          "# whose case agrees now fails the suite: the list only shrinks.")
    for l in lines:
        print(l)
    for l in left:
        print("unexplained: " + l, file=sys.stderr)
    return 1 if left else 0


def main():
    if len(sys.argv) >= 5 and sys.argv[1] == "known":
        return write_known(sys.argv[2], sys.argv[3], sys.argv[4:])
    if len(sys.argv) >= 4 and sys.argv[1] == "scripts":
        return write_scripts(sys.argv[2], sys.argv[3:])
    if len(sys.argv) >= 5 and sys.argv[1] == "judge":
        return judge(sys.argv[2], sys.argv[3], sys.argv[4:])
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
