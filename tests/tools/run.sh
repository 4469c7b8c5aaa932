#!/bin/sh
# tools/sgdiff.py, sgreleases.py and sgcite.py on fixtures written for
# these tests: argparse-a/ and argparse-b/ reproduce the shapes of
# server_args.py in two eras (add_argument calls over a dataclass of
# defaults; DeprecatedAction stubs, constant choice lists, nargs,
# BooleanOptionalAction), newstyle/ the newer A[T, Arg(...)] fields. None
# of them is SGLang's code. Runs against real SGLang trees happen outside
# the repository (see tools/README.md). Asserts what each fixture declares,
# counted independently of the tool, and that the tool finds no difference
# between a fixture and a catalog made from it. Prints "N passed, N failed".
cd "$(dirname "$0")/../.." || exit 2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
SG="$PY tools/sgdiff.py"
old=tests/tools/argparse-a
new=tests/tools/argparse-b

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
	$PY - "$T/dump" >"$T/self.yaml" <<'PY'
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

# What the fixtures declare, against the real catalog.
$SG $old >"$T/old" ; rc=$?
[ $rc = 1 ] && ok || bad "argparse-a: exit $rc, want 1 (differences)"
grep -q '^added  *--enable-deepep-moe ' "$T/old" && ok ||
    bad "argparse-a: --enable-deepep-moe (replaced later) not listed as added"
grep -q '^added  *--enable-ep-moe ' "$T/old" && ok ||
    bad "argparse-a: --enable-ep-moe not listed as added"
grep -q '^removed  *--moe-a2a-backend ' "$T/old" && ok ||
    bad "argparse-a: --moe-a2a-backend (newer) not listed as removed"
grep -q '^removed  *--disaggregation-transfer-backend' "$T/old" &&
    bad "argparse-a has --disaggregation-transfer-backend; must not be removed" || ok
sed -i '$d' "$T/old"
grep -q 'disaggregation-transfer-backend' "$T/old" &&
    grep -q '^choices  *--disaggregation-transfer-backend' "$T/old" && ok ||
    bad "argparse-a: --disaggregation-transfer-backend choices differ and must be said"
grep -q '^default  *--hicache-ratio: catalog null, SGLang 2.0' "$T/old" && ok ||
    bad "argparse-a: a literal default that differs is said"

$SG --format tsv $new >"$T/new"; rc=$?
[ $rc = 1 ] && ok || bad "argparse-b: exit $rc, want 1"
grep -q '^added	--enable-double-sparsity	' "$T/new" && ok ||
    bad "argparse-b: --enable-double-sparsity not listed as added"
grep -q '^spelling	--tp-size	' "$T/new" && ok ||
    bad "argparse-b: --tp-size (an alias of --tensor-parallel-size there) not a spelling difference"
grep -q '^added	--tensor-parallel-size' "$T/new" && bad "argparse-b: a primary spelling listed as added" || ok
grep -q '^default	--hicache-ratio	.*SGLang 2.0' "$T/new" && ok ||
    bad "argparse-b: --hicache-ratio default ServerArgs.hicache_ratio (2.0) vs the catalog's not said"
grep -q '^type	--enable-metrics	.*SGLang boolopt' "$T/new" && ok ||
    bad "argparse-b: BooleanOptionalAction not read as boolopt"
$SG --dump $new >"$T/newdump"
grep -q '^--enable-deepep-moe	enable_deepep_moe	str	null' "$T/newdump" && ok ||
    bad "argparse-b: a DeprecatedAction stub is a flag that takes a value"
grep -q '^--cuda-graph-bs	cuda_graph_bs	list	' "$T/newdump" && ok ||
    bad "argparse-b: nargs='+' is a list"
grep -q "^--speculative-algorithm	.*\[EAGLE, EAGLE3, NEXTN, STANDALONE, NGRAM\]" "$T/newdump" && ok ||
    bad "argparse-b: choices CONSTANT + [...] resolved"
grep -q '^--tensor-parallel-size	tp_size	int	1		--tp-size$' "$T/newdump" && ok ||
    bad "argparse-b: dest= and the alias"
grep -q '^choices	--speculative-algorithm	' "$T/new" && ok ||
    bad "argparse-b: --speculative-algorithm choices not compared"

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

# sgreleases on a repository with the two fixtures as release tags.
R=$T/repo
mkdir -p "$R/python/sglang/srt" && git -C "$R" init -q &&
for v in a:v0.4.8.post1 b:v0.5.9; do
	cp tests/tools/argparse-${v%%:*}/python/sglang/srt/server_args.py "$R/python/sglang/srt/" &&
	git -C "$R" add -A && git -C "$R" -c user.name=t -c user.email=t@t commit -qm "${v#*:}" &&
	git -C "$R" tag "${v#*:}"
done
$PY tools/sgreleases.py "$R" >"$T/rel" || bad "sgreleases failed"
grep -q "^--enable-ep-moe	v0.4.8.post1	v0.4.8.post1	v0.5.9	" "$T/rel" && ok ||
    bad "sgreleases: --enable-ep-moe: $(grep -- '^--enable-ep-moe' "$T/rel")"
grep -q "^--enable-deepep-moe	v0.4.8.post1	v0.5.9	-	" "$T/rel" && ok ||
    bad "sgreleases: a DeprecatedAction stub still registers the flag: $(grep -- '^--enable-deepep-moe' "$T/rel")"
grep -q "^--moe-a2a-backend	v0.5.9	v0.5.9	-	" "$T/rel" && ok ||
    bad "sgreleases: --moe-a2a-backend: $(grep -- '^--moe-a2a-backend' "$T/rel")"
grep -q "^--tensor-parallel-size	v0.4.8.post1	v0.5.9	-	" "$T/rel" && ok ||
    bad "sgreleases: an alias spelling kept through both"
grep -q "^--model	v0.5.9	v0.5.9	-	" "$T/rel" && ok ||
    bad "sgreleases: an alias added in the newer release"
# sgreleases --inventory on the same tags, HEAD as main: each spelling's
# runs of releases with its facts (dest, nargs, default, choices).
$PY tools/sgreleases.py --inventory "$R" HEAD >"$T/inv" || bad "sgreleases --inventory failed"
grep -q "^R	0.4.8.post1	" "$T/inv" && grep -q "^R	main	" "$T/inv" && ok ||
    bad "inventory: its releases"
grep -q "^F	--enable-ep-moe	0.4.8.post1	enable_ep_moe	0	False	-$" "$T/inv" && ok ||
    bad "inventory: a removed flag: $(grep -- '	--enable-ep-moe	' "$T/inv")"
grep -q "^F	--moe-a2a-backend	0.5.9..main	moe_a2a_backend	1	'none'	'none', 'deepep'$" "$T/inv" && ok ||
    bad "inventory: an added flag with choices: $(grep -- '	--moe-a2a-backend	' "$T/inv")"
[ "$(grep -c '	--disaggregation-transfer-backend	' "$T/inv")" = 2 ] &&
    grep -q "^F	--disaggregation-transfer-backend	0.4.8.post1	disaggregation_transfer_backend	1	'mooncake'	'mooncake', 'nixl'$" "$T/inv" && ok ||
    bad "inventory: choices that grew are two runs"
grep -q "^F	--cuda-graph-bs	0.5.9..main	cuda_graph_bs	+	" "$T/inv" && ok ||
    bad "inventory: nargs +"
grep -q "^F	--model	0.5.9..main	model_path	" "$T/inv" && ok ||
    bad "inventory: an alias has its own line"
grep -q "^F	--no-enable-metrics	0.5.9..main	enable_metrics	0	" "$T/inv" && ok ||
    bad "inventory: BooleanOptionalAction's --no- spelling"
# The stored table is the tool's output format, and names what the issue
# of version migration needs.
head -2 rules/flag-releases.tsv | grep -q "^# flag	first_release	last_release	gone_in	" && ok ||
    bad "rules/flag-releases.tsv header"
grep -q "^--enable-deepep-moe	v0.4.4.post2	v0.5.4	v0.5.4.post1	" rules/flag-releases.tsv && ok ||
    bad "rules/flag-releases.tsv: --enable-deepep-moe row"

# The rules' citations agree with each other and with sglang-state.tsv.
$PY tests/tools/citations.py >"$T/cit" 2>&1 && ok ||
    bad "citations: $(grep FAIL "$T/cit" | head -5)"
# The head counts models.yaml gives agree with model-sizes.yaml.
$PY tests/tools/model_heads.py >"$T/heads" 2>&1 && ok ||
    bad "model heads: $(grep FAIL "$T/heads" | head -5)"
# sgcite itself: a tree without a cited file marks the rule, exit 1.
mkdir -p "$T/tree/python/sglang/srt"
printf 'def check_server_args():\n    pass\n' >"$T/tree/python/sglang/srt/server_args.py"
$PY tools/sgcite.py --format tsv --commit test "$T/tree" >"$T/st"; rc=$?
[ $rc = 1 ] && grep -q "	python/sglang/srt/arg_groups/parallel_hook.py	.*	file absent$" "$T/st" &&
    grep -q "^# sgcite: [0-9]* of [0-9]* rules at home in sgl-project/sglang@test$" "$T/st" && ok ||
    bad "sgcite on a bare tree: exit $rc"

# sgscan on a fixture clone (our own code, not SGLang's): a raise whose text
# a rule quotes is modelled, one an sglang_checks entry names is not
# modelled, an `open:` one and an unlisted one are missing; the key is
# file, function, type and the f-string's template; a second equal check
# is "#2"; files outside the scanned set are not read.
S=$T/scan
mkdir -p "$S/w/python/sglang/srt/arg_groups" "$S/w/python/sglang/srt/disaggregation/x" \
    "$S/w/python/sglang/srt/models" "$S/rules/checks"
cat >"$S/w/python/sglang/srt/server_args.py" <<'PY'
class ServerArgs:
    def _handle_a(self):
        if self.a_size > 1:
            raise ValueError(f"a_size must be 1 for the widget backend, got {self.a_size}")
        assert self.b, "b is required when the gadget is enabled"
        assert self.b, "b is required when the gadget is enabled"

    def _handle_b(self):
        def inner():
            assert self.c
        raise NotImplementedError("the frobnicator is not supported yet")
PY
cat >"$S/w/python/sglang/srt/arg_groups/demo_hook.py" <<'PY'
def handle_demo(server_args):
    raise RuntimeError("demo " + "joined " + "message")
PY
printf 'def run():\n    raise\n' >"$S/w/python/sglang/srt/disaggregation/x/conn.py"
printf 'def f():\n    raise ValueError("not scanned")\n' >"$S/w/python/sglang/srt/models/m.py"
cat >"$S/rules/checks/10-x.yaml" <<'YAML'
rules:
  - id: demo-a-size
    severity: error
    message: "a_size must be 1 for the widget backend, got {a_size}"
YAML
cat >"$S/rules/not-modelled.yaml" <<'YAML'
not_modelled: []
sglang_checks:
  - {file: "*/server_args.py", function: ServerArgs._handle_b.inner, rule: demo-a-size}
  - {file: "*/server_args.py", message: "b is required", reason: "scope: demo"}
  - {file: "*/demo_hook.py", open: "to do"}
  - {file: "*/disaggregation/*", reason: "runtime: demo"}
YAML
git -C "$S/w" init -q && git -C "$S/w" add -A &&
    git -C "$S/w" -c user.name=t -c user.email=t@t commit -qm fixture
$PY tools/sgscan.py --rules "$S/rules" --format tsv "$S/w/.git" HEAD >"$S/out"; rc=$?
cut -f1-4,6,7 "$S/out" | grep -v '^#' >"$S/got"
cat >"$S/want" <<'TSV'
file	function	type	message	status	rule_or_reason
python/sglang/srt/arg_groups/demo_hook.py	handle_demo	RuntimeError	demo joined message	missing	open: to do
python/sglang/srt/disaggregation/x/conn.py	run	re-raise		not-modelled	runtime: demo
python/sglang/srt/server_args.py	ServerArgs._handle_a	ValueError	a_size must be 1 for the widget backend, got {self.a_size}	modelled	demo-a-size
python/sglang/srt/server_args.py	ServerArgs._handle_a	AssertionError	b is required when the gadget is enabled	not-modelled	scope: demo
python/sglang/srt/server_args.py	ServerArgs._handle_a	AssertionError	b is required when the gadget is enabled #2	not-modelled	scope: demo
python/sglang/srt/server_args.py	ServerArgs._handle_b.inner	AssertionError		modelled	demo-a-size
python/sglang/srt/server_args.py	ServerArgs._handle_b	NotImplementedError	the frobnicator is not supported yet	missing	
TSV
[ $rc = 1 ] && cmp -s "$S/got" "$S/want" &&
    grep -q '^# 7 checks: 2 modelled, 3 not modelled, 2 missing$' "$S/out" && ok ||
    bad "sgscan on a fixture: exit $rc: $(diff "$S/want" "$S/got" | head -5)"

# sgsince on a repository of three trees: v0.4.8.post1, v0.5.9 and an
# untagged main, each adding a message (one split over two literals, one
# with a value formatted in). Each rule gets the newest unbroken run of
# trees that have its words; pdwiz's own words, a hand range and a
# message the oldest tree has get no line.
S2=$T/since
mkdir -p "$S2/repo/python/sglang/srt" "$S2/rules/checks" && git -C "$S2/repo" init -q &&
m=$S2/repo/python/sglang/srt/checks.py &&
printf 'def a(x):\n    raise ValueError("an old message that every tree keeps")\n' >"$m" &&
git -C "$S2/repo" add -A && git -C "$S2/repo" -c user.name=t -c user.email=t@t commit -qm a &&
git -C "$S2/repo" tag v0.4.8.post1 &&
printf 'def b(x):\n    raise ValueError(\n        f"a message of release {x} and "\n        "later, split over literals")\n' >>"$m" &&
git -C "$S2/repo" add -A && git -C "$S2/repo" -c user.name=t -c user.email=t@t commit -qm b &&
git -C "$S2/repo" tag v0.5.9 &&
printf 'def c(x):\n    raise ValueError(f"only main has this check so far, {x} given")\n' >>"$m" &&
git -C "$S2/repo" add -A && git -C "$S2/repo" -c user.name=t -c user.email=t@t commit -qm c || bad "sgsince: fixture"
c1=$(git -C "$S2/repo" rev-parse v0.4.8.post1) c2=$(git -C "$S2/repo" rev-parse v0.5.9) c3=$(git -C "$S2/repo" rev-parse HEAD)
printf 'R\t0.4.8.post1\t%s\nR\t0.5.9\t%s\nR\tmain\t%s\n' "$c1" "$c2" "$c3" >"$S2/rules/flag-inventory.tsv"
cat >"$S2/rules/checks/10-a.yaml" <<'Y'
rules:
  - {id: r-old, severity: error, message: "an old message that every tree keeps"}
  - {id: r-059, severity: error, message: "a message of release {version} and later, split over literals"}
  - {id: r-main, severity: warning, message: "only main has this check so far, ('a', 'b') given"}
  - {id: r-none, severity: error, message: "a check of a main newer than any tree read"}
  - {id: r-own, severity: error, own_words: true, message: "pdwiz's account of a CUDA error at start-up"}
  - {id: r-hand, severity: error, since: 0.5.9, message: "a check of a main newer than any tree read"}
  - {id: r-ovr, severity: override, message: "a value SGLang sets itself, in pdwiz's words"}
Y
$PY tools/sgsince.py --rules "$S2/rules" --from 0.4.8.post1 "$S2/repo" >"$S2/out" 2>"$S2/err" || bad "sgsince: exit $?: $(cat "$S2/err")"
printf 'r-059\tsince\t0.5.9\nr-main\tafter\t0.5.9\nr-none\tafter\t%s\n' "$(echo "$c3" | cut -c1-10)" >"$S2/want"
grep -v '^#' "$S2/out" | cut -f1-3 >"$S2/got"
cmp -s "$S2/want" "$S2/got" && ok || bad "sgsince: $(diff "$S2/want" "$S2/got")"
# pdwiz reads the table it writes: rules/rule-since.tsv of the catalog is
# the tool's format, every line a rule of the catalog with a version
# pdwiz knows (the catalog loads: test_sgver and the cli suite use it).
head -4 rules/rule-since.tsv | grep -q "^# rule	range	version	evidence$" && ok || bad "rules/rule-since.tsv header"

echo "tools: $pass passed, $fail failed"
[ "$fail" = 0 ]
