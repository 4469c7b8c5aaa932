#!/usr/bin/env python3
"""sgreleases - in which SGLang releases each server flag exists.

    tools/sgreleases.py GIT_DIR [TAG...]
    tools/sgreleases.py --inventory GIT_DIR [MAIN_REV]

GIT_DIR is a clone of sgl-project/sglang (or of a fork that carries its
release tags). For each release tag (default: every tag v0.2.* .. v0.5.*,
in version order) it reads python/sglang/srt/server_args.py (and
arg_groups/fields/ when present) with tools/sgdiff.py's reader and prints one
line per flag spelling (primary or alias):

    flag  first-release  last-release  gone-in  first-commit  last-commit

gone-in is the first release after last-release (the flag was removed or
renamed there), or "-" when the newest release still has it.

A flag missing from the newest release was removed (or renamed) after its
last release. The output is rules/flag-releases.tsv, the evidence table
for rules/flag-history.yaml.

--inventory prints rules/flag-inventory.tsv: every release tag v0.4.0 ..
v0.5.13.post2 and MAIN_REV (default: main, named "main"), and for each
flag spelling the releases that declare it with the same facts (its dest,
how many words it takes, its default and its choices, as the static
reading of server_args.py gives them). Format: rules/README.md
("flag-inventory.tsv"). pdwiz reads it for --sglang-version.
"""
import ast
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sgdiff  # noqa: E402


def git(gd, *args):
    return subprocess.run(["git", "-C", gd] + list(args), capture_output=True,
                          text=True, check=True).stdout


def vkey(tag):
    parts = re.findall(r"\d+|[a-z]+", tag)
    key = []
    for p in parts:
        if p.isdigit():
            key.append((1, int(p)))
        elif p == "rc":
            key.append((0, 0))       # rc sorts before the release
        else:
            key.append((2, 0))       # post sorts after it
    return key


def pep440(tag):
    """Version order of a release tag: rc before the release, post after
    (v0.5.10rc0 < v0.5.10 < v0.5.10.post1), as pdwiz orders releases."""
    m = re.match(r"^v(\d+)\.(\d+)\.(\d+)(?:\.post(\d+)|rc(\d+))?$", tag)
    a, b, c, post, rc = m.groups()
    kind = (2, int(post)) if post else (0, int(rc)) if rc else (1, 0)
    return (int(a), int(b), int(c)) + kind


INV_FIRST = "v0.4.0"
INV_LAST = "v0.5.13.post2"


def arity(scope, kw):
    """How many words the flag takes: 0, 1, or + (one or more), ? (an
    optional one), * (any number)."""
    action = kw.get("action")
    nargs = scope.value(kw["nargs"]) if "nargs" in kw else None
    if action is not None:
        a = ast.unparse(action).strip("'\"")
        if a in ("store_true", "store_false", "store_const", "count",
                 "help", "version") or a.endswith("BooleanOptionalAction"):
            return "0"
        if a.endswith("DeprecatedAction") and nargs is None:
            return "0"
    if nargs is None:
        return "1"
    if isinstance(nargs, int) and not isinstance(nargs, bool):
        return "0" if nargs == 0 else "1" if nargs == 1 else "+"
    if nargs in ("+", "*", "?"):
        return nargs
    return "1"


def show(v):
    """A fact as one TSV cell: Python's repr, ? when not a literal."""
    if isinstance(v, sgdiff.Unresolved):
        return "?"
    r = repr(v)
    return r if "\t" not in r and "\n" not in r else "?"


def show_choices(v):
    """Choices as argparse lists them (repr, ", "), - none, ? unknown."""
    if v is None:
        return "-"
    if isinstance(v, dict):
        v = list(v)
    if not isinstance(v, (list, tuple)) or any(
            isinstance(c, (sgdiff.Unresolved, list, dict)) for c in v):
        return "?"
    text = ", ".join(repr(c) for c in v)
    return text if "\t" not in text and "\n" not in text else "?"


def tag_flags(tree):
    """(spelling, dest, arity, default, choices) of every flag of one
    server_args.py (and arg_groups/fields/ beside it) read statically."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.dirname(tree))))
    flags = sgdiff.sglang_flags(root)
    scope = sgdiff.Scope()
    sa_tree = sgdiff.parse(tree)
    scope.learn_module(sa_tree)
    sgdiff.learn_defaults(sa_tree, scope)
    ar = {}
    for node in ast.walk(sa_tree):
        if (isinstance(node, ast.Call) and
                isinstance(node.func, ast.Attribute) and
                node.func.attr == "add_argument"):
            names = [scope.value(a) for a in node.args]
            opts = [n for n in names if isinstance(n, str) and
                    n.startswith("--")]
            kw = {k.arg: k.value for k in node.keywords if k.arg}
            if opts and opts[0] not in ar:
                ar[opts[0]] = arity(scope, kw)
    out = {}
    for f in flags.values():
        if f.flag in ar:
            a = ar[f.flag]
        else:
            a = {"bool": "0", "boolopt": "0", "list": "+"}.get(f.type, "1")
        spellings = [f.flag] + list(f.aliases)
        if f.type == "boolopt":
            # BooleanOptionalAction registers --no-x beside each --x
            spellings += ["--no-" + sp[2:] for sp in spellings]
        for spelling in spellings:
            out.setdefault(spelling, (f.dest, a, show(f.default),
                                      show_choices(f.choices)))
    return out


def spans(idx, names):
    """Release indexes (sorted) as first..last runs of names."""
    out, i = [], 0
    while i < len(idx):
        j = i
        while j + 1 < len(idx) and idx[j + 1] == idx[j] + 1:
            j += 1
        out.append(names[idx[i]] if i == j else
                   "%s..%s" % (names[idx[i]], names[idx[j]]))
        i = j + 1
    return ",".join(out)


def inventory(gd, main_rev):
    tags = [t for t in git(gd, "tag").split()
            if re.match(r"^v0\.[45]\.\d+(\.post\d+|rc\d+)?$", t)]
    tags.sort(key=pep440)
    tags = [t for t in tags
            if pep440(INV_FIRST) <= pep440(t) <= pep440(INV_LAST)]
    revs = [(t, t[1:]) for t in tags] + [(main_rev, "main")]
    names = [n for _, n in revs]
    facts = {}          # spelling -> {facts tuple: [release index]}
    commits = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (rev, name) in enumerate(revs):
            commit = git(gd, "rev-parse", rev + "^{commit}").strip()
            commits.append((name, commit))
            root = os.path.join(tmp, name)
            files = git(gd, "ls-tree", "-r", "--name-only", commit, "--",
                        sgdiff.SERVER_ARGS, sgdiff.FIELDS_DIR).split()
            for f in files:
                if f != sgdiff.SERVER_ARGS and not f.endswith(".py"):
                    continue
                p = os.path.join(root, f)
                os.makedirs(os.path.dirname(p), exist_ok=True)
                with open(p, "w") as fp:
                    fp.write(git(gd, "show", "%s:%s" % (commit, f)))
            for spelling, fact in tag_flags(
                    os.path.join(root, sgdiff.SERVER_ARGS)).items():
                facts.setdefault(spelling, {}).setdefault(fact, []).append(i)
    print("# pdwiz flag inventory: the server flags each SGLang release "
          "declares. Written by")
    print("# tools/sgreleases.py --inventory from each tag's "
          "python/sglang/srt/server_args.py; format: rules/README.md.")
    print("# release\tcommit")
    for name, commit in commits:
        print("R\t%s\t%s" % (name, commit))
    print("# flag\treleases\tdest\tnargs\tdefault\tchoices")
    for spelling in sorted(facts):
        rows = sorted(facts[spelling].items(), key=lambda kv: kv[1][0])
        for fact, idx in rows:
            print("F\t%s\t%s\t%s" % (spelling, spans(idx, names),
                                     "\t".join(fact)))
    return 0


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--inventory":
        return inventory(sys.argv[2], sys.argv[3] if len(sys.argv) > 3
                         else "main")
    if len(sys.argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    gd = sys.argv[1]
    tags = sys.argv[2:] or [t for t in git(gd, "tag").split()
                            if re.match(r"^v0\.[2-5]\.\d+(\.post\d+|rc\d+)?$", t)]
    tags.sort(key=vkey)
    seen = {}
    tags_read = set()
    with tempfile.TemporaryDirectory() as tmp:
        for t in tags:
            commit = git(gd, "rev-parse", t + "^{commit}").strip()
            root = os.path.join(tmp, t)
            sa = os.path.join(root, sgdiff.SERVER_ARGS)
            os.makedirs(os.path.dirname(sa))
            try:
                text = git(gd, "show", "%s:%s" % (t, sgdiff.SERVER_ARGS))
            except subprocess.CalledProcessError:
                continue
            with open(sa, "w") as fp:
                fp.write(text)
            flags = sgdiff.sglang_flags(root)
            tags_read.add(t)
            for f in flags.values():
                for spelling in [f.flag] + list(f.aliases):
                    s = seen.setdefault(spelling, [t, commit, t, commit])
                    s[2], s[3] = t, commit
    read = [t for t in tags if t in tags_read]
    newest = read[-1]
    print("# SGLang releases %s .. %s (server_args.py at each tag)" % (read[0], newest))
    print("# flag\tfirst_release\tlast_release\tgone_in\tfirst_commit\tlast_commit")
    for spelling in sorted(seen):
        a, ac, b, bc = seen[spelling]
        gone = "-" if b == newest else read[read.index(b) + 1]
        print("%s\t%s\t%s\t%s\t%s\t%s" % (spelling, a, b, gone, ac, bc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
