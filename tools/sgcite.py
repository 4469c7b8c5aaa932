#!/usr/bin/env python3
"""sgcite - read every rule's citation against one SGLang checkout.

    tools/sgcite.py [--rules DIR] [--format text|tsv] SGLANG

For each rule in rules/checks/*.yaml and rules/deploy/*.yaml, and for each
of its `source:` entries (file, function, commit), look in the checkout at
SGLANG (a directory; its commit is read with git when it is a work tree or
given with --commit) and report:

  function   the cited function (def or class; "Class.method" looks for the
             method) is in the cited file
  message    (per-server errors and warnings, whose messages are SGLang's) every
             literal fragment of the rule's message (the text between
             {placeholders}, 12 characters or more) is in the cited file, or
             else somewhere under python/sglang (then: "elsewhere"); a bare
             assert's message (AssertionError (SGLang's bare assert, no
             message): ...) is pdwiz's words and not looked for

A rule whose citations all hold at SGLANG is "at home" in that SGLang state.
The summary line says how many are, and the TSV lists each rule with what
failed, so that the catalog's README can say which SGLang it models and where
it mixes states. Exit status: 0 all at home, 1 some not, 2 bad input.
"""

import argparse
import glob
import os
import re
import subprocess
import sys


# The start of a bare assert's message (src/core/catalog.h BARE_ASSERT).
BARE_ASSERT = "AssertionError (SGLang's bare assert, no message):"


def fail(msg):
    sys.stderr.write("sgcite: %s\n" % msg)
    sys.exit(2)


def load_rules(rdir):
    try:
        import yaml
    except ImportError:
        fail("needs PyYAML (Debian: apt-get install python3-yaml)")
    out = []
    files = sorted(glob.glob(os.path.join(rdir, "checks", "*.yaml")) +
                   glob.glob(os.path.join(rdir, "deploy", "*.yaml")))
    if not files:
        fail("%s: no rules (checks/*.yaml, deploy/*.yaml)" % rdir)
    for f in files:
        with open(f, encoding="utf-8") as fp:
            doc = yaml.safe_load(fp) or {}
        for r in doc.get("rules") or []:
            src = r.get("source")
            srcs = src if isinstance(src, list) else [src] if src else []
            msg = r.get("message") or ""
            if r.get("severity") in ("override", "note") or \
                    os.path.basename(os.path.dirname(f)) == "deploy":
                msg = ""        # pdwiz's words: a silent change, or a
                                # deployment fact SGLang never states
            if msg.startswith(BARE_ASSERT):
                msg = ""        # SGLang's bare assert says nothing; the
                                # rest of the message is pdwiz's words
            out.append((r["id"], msg, srcs))
    return out


def fragments(message):
    parts = re.split(r"\{[^{}]*\}", message)
    return [p.strip() for p in parts if len(p.strip()) >= 12]


def has_function(text, func):
    name = re.split(r"[ (]", func.strip())[0]
    if not name:
        return True
    leaf = name.split(".")[-1]
    return re.search(r"^\s*(async\s+)?def\s+%s\b" % re.escape(leaf), text,
                     re.M) is not None or \
        re.search(r"^\s*class\s+%s\b" % re.escape(leaf), text, re.M) is not None


def python_text(root, cache={}):
    if "all" not in cache:
        chunks = []
        for dp, _, fns in os.walk(os.path.join(root, "python", "sglang")):
            for fn in fns:
                if fn.endswith(".py"):
                    try:
                        with open(os.path.join(dp, fn), encoding="utf-8",
                                  errors="replace") as fp:
                            chunks.append(fp.read())
                    except OSError:
                        pass
        cache["all"] = "\n".join(chunks)
    return cache["all"]


def squash(s):
    """Source text as Python would join it: implicit string concatenation
    across lines, so a message split over several literals still matches."""
    s = re.sub(r"[\"']\s*\n\s*f?[\"']", "", s)
    s = re.sub(r"[\"']\s+f?[\"']", "", s)
    # A rule's message is one line: SGLang's line breaks are its spaces.
    s = s.replace("\\n", " ")
    return s


def main():
    ap = argparse.ArgumentParser(prog="sgcite")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--rules", default=os.path.join(here, "..", "rules"))
    ap.add_argument("--format", choices=["text", "tsv"], default="text")
    ap.add_argument("--commit", help="the checkout's commit, if not a git "
                    "work tree")
    ap.add_argument("sglang", metavar="SGLANG")
    a = ap.parse_args()
    if not os.path.isdir(os.path.join(a.sglang, "python", "sglang")):
        fail("%s: not an SGLang checkout (no python/sglang)" % a.sglang)
    commit = a.commit
    if commit is None:
        try:
            commit = subprocess.run(
                ["git", "-C", a.sglang, "rev-parse", "HEAD"],
                capture_output=True, text=True, check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            commit = "unknown"
    rules = load_rules(a.rules)
    home = 0
    texts = {}
    if a.format == "tsv":
        print("# sgcite against sgl-project/sglang@%s" % commit)
        print("rule\tfile\tfunction\tverdict")
    for rid, msg, srcs in rules:
        bad = []
        for s in srcs:
            path = s.get("file", "")
            func = str(s.get("function") or "")
            if not path.startswith("python/"):
                continue            # documentation citations: not code
            if path not in texts:
                p = os.path.join(a.sglang, path)
                try:
                    with open(p, encoding="utf-8", errors="replace") as fp:
                        texts[path] = fp.read()
                except OSError:
                    texts[path] = None
            text = texts[path]
            if text is None:
                bad.append((path, func, "file absent"))
                continue
            if not has_function(text, func):
                bad.append((path, func, "function absent"))
                continue
            sq = squash(text)
            missing = [f for f in fragments(msg) if f not in sq]
            if missing:
                allsq = squash(python_text(a.sglang))
                if all(f in allsq for f in missing):
                    bad.append((path, func, "message elsewhere"))
                else:
                    bad.append((path, func, "message absent"))
        if not bad:
            home += 1
        if a.format == "tsv":
            for path, func, why in bad or [("", "", "at home")]:
                print("%s\t%s\t%s\t%s" % (rid, path, func, why))
        elif bad:
            for path, func, why in bad:
                print("%-40s %s: %s (%s)" % (rid, why, path, func))
    print("%ssgcite: %d of %d rules at home in sgl-project/sglang@%s" % (
        "# " if a.format == "tsv" else "", home, len(rules), commit))
    return 0 if home == len(rules) else 1


if __name__ == "__main__":
    sys.exit(main())
