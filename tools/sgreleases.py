#!/usr/bin/env python3
"""sgreleases - in which SGLang releases each server flag exists.

    tools/sgreleases.py GIT_DIR [TAG...]

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
"""
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


def main():
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
