#!/bin/sh
# rules/flag-inventory.tsv is what tools/sgreleases.py --inventory writes
# from SGLang's release tags: regenerated from a clone with upstream's tags
# (SGLANG_MIRROR, a bare git directory; default: the charlesHsuGG/sglang
# mirror where the developers' machines keep it) and compared byte for
# byte. Without a clone the suite is skipped (exit 77), never passed: CI
# has none.
cd "$(dirname "$0")/../.." || exit 2
G=${SGLANG_MIRROR:-/work/.mirror/charlesHsuGG+sglang/repo}
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
if ! git --git-dir="$G" rev-parse -q --verify v0.5.13.post2^{commit} >/dev/null 2>&1; then
	echo "skipped: no SGLang clone with the release tags at $G (set SGLANG_MIRROR): rules/flag-inventory.tsv not regenerated"
	exit 77
fi
main=$(sed -n 's/^R	main	\([0-9a-f]*\)$/\1/p' rules/flag-inventory.tsv)
T=$(mktemp)
trap 'rm -f "$T"' EXIT
$PY tools/sgreleases.py --inventory "$G" "${main:-main}" >"$T" || {
	echo "FAIL: tools/sgreleases.py --inventory failed"; echo "inventory: 0 passed, 1 failed"; exit 1; }
if cmp -s "$T" rules/flag-inventory.tsv; then
	echo "inventory: 1 passed, 0 failed"
	exit 0
fi
echo "FAIL: rules/flag-inventory.tsv is not what the tool writes from $G:"
diff rules/flag-inventory.tsv "$T" | head -20
echo "inventory: 0 passed, 1 failed"
exit 1
