#!/bin/sh
# tools/sgdiff.py on stored SGLang file versions (tests/tools/sglang-*/:
# server_args.py of two releases, each with the commit it was taken from)
# and on a fixture in the newer A[...] declaration style. Asserts what each
# version really declares, counted independently of the tool, and that the
# tool finds no difference between a version and a catalog made from it.
# Prints "N passed, N failed".
cd "$(dirname "$0")/../.." || exit 2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
SG="python3 tools/sgdiff.py"
old=tests/tools/sglang-v0.4.8.post1
new=tests/tools/sglang-v0.5.9

for v in $old $new; do
	sa=$v/python/sglang/srt/server_args.py
	# Independent count: the add_argument calls whose first name is an
	# option (one per flag in these versions).
	want=$(grep -A1 'add_argument($' "$sa" | grep -c '^ *"--') 
	want=$((want + $(grep -c 'add_argument("--' "$sa")))
	$SG --dump $v >"$T/dump" || bad "$v: --dump failed"
	got=$(wc -l <"$T/dump")
	[ "$got" -eq "$want" ] && ok || bad "$v: $got flags read, $want declared"
	# A catalog made from the version itself: no difference, exit 0.
	python3 - "$T/dump" >"$T/self.yaml" <<'PY'
import sys
print("options:")
for line in open(sys.argv[1]):
    flag, dest, typ, default, choices, aliases = line.rstrip("\n").split("\t")
    print("  - name: %s\n    kind: flag\n    flag: %s" % (dest, flag))
    if not typ.startswith("custom:"):
        print("    type: %s" % typ)
    print("    default: %s" % default)
    if choices:
        print("    choices: %s" % choices)
    if aliases:
        print("    aliases: [%s]" % aliases)
PY
	$SG --catalog "$T/self.yaml" $v >"$T/self.out"
	rc=$?
	[ $rc = 0 ] && ok || bad "$v against itself: exit $rc: $(head -3 "$T/self.out")"
done

# What the versions really declare (read in the stored files).
$SG $old >"$T/old" ; rc=$?
[ $rc = 1 ] && ok || bad "0.4.8.post1: exit $rc, want 1 (differences)"
grep -q '^added  *--enable-deepep-moe ' "$T/old" && ok ||
    bad "0.4.8.post1: --enable-deepep-moe (replaced later) not listed as added"
grep -q '^added  *--enable-ep-moe ' "$T/old" && ok ||
    bad "0.4.8.post1: --enable-ep-moe not listed as added"
grep -q '^removed  *--moe-a2a-backend ' "$T/old" && ok ||
    bad "0.4.8.post1: --moe-a2a-backend (newer) not listed as removed"
grep -q '^removed  *--disaggregation-transfer-backend' "$T/old" &&
    bad "0.4.8.post1 has --disaggregation-transfer-backend; must not be removed" || ok
sed -i '$d' "$T/old"
grep -q 'disaggregation-transfer-backend' "$T/old" &&
    grep -q '^choices  *--disaggregation-transfer-backend' "$T/old" && ok ||
    bad "0.4.8.post1: --disaggregation-transfer-backend choices differ and must be said"

$SG --format tsv $new >"$T/new"; rc=$?
[ $rc = 1 ] && ok || bad "0.5.9: exit $rc, want 1"
grep -q '^added	--enable-double-sparsity	' "$T/new" && ok ||
    bad "0.5.9: --enable-double-sparsity not listed as added"
grep -q '^spelling	--tp-size	' "$T/new" && ok ||
    bad "0.5.9: --tp-size (an alias of --tensor-parallel-size there) not a spelling difference"
grep -q '^added	--tensor-parallel-size' "$T/new" && bad "0.5.9: a primary spelling listed as added" || ok
grep -q '^default	--hicache-ratio	' "$T/new" && ok ||
    bad "0.5.9: --hicache-ratio default 2.0 vs the catalog's not said"
grep -q '^choices	--speculative-algorithm	' "$T/new" && ok ||
    bad "0.5.9: --speculative-algorithm choices not compared"

# The newer declaration style (fixture written for this test).
$SG --dump tests/tools/newstyle >"$T/ns"
line() { grep -q "^$1	" "$T/ns" && grep "^$1	" "$T/ns" | grep -qF "$2" && ok ||
    bad "newstyle: $1: want '$2', got '$(grep "^$1	" "$T/ns")'"; }
line --tensor-parallel-size "	tp_size	int	1		--tp-size"
line --model-path "	model_path	str	null		--model"
line --disaggregation-mode "	str	'null'	['null', prefill, decode]"
line --disaggregation-transfer-backend "	mooncake	[mooncake, nixl, fake]"
line --enable-checksum "	bool	false"
line --encoder-urls "	list	[]"
line --mode-switch "	boolopt	true"
line --ratio "	float	0.25"
line --legacy-flag "	float	0.5"
line --policy "	random	[round_robin, random, cache_aware]"
grep -q 'internal' "$T/ns" && bad "newstyle: a no_cli field became a flag" || ok
grep -q 'plain' "$T/ns" && bad "newstyle: a field without A[...] became a flag" || ok
[ "$(wc -l <"$T/ns")" -eq 12 ] && ok || bad "newstyle: $(wc -l <"$T/ns") flags, want 12"

# Bad input: exit 2 with the file named.
$SG "$T/nothere" >/dev/null 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q "nothere" "$T/err" && ok || bad "missing checkout: exit $rc"
printf 'def (:\n' >"$T/server_args.py"
$SG "$T/server_args.py" >/dev/null 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q "server_args.py:1:" "$T/err" && ok ||
    bad "not Python: exit $rc, $(cat "$T/err")"

# The stored versions are what their COMMIT files say (provenance kept).
for v in $old $new; do
	grep -qE '^[0-9a-f]{40}$' $v/COMMIT && ok || bad "$v/COMMIT"
done

# sgreleases on a repository with the two stored versions as release tags.
R=$T/repo
mkdir -p "$R/python/sglang/srt" && git -C "$R" init -q &&
for v in v0.4.8.post1 v0.5.9; do
	cp tests/tools/sglang-$v/python/sglang/srt/server_args.py "$R/python/sglang/srt/" &&
	git -C "$R" add -A && git -C "$R" -c user.name=t -c user.email=t@t commit -qm "$v" &&
	git -C "$R" tag "$v"
done
python3 tools/sgreleases.py "$R" >"$T/rel" || bad "sgreleases failed"
grep -q "^--enable-deepep-moe	v0.4.8.post1	v0.4.8.post1	v0.5.9	" "$T/rel" && ok ||
    bad "sgreleases: --enable-deepep-moe: $(grep -- '^--enable-deepep-moe' "$T/rel")"
grep -q "^--moe-a2a-backend	v0.5.9	v0.5.9	-	" "$T/rel" && ok ||
    bad "sgreleases: --moe-a2a-backend: $(grep -- '^--moe-a2a-backend' "$T/rel")"
grep -q "^--tensor-parallel-size	v0.4.8.post1	v0.5.9	-	" "$T/rel" && ok ||
    bad "sgreleases: an alias spelling kept through both"
# The stored table is the tool's output format, and names what the issue
# of version migration needs.
head -2 rules/flag-releases.tsv | grep -q "^# flag	first_release	last_release	gone_in	" && ok ||
    bad "rules/flag-releases.tsv header"
grep -q "^--enable-deepep-moe	v0.4.4.post2	v0.5.4	v0.5.4.post1	" rules/flag-releases.tsv && ok ||
    bad "rules/flag-releases.tsv: --enable-deepep-moe row"

# The rules' citations agree with each other and with sglang-state.tsv.
python3 tests/tools/citations.py >"$T/cit" 2>&1 && ok ||
    bad "citations: $(grep FAIL "$T/cit" | head -5)"
# The head counts models.yaml gives agree with model-sizes.yaml.
python3 tests/tools/model_heads.py >"$T/heads" 2>&1 && ok ||
    bad "model heads: $(grep FAIL "$T/heads" | head -5)"
# sgcite itself: a tree without a cited file marks the rule, exit 1.
mkdir -p "$T/tree/python/sglang/srt"
printf 'def check_server_args():\n    pass\n' >"$T/tree/python/sglang/srt/server_args.py"
python3 tools/sgcite.py --format tsv --commit test "$T/tree" >"$T/st"; rc=$?
[ $rc = 1 ] && grep -q "	python/sglang/srt/arg_groups/parallel_hook.py	.*	file absent$" "$T/st" &&
    grep -q "^# sgcite: [0-9]* of [0-9]* rules at home in sgl-project/sglang@test$" "$T/st" && ok ||
    bad "sgcite on a bare tree: exit $rc"

echo "tools: $pass passed, $fail failed"
[ "$fail" = 0 ]
