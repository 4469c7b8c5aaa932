#!/usr/bin/env python3
"""The head counts rules/models.yaml gives (num_attention_heads,
num_kv_heads, read by the rule model-tp-heads) are those of
rules/model-sizes.yaml, which cites each model's config.json: for every
model there, the first models.yaml entry matching its id (as pdwiz
matches: case-insensitive glob, first match wins) gives the same heads, and
the same architecture family. Prints "model heads: N passed, N failed";
exit 1 on any failure.
"""
import fnmatch
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


models = yaml.safe_load(open("rules/models.yaml"))["models"]
sizes = yaml.safe_load(open("rules/model-sizes.yaml"))
sizes = sizes.get("models", sizes) if isinstance(sizes, dict) else sizes


def first(mid):
    for e in models:
        if fnmatch.fnmatchcase(mid.lower(), e["match"].lower()):
            return e
    return None


seen = 0
for m in sizes:
    e = first(m["id"])
    facts = e["facts"] if e else {}
    if "num_attention_heads" not in facts:
        continue
    seen += 1
    check(facts["num_attention_heads"] == m["attention_heads"],
          "%s: models.yaml %s gives %s attention heads, model-sizes.yaml %s" %
          (m["id"], e["match"], facts["num_attention_heads"], m["attention_heads"]))
    check(facts.get("num_kv_heads") == m["kv_heads"],
          "%s: models.yaml %s gives %s KV heads, model-sizes.yaml %s" %
          (m["id"], e["match"], facts.get("num_kv_heads"), m["kv_heads"]))
# Every models.yaml entry with heads has its model in model-sizes.yaml.
for e in models:
    if "num_attention_heads" in e["facts"]:
        check(any(fnmatch.fnmatchcase(m["id"].lower(), e["match"].lower())
                  for m in sizes), "%s has heads but no model-sizes.yaml model" % e["match"])
check(seen >= 15, "only %d models with heads" % seen)
print("model heads: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
