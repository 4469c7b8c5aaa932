#!/usr/bin/env python3
"""sgsince - from which SGLang release (or main commit) each rule holds.

    tools/sgsince.py [--rules DIR] [--from RELEASE] SGLANG_GIT > rules/rule-since.tsv

SGLANG_GIT is a git repository of SGLang with its release tags (a clone,
or the bare mirror of charlesHsuGG/sglang). The trees read are the releases
of rules/flag-inventory.tsv's R lines from --from (default 0.5.0rc0) on, in
version order, then the main commit its main line names. In each tree the
Python text under python/sglang (and the router's Python bindings) is
joined as Python joins adjacent string literals, and each rule's message
is looked for much as tools/sgcite.py does: every literal fragment between
{placeholders}, quotes and brackets, 12 characters or more, verbatim or
with its last or first words standing for a replacement field of the
source ("specified for all GPUs" where the source writes "specified for
{context}"; the words kept 60% of the fragment at least).

A rule's range is the newest unbroken run of trees that have its message:

  since R       the run starts at release R (R and every later tree have it)
  after R       no release up to the newest, R, has it; the main commit does
  after C       no tree read has it (the rule models a main newer than C)

A rule whose message the oldest tree read has gets no line (it holds from
before the trees read); so does a rule without a message of SGLang's (an
override, a note, a deployment rule, a bare assert, a silent rule, a
rule in its own words, a memory estimate) and a rule whose YAML
gives its own range (since/after/until: the hand-written range wins).
Nothing of SGLang is run or copied: the table holds rule ids, release
numbers and which trees had the words. pdwiz reads it with the rules
(rules/README.md, "Release ranges of rules").
"""

import argparse
import glob
import os
import re
import subprocess
import sys

BARE_ASSERT = "AssertionError (SGLang's bare assert, no message):"
PATHS = ["python/sglang", "sgl-model-gateway/bindings/python",
         "sgl-router/py_src"]


def fail(msg):
    sys.stderr.write("sgsince: %s\n" % msg)
    sys.exit(2)


def vkey(v):
    """PEP 440-like order of SGLang's release numbers."""
    m = re.match(r"^(\d+(?:\.\d+)*?)(?:(rc)(\d+)|\.(post)(\d+))?$", v)
    if not m:
        fail("%s: not a release number" % v)
    nums = tuple(int(x) for x in m.group(1).split("."))
    if m.group(2):
        return nums, 1, int(m.group(3))
    if m.group(4):
        return nums, 3, int(m.group(5))
    return nums, 2, 0


def load_rules(rdir):
    try:
        import yaml
    except ImportError:
        fail("needs PyYAML")
    out = []
    for f in sorted(glob.glob(os.path.join(rdir, "checks", "*.yaml"))):
        with open(f, encoding="utf-8") as fp:
            doc = yaml.safe_load(fp) or {}
        for r in doc.get("rules") or []:
            msg = r.get("message") or ""
            if r.get("severity") not in ("error", "warning") or \
                    msg.startswith(BARE_ASSERT) or not msg or \
                    r.get("silent") or r.get("own_words") or \
                    r.get("kind") == "estimate":
                continue        # pdwiz's words, not SGLang's
            if any(k in r for k in ("since", "after", "until")):
                continue
            # between placeholders, quotes and brackets: the words the
            # source writes itself (a value SGLang formats in, such as a
            # tuple of backends, is the rule's rendering, not source text)
            frags = [re.sub(r"\s+", " ", p.strip()) for p in
                     re.split(r"\{[^{}]*\}|[\"'()\[\]]", msg)
                     if len(p.strip()) >= 12]
            if frags:
                out.append((r["id"], frags))
    return out


def trees(rdir, since):
    rel, main = [], None
    with open(os.path.join(rdir, "flag-inventory.tsv"), encoding="utf-8") as f:
        for line in f:
            col = line.rstrip("\n").split("\t")
            if col[0] != "R":
                continue
            if col[1] == "main":
                main = col[2]
            elif vkey(col[1]) >= vkey(since):
                rel.append((col[1], col[2]))
    rel.sort(key=lambda t: vkey(t[0]))
    return rel, main


def present(f, text):
    """Is fragment f in text: verbatim, or with its last (first) words
    standing for a value the source formats in ("... specified for all
    GPUs" against "... specified for {context}"): the words before (after)
    a replacement field, 60% of f at least."""
    if f in text:
        return True
    n = len(f)
    for k in range(n - 1, 11, -1):
        if f[k] == " " and k >= 0.6 * n and f[:k + 1] + "{" in text:
            return True
    for k in range(1, n - 11):
        if f[k - 1] == " " and n - k >= 0.6 * n and "}" + f[k - 1:] in text:
            return True
    return False


def git(repo, *args, inp=None):
    return subprocess.run(["git", "-C", repo] + list(args), input=inp,
                          capture_output=True, check=True).stdout


def squash(s):
    s = re.sub(r"[\"']\s*\n\s*f?[\"']", "", s)
    s = re.sub(r"[\"']\s+f?[\"']", "", s)
    # a message is one line: SGLang's line breaks and runs of spaces are
    # one space
    return re.sub(r"\s+", " ", s.replace("\\n", " "))


def tree_text(repo, commit):
    names = git(repo, "ls-tree", "-r", "--name-only", commit, "--",
                *PATHS).decode().split("\n")
    names = [n for n in names if n.endswith(".py")]
    spec = "".join("%s:%s\n" % (commit, n) for n in names).encode()
    raw = git(repo, "cat-file", "--batch", inp=spec)
    out, i = [], 0
    while i < len(raw):
        nl = raw.index(b"\n", i)
        hdr = raw[i:nl].split()
        if len(hdr) < 3 or hdr[1] != b"blob":
            i = nl + 1
            continue
        n = int(hdr[2])
        out.append(raw[nl + 1:nl + 1 + n].decode("utf-8", "replace"))
        i = nl + 1 + n + 1
    return squash("\n".join(out))


def main():
    ap = argparse.ArgumentParser(prog="sgsince")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--rules", default=os.path.join(here, "..", "rules"))
    ap.add_argument("--from", dest="since", default="0.5.0rc0")
    ap.add_argument("repo", metavar="SGLANG_GIT")
    a = ap.parse_args()
    rules = load_rules(a.rules)
    rel, main_commit = trees(a.rules, a.since)
    if not rel or main_commit is None:
        fail("flag-inventory.tsv: no releases from %s, or no main line" %
             a.since)
    order = rel + [("main@" + main_commit[:10], main_commit)]
    # newest first: a rule stays alive while every newer tree has it
    alive = {rid: frags for rid, frags in rules}
    first = {}                      # rule -> oldest tree of its run
    for name, commit in reversed(order):
        text = tree_text(a.repo, commit)
        for rid in list(alive):
            if all(present(f, text) for f in alive[rid]):
                first[rid] = name
            else:
                del alive[rid]
        sys.stderr.write("sgsince: %s: %d rules still have their message\n"
                         % (name, len(alive)))
        if not alive:
            break
    newest_rel = rel[-1][0]
    print("# pdwiz rule ranges: from which SGLang tree each rule's message is")
    print("# in every later tree. Written by tools/sgsince.py from the trees")
    print("# %s .. %s and main@%s; never edited by hand." %
          (rel[0][0], newest_rel, main_commit[:10]))
    print("# rule\trange\tversion\tevidence")
    for rid, _ in rules:
        f = first.get(rid)
        if f == rel[0][0]:
            continue                # in the oldest tree read: no range
        if f is None:
            print("%s\tafter\t%s\tmessage in none of the trees read "
                  "(newest: main@%s)" % (rid, main_commit[:10],
                                        main_commit[:10]))
        elif f.startswith("main@"):
            print("%s\tafter\t%s\tmessage in no release up to %s; in %s" %
                  (rid, newest_rel, newest_rel, f))
        else:
            print("%s\tsince\t%s\tmessage first in v%s and in every later "
                  "tree to main@%s" % (rid, f, f, main_commit[:10]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
