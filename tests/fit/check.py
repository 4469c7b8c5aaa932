#!/usr/bin/env python3
"""tests/fit/check.py PDWIZ CALIBRATION.TSV TMP - the memory estimate against
real SGLang startup logs, end to end: each row's command goes through
"pdwiz check --gpu GPU --format json" (with --sglang-version when the row
names the release), and the fit-estimate note's weights per GPU and KV
tokens (its "estimate" object: unrounded, as the message's one decimal is
too coarse for a small model's weights), and the verdict (the fit-weights, fit-load-peak and fit-kv-none
errors mean "does not fit"), are compared with what the log says: weights within 5%, KV tokens
within 15%, the verdict equal (started=yes: fits, started=no: does not).
A row whose load filled the card (the log's "avail mem" after the load
is 0.00 GB, so its free_gib equals its weights_gib) has a weights figure
capped by the card: SGLang's "mem usage" is the free memory before the
load minus after it, which cannot pass the free memory, so the figure is
only a floor and the estimate must not be below it (by more than 5%).
A command that loads its model from a local directory is given the
row's model as --fact model_id (what the directory holds, as its operator
would state it). A row whose GPU is '-' or whose sglang_version is pr:N (a pull request's
own build, merged into no release or main that pdwiz models) is listed,
not run.

Prints a table, then "calibration: N of M within tolerance". Exits 1 when
a row SGLang could not start from is estimated to fit (a wrong verdict),
when a row marked goal is out of tolerance, or when the table is malformed;
a row marked miss that comes within tolerance is reported, not failed.
"""
import json
import os
import re
import shlex
import subprocess
import sys

pdwiz, tsv, tmp = sys.argv[1:4]

W_TOL = 5.0
KV_TOL = 15.0
COLUMNS = ("case", "gpu", "role", "sglang_version", "command", "started",
           "model", "tp", "dp", "dp_attention", "mem_fraction", "free_gib",
           "weights_gib", "kv_tokens", "expect", "e2e", "source", "quote", "note")
WEIGHTS = re.compile(r"weights ([0-9.]+) GiB/GPU")
TOKENS = re.compile(r"-> ([0-9]+) tokens")
HEAD = re.compile(r"^(.*?) on (\S+), tp (\d+)")
NOFIT = ("fit-weights", "fit-load-peak", "fit-kv-none")


def rows():
    header = None
    with open(tsv, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            if header is None:
                header = cols
                if tuple(header) != COLUMNS:
                    sys.exit("%s:%d: columns %s, want %s" %
                             (tsv, n, header, list(COLUMNS)))
                continue
            if len(cols) != len(header):
                sys.exit("%s:%d: %d columns, want %d" %
                         (tsv, n, len(cols), len(header)))
            r = dict(zip(header, cols))
            if r["started"] not in ("yes", "no") or \
                    r["expect"] not in ("goal", "miss") or \
                    r["e2e"] not in ("goal", "miss") or \
                    r["role"] not in ("server", "prefill", "decode"):
                sys.exit("%s:%d: bad started/expect/role" % (tsv, n))
            if r["source"] in ("", "-") or r["quote"] in ("", "-"):
                sys.exit("%s:%d: a row needs its source and quote" % (tsv, n))
            yield r


def local_model(command):
    """Does the command load its model from a local directory?"""
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    for i, w in enumerate(words):
        v = None
        if w in ("--model-path", "--model") and i + 1 < len(words):
            v = words[i + 1]
        elif w.startswith("--model-path=") or w.startswith("--model="):
            v = w.split("=", 1)[1]
        if v is not None:
            return v.startswith(("/", "./", "~/", "$"))
    return False


def num(s):
    return None if s == "-" else float(s)


def estimate(r):
    """pdwiz's estimate for the row: (weights GiB, KV tokens, verdict,
    summary); None where unknown."""
    path = os.path.join(tmp, r["case"] + ".sh")
    with open(path, "w", encoding="utf-8") as f:
        f.write(r["command"] + "\n")
    args = [pdwiz, "check", "--gpu", r["gpu"], "--format", "json"]
    if r["sglang_version"] != "-":
        args += ["--sglang-version", r["sglang_version"]]
    if local_model(r["command"]) and r["model"] != "-":
        # What the directory holds, stated as its operator would.
        args += ["--fact", "model_id=" + r["model"]]
    p = subprocess.run(args + [path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, check=False)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        return None, None, "error", "pdwiz: exit %d: %s" % (
            p.returncode, p.stderr.strip()[:200])
    summary, rules, figures = "", set(), None
    for d in doc.get("diagnostics", []):
        if d.get("severity") == "error":
            rules.add(d.get("rule"))
        if d.get("rule") == "fit-estimate":
            summary = d["message"].split("memory per GPU: ", 1)[-1]
            figures = d.get("estimate")
    if figures is None:
        return None, None, "error", "pdwiz: the fit-estimate note has no " \
            "estimate object: " + summary
    w = figures["weights_gib"]
    t = figures["kv_tokens"]
    # The message and the object must say the same, to its rounding.
    m = WEIGHTS.search(summary)
    if (m is None) != (w is None) or (w is not None and
                                      float(m.group(1)) != round(w, 1)):
        return None, None, "error", "pdwiz: the note's weights %s and its " \
            "estimate's %s disagree" % (m and m.group(1), w)
    m = TOKENS.search(summary)
    if m is None and t == 0:
        t = None    # no pool (the note says why): nothing to compare
    if (m is None) != (t is None) or (t is not None and
                                      int(m.group(1)) != t):
        return None, None, "error", "pdwiz: the note's tokens and its " \
            "estimate's %s disagree" % t
    if rules & set(NOFIT):
        verdict = "no-fit"
    elif t is not None:
        verdict = "fits"
    else:
        verdict = "unknown"
    return w, t, verdict, summary


def capped(r):
    """Did the load fill the card (avail mem 0.00 after it)? Then the
    logged weights are what the card held, a floor of what they need."""
    return r["free_gib"] != "-" and r["weights_gib"] != "-" and \
        float(r["free_gib"]) == float(r["weights_gib"])


def pct(est, log):
    return (est - log) / log * 100


def main():
    total = within = wrong = failed = skipped = unbuilt_rows = 0
    lines = []
    fmt = "%-30s %-7s %-4s %7s %7s %7s  %9s %9s %7s  %-7s %-7s %s"
    print(fmt % ("case", "gpu", "exp", "W log", "W est", "W err", "KV log",
                 "KV est", "KV err", "log", "est", "within"))
    for r in rows():
        unbuilt = r["sglang_version"].startswith("pr:")
        if r["gpu"] == "-" or unbuilt:
            skipped += 1
            unbuilt_rows += unbuilt
            print(fmt % (r["case"], r["gpu"], r["e2e"], r["weights_gib"], "",
                         "", r["kv_tokens"], "", "", "", "",
                         "not run (%s)" % ("a PR's own build, in no SGLang "
                                           "release or main" if unbuilt
                                           else "GPU not named")))
            continue
        total += 1
        w, t, verdict, summary = estimate(r)
        want = "fits" if r["started"] == "yes" else "no-fit"
        ok = verdict == want
        why = [] if ok else ["verdict %s, log %s" % (verdict, want)]
        wlog, tlog = num(r["weights_gib"]), num(r["kv_tokens"])
        werr = terr = None
        if wlog is not None:
            if w is None:
                ok = False
                why.append("weights not estimated")
            else:
                werr = pct(w, wlog)
                if capped(r):
                    if werr < -W_TOL:
                        ok = False
                        why.append("weights %+.1f%% below the card's "
                                   "floor" % werr)
                elif abs(werr) > W_TOL:
                    ok = False
                    why.append("weights %+.1f%%" % werr)
        if tlog is not None and r["started"] == "yes":
            if t is None:
                ok = False
                why.append("KV not estimated")
            else:
                terr = pct(t, tlog)
                if abs(terr) > KV_TOL:
                    ok = False
                    why.append("KV %+.1f%%" % terr)
        if r["started"] == "no" and verdict == "fits":
            wrong += 1
        within += ok
        status = "yes" if ok else "no: " + ", ".join(why)
        print(fmt % (r["case"], r["gpu"], r["e2e"],
                     (">=" if capped(r) else "") + r["weights_gib"],
                     "-" if w is None else "%.2f" % w,
                     "-" if werr is None else "%+.1f%%" % werr,
                     r["kv_tokens"], "-" if t is None else str(t),
                     "-" if terr is None else "%+.1f%%" % terr,
                     want, verdict, status))
        if not ok and not summary:
            print("%30s pdwiz: no estimate" % "")
        elif not ok:
            print("%30s pdwiz: %s" % ("", summary))
        if r["e2e"] == "goal" and not ok:
            failed += 1
            lines.append("FAIL: %s is marked goal: %s" %
                         (r["case"], ", ".join(why)))
        elif r["e2e"] == "miss" and ok:
            lines.append("note: %s is marked miss but is within tolerance "
                         "now" % r["case"])
        if r["started"] == "no" and verdict == "fits":
            failed += 1
            lines.append("FAIL: %s: SGLang could not start, pdwiz says it "
                         "fits" % r["case"])
    for line in lines:
        print(line)
    print("calibration: %d of %d within tolerance (%.0f%%, goal 90%%), %d "
          "wrong verdicts, %d rows not run (GPU not named: %d, a PR's own "
          "build: %d)" %
          (within, total, within * 100.0 / total if total else 0, wrong,
           skipped, skipped - unbuilt_rows, unbuilt_rows))
    return 1 if failed else 0


sys.exit(main())
