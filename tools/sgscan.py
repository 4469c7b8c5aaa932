#!/usr/bin/env python3
"""sgscan - every raise and assert of SGLang's argument checks at one commit,
classified against pdwiz's catalog.

    tools/sgscan.py [--rules DIR] [--format tsv|text] GIT_DIR [REV]

GIT_DIR is an SGLang clone (a bare git directory will do); REV defaults to
`main`. Nothing of SGLang is imported or run: the files are read at REV with
`git show` and parsed with Python's `ast`.

The files read (those that exist at REV):
  python/sglang/srt/server_args.py
  python/sglang/srt/arg_groups/*_hook.py
  python/sglang/srt/disaggregation/**/*.py
  the router's router_args.py (wherever REV keeps it)

Each `raise` and `assert` is one check with a stable key: the file, the
enclosing function (Class.method, nested functions joined by '.'), the
exception type and the message (an f-string as its template, each
replacement field written `{expression}`; a message that is not a literal
as `<expression>`). Line numbers are shown, never part of the key. Two
checks with the same key are told apart by `#2`, `#3` in source order.

Each check is then one of
  modelled      a rule of rules/checks/*.yaml or rules/deploy/*.yaml states
                it: every literal fragment (12 characters or more) of the
                rule's message is in SGLang's message and together they
                are at least half of its literal text, or the rule's whole
                message is SGLang's with each replacement field standing
                for any text (a rule per value of a field), or the check is
                mapped to the rule by an `sglang_checks` entry with `rule:`
                (bare asserts, whose rule message is pdwiz's words)
  not-modelled  an `sglang_checks` entry of rules/not-modelled.yaml
                matches it and gives the reason
  missing       neither

An `sglang_checks` entry matches a check by `file` (a glob on the path),
`function` (a glob on the function; default any) and `message` (a substring
of the message template; default any); the first entry that matches
decides. The TSV (rules/sglang-checks.tsv) lists every check with its status
and the rule id or the reason; the text format prints the counts and the
missing checks. Exit status: 0, 1 when a check is missing, 2 bad input.
"""

import argparse
import ast
import fnmatch
import glob
import os
import re
import subprocess
import sys

BARE_ASSERT = "AssertionError (SGLang's bare assert, no message):"


def fail(msg):
    sys.stderr.write("sgscan: %s\n" % msg)
    sys.exit(2)


def git(gdir, *args):
    r = subprocess.run(["git", "--git-dir=" + gdir] + list(args),
                       capture_output=True, text=True)
    if r.returncode != 0:
        fail("git %s: %s" % (" ".join(args), r.stderr.strip()))
    return r.stdout


def scanned_files(gdir, rev):
    names = git(gdir, "ls-tree", "-r", "--name-only", rev).splitlines()
    out = []
    for n in names:
        if not n.endswith(".py"):
            continue
        if n == "python/sglang/srt/server_args.py" or \
                re.fullmatch(r"python/sglang/srt/arg_groups/[^/]+_hook\.py",
                             n) or \
                n.startswith("python/sglang/srt/disaggregation/") or \
                (os.path.basename(n) == "router_args.py" and
                 "sglang_router" in n and "/test" not in n):
            out.append(n)
    return sorted(out)


# ---- messages ----

def template(node):
    """A message expression as text: literal strings as they are, an
    f-string's replacement fields as {expression}."""
    if node is None:
        return ""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        s = ""
        for v in node.values:
            if isinstance(v, ast.Constant):
                s += v.value
            elif isinstance(v, ast.FormattedValue):
                s += "{" + ast.unparse(v.value) + "}"
        return s
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return template(node.left) + template(node.right)
    if isinstance(node, ast.Tuple) and len(node.elts) == 1:
        return template(node.elts[0])       # assert x, ("...",)
    # "...".format(...) and "..." % (...): the literal, placeholders kept
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr == "format" and \
            isinstance(node.func.value, ast.Constant) and \
            isinstance(node.func.value.value, str):
        return node.func.value.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and \
            isinstance(node.left, ast.Constant) and \
            isinstance(node.left.value, str):
        return re.sub(r"%[-#0 +]*\d*(?:\.\d+)?[sdrfi]", "{}", node.left.value)
    return "<" + ast.unparse(node) + ">"


def one_line(s):
    return re.sub(r"\s+", " ", s).strip()


class Scan(ast.NodeVisitor):
    def __init__(self, path):
        self.path = path
        self.stack = []
        self.out = []

    def _scope(self, node):
        self.stack.append(node.name)
        self.generic_visit(node)
        self.stack.pop()

    visit_FunctionDef = _scope
    visit_AsyncFunctionDef = _scope
    visit_ClassDef = _scope

    def func(self):
        return ".".join(self.stack) or "<module>"

    def visit_Raise(self, node):
        exc = node.exc
        if exc is None:
            typ, msg = "re-raise", ""
        elif isinstance(exc, ast.Call):
            typ = ast.unparse(exc.func)
            msg = template(exc.args[0]) if exc.args else ""
        else:
            typ, msg = ast.unparse(exc), ""
        self.out.append((self.func(), typ, one_line(msg), node.lineno))
        self.generic_visit(node)

    def visit_Assert(self, node):
        self.out.append((self.func(), "AssertionError",
                         one_line(template(node.msg)), node.lineno))
        self.generic_visit(node)


def scan(gdir, rev):
    checks = []
    for path in scanned_files(gdir, rev):
        text = git(gdir, "show", "%s:%s" % (rev, path))
        try:
            tree = ast.parse(text, filename=path)
        except SyntaxError as e:
            fail("%s: %s" % (path, e))
        s = Scan(path)
        s.visit(tree)
        seen = {}
        for func, typ, msg, line in s.out:
            k = (path, func, typ, msg)
            seen[k] = seen.get(k, 0) + 1
            n = "" if seen[k] == 1 else "#%d" % seen[k]
            checks.append({"file": path, "function": func, "type": typ,
                           "message": msg, "dup": n, "line": line})
    return checks


# ---- the catalog ----

def load_yaml(path):
    try:
        import yaml
    except ImportError:
        fail("needs PyYAML (Debian: apt-get install python3-yaml)")
    with open(path, encoding="utf-8") as fp:
        return yaml.safe_load(fp) or {}


def literal_fragments(message):
    parts = re.split(r"\{[^{}]*\}", message.replace("{{", "{").replace(
        "}}", "}"))
    return [one_line(p) for p in parts if len(one_line(p)) >= 12]


def load_rules(rdir):
    """(id, fragments of 12+ characters, the whole message on one line)."""
    rules = []
    for f in sorted(glob.glob(os.path.join(rdir, "checks", "*.yaml")) +
                    glob.glob(os.path.join(rdir, "deploy", "*.yaml"))):
        for r in load_yaml(f).get("rules") or []:
            msg = r.get("message") or ""
            if r.get("severity") in ("override", "note") or \
                    msg.startswith(BARE_ASSERT):
                continue        # pdwiz's words, not SGLang's
            rules.append((r["id"], literal_fragments(msg), one_line(msg)))
    return rules


def sglang_text(msg):
    """SGLang's message with its replacement fields blanked, for matching
    the literal text of a rule's message."""
    return one_line(re.sub(r"\{[^{}]*\}", "\x00", msg))


def sglang_pattern(msg):
    """SGLang's message as a pattern: each replacement field matches any
    text, so a rule that writes a field's value literally (one rule per
    value) matches too. None when less than 12 characters are literal."""
    parts = re.split(r"\{[^{}]*\}|<[^<>]*>", msg)
    if sum(len(p.strip()) for p in parts) < 12:
        return None
    return re.compile(".*?".join(re.escape(p) for p in parts), re.S)


def classify(checks, rules, entries):
    for c in checks:
        c["status"], c["why"] = "missing", ""
        text = sglang_text(c["message"])
        pat = sglang_pattern(c["message"])
        # A rule's literal words must be SGLang's and cover half of its
        # message's literal text at least: a short phrase ("is not
        # supported for") of another check is no match.
        lit = len(text.replace("\x00", "").strip())
        hits = [rid for rid, frags, whole in rules
                if (frags and all(f in text for f in frags) and
                    2 * sum(len(f) for f in frags) >= lit) or
                (pat is not None and pat.fullmatch(whole))]
        entry = None
        for e in entries:
            if fnmatch.fnmatchcase(c["file"], e.get("file", "*")) and \
                    fnmatch.fnmatchcase(c["function"],
                                        e.get("function", "*")) and \
                    e.get("message", "") in c["message"] and \
                    (not e.get("type") or e["type"] == c["type"]):
                entry = e
                break
        if entry is not None and entry.get("rule"):
            c["status"], c["why"] = "modelled", entry["rule"]
        elif hits and c["message"]:
            c["status"], c["why"] = "modelled", ",".join(sorted(hits))
        elif entry is not None and entry.get("open"):
            c["why"] = "open: " + entry["open"]
        elif entry is not None:
            c["status"], c["why"] = "not-modelled", entry["reason"]
    return checks


def main():
    ap = argparse.ArgumentParser(prog="sgscan")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--rules", default=os.path.join(here, "..", "rules"))
    ap.add_argument("--format", choices=["text", "tsv"], default="text")
    ap.add_argument("gitdir", metavar="GIT_DIR")
    ap.add_argument("rev", metavar="REV", nargs="?", default="main")
    a = ap.parse_args()
    commit = git(a.gitdir, "rev-parse", a.rev + "^{commit}").strip()
    nm = load_yaml(os.path.join(a.rules, "not-modelled.yaml"))
    entries = nm.get("sglang_checks") or []
    for e in entries:
        if not e.get("file") or \
                len([k for k in ("reason", "rule", "open") if e.get(k)]) != 1:
            fail("not-modelled.yaml: sglang_checks entry %r needs file and "
                 "one of reason, rule, open" % (e,))
    checks = classify(scan(a.gitdir, commit), load_rules(a.rules), entries)
    count = {"modelled": 0, "not-modelled": 0, "missing": 0}
    for c in checks:
        count[c["status"]] += 1
    summary = "%d checks: %d modelled, %d not modelled, %d missing" % (
        len(checks), count["modelled"], count["not-modelled"],
        count["missing"])
    if a.format == "tsv":
        print("# tools/sgscan.py at SGLang %s; never edited by hand" % commit)
        print("# %s" % summary)
        print("file\tfunction\ttype\tmessage\tline\tstatus\trule_or_reason")
        for c in checks:
            msg = c["message"] + (" " + c["dup"] if c["dup"] else "")
            print("\t".join([c["file"], c["function"], c["type"],
                             msg.replace("\t", " "), str(c["line"]),
                             c["status"], c["why"]]))
    else:
        for c in checks:
            if c["status"] == "missing":
                print("%s:%d: %s: %s: %s" % (c["file"], c["line"],
                      c["function"], c["type"], c["message"]))
        print(summary)
    return 1 if count["missing"] else 0


if __name__ == "__main__":
    sys.exit(main())
