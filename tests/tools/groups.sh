#!/bin/sh
# The group: of every option in rules/options.yaml (and sglang.groups) is
# what tools/sggroups.py writes from SGLang's server_args.py and
# environ.py at the commit the catalog names (sglang.commits, SA-groups):
# regenerated from a clone (SGLANG_MIRROR, a bare git directory; default:
# the charlesHsuGG/sglang mirror where the developers' machines keep it)
# and compared byte for byte. Without a clone holding that commit the
# suite is skipped (exit 77), never passed: CI has none. Also, without a
# clone: every option of kind flag or env has a group, and every group
# named is listed once in sglang.groups.
cd "$(dirname "$0")/../.." || exit 2
G=${SGLANG_MIRROR:-/work/.mirror/charlesHsuGG+sglang/repo}
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
pass=0
fail=0
T=$(mktemp)
trap 'rm -f "$T"' EXIT
# The catalog's own shape, clone or not.
if $PY - <<'PY'
import sys, yaml
d = yaml.safe_load(open("rules/options.yaml"))
groups = d["sglang"]["groups"]
bad = []
if len(set(groups)) != len(groups):
    bad.append("sglang.groups lists a group twice")
used = set()
for o in d["options"]:
    g = o.get("group")
    if o["kind"] in ("flag", "env") and g is None:
        bad.append("%s has no group" % o["name"])
    if o["kind"] not in ("flag", "env") and g is not None:
        bad.append("%s (%s) has a group" % (o["name"], o["kind"]))
    if g is not None:
        used.add(g)
        if g not in groups:
            bad.append("%s: group %r is not in sglang.groups" % (o["name"], g))
for g in groups:
    if g not in used:
        bad.append("sglang.groups: %r has no option" % g)
for b in bad[:20]:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
then pass=$((pass + 1)); else fail=$((fail + 1)); fi
rev=$(sed -n 's/.*{short: SA-groups, path: [^,]*, commit: \([0-9a-f]*\).*/\1/p' rules/options.yaml)
if [ -z "$rev" ]; then
	echo "FAIL: rules/options.yaml names no SA-groups commit"
	echo "groups: $pass passed, $((fail + 1)) failed"
	exit 1
fi
if ! git --git-dir="$G" rev-parse -q --verify "$rev^{commit}" >/dev/null 2>&1; then
	echo "skipped: no SGLang clone holding $rev at $G (set SGLANG_MIRROR): the groups of rules/options.yaml not regenerated ($pass passed, $fail failed without it)"
	[ $fail = 0 ] && exit 77
	exit 1
fi
if $PY tools/sggroups.py "$G" "$rev" <rules/options.yaml >"$T"; then
	if cmp -s "$T" rules/options.yaml; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: rules/options.yaml's groups are not what tools/sggroups.py writes from $G at $rev:"
		diff rules/options.yaml "$T" | head -20
	fi
else
	fail=$((fail + 1))
	echo "FAIL: tools/sggroups.py failed"
fi
# The tool's own reading, counted independently: the ServerArgs banner
# above --quantization's field is "Quantization and data type".
git --git-dir="$G" show "$rev:python/sglang/srt/server_args.py" >"$T" 2>/dev/null
want=$(awk '/^    # -----/ { if (prev ~ /^    # -----/) ; dash = NR } /^    # [A-Z]/ && NR == dash + 1 { name = substr($0, 7) } /^    quantization: A\[/ { print name; exit } { prev = $0 }' "$T")
got=$(sed -n '/^  - name: quantization$/,/^  - name:/s/^    group: "\(.*\)"$/\1/p' rules/options.yaml)
if [ -n "$want" ] && [ "$want" = "$got" ]; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	echo "FAIL: --quantization: banner '$want' in server_args.py, group '$got' in the catalog"
fi
echo "groups: $pass passed, $fail failed"
[ $fail = 0 ]
