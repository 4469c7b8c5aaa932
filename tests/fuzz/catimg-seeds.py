#!/usr/bin/python3
# catimg-seeds.py PDWIZ OUTDIR: the seeds of the catimg harness.
#   real.img   rules/catalog.img as pdwiz compiles it from rules/ (934 KB
#              at this writing: about 250 inputs/s under ASan);
#   small.img  pdwiz's image of a cut-down copy of the same YAML: the
#              first rule of every rules file (per-server and deployment)
#              with the options, facts, models and flag-history entries
#              they name, the flag inventory's releases and first 40
#              flag lines, their help and explanations left out: the same
#              kinds of objects in a file 10 times smaller and 30 times
#              faster to fuzz.
# Run from the source tree (PyYAML needed); the harness gives each input
# its own build's source id and checksum, so the seeds need not be made
# again when pdwiz changes, only when the image's layout does.
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
ROLES = ("prefill.", "decode.", "router.")


def names(rule):
    """Every word of a rule's condition, message, assignments, fixes."""
    text = [rule.get("when", ""), rule.get("message", "")]
    for key in ("set", "setdefault"):
        for k, v in (rule.get(key) or {}).items():
            text += [k, str(v)]
    for f in rule.get("fixes") or []:
        text += list((f.get("set") or {}).keys())
    out = set()
    for w in NAME.findall(" ".join(str(t) for t in text)):
        for p in ROLES:
            if w.startswith(p):
                w = w[len(p):]
        out.add(w)
    return out


def bare(items, keys=("help", "explain", "example", "note")):
    for it in items:
        for k in keys:
            it.pop(k, None)
    return items


def dump(path, doc):
    with open(path, "w") as f:
        yaml.safe_dump(doc, f, sort_keys=False, allow_unicode=True)


def main():
    pdwiz, out = os.path.abspath(sys.argv[1]), sys.argv[2]
    os.makedirs(out, exist_ok=True)
    env = dict(os.environ, PDWIZ_DATADIR=os.getcwd())
    subprocess.run([pdwiz, "compile-catalog", "-o",
                    os.path.join(out, "real.img")], env=env, check=True)
    tmp = tempfile.mkdtemp()
    try:
        for d in ("rules/checks", "rules/deploy"):
            os.makedirs(os.path.join(tmp, d))
        want = set()
        files = {}
        for d in ("rules/checks", "rules/deploy"):
            for f in sorted(os.listdir(d)):
                doc = yaml.safe_load(open(os.path.join(d, f)))
                rules = bare((doc.get("rules") or [])[:1])
                for r in rules:
                    want |= names(r)
                files[os.path.join(d, f)] = (doc, rules)
        opts = yaml.safe_load(open("rules/options.yaml"))
        opts["sglang"]["commits"] = opts["sglang"]["commits"][:2]
        opts["options"] = bare([o for o in opts["options"]
                                if o["name"] in want])
        dump(os.path.join(tmp, "rules/options.yaml"), opts)
        kept = {o["name"] for o in opts["options"]}
        for path, (doc, rules) in files.items():
            if doc.get("options"):
                doc["options"] = bare([o for o in doc["options"]
                                       if o["name"] in want])
                kept |= {o["name"] for o in doc["options"]}
            doc["rules"] = rules
            dump(os.path.join(tmp, path), doc)
        models = yaml.safe_load(open("rules/models.yaml"))
        ms = []
        for m in models["models"][:4]:
            m["facts"] = {k: v for k, v in m["facts"].items() if k in kept}
            m.pop("note", None)
            ms.append(m)
        dump(os.path.join(tmp, "rules/models.yaml"), {"models": ms})
        hist = yaml.safe_load(open("rules/flag-history.yaml"))
        hist["entries"] = hist["entries"][:4]
        dump(os.path.join(tmp, "rules/flag-history.yaml"), hist)
        # the flag inventory: its releases and its first 40 flag lines
        with open("rules/flag-inventory.tsv") as fp:
            lines = fp.read().splitlines(True)
        inv = [ln for ln in lines if ln.startswith("R\t")]
        inv += [ln for ln in lines if ln.startswith("F\t")][:40]
        with open(os.path.join(tmp, "rules/flag-inventory.tsv"), "w") as fp:
            fp.writelines(inv)
        subprocess.run([pdwiz, "compile-catalog", "-o",
                        os.path.join(out, "small.img")],
                       env=dict(os.environ, PDWIZ_DATADIR=tmp), check=True)
    finally:
        shutil.rmtree(tmp)


main()
