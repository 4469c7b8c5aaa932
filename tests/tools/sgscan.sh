#!/bin/sh
# rules/sglang-checks.tsv is what tools/sgscan.py writes from SGLang at the
# commit the table names: regenerated from a clone (SGLANG_MIRROR, a bare
# git directory; default: the charlesHsuGG/sglang mirror where the
# developers' machines keep it) and compared byte for byte. Without a clone
# the suite is skipped (exit 77), never passed: CI has none.
cd "$(dirname "$0")/../.." || exit 2
G=${SGLANG_MIRROR:-/work/.mirror/charlesHsuGG+sglang/repo}
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
rev=$(sed -n 's/^# tools\/sgscan.py at SGLang \([0-9a-f]*\);.*/\1/p' rules/sglang-checks.tsv)
if [ -z "$rev" ]; then
	echo "FAIL: rules/sglang-checks.tsv names no SGLang commit"; echo "sgscan: 0 passed, 1 failed"; exit 1
fi
if ! git --git-dir="$G" rev-parse -q --verify "$rev^{commit}" >/dev/null 2>&1; then
	echo "skipped: no SGLang clone with $rev at $G (set SGLANG_MIRROR): rules/sglang-checks.tsv not regenerated"
	exit 77
fi
T=$(mktemp)
trap 'rm -f "$T"' EXIT
$PY tools/sgscan.py --format tsv "$G" "$rev" >"$T" || [ $? = 1 ] || {
	echo "FAIL: tools/sgscan.py failed"; echo "sgscan: 0 passed, 1 failed"; exit 1; }
if cmp -s "$T" rules/sglang-checks.tsv; then
	echo "sgscan: 1 passed, 0 failed"
	exit 0
fi
echo "FAIL: rules/sglang-checks.tsv is not what the tool writes from $G at $rev:"
diff rules/sglang-checks.tsv "$T" | head -20
echo "sgscan: 0 passed, 1 failed"
exit 1
