#!/bin/sh
# CLI-level tests of pdwiz check/explain/rules: the real binary, as an
# operator runs it. Prints "N passed, M failed"; exits 1 on any failure.
# PDWIZ may point at another build (the ASan one).
cd "$(dirname "$0")/../.." || exit 2
PDWIZ=${PDWIZ:-./pdwiz}
# The real-world corpus beside the project (other projects' data files,
# never copied in); its checks are skipped, and counted, where it is absent.
RW=${PDWIZ_REALWORLD:-../shared/realworld}/files
skipped_rw=0
export PDWIZ_DATADIR="$PWD"
T=$(mktemp -d)
trap 'umount "$T/mnt" 2>/dev/null; rm -rf "$T"' EXIT
# python3 -c and python3 - run in one python3 for the whole suite.
. tests/pyhost.sh
pyhost_start "$T/py" "$PWD"
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect_rc NAME RC CMD... : run CMD, compare exit code
expect_rc() {
	name=$1 want=$2; shift 2
	"$@" >"$T/out" 2>"$T/err"; got=$?
	if [ "$got" = "$want" ]; then ok; else
		bad "$name: exit $got, want $want"; sed "s/^/  | /" "$T/out" "$T/err" | head -c 1500; echo
	fi
}

# json_has NAME RULE SEVERITY MESSAGE FILE-or-- [ARGS] : JSON output has a
# diagnostic RULE with SEVERITY (and exact MESSAGE unless empty)
json_check() {
	name=$1; shift
	python3 - "$T/out" "$@" <<'PY' || { bad "$name"; sed "s/^/  | /" "$T/out" | head -c 1500; echo; }
import json, sys
out = json.load(open(sys.argv[1]))
mode = sys.argv[2]
if mode == "has":
    rule, sev, msg = sys.argv[3], sys.argv[4], sys.argv[5]
    hits = [d for d in out["diagnostics"] if d["rule"] == rule and d["severity"] == sev]
    assert hits, f"no {sev} {rule}"
    if msg:
        assert any(d["message"] == msg for d in hits), f"message differs: {hits[0]['message']!r}"
    assert all(d["source"] is None or d["source"]["commit"] for d in hits)
elif mode == "lacks":
    rule = sys.argv[3]
    assert not [d for d in out["diagnostics"] if d["rule"] == rule], f"{rule} present"
elif mode == "clean":
    errs = [d for d in out["diagnostics"] if d["severity"] == "error"]
    assert not errs and out["valid"], f"errors: {[e['message'] for e in errs]}"
elif mode == "only":
    allowed = set(sys.argv[3].split(","))
    errs = [d["rule"] for d in out["diagnostics"] if d["severity"] == "error"]
    assert set(errs) <= allowed, f"unexpected errors: {errs}"
PY
	[ $? = 0 ] && ok
}

L="python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3.2-Exp --trust-remote-code"
DSA_P="$L --disaggregation-mode prefill --enable-prefill-cp --cp-strategy interleave --enable-dsa-cache-layer-split"

# --- the SGLang release checked for: flag history, release ranges ---
OLD="python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8 --enable-deepep-moe"
printf '%s\n' "$OLD" > "$T/old.sh"
expect_rc "removed flag, no version: error" 1 $PDWIZ check --format json "$T/old.sh"
json_check "removed flag: argparse message kept" has argparse-unrecognized error "unrecognized arguments: --enable-deepep-moe" "$T/old.sh"
# What the old flag stood for is unknown to the rules, not SGLang's default:
# no MoE dispatch finding made from --moe-a2a-backend none.
printf 'python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8 --enable-deepep-moe --ep-num-redundant-experts 32 --ep-dispatch-algorithm static\n' >"$T/stood.sh"
expect_rc "removed flag with a replacement" 1 $PDWIZ check --format json "$T/stood.sh"
python3 - "$T/out" <<'PY' && ok || { bad "the replaced option is unknown, not its default"; head -c 1500 "$T/out"; echo; }
import json, sys
o = json.load(open(sys.argv[1]))
errs = [d["rule"] for d in o["diagnostics"] if d["severity"] == "error"]
assert errs == ["argparse-unrecognized"], errs
assert any(d["rule"] == "par-ep-dispatch" and d["severity"] == "unknown" for d in o["diagnostics"]), o["diagnostics"]
PY
# A --sglang-version that is no release (rules/flag-history.yaml releases,
# SGLang's tags) is said, with the release it is checked as.
expect_rc "--sglang-version 0.5.14, no release" 0 $PDWIZ check --format json --sglang-version 0.5.14 -- python -m sglang.launch_server --model-path m
json_check "--sglang-version 0.5.14: checked as the catalog's SGLang" has sglang-version note "SGLang 0.5.14 is no release (the newest is 0.5.13.post2, rules/flag-history.yaml releases): checked as a release newer than every one known, as the SGLang this catalog models (newer than 0.5.13.post2)"
expect_rc "--sglang-version 0.5.11.post3, no release" 0 $PDWIZ check --format json --sglang-version 0.5.11.post3 -- python -m sglang.launch_server --model-path m
python3 -c 'import json,sys; d=[x for x in json.load(open(sys.argv[1]))["diagnostics"] if x["rule"]=="sglang-version"]; assert d and d[0]["message"].startswith("SGLang 0.5.11.post3 is no release (rules/flag-history.yaml releases): checked as 0.5.11, the newest release before it;"), d' "$T/out" && ok || bad "--sglang-version 0.5.11.post3: $(head -c 400 "$T/out")"
expect_rc "--sglang-version 0.5.13.post2, a release" 0 $PDWIZ check --format json --sglang-version 0.5.13.post2 -- python -m sglang.launch_server --model-path m
python3 -c 'import json,sys; d=[x for x in json.load(open(sys.argv[1]))["diagnostics"] if x["rule"]=="sglang-version"]; assert d and d[0]["message"].startswith("checked for SGLang 0.5.13.post2:"), d' "$T/out" && ok || bad "--sglang-version 0.5.13.post2: $(head -c 400 "$T/out")"
# checked as 0.4.8.post1: that release's flags (--enable-deepep-moe was
# removed in 0.5.4.post1), with its note
expect_rc "--sglang-version 0.4.8.post5 is checked as 0.4.8.post1" 0 $PDWIZ check --format json --sglang-version 0.4.8.post5 -- python -m sglang.launch_server --model-path m --enable-deepep-moe
grep -q '"rule":"flag-history","severity":"note","message":"--enable-deepep-moe is accepted by SGLang 0.4.8.post1' "$T/out" && ok || bad "--sglang-version 0.4.8.post5: $(head -c 600 "$T/out")"
# A placeholder array element ('your decode ip1') is unknown, not split words.
printf "D_IP=('your decode ip1' 'your decode ip2')\npython -m sglang.launch_server --model-path m --disaggregation-mode decode --dist-init-addr \${D_IP[0]}:5000 --nnodes 2 --node-rank 0 --tp 16\n" >"$T/ph-arr.sh"
expect_rc "placeholder array element" 0 $PDWIZ check --format json "$T/ph-arr.sh"
json_check "placeholder array element: no unrecognized words" lacks argparse-unrecognized "$T/ph-arr.sh"
NO_COLOR=1 $PDWIZ check "$T/old.sh" 2>&1 | grep -q "hint: --enable-deepep-moe was replaced by --moe-a2a-backend deepep (deprecated in SGLang 0.4.10.post2, rejected from 0.5.3rc2, removed in 0.5.4.post1)" && ok || bad "removed flag: migration hint"
expect_rc "old flag on its release: accepted" 0 $PDWIZ check --format json --sglang-version 0.4.8.post1 "$T/old.sh"
json_check "old flag on its release: note" has flag-history note "" "$T/old.sh"
json_check "old flag on its release: not unrecognized" lacks argparse-unrecognized "$T/old.sh"
expect_rc "old flag when rejected" 1 $PDWIZ check --format json --sglang-version v0.5.3 "$T/old.sh"
json_check "rejected: SGLang's message" has flag-rejected error "NOTE: --enable-deepep-moe is deprecated. Please set \`--moe-a2a-backend\` to 'deepep' instead." "$T/old.sh"
expect_rc "upgrade target: removed" 1 $PDWIZ check --format json --sglang-version 0.5.18 "$T/old.sh"
json_check "upgrade target: unrecognized" has argparse-unrecognized error "unrecognized arguments: --enable-deepep-moe" "$T/old.sh"
printf '%s\n' "python -m sglang.launch_server --model-path m --moe-a2a-backend deepep" > "$T/new.sh"
expect_rc "flag newer than the release" 1 $PDWIZ check --format json --sglang-version 0.4.8.post1 "$T/new.sh"
json_check "newer flag: unrecognized there" has argparse-unrecognized error "unrecognized arguments: --moe-a2a-backend deepep" "$T/new.sh"
expect_rc "newer flag, no version" 0 $PDWIZ check "$T/new.sh"
printf '%s\n' "python -m sglang.launch_server --model-path m --pdlb-url http://lb:8000 --tp 2" > "$T/pdlb.sh"
expect_rc "old flag with a value on its release" 0 $PDWIZ check --format json --sglang-version 0.4.8.post1 "$T/pdlb.sh"
json_check "its value is not an extra argument" lacks argparse-unrecognized "$T/pdlb.sh"
expect_rc "bad --sglang-version" 2 $PDWIZ check --sglang-version 0.5.x "$T/new.sh"
expect_rc "--sglang-version dev: unknown, accepted" 0 $PDWIZ check --sglang-version dev "$T/new.sh"
# A commit of main that rules/flag-history.yaml names is a version: that
# tree's own flags and choices (the inventory's main line), and the rules
# whose range holds it (cp-platform is after 3391ab3712: a later main's).
expect_rc "--sglang-version main@3391ab3712: its own choices" 1 $PDWIZ check --format json --sglang-version main@3391ab3712 -- python -m sglang.launch_server --model-path m --moe-a2a-backend deepep_v2
json_check "commit version: the tree's choices" has argparse-choice error "argument --moe-a2a-backend: invalid choice: 'deepep_v2' (choose from 'none', 'deepep', 'mooncake', 'nixl', 'mori', 'ascend_fuseep', 'flashinfer', 'megamoe', 'pplx', 'ascend_tp')"
python3 -c 'import json,sys; d=[x for x in json.load(open(sys.argv[1]))["diagnostics"] if x["rule"]=="sglang-version"]; assert d and d[0]["message"].startswith("checked for SGLang main@3391ab3712 (main of 2026-08-19, after release 0.5.13.post2): its flags and their choices are its own"), d' "$T/out" && ok || bad "commit version: note: $(head -c 400 "$T/out")"
expect_rc "no version: the catalog's choices" 0 $PDWIZ check --format json -- python -m sglang.launch_server --model-path m --moe-a2a-backend deepep_v2
CPH="python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3.2 --tp 8 --disaggregation-mode prefill --enable-prefill-cp --cp-strategy interleave"
expect_rc "a later main's rule without a version" 1 $PDWIZ check --format json --gpu MI300X -- $CPH
json_check "cp-platform without a version" has cp-platform error ""
expect_rc "a later main's rule at the commit: not checked" 0 $PDWIZ check --format json --gpu MI300X --sglang-version 3391ab3 -- $CPH
json_check "cp-platform at main@3391ab3712" has cp-platform unknown ""
NO_COLOR=1 $PDWIZ check --gpu MI300X --sglang-version 3391ab3712 -- $CPH 2>&1 | grep -q "could not check for SGLang main@3391ab3712: this rule models SGLang newer than main@3391ab3712" && ok || bad "commit version: out-of-range note"
expect_rc "an unknown commit" 2 $PDWIZ check --sglang-version deadbeef1 "$T/new.sh"
$PDWIZ check --sglang-version main@deadbee "$T/new.sh" 2>&1 | grep -q "'main@deadbee' is no release number and no commit of SGLang main that pdwiz knows" && ok || bad "unknown commit: message"
$PDWIZ --version | grep -q "^SGLang commit known as a version: main@3391ab3712 (2026-08-19, after release 0.5.13.post2), with its own flags" && ok || bad "--version names the commits"
DCP="python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8 --disaggregation-mode decode --dcp-size 8 --disaggregation-transfer-backend mori"
printf '%s\n' "$DCP" > "$T/dcp.sh"
expect_rc "ranged rule in range" 1 $PDWIZ check --format json --sglang-version 0.5.18 "$T/dcp.sh"
json_check "ranged rule fires in range" has dec-dcp-backend error "" "$T/dcp.sh"
# A rule's release range, in a data directory without the flag inventory
# (with it, no release has --dcp-size: below).
NI=$T/noinv
mkdir -p "$NI" && cp -R rules forms "$NI"/ && rm -f "$NI/rules/catalog.img" "$NI/rules/flag-inventory.tsv"
expect_rc "ranged rule out of range" 0 env PDWIZ_DATADIR="$NI" $PDWIZ check --format json --sglang-version 0.5.9 "$T/dcp.sh"
json_check "out of range: not checked" has dec-dcp-backend unknown "" "$T/dcp.sh"
NO_COLOR=1 PDWIZ_DATADIR="$NI" $PDWIZ check --sglang-version 0.5.9 "$T/dcp.sh" 2>&1 | grep -q "could not check for SGLang 0.5.9: this rule models SGLang newer than 0.5.13.post2" && ok || bad "out of range: note text"
# A release of the inventory has no --dcp-size (only main has it).
expect_rc "main-only flag on a release" 1 $PDWIZ check --format json --sglang-version 0.5.9 "$T/dcp.sh"
json_check "main-only flag: unrecognized" has argparse-unrecognized error "unrecognized arguments: --dcp-size 8" "$T/dcp.sh"
cat > "$T/dv.yaml" <<'Y'
pdwiz: 1
name: "old"
sglang: "v0.4.8.post1"
model:
  path: "deepseek-ai/DeepSeek-V3"
shared:
  options:
    disaggregation_transfer_backend: "mori"
roles:
  prefill:
    instances: 1
    hosts: ["10.0.0.1"]
    options:
      tp_size: 8
  decode:
    instances: 1
    hosts: ["10.0.0.2"]
    options:
      tp_size: 8
      dcp_size: 8
  router: {}
Y
expect_rc "deployment sglang key: out of range" 0 env PDWIZ_DATADIR="$NI" $PDWIZ check --format json "$T/dv.yaml"
json_check "deployment sglang key: not checked" has dec-dcp-backend unknown "" "$T/dv.yaml"
expect_rc "deployment sglang key: the release lacks dcp_size" 1 $PDWIZ check --format json "$T/dv.yaml"
expect_rc "--sglang-version wins over the key" 1 $PDWIZ check --format json --sglang-version 0.5.18 "$T/dv.yaml"
json_check "--sglang-version wins: rule fires" has dec-dcp-backend error "" "$T/dv.yaml"
# The key survives export and import: the script states it
# (PDWIZ_SGLANG_VERSION), check applies it as the file's key, import puts
# it back; a commit is a version there too.
$PDWIZ emit --force --format shell "$T/dv.yaml" >"$T/dv.sh" 2>/dev/null
grep -q '^PDWIZ_SGLANG_VERSION=v0.4.8.post1$' "$T/dv.sh" && ok || bad "export: the sglang key: $(grep -n SGLANG "$T/dv.sh")"
expect_rc "export's version: the release lacks dcp_size" 1 $PDWIZ check --format json "$T/dv.sh"
json_check "export's version: unrecognized as for the file" has argparse-unrecognized error ""
expect_rc "export's version, in a data directory without the inventory" 0 env PDWIZ_DATADIR="$NI" $PDWIZ check --format json "$T/dv.sh"
json_check "export's version: not checked as for the file" has dec-dcp-backend unknown ""
$PDWIZ import --keep-going "$T/dv.sh" -o "$T/dv2.yaml" >/dev/null 2>&1
grep -q '^sglang: "v0.4.8.post1"$' "$T/dv2.yaml" && ok || bad "import of the export: sglang key: $(grep -n sglang "$T/dv2.yaml")"
sed 's/^sglang: .*/sglang: "main@3391ab3712"/' "$T/dv.yaml" >"$T/dvc.yaml"
$PDWIZ check --format json "$T/dvc.yaml" >"$T/out" 2>/dev/null
json_check "a commit as the sglang key" has sglang-version note ""
$PDWIZ emit --force --format shell "$T/dvc.yaml" >"$T/dvc.sh" 2>/dev/null && $PDWIZ check --format json "$T/dvc.sh" >"$T/out" 2>/dev/null
python3 -c 'import json,sys; d=[x for x in json.load(open(sys.argv[1]))["diagnostics"] if x["rule"]=="sglang-version"]; assert d and d[0]["message"].startswith("checked for SGLang main@3391ab3712"), d' "$T/out" && ok || bad "export of a commit version: $(head -c 300 "$T/out")"
sed 's/^PDWIZ_SGLANG_VERSION=.*/PDWIZ_SGLANG_VERSION=0.5.x/' "$T/dv.sh" >"$T/dvb.sh"
expect_rc "a bad PDWIZ_SGLANG_VERSION" 2 $PDWIZ check "$T/dvb.sh"
grep -q "dvb.sh:[0-9]*:1: PDWIZ_SGLANG_VERSION: '0.5.x' is not an SGLang release number" "$T/err" && ok || bad "bad PDWIZ_SGLANG_VERSION: $(cat "$T/err")"
# A manifest's server image names the release: import keeps it as the key.
cat >"$T/img.yaml" <<'Y'
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
    - name: prefill
      image: lmsysorg/sglang:v0.5.3.post3
      command: [python3, -m, sglang.launch_server, --model-path, m, --disaggregation-mode, prefill, --disaggregation-ib-device, mlx5_0]
    - name: decode
      image: lmsysorg/sglang:v0.5.3.post3
      command: [python3, -m, sglang.launch_server, --model-path, m, --disaggregation-mode, decode, --port, "30001", --disaggregation-ib-device, mlx5_0]
Y
$PDWIZ import "$T/img.yaml" -o "$T/img-d.yaml" >/dev/null 2>&1
grep -q '^sglang: "0.5.3.post3"$' "$T/img-d.yaml" && ok || bad "import: the image's release: $(head -5 "$T/img-d.yaml")"

# --- the flag inventory (rules/flag-inventory.tsv): each release's own flags
# and choices (issue 23 point 4; each checked against the tag's server_args.py)
inv() {	# name version want-message command-words...
	name=$1 ver=$2 msg=$3; shift 3
	printf 'python -m sglang.launch_server --model-path m %s\n' "$*" > "$T/inv.sh"
	expect_rc "inventory: $name exit" 1 $PDWIZ check --format json --sglang-version "$ver" "$T/inv.sh"
	case $msg in
	*"invalid choice"*) json_check "inventory: $name" has argparse-choice error "$msg" "$T/inv.sh" ;;
	*) json_check "inventory: $name" has argparse-unrecognized error "$msg" "$T/inv.sh" ;;
	esac
}
inv "0.5.13.post2 prefill CP" 0.5.13.post2 "unrecognized arguments: --enable-prefill-cp --cp-strategy zigzag" --enable-prefill-cp --cp-strategy zigzag
inv "0.5.13.post2 decode extra slots" 0.5.13.post2 "unrecognized arguments: --disaggregation-decode-extra-slots 4" --disaggregation-decode-extra-slots 4
inv "0.5.13.post2 host memory mode" 0.5.13.post2 "unrecognized arguments: --hicache-host-memory-mode cache" --hicache-host-memory-mode cache
inv "0.5.10 decode radix cache" 0.5.10 "unrecognized arguments: --disaggregation-decode-enable-radix-cache" --disaggregation-decode-enable-radix-cache
inv "0.5.8 attn-cp-size" 0.5.8 "unrecognized arguments: --attn-cp-size 2" --attn-cp-size 2
inv "0.5.9 a choice of a later release" 0.5.9 "argument --moe-a2a-backend: invalid choice: 'megamoe' (choose from 'none', 'deepep', 'mooncake', 'mori', 'ascend_fuseep', 'flashinfer')" --moe-a2a-backend megamoe
# the migration hint names the release a flag is declared from
printf 'python -m sglang.launch_server --model-path m --disaggregation-decode-enable-radix-cache\n' > "$T/inv.sh"
NO_COLOR=1 $PDWIZ check --sglang-version 0.5.10 "$T/inv.sh" 2>&1 | grep -q "hint: --disaggregation-decode-enable-radix-cache is declared from SGLang 0.5.11 on" && ok || bad "inventory: migration hint"
printf 'python -m sglang.launch_server --model-path m --enable-prefill-cp --cp-strategy zigzag\n' > "$T/inv.sh"
NO_COLOR=1 $PDWIZ check --sglang-version 0.5.13.post2 "$T/inv.sh" 2>&1 | grep -q "hint: --enable-prefill-cp is in no SGLang release up to 0.5.13.post2, only in main" && ok || bad "inventory: main-only hint"
# what the release declares is accepted: the flag where it exists, and a
# choice the release has; a release flag the catalog lacks takes its value
printf 'python -m sglang.launch_server --model-path m --tp 2 --attn-cp-size 2 --moe-a2a-backend mori --disaggregation-decode-enable-radix-cache\n' > "$T/inv.sh"
expect_rc "inventory: 0.5.11 accepts its flags" 0 $PDWIZ check --format json --sglang-version 0.5.11 "$T/inv.sh"
json_check "inventory: no unrecognized at 0.5.11" lacks argparse-unrecognized "$T/inv.sh"
printf 'python -m sglang.launch_server --model-path m --disaggregation-decode-tp 2 --tp 2\n' > "$T/inv.sh"
expect_rc "inventory: a removed flag on a release that has it" 0 $PDWIZ check --format json --sglang-version 0.5.9 "$T/inv.sh"
json_check "inventory: removed flag's value is its own" lacks argparse-unrecognized "$T/inv.sh"
# a damaged inventory is a clear error naming its line
BI=$T/badinv
mkdir -p "$BI" && cp -R rules forms "$BI"/ && rm -f "$BI/rules/catalog.img"
for bad in "R	0.5.9	x|R	0.5.8	y|:2: the releases are not in version order" \
    "R	0.5.9	x|F	--a	0.5.10	a	1	None	-|:2: releases are runs" \
    "R	0.5.9	x|F	--a	0.5.9	a	2	None	-|:2: nargs is 0, 1, ?, * or +" \
    "R	0.5.9	x|F	--a	0.5.9	a	1	None	-|R	0.5.10	y|:3: the releases come before the flags" \
    "R	0.5.9	x|F	--a	0.5.9	a	1	None	-|F	--a	0.5.9	a	0	None	-|: --a: two rows for one release"; do
	want=${bad##*|}
	printf '%s\n' "${bad%|*}" | tr '|' '\n' >"$BI/rules/flag-inventory.tsv"
	PDWIZ_DATADIR="$BI" $PDWIZ check "$T/inv.sh" >"$T/out" 2>"$T/err"; rc=$?
	[ $rc = 2 ] && grep -qF "flag-inventory.tsv$want" "$T/err" && ok ||
	    bad "bad inventory ($want): exit $rc: $(cat "$T/err")"
done
# a release's argparse takes a unique prefix of its own flags (--tp)
printf 'python -m sglang.launch_server --model-path m --tp 2\n' > "$T/inv.sh"
expect_rc "inventory: prefix of a release flag" 0 $PDWIZ check --format json --sglang-version 0.5.9 "$T/inv.sh"
# a prefix the catalog finds ambiguous is decided by the release's flags
printf 'python -m sglang.launch_server --model-path m --disaggregation-decode-enable-r\n' > "$T/inv.sh"
expect_rc "inventory: a prefix unique in the release" 0 $PDWIZ check --format json --sglang-version 0.5.11 "$T/inv.sh"
expect_rc "inventory: the same prefix before the release" 1 $PDWIZ check --format json --sglang-version 0.5.10 "$T/inv.sh"
json_check "inventory: prefix unrecognized before it" has argparse-unrecognized error "unrecognized arguments: --disaggregation-decode-enable-r" "$T/inv.sh"

# --- the five seed scenarios: exact SGLang message; the fix checks clean ---
seed() {
	name=$1 rule=$2 msg=$3 before=$4 after=$5
	printf '%s\n' "$before" > "$T/before.sh"
	expect_rc "$name before exit" 1 $PDWIZ check --format json "$T/before.sh"
	json_check "$name message" has "$rule" error "$msg"
	printf '%s\n' "$after" > "$T/after.sh"
	expect_rc "$name after exit" 0 $PDWIZ check --format json "$T/after.sh"
	json_check "$name after clean" clean
}
seed seed-000 cp-dsa-cache-layer-split-backend \
    "--enable-dsa-cache-layer-split currently only supports the mooncake transfer backend (mooncake / mooncake_tcp). Got --disaggregation-transfer-backend 'nixl'. mori/nixl support will be added later by the community." \
    "$DSA_P --disaggregation-transfer-backend nixl" \
    "$DSA_P --disaggregation-transfer-backend mooncake"
seed seed-001 cp-dsa-cache-layer-split-pp \
    "--enable-dsa-cache-layer-split is not supported with pipeline parallelism (pp_size > 1) yet. It requires prefill context parallelism, and CP + PP has not been validated for this feature." \
    "$DSA_P --tp-size 8 --pp-size 2" \
    "$DSA_P --tp-size 8 --pp-size 1"
seed seed-002 stg-backend \
    "SGLANG_DISAGG_STAGING_BUFFER requires disaggregation_transfer_backend='mooncake' or 'nixl', got 'mori'." \
    "SGLANG_DISAGG_STAGING_BUFFER=1 python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-transfer-backend mori" \
    "SGLANG_DISAGG_STAGING_BUFFER=1 python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-transfer-backend mooncake"
seed seed-003 dec-offload-storage \
    "The argument disaggregation-decode-enable-offload-kvcache is only supported when hicache-storage-backend is provided." \
    "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-decode-enable-offload-kvcache" \
    "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-decode-enable-offload-kvcache --hicache-storage-backend mooncake"
seed seed-004 stg-pp-mooncake \
    "SGLANG_DISAGG_STAGING_BUFFER with pp_size > 1 is only supported by Mooncake." \
    "export SGLANG_DISAGG_STAGING_BUFFER=1
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-transfer-backend nixl --pipeline-parallel-size 2" \
    "export SGLANG_DISAGG_STAGING_BUFFER=1
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-transfer-backend mooncake --pipeline-parallel-size 2"

# The seed pages' own "after" lines name flags SGLang does not have
# (--cp-size, --hicache-storage-backend-mooncake-config-path): pdwiz must say
# so, with a hint, and nothing else.
printf '%s\n' "$DSA_P --pp-size 1 --cp-size 2" > "$T/s1.sh"
expect_rc "seed-001 page after: fake flag reported" 1 $PDWIZ check --format json "$T/s1.sh"
json_check "seed-001 page after: only argparse" only argparse-unrecognized

# --- documented launch commands check clean ---
for f in share/examples/*.sh share/examples/config.yaml; do
	expect_rc "example $f" 0 $PDWIZ check --format json "$f"
	json_check "example $f clean" clean
done

# --- facts from a local model directory's config.json ---
mkdir -p "$T/dsa" "$T/llama"
printf '{"architectures": ["DeepseekV32ForCausalLM"], "kv_lora_rank": 512, "index_topk": 2048, "n_routed_experts": 256}\n' > "$T/dsa/config.json"
printf '{"architectures": ["LlamaForCausalLM"], "num_attention_heads": 32}\n' > "$T/llama/config.json"
SPLIT="--disaggregation-mode prefill --enable-prefill-cp --cp-strategy interleave --enable-dsa-cache-layer-split"
# A local config.json gives the attention heads: 28 do not split over TP 8.
mkdir -p "$T/qwen7"
printf '{"architectures": ["Qwen2ForCausalLM"], "num_attention_heads": 28, "num_key_value_heads": 4}\n' > "$T/qwen7/config.json"
expect_rc "local model dir: heads against --tp-size" 1 $PDWIZ check --format json -- python -m sglang.launch_server --model-path "$T/qwen7" --tp-size 8
json_check "local model dir: model-tp-heads" has model-tp-heads error "assert self.total_num_heads % tp_size == 0"
expect_rc "local model dir: TP 4 divides 28 heads" 0 $PDWIZ check --format json -- python -m sglang.launch_server --model-path "$T/qwen7" --tp-size 4
json_check "local model dir: TP 4 clean" lacks model-tp-heads
expect_rc "local DSA model dir" 1 $PDWIZ check --format json --platform cuda -- python -m sglang.launch_server --model-path "$T/dsa" $SPLIT --disaggregation-transfer-backend nixl
json_check "local DSA model: backend rule" has cp-dsa-cache-layer-split-backend error ""
expect_rc "local Llama model dir" 1 $PDWIZ check --format json --platform cuda -- python -m sglang.launch_server --model-path "$T/llama" $SPLIT
json_check "local Llama model: not DSA" has cp-dsa-cache-layer-split-model error "--enable-dsa-cache-layer-split is only supported for DSA (DeepSeek Sparse Attention) models."
expect_rc "unknown model" 0 $PDWIZ check --format json --platform cuda -- python -m sglang.launch_server --model-path /nowhere/model $SPLIT
json_check "unknown model: could not check" has cp-dsa-cache-layer-split-model unknown ""

# --- argparse-faithful errors ---
expect_rc "unknown flag" 1 $PDWIZ check -- --model-path m --tp-sizee 2
grep -q "error: unrecognized arguments: --tp-sizee 2 \[argparse-unrecognized\]" "$T/out" && ok || bad "unknown flag message"
grep -q "hint: did you mean --tp-size?" "$T/out" && ok || bad "did-you-mean hint"
expect_rc "bad choice" 1 $PDWIZ check -- --model-path m --disaggregation-transfer-backend rdma
grep -q "argument --disaggregation-transfer-backend: invalid choice: 'rdma' (choose from 'mooncake', 'nixl', 'ascend', 'fake', 'mori', 'mooncake_tcp')" "$T/out" && ok || bad "choice message"
expect_rc "bad int" 1 $PDWIZ check -- --model-path m --tp-size x
grep -q "argument --tp-size: invalid int value: 'x'" "$T/out" && ok || bad "int message"

# --- text format: FILE:LINE:COL: severity: message [rule] + fix ---
printf '# prefill\nexport SGLANG_DISAGG_STAGING_BUFFER=1\npython -m sglang.launch_server \\\n  --model-path meta-llama/Llama-3.1-8B-Instruct \\\n  --disaggregation-mode prefill \\\n  --disaggregation-transfer-backend ascend\n' > "$T/l.sh"
expect_rc "text exit" 1 env NO_COLOR=1 $PDWIZ check "$T/l.sh"
grep -q "^$T/l.sh:6:3: error: SGLANG_DISAGG_STAGING_BUFFER requires disaggregation_transfer_backend='mooncake' or 'nixl', got 'ascend'. \[stg-backend\]$" "$T/out" && ok || bad "text line format"
grep -q "^    fix: " "$T/out" && ok || bad "text fix line"
grep -q "$(printf '\033')" "$T/out" && bad "colour when piped" || ok

# fit fixes, fewest GPUs first: Llama-3.1-70B at TP 1 on L40S is offered TP 4
# (TP 2 does not clear fit-weights, so it is not offered) before more nodes
expect_rc "fit-weights on L40S" 1 env NO_COLOR=1 $PDWIZ check --gpu L40S -- python -m sglang.launch_server --model-path meta-llama/Llama-3.1-70B-Instruct
grep "^    fix: " "$T/out" | head -1 | grep -q -- "(--tp-size 4)$" && ok || bad "fit-weights: the first fix is not TP 4: $(grep 'fix:' "$T/out")"

# A fit fix is listed only when applying it clears the diagnostic on the
# machines it names: at TP 2 no fix is TP 2 (the current value); each listed
# fix, applied to the command, clears fit-weights (checked here by running
# it); "N nodes of G" names hosts of G GPUs. A command states no machine:
# 8 GPUs each, as a deployment file that does not say.
L70="python -m sglang.launch_server --model-path meta-llama/Llama-3.1-70B-Instruct"
expect_rc "fit-weights at TP 2 (json)" 1 $PDWIZ check --format json --gpu L40S -- $L70 --tp-size 2
python3 - "$T/out" "$PDWIZ" <<'PY' && ok || bad "fit-weights at TP 2: a listed fix does not clear it"
import json, re, subprocess, sys
d = [x for x in json.load(open(sys.argv[1]))["diagnostics"] if x["rule"] == "fit-weights"][0]
assert d["fixes"], d
cmd = "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-70B-Instruct".split()
for f in d["fixes"]:
    s = f["set"]
    assert s.get("tp_size") != 2, f
    m = re.search(r"\((\d+) nodes of (\d+)\)", f["label"])
    if m:
        assert s.get("nnodes") == int(m.group(1)) and s["tp_size"] == int(m.group(1)) * int(m.group(2)) == s["nnodes"] * 8, f
    if "one node" in f["label"]:
        assert s["tp_size"] <= 8 and s.get("nnodes", 1) == 1, f
    args = ["--gpu", s.get("gpu", "L40S"), "--"] + cmd + ["--tp-size", str(s.get("tp_size", 2))]
    if "nnodes" in s:
        args += ["--nnodes", str(s["nnodes"]), "--dist-init-addr", "10.0.0.1:5000"]
    r = subprocess.run([sys.argv[2], "check", "--format", "json"] + args, capture_output=True, text=True)
    rules = [x["rule"] for x in json.loads(r.stdout)["diagnostics"] if x["severity"] == "error"]
    assert "fit-weights" not in rules, (f, rules)
PY

# On hosts of 4 GPUs (gpus_per_host: 4) the fixes spread the weights over
# nodes of 4: none names 8 GPUs on one node or nodes of 8 (they did, from
# the rule's labels, verified on the server alone); the same in the text,
# the JSON and the exported script (PDWIZ_GPUS_PER_HOST=4).
cp tests/fit/l40s-70b-tp2-hosts4.yaml "$T/fit4.yaml"
expect_rc "fit-weights on 4-GPU hosts" 1 env NO_COLOR=1 $PDWIZ check "$T/fit4.yaml"
fit4_text() {
	grep -q "^    fix: split the weights over 4 GPUs (--tp-size 4)$" "$T/out" &&
	    grep -q "^    fix: split the weights over 8 GPUs (2 nodes of 4) (--tp-size 8, --nnodes 2)$" "$T/out" &&
	    ! grep "^    fix: " "$T/out" | grep -q "one node\|nodes of 8\|(--tp-size 2)\|(--tp-size 8)$"
}
fit4_text && ok || bad "fit-weights on 4-GPU hosts: $(grep 'fix:' "$T/out")"
expect_rc "fit-weights on 4-GPU hosts (json)" 1 $PDWIZ check --format json "$T/fit4.yaml"
python3 - "$T/out" <<'PY' && ok || bad "fit-weights on 4-GPU hosts (json): $(head -c 600 "$T/out")"
import json, sys
ds = [x for x in json.load(open(sys.argv[1]))["diagnostics"] if x["rule"] == "fit-weights"]
assert len(ds) == 2, ds
for d in ds:
    sets = [f["set"] for f in d["fixes"]]
    assert {"tp_size": 4} in sets and {"tp_size": 8, "nnodes": 2} in sets, sets
    for f in d["fixes"]:
        s = f["set"]
        if "tp_size" in s:
            assert s["tp_size"] != 2 and s["tp_size"] // s.get("nnodes", 1) <= 4, f
            assert s.get("nnodes", 1) == 1 or s["tp_size"] == 4 * s["nnodes"], f
        assert "one node" not in f["label"] and "nodes of 8" not in f["label"], f
PY
mkdir -p "$T/fit4.e"
$PDWIZ emit --force --format shell -o "$T/fit4.e" "$T/fit4.yaml" >/dev/null 2>&1
grep -q '^PDWIZ_GPUS_PER_HOST=4$' "$T/fit4.e/launch.sh" && ok || bad "fit4: the export states no GPUs per host"
expect_rc "fit-weights on 4-GPU hosts (exported script)" 1 env NO_COLOR=1 $PDWIZ check "$T/fit4.e/launch.sh"
fit4_text && ok || bad "fit-weights on 4-GPU hosts (exported script): $(grep 'fix:' "$T/out")"

# SGLang's default fraction by role (main) and by release (--sglang-version):
# DeepSeek-V3 on H200, TP 8, DP attention 8, DeepEP: decode 0.818 and prefill 0.886
# at main, 0.769 for both at 0.5.13.post2 (tests/unit/test_fit.c works them out)
printf 'python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --disaggregation-mode prefill --disaggregation-ib-device mlx5_0 --tp-size 8 --dp-size 8 --enable-dp-attention --moe-a2a-backend deepep --trust-remote-code --port 30000\npython -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --disaggregation-mode decode --disaggregation-ib-device mlx5_0 --tp-size 8 --dp-size 8 --enable-dp-attention --moe-a2a-backend deepep --trust-remote-code --port 30001\n' >"$T/dsv3-pd.sh"
NO_COLOR=1 $PDWIZ check --gpu H200 "$T/dsv3-pd.sh" >"$T/out" 2>&1
grep -q "dsv3-pd.sh:1:1: note: memory per GPU: .*mem-fraction-static 0.886 (SGLang default)" "$T/out" && grep -q "dsv3-pd.sh:2:1: note: memory per GPU: .*mem-fraction-static 0.818 (SGLang default)" "$T/out" && ok || bad "fit by role: $(grep 'memory per' "$T/out")"
NO_COLOR=1 $PDWIZ check --gpu H200 --sglang-version 0.5.13.post2 "$T/dsv3-pd.sh" >"$T/out" 2>&1
[ "$(grep -c 'mem-fraction-static 0.769 (SGLang default)' "$T/out")" = 2 ] && ok || bad "fit at 0.5.13.post2: $(grep 'memory per' "$T/out")"

# --fact model_id: what a local --model-path holds; the tables are read for it
expect_rc "local path, no model_id: weights unknown" 0 env NO_COLOR=1 $PDWIZ check --gpu H200 -- python -m sglang.launch_server --model-path /srv/models/r1 --tp 8
grep -q "weights unknown: model" "$T/out" && ok || bad "local path without model_id: $(cat "$T/out")"
expect_rc "local path, model_id: the estimate" 0 env NO_COLOR=1 $PDWIZ check --gpu H200 --fact model_id=deepseek-ai/DeepSeek-R1 -- python -m sglang.launch_server --model-path /srv/models/r1 --tp 8
grep -q "deepseek-ai/DeepSeek-V3 on H200-141GB, tp 8: weights 79.2 GiB/GPU" "$T/out" && ok || bad "local path with model_id: $(cat "$T/out")"
expect_rc "model_id: the model's facts too" 0 env NO_COLOR=1 $PDWIZ check --fact model_id=deepseek-ai/DeepSeek-R1 -- python -m sglang.launch_server --model-path /srv/models/r1 --tp 8
grep -q "0 not checked" "$T/out" && ! grep -q "need model architecture" "$T/out" && ok || bad "model_id facts: $(cat "$T/out")"
expect_rc "no model_id: the architecture unknown" 0 env NO_COLOR=1 $PDWIZ check -- python -m sglang.launch_server --model-path /srv/models/r1 --tp 8
grep -q "needs model architecture" "$T/out" && ok || bad "no model_id: $(cat "$T/out")"
# --gpu-mem GiB: an accelerator the table does not know, or another figure for one it does
expect_rc "--gpu-mem alone" 1 env NO_COLOR=1 $PDWIZ check --gpu-mem 48 -- python -m sglang.launch_server --model-path meta-llama/Llama-3.1-70B-Instruct
grep -q "on 48 GiB GPU, tp 1: weights 131.5 GiB/GPU exceed the 47.0 GiB free" "$T/out" && grep -q "free on a 48 GiB GPU before" "$T/out" && ok || bad "--gpu-mem alone: $(cat "$T/out")"
expect_rc "--gpu-mem with --gpu" 0 env NO_COLOR=1 $PDWIZ check --gpu H100 --gpu-mem 94 -- python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct
grep -q "on H100-SXM-80GB with 94 GiB, tp 1: weights 15.1 GiB/GPU, mem-fraction-static 0.856 " "$T/out" && ok || bad "--gpu-mem with --gpu: $(cat "$T/out")"
# A TP or PP below 1 is no split to estimate (it once looped for ever
# looking for the TP that fits): unknown, with the size as given.
for tp in 0 -1; do
	expect_rc "--gpu with --tp-size $tp ends" 0 timeout 20 $PDWIZ check --gpu H100 -- python -m sglang.launch_server --model-path meta-llama/Llama-3.1-70B-Instruct --tp-size $tp
	grep -q "tp $tp: weights unknown: a tensor or pipeline parallel size below 1" "$T/out" && ok || bad "--tp-size $tp: not unknown: $(cat "$T/out")"
done
printf 'pdwiz: 1\nmodel:\n  path: meta-llama/Llama-3.1-70B-Instruct\n  facts: {gpu: L40S}\nshared:\n  options: {tp_size: 0, disaggregation_ib_device: mlx5_0}\nroles:\n  prefill: {instances: 1}\n  decode: {instances: 1}\n  router: {}\n' >"$T/tp0.yaml"
expect_rc "a deployment with tp_size 0 and a gpu ends" 0 timeout 20 $PDWIZ check "$T/tp0.yaml"
expect_rc "--gpu-mem not a number" 2 $PDWIZ check --gpu-mem x -- python -m sglang.launch_server --model-path m

# colour on a terminal (script(1) gives a pty), never with NO_COLOR
if command -v script >/dev/null 2>&1; then
	script -qc "$PDWIZ check -- --model-path m --tp-sizee 2" /dev/null > "$T/tty" 2>&1
	grep -q "$(printf '\033')\[1;31merror" "$T/tty" && ok || bad "no colour on a terminal"
	NO_COLOR=1 script -qc "$PDWIZ check -- --model-path m --tp-sizee 2" /dev/null > "$T/tty" 2>&1
	grep -q "$(printf '\033')" "$T/tty" && bad "colour with NO_COLOR on a terminal" || ok
fi

# --- --config YAML: loader rules ---
printf 'model-path: m\nenable-tp-lm-head-all-to-all: true\n' > "$T/c.yaml"
expect_rc "config unsupported action" 1 $PDWIZ check --format json "$T/c.yaml"
json_check "config unsupported action msg" has config-unsupported-action error "Unsupported config option 'enable-tp-lm-head-all-to-all' with action 'BooleanOptionalAction'"
printf 'model-path: m\ndisaggregation-mode: decode\nenable-hierarchical-cache: true\n' > "$T/d.yaml"
expect_rc "config rules run" 1 $PDWIZ check --format json "$T/d.yaml"
json_check "config decode hicache" has hc-radix-exclusive error ""
# YAML 1.1 scalars as SGLang's yaml.safe_load reads them (table: tests/unit/pyval.tsv)
printf 'model-path: meta-llama/Llama-3.1-8B-Instruct\ntp-size: 0b10\ntrust-remote-code: on\nenable-metrics: Off\nmem-fraction-static: .5\nport: 1_0000\ndist-timeout: 1:30\nwatchdog-timeout: .inf\nhost: 2002-12-14\nnnodes: 0x1\n' > "$T/y11.yaml"
expect_rc "config YAML 1.1 spellings check clean" 0 $PDWIZ check "$T/y11.yaml"
printf 'model-path: meta-llama/Llama-3.1-8B-Instruct\ntp-size: 010\ndp-size: 4\nenable-dp-attention: yes\n' > "$T/oct.yaml"
expect_rc "config tp-size 010 is 8 (divisible by dp 4)" 0 $PDWIZ check "$T/oct.yaml"
printf 'model-path: meta-llama/Llama-3.1-8B-Instruct\ntp-size: 012\ndp-size: 4\nenable-dp-attention: yes\n' > "$T/oct.yaml"
expect_rc "config tp-size 012 is 10 (not divisible by dp 4)" 1 $PDWIZ check --format json "$T/oct.yaml"
json_check "config tp-size 012 message" has par-dp-attention-adjust-tp-divisible error "AssertionError (SGLang's bare assert, no message): tp_size (10) must be divisible by dp_size (4) when DP attention is enabled"
printf 'model-path: m\ntp-size: 1e3\nport: 0o10\n' > "$T/y12.yaml"
expect_rc "config 1e3 and 0o10 stay strings (invalid int)" 1 $PDWIZ check "$T/y12.yaml"
grep -q "argument --tp-size: invalid int value: '1e3'" "$T/out" && grep -q "argument --port: invalid int value: '0o10'" "$T/out" && ok || bad "1e3 / 0o10: $(cat "$T/out")"
printf 'model-path: m\nhost: =\n' > "$T/yv.yaml"
expect_rc "config value '=' fails safe_load" 1 $PDWIZ check "$T/yv.yaml"
grep -q "config-yaml" "$T/out" && ok || bad "'=' value: $(cat "$T/out")"
# a pasted en dash, em dash or minus sign: the hint names the option and the dash
expect_rc "pasted dashes" 1 $PDWIZ check -- python -m sglang.launch_server --model-path m –tp-size 2 —port 3 −−host x
grep -qF "hint: did you mean --tp-size? (the dash is U+2013); did you mean --port? (the dash is U+2014); did you mean --host? (the dash is U+2212)" "$T/out" && ok || bad "dash hint: $(cat "$T/out")"
# a config error gives its position once
printf 'model-path: m\ntp-size:\n  a: 1\n' > "$T/nest.yaml"
expect_rc "config nested value" 1 $PDWIZ check "$T/nest.yaml"
[ "$(head -1 "$T/out")" = "$T/nest.yaml:3:3: error: value of 'tp-size' is a mapping; SGLang config files are flat (key: value) [config-nested]" ] && ok || bad "config error position: $(head -1 "$T/out")"

# --- the wizard on a terminal it cannot drive: pdwiz's refusal (exit 2) before curses starts ---
wiz_term() {	# NAME TERM-SETTING WANT: on a pty (script) when there is one, and without
	wname=$1 wset=$2 wmsg="pdwiz: the wizard needs a terminal that supports cursor movement; $3; use \`pdwiz check\` / \`pdwiz emit\` for batch use"
	expect_rc "wizard, $wname" 2 env $wset $PDWIZ
	grep -qxF "$wmsg" "$T/err" && ok || bad "wizard, $wname: $(cat "$T/err")"
	if command -v script >/dev/null 2>&1; then
		script -qec "env $wset $PDWIZ" /dev/null </dev/null >"$T/out" 2>&1; rc=$?
		[ $rc = 2 ] && tr -d '\r' <"$T/out" | grep -qxF "$wmsg" && ok || bad "wizard on a pty, $wname: exit $rc: $(cat "$T/out")"
	fi
}
wiz_term "TERM unset" "-u TERM" "TERM is not set"
wiz_term "TERM empty" "TERM=" "TERM is empty"
wiz_term "TERM=dumb" "TERM=dumb" "TERM=dumb cannot move the cursor"
wiz_term "TERM unknown" "TERM=pdwiz-no-such-term" "TERM=pdwiz-no-such-term is not a terminal type this system's terminfo knows"

# --- unusable input: exit 2, clear message ---
expect_rc "missing file" 2 $PDWIZ check "$T/nope.sh"
grep -q "nope.sh: No such file or directory" "$T/err" && ok || bad "missing file message"
printf 'python -m sglang.launch_server --model-path "m\n' > "$T/q.sh"
expect_rc "unterminated quote" 2 $PDWIZ check "$T/q.sh"
grep -q "q.sh:1:.*unterminated" "$T/err" && ok || bad "unterminated quote message"
printf 'a\0b' > "$T/bin.sh"
expect_rc "binary input" 2 $PDWIZ check "$T/bin.sh"
printf 'model-path: [m\n' > "$T/bad.yaml"
expect_rc "bad yaml" 2 $PDWIZ check "$T/bad.yaml"
grep -q "bad.yaml:2:1:" "$T/err" && ok || bad "bad yaml position: $(cat "$T/err")"
printf 'echo hello\n' > "$T/none.sh"
expect_rc "no sglang command: nothing to check" 0 $PDWIZ check "$T/none.sh"
[ ! -s "$T/out" ] && [ ! -s "$T/err" ] && ok || bad "nothing to check is silent without -v: $(cat "$T/out" "$T/err")"
expect_rc "no sglang command, -v" 0 $PDWIZ check -v "$T/none.sh"
grep -qF "$T/none.sh:1:1: note: nothing to check: no SGLang command found" "$T/out" && ok || bad "nothing to check under -v: $(cat "$T/out")"
expect_rc "bad option" 2 $PDWIZ check --frobnicate x
expect_rc "bad format" 2 $PDWIZ check --format xml "$T/l.sh"

# --- what bash runs but is likely a mistake: warnings, exit 0 ---
printf 'python -m sglang.launch_server --model-path m\npython -m sglang.launch_server --model-path m \\\n  --served-model-name "caf\351"\n' > "$T/latin1.sh"
expect_rc "not utf-8: warning only" 0 $PDWIZ check --format json "$T/latin1.sh"
json_check "not utf-8 warning" has input-not-utf8 warning "byte 0xE9 at column 27 is not UTF-8: Python reads arguments as UTF-8, so a value with it is not the text it looks like"
NO_COLOR=1 $PDWIZ check "$T/latin1.sh" > "$T/out" 2>&1
grep -q "^$T/latin1.sh:3:27: warning: byte 0xE9" "$T/out" && ok || bad "not utf-8 line: $(cat "$T/out")"
printf 'python -m sglang.launch_server --model-path m --served-model-name "caf\303\251"\n' > "$T/utf8.sh"
$PDWIZ check --format json "$T/utf8.sh" > "$T/out" 2>/dev/null
json_check "valid utf-8: no warning" lacks input-not-utf8
printf 'python -m sglang.launch_server --model-path m\ncat > cfg.yaml <<EOF\npython -m sglang.launch_server --model-path m --tp-sizee 2\n' > "$T/hd.sh"
NO_COLOR=1 $PDWIZ check "$T/hd.sh" > "$T/out" 2>&1; got=$?
[ "$got" = 0 ] && grep -q "^$T/hd.sh:2:1: warning: the here-document started here is never closed" "$T/out" && ok || bad "unclosed here-document: exit $got: $(cat "$T/out")"

# --- JSON is valid for hostile input ---
printf 'python -m sglang.launch_server --model-path "$(printf \\"\\x01\\t\\")" --served-model-name "\xff\xfe\\\\u0000" --tp-size 2\n' > "$T/h.sh"
$PDWIZ check --format json "$T/h.sh" > "$T/out" 2>/dev/null
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/out" && ok || bad "json on hostile input"

# --- explain, rules, version, help ---
expect_rc "explain" 0 $PDWIZ explain stg-backend
for s in "SGLANG_DISAGG_STAGING_BUFFER requires" "What it means" "Fixes" "Example fix" "Source" "pd_disaggregation_hook.py"; do
	grep -q "$s" "$T/out" && ok || bad "explain lacks '$s'"
done
expect_rc "explain unknown" 2 $PDWIZ explain stg-backnd
grep -q "did you mean 'stg-backend'" "$T/err" && ok || bad "explain did-you-mean"
expect_rc "rules json" 0 $PDWIZ rules --format json
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert len(r) > 150' "$T/out" && ok || bad "rules json"
expect_rc "version" 0 $PDWIZ --version
grep -q "00e1106f4ab55cfb7dceeba2dfbc04b0cc40bb6f" "$T/out" && ok || bad "version lacks commits"
expect_rc "help" 0 $PDWIZ --help

# --- one option parser and one usage text for every command ---
cp "$T/out" "$T/help"
for c in check import emit explain rules coverage; do
	expect_rc "$c --help" 0 $PDWIZ $c --help
	syn=$(head -n 1 "$T/out" | sed 's/^usage: //')
	case $syn in "pdwiz $c"*) ok ;; *) bad "$c --help: first line '$syn'" ;; esac
	grep -qF "$syn" "$T/help" && ok || bad "pdwiz --help lacks '$syn'"
	$PDWIZ help $c >"$T/out2" 2>&1
	cmp -s "$T/out" "$T/out2" && ok || bad "pdwiz help $c differs from $c --help"
	expect_rc "$c -h" 0 $PDWIZ $c -h
	expect_rc "$c unknown option" 2 $PDWIZ $c --bogus=1 x
	grep -qF "pdwiz $c: unknown option --bogus (see pdwiz $c --help)" "$T/err" && ok || bad "$c unknown option message: $(cat "$T/err")"
done
expect_rc "help for no command" 2 $PDWIZ help frobnicate
expect_rc "top-level unknown option" 2 $PDWIZ --bogus
grep -qF "pdwiz: unknown option --bogus" "$T/err" && ok || bad "top-level unknown option message"
expect_rc "emit -o without a value" 2 $PDWIZ emit --format shell share/examples/llama-1p1d-mooncake.yaml -o
grep -qF "pdwiz: -o needs a value" "$T/err" && ok || bad "emit -o message: $(cat "$T/err")"
expect_rc "rules --format without a value" 2 $PDWIZ rules --format
grep -qF "pdwiz: --format needs a value" "$T/err" && ok || bad "rules --format message"
expect_rc "rules --format xml" 2 $PDWIZ rules --format xml
expect_rc "coverage --sglang-catalog without a value" 2 $PDWIZ coverage --sglang-catalog
expect_rc "explain two ids" 2 $PDWIZ explain a b
expect_rc "flag with a value" 2 $PDWIZ check --verbose=1 share/examples/config.yaml
grep -qF "pdwiz: --verbose takes no value" "$T/err" && ok || bad "flag with a value message"
# --opt=value is --opt value; - is standard input; -v is --verbose
for f in share/examples/nixl-deepseek-2p2d.sh share/examples/config.yaml share/examples/llama-1p1d-mooncake.yaml; do
	$PDWIZ check --format json --input auto "$f" >"$T/a" 2>&1
	$PDWIZ check --format=json --input=auto "$f" >"$T/b" 2>&1
	cmp -s "$T/a" "$T/b" && ok || bad "--opt=value differs on $f"
	$PDWIZ check -v "$f" >"$T/a" 2>&1
	$PDWIZ check --verbose "$f" >"$T/b" 2>&1
	cmp -s "$T/a" "$T/b" && ok || bad "-v differs from --verbose on $f"
	case $f in *.sh) in=shell ;; *) in=config ;; esac
	$PDWIZ check --format json --input $in "$f" >"$T/a" 2>&1
	$PDWIZ check --format json --input $in - <"$f" 2>&1 | sed "s|<stdin>|$f|g" >"$T/b"
	cmp -s "$T/a" "$T/b" && ok || bad "- as standard input differs on $f"
done
$PDWIZ rules --format json >"$T/a"
$PDWIZ rules --format=json >"$T/b"
cmp -s "$T/a" "$T/b" && ok || bad "rules --format=json"
expect_rc "import --output" 0 $PDWIZ import --output "$T/imp1.yaml" share/examples/mooncake-llama-1p1d.sh
expect_rc "import -oFILE" 0 $PDWIZ import -o"$T/imp2.yaml" share/examples/mooncake-llama-1p1d.sh
cmp -s "$T/imp1.yaml" "$T/imp2.yaml" && ok || bad "import --output and -oFILE differ"
mkdir -p "$T/emitdir"
expect_rc "emit --output-dir=" 0 $PDWIZ emit --format=shell --output-dir="$T/emitdir" share/examples/llama-1p1d-mooncake.yaml
[ -n "$(ls "$T/emitdir")" ] && ok || bad "emit --output-dir= wrote nothing"

# --- file modes: the umask's, scripts executable, a replaced file keeps its
# own; -o - is standard output ---
mode() { stat -c %a "$1"; }
EX=share/examples/llama-1p1d-mooncake.yaml
for um in 022 077; do
	d="$T/modes$um"
	mkdir -p "$d/cfg"
	(umask $um
	 $PDWIZ emit --format shell -o "$d" $EX && $PDWIZ emit --format runbook -o "$d" $EX &&
	 $PDWIZ emit --format k8s -o "$d" $EX && $PDWIZ emit --format yaml -o "$d" $EX &&
	 $PDWIZ emit --format config -o "$d/cfg" $EX &&
	 $PDWIZ import -o "$d/imported.yaml" share/examples/mooncake-llama-1p1d.sh) 2>"$T/err" ||
	    bad "emit into $d: $(cat "$T/err")"
	if [ $um = 022 ]; then x=755 r=644; else x=700 r=600; fi
	got="$(mode "$d/launch.sh") $(mode "$d/RUNBOOK.md") $(mode "$d/k8s.yaml") $(mode "$d/deployment.yaml") $(mode "$d/cfg/launch.sh") $(mode "$d/cfg/prefill.yaml") $(mode "$d/cfg/decode.yaml") $(mode "$d/imported.yaml")"
	[ "$got" = "$x $r $r $r $x $r $r $r" ] && ok || bad "umask $um: modes $got"
done
chmod 640 "$T/modes022/k8s.yaml"; chmod 750 "$T/modes022/launch.sh"; chmod 600 "$T/modes022/imported.yaml"
(umask 022; $PDWIZ emit --format k8s -o "$T/modes022" $EX && $PDWIZ emit --format shell -o "$T/modes022" $EX &&
 $PDWIZ import -o "$T/modes022/imported.yaml" share/examples/mooncake-llama-1p1d.sh) 2>/dev/null
got="$(mode "$T/modes022/k8s.yaml") $(mode "$T/modes022/launch.sh") $(mode "$T/modes022/imported.yaml")"
[ "$got" = "640 750 600" ] && ok || bad "replaced files do not keep their modes: $got"
mkdir -p "$T/lnk"; printf 'target\n' > "$T/lnk-target"; chmod 700 "$T/lnk-target"; ln -s "$T/lnk-target" "$T/lnk/launch.sh"
(umask 022; $PDWIZ emit --format shell -o "$T/lnk" $EX) && [ ! -L "$T/lnk/launch.sh" ] && [ "$(mode "$T/lnk/launch.sh")" = 700 ] &&
    [ "$(cat "$T/lnk-target")" = target ] && ok || bad "an output path that is a symlink: replaced, target untouched, its mode"
expect_rc "emit into a missing directory" 2 $PDWIZ emit --format shell -o "$T/nodir/sub" $EX
grep -qF "$T/nodir/sub: No such file or directory" "$T/err" && ! grep -q pdwiz-tmp "$T/err" && ok || bad "missing directory message: $(cat "$T/err")"
expect_rc "import into a missing directory" 2 $PDWIZ import -o "$T/nodir/imp.yaml" share/examples/mooncake-llama-1p1d.sh
grep -qxF "pdwiz: $T/nodir/imp.yaml: $T/nodir: No such file or directory" "$T/err" && ok || bad "import: missing directory message: $(cat "$T/err")"
# A script saved with Windows line ends: CR LF ends a line, but inside quotes
# the CR is part of the value (bash keeps it), on import and back out.
printf 'python -m sglang.launch_server --model-path m --disaggregation-mode prefill --served-model-name "x\r\ny" --port 30000\r\npython -m sglang.launch_server --model-path m --disaggregation-mode decode --port 30001 --base-gpu-id 1\r\npython -m sglang_router.launch_router --pd-disaggregation --prefill http://127.0.0.1:30000 --decode http://127.0.0.1:30001 --port 30002\r\n' >"$T/crlf.sh"
expect_rc "import a CR LF script" 0 $PDWIZ import -o "$T/crlf.yaml" "$T/crlf.sh"
grep -qxF '      served_model_name: "x\r\ny"' "$T/crlf.yaml" && ok || bad "CR LF in a quoted word lost its CR on import: $(grep served "$T/crlf.yaml")"
mkdir -p "$T/crlf-out"
expect_rc "emit the CR LF import" 0 $PDWIZ emit --format shell -o "$T/crlf-out" "$T/crlf.yaml"
expect_rc "re-import the emitted script" 0 $PDWIZ import -o "$T/crlf2.yaml" "$T/crlf-out/launch.sh"
grep -qxF '      served_model_name: "x\r\ny"' "$T/crlf2.yaml" && ok || bad "CR in a quoted word changed through emit and import: $(grep served "$T/crlf2.yaml")"
top=$PWD
case $PDWIZ in /*) apdwiz=$PDWIZ ;; *) apdwiz=$top/$PDWIZ ;; esac
# the launch.sh of --format config reads its --config files next to itself ($(dirname "$0")/prefill.yaml)
(cd "$T/modes022/cfg" && $apdwiz check launch.sh) >"$T/out" 2>&1 && ! grep -q ": error:" "$T/out" && ok || bad "check of the config launch.sh in its directory: $(cat "$T/out")"
$PDWIZ check --format json "$T/modes022/cfg/launch.sh" >"$T/out" 2>&1
python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["diagnostics"]; bad=[x["rule"] for x in d if x["severity"]=="error"]; assert not bad, bad' "$T/out" && ok || bad "check of the config launch.sh from elsewhere: $(head -c 600 "$T/out")"
printf 'python -m sglang.launch_server --config "$CFG_DIR/p.yaml" --tp-size 2\n' > "$T/cfgvar.sh"
expect_rc "a --config path known only at run time" 0 $PDWIZ check --format json "$T/cfgvar.sh"
json_check "--config path known only at run time: could not check" has config-unknown unknown ""
json_check "--config path known only at run time: no false errors" lacks argparse-required
(cd "$T" && $apdwiz import -o - "$top/share/examples/mooncake-llama-1p1d.sh" >"$T/imp-" 2>/dev/null) && ok || bad "import -o -"
[ ! -e "$T/-" ] && cmp -s "$T/imp-" "$T/imp1.yaml" && ok || bad "import -o - is not standard output"
(cd "$T" && $apdwiz emit --format shell -o - "$top/$EX" >"$T/emit-" 2>/dev/null) && ok || bad "emit -o -"
[ ! -e "$T/-" ] && $PDWIZ emit --format shell $EX | cmp -s - "$T/emit-" && ok || bad "emit -o - is not standard output"

# --- an output path that is a device, a FIFO or a socket is refused, not
# replaced by a regular file (as root, import -o /dev/null replaced the
# machine's /dev/null); one that names an open descriptor (/dev/stdout,
# /dev/stderr, /proc/self/fd/N) is written in place. The devices are made
# here, never the machine's own. ---
IMP=share/examples/mooncake-llama-1p1d.sh
mkdir -p "$T/dev" "$T/devout"
mkfifo "$T/dev/fifo" "$T/devout/launch.sh"
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$T/dev/sock"
devs="fifo sock"
if mknod "$T/dev/null" c 1 3 2>/dev/null && mknod "$T/dev/full" c 1 7 && mknod "$T/dev/loop" b 7 0; then
	devs="$devs null full loop"
else
	echo "SKIP: outputs that are devices need root (mknod)"
fi
refused=0
for f in $devs; do
	case $f in
	fifo) kind="a FIFO" t=-p ;;
	sock) kind="a socket" t=-S ;;
	loop) kind="a block device" t=-b ;;
	*) kind="a character device" t=-c ;;
	esac
	timeout 10 $PDWIZ import -o "$T/dev/$f" $IMP >"$T/out" 2>"$T/err" </dev/null; rc=$?
	if [ $rc = 2 ] && [ $t "$T/dev/$f" ] &&
	    grep -qxF "pdwiz: $T/dev/$f: not a regular file ($kind); pdwiz will not replace it with its output" "$T/err"; then
		ok; refused=$((refused + 1))
	else
		bad "import -o $kind: exit $rc, $(ls -l "$T/dev/$f"): $(cat "$T/err")"
	fi
done
timeout 10 $PDWIZ emit --format shell -o "$T/devout" $EX >"$T/out" 2>"$T/err" </dev/null; rc=$?
[ $rc = 2 ] && [ -p "$T/devout/launch.sh" ] && grep -qF "$T/devout/launch.sh: not a regular file (a FIFO)" "$T/err" && ok ||
    bad "emit onto a FIFO: exit $rc: $(cat "$T/err")"
timeout 10 env PDWIZ_DATADIR="$PWD" $PDWIZ compile-catalog -o "$T/dev/fifo" >"$T/out" 2>"$T/err" </dev/null; rc=$?
[ $rc = 2 ] && [ -p "$T/dev/fifo" ] && grep -qF "$T/dev/fifo: not a regular file (a FIFO)" "$T/err" && ok ||
    bad "compile-catalog -o a FIFO: exit $rc: $(cat "$T/err")"
[ -z "$(ls "$T/dev" "$T/devout" | grep pdwiz-tmp)" ] && ok || bad "refused outputs left temporary files: $(ls "$T/dev" "$T/devout")"
$PDWIZ import -o /proc/self/fd/1 $IMP >"$T/inplace" 2>"$T/err" && cmp -s "$T/inplace" "$T/imp1.yaml" && inplace=1 ||
    inplace=0
[ $inplace = 1 ] && ok || bad "import -o /proc/self/fd/1 is not written in place: $(cat "$T/err")"
# /dev/stdout and /dev/stderr of the machine: only with a binary that
# refused the outputs above and wrote /proc/self/fd/1 in place (one that
# replaces what is at the path would replace /dev/stdout).
if [ $inplace = 1 ] && [ $refused = "$(echo $devs | wc -w)" ]; then
	$PDWIZ import -o /dev/stdout $IMP >"$T/inplace" 2>"$T/err" && cmp -s "$T/inplace" "$T/imp1.yaml" &&
	    [ -L /dev/stdout ] && ok || bad "import -o /dev/stdout is not written in place: $(cat "$T/err")"
	$PDWIZ import -o /dev/stderr $IMP 2>"$T/inplace" >"$T/out" && cmp -s "$T/inplace" "$T/imp1.yaml" &&
	    [ -L /dev/stderr ] && ok || bad "import -o /dev/stderr is not written in place"
	(printf 'before\n'; $PDWIZ import -o /dev/stdout $IMP) >"$T/inplace" 2>"$T/err" &&
	    [ "$(head -1 "$T/inplace")" = before ] && [ "$(wc -l <"$T/inplace")" = $(($(wc -l <"$T/imp1.yaml") + 1)) ] && ok ||
	    bad "import -o /dev/stdout does not write where standard output stands"
	$PDWIZ import -o /dev/stdout $IMP >/dev/full 2>"$T/err"; rc=$?
	[ $rc = 2 ] && grep -qxF "pdwiz: /dev/stdout: No space left on device" "$T/err" && [ -L /dev/stdout ] && ok ||
	    bad "import -o /dev/stdout onto a full device: exit $rc: $(cat "$T/err")"
else
	bad "import -o /dev/stdout, /dev/stderr: not tried (the outputs above were not refused or written in place)"
fi

# --- a report that cannot be written (full disk, closed stdout) is exit 2 ---
# and says why: a report larger than stdio's buffer, written at once (k8s,
# JSON), said "Input/output error" (the failed write's errno was lost).
printf 'python -m sglang.launch_server --model-path m --tp-size x\n' > "$T/bad1.sh"
for cmd in "emit --format shell $EX" "emit --format config $EX" "emit --format k8s $EX" \
    "import share/examples/mooncake-llama-1p1d.sh" "check $T/bad1.sh" "check --format json $T/bad1.sh" \
    "check --format json tests/golden/deepseek-2p2d-deepep.shell" "rules" "rules --format json" \
    "explain RULE" "--version"; do
	[ "$cmd" = "explain RULE" ] && cmd="explain $($PDWIZ rules | awk 'NR == 1 { print $1 }')"
	$PDWIZ $cmd >/dev/full 2>"$T/err"; rc=$?
	[ $rc = 2 ] && grep -qxF "pdwiz: standard output: No space left on device" "$T/err" && ok || bad "$cmd >/dev/full: exit $rc: $(cat "$T/err")"
done
for cmd in "emit --format shell $EX" "import share/examples/mooncake-llama-1p1d.sh" "check $T/bad1.sh" "rules"; do
	$PDWIZ $cmd >&- 2>"$T/err"; rc=$?
	[ $rc = 2 ] && grep -q "standard output:" "$T/err" && ok || bad "$cmd >&-: exit $rc: $(cat "$T/err")"
done
expect_rc "nothing written to a closed stdout is no failure" 0 sh -c "$PDWIZ emit --format shell -o '$T/emitdir' $EX >&-"

# --- PDWIZ_DATADIR pointing nowhere is a clear error ---
expect_rc "bad datadir" 2 env PDWIZ_DATADIR=/nonexistent $PDWIZ check "$T/l.sh"

# --- coverage: every SGLang check of the catalog is a rule or has a reason ---
if [ -f ../shared/sglang/rules.md ]; then
	expect_rc "coverage" 0 $PDWIZ coverage --sglang-catalog ../shared/sglang/rules.md
	grep -q "^# [0-9]* SGLang checks, 0 missing" "$T/out" && ok || bad "coverage has missing checks"
	cmp -s "$T/out" rules/COVERAGE.txt && ok || bad "rules/COVERAGE.txt is stale: run make coverage"
fi

# --- failing writes (full or read-only file system): error, exit 2, the old
# file intact, no temporary file left ---
if mkdir -p "$T/mnt" && mount -t tmpfs -o size=64k tmpfs "$T/mnt" 2>/dev/null; then
	printf 'old contents\n' > "$T/mnt/pd.yaml"
	dd if=/dev/zero of="$T/mnt/fill" bs=1k 2>/dev/null
	expect_rc "import onto a full disk" 2 $PDWIZ import -o "$T/mnt/pd.yaml" share/examples/mooncake-llama-1p1d.sh
	grep -q "No space left on device" "$T/err" && ok || bad "full disk message: $(cat "$T/err")"
	[ "$(cat "$T/mnt/pd.yaml")" = "old contents" ] && ok || bad "full disk: old file changed"
	[ "$(ls "$T/mnt" | wc -l)" = 2 ] && ok || bad "full disk: temporary file left: $(ls "$T/mnt")"
	rm -f "$T/mnt/fill"
	mount -o remount,ro "$T/mnt"
	expect_rc "emit onto a read-only fs" 2 $PDWIZ emit --format shell -o "$T/mnt" share/examples/llama-1p1d-mooncake.yaml
	grep -q "Read-only file system" "$T/err" && ok || bad "read-only message: $(cat "$T/err")"
	[ "$(cat "$T/mnt/pd.yaml")" = "old contents" ] && ok || bad "read-only: old file changed"
	umount "$T/mnt"
else
	echo "SKIP: failing-write tests need root to mount a tmpfs"
fi

# --- what is emitted is validated: model path, k8s namespace and image ---
sed 's|  path: "meta-llama/Llama-3.1-8B-Instruct"|  path: ""|' share/examples/minimal-1p1d.yaml >"$T/nopath.yaml"
expect_rc "empty model.path" 2 $PDWIZ check "$T/nopath.yaml"
grep -q "nopath.yaml:9:9: model.path is empty" "$T/out" "$T/err" && ok || bad "empty model.path: $(cat "$T/out" "$T/err")"
{ cat share/examples/minimal-1p1d.yaml; printf 'k8s:\n  namespace: "My_NS"\n  image: "lmsysorg/sglang:v0.5 x"\n'; } >"$T/badk8s.yaml"
expect_rc "bad k8s namespace and image" 2 $PDWIZ check "$T/badk8s.yaml"
grep -q "k8s.namespace 'My_NS' is not a Kubernetes namespace" "$T/err" && grep -q "k8s.image 'lmsysorg/sglang:v0.5 x' is not an image reference" "$T/err" && ok || bad "k8s validation: $(cat "$T/err")"
{ cat share/examples/minimal-1p1d.yaml; printf 'k8s:\n  namespace: "llm-serving"\n  image: "registry.example.com:5000/team/sglang:V0.5.18-cu12"\n'; } >"$T/goodk8s.yaml"
expect_rc "good k8s namespace and image" 0 $PDWIZ check "$T/goodk8s.yaml"
awk 'BEGIN { printf "pdwiz: 1\nmodel:\n  path: \""; for (i = 0; i < 5000; i++) printf "a"; printf "\"\nroles:\n  prefill: {instances: 1}\n  decode: {instances: 1}\n  router: {}\n" }' >"$T/longpath.yaml"
expect_rc "a model path of 5000 bytes" 2 $PDWIZ check "$T/longpath.yaml"
grep -q "model.path is 5000 bytes long" "$T/err" && ok || bad "long model.path: $(head -c 300 "$T/err")"
# the same for a command's --model-path (a script of 8 MiB on one line)
python3 -c 'print("python -m sglang.launch_server --model-path " + "a" * (8 << 20))' > "$T/bigmp.sh"
expect_rc "a --model-path of 8 MiB" 1 $PDWIZ check "$T/bigmp.sh"
grep -qxF "$T/bigmp.sh:1:32: error: --model-path is 8388608 bytes long; a path or model id is at most 4096 [model-path-invalid]" "$T/out" && ok || bad "8 MiB --model-path: $(head -c 300 "$T/out")"
expect_rc "an empty --model-path" 1 $PDWIZ check -- python -m sglang.launch_server --model-path ""
grep -q "error: --model-path is empty" "$T/out" && ok || bad "empty --model-path: $(cat "$T/out")"

# --- pin: every derived value written out, the same launch commands ---
$PDWIZ emit --format yaml --pin -o - share/examples/minimal-1p1d.yaml >"$T/pinned.yaml" 2>"$T/err"
grep -q "base_gpu_id: 2" "$T/pinned.yaml" && grep -q "bootstrap_port: 8998" "$T/pinned.yaml" && ok || bad "--pin: derived values missing: $(cat "$T/pinned.yaml" "$T/err")"
expect_rc "pinned file checks clean" 0 $PDWIZ check "$T/pinned.yaml"
$PDWIZ emit --format shell -o - "$T/pinned.yaml" >"$T/a.sh" 2>&1
$PDWIZ emit --format shell -o - share/examples/minimal-1p1d.yaml >"$T/b.sh" 2>&1
cmp -s "$T/a.sh" "$T/b.sh" && ok || bad "--pin changes the launch commands: $(diff "$T/a.sh" "$T/b.sh" | head -5)"
$PDWIZ emit --format yaml -o - share/examples/minimal-1p1d.yaml >"$T/plain.yaml" 2>&1
grep -q "base_gpu_id" "$T/plain.yaml" && bad "emit --format yaml without --pin pins" || ok

# --- machine formats: one document for every input and exit status ---
printf 'python -m sglang.launch_server --model-path "x\n' >"$T/unterminated.sh"
printf 'a\000b' >"$T/binary.sh"
printf 'python -m sglang.launch_server --model-path m --tp-size abc\n' >"$T/badint.sh"
# fmt_check NAME FORMAT RC WANT-ID ARGS... : exit RC and a parsable document
fmt_check() {
	name=$1 fmt=$2 want=$3 id=$4; shift 4
	$PDWIZ check --format "$fmt" "$@" >"$T/out" 2>"$T/err"; got=$?
	[ "$got" = "$want" ] || { bad "$name ($fmt): exit $got, want $want"; return; }
	python3 - "$T/out" "$fmt" "$id" <<'PY' && ok || { bad "$name ($fmt)"; sed "s/^/  | /" "$T/out" | head -c 1200; echo; }
import json, re, sys
text = open(sys.argv[1]).read()
fmt, rid = sys.argv[2], sys.argv[3]
if fmt == "json":
    o = json.loads(text)
    assert o["valid"] is False
    assert any(d["rule"] == rid and d["severity"] == "error" for d in o["diagnostics"]), o
    for d in o["diagnostics"]:
        assert isinstance(d["line"], int) and isinstance(d["column"], int)
elif fmt == "sarif":
    o = json.loads(text)
    assert o["version"] == "2.1.0" and len(o["runs"]) == 1
    run = o["runs"][0]
    assert run["tool"]["driver"]["name"] == "pdwiz"
    ids = [r["ruleId"] for r in run["results"]]
    notes = [n["descriptor"]["id"] for i in run["invocations"] for n in i.get("toolExecutionNotifications", [])]
    assert rid in ids or rid in notes, (ids, notes)
    for r in run["results"]:
        assert r["level"] in ("error", "warning", "note")
        for loc in r.get("locations", []):
            assert loc["physicalLocation"]["region"]["startLine"] >= 1
    if rid in notes:
        assert run["invocations"][0]["executionSuccessful"] is False
else:
    lines = [l for l in text.splitlines() if l.startswith("::")]
    assert lines, text
    for l in lines:
        assert re.match(r"^::(error|warning|notice) (file=[^,:]*,)?(line=\d+,)?(col=\d+,)?title=[^:]*::.+$", l), l
        assert "\n" not in l
    assert any(rid in l or "could not check" in l for l in lines if l.startswith("::error")), lines
PY
}
for fmt in json sarif github; do
	fmt_check "missing file" $fmt 2 input "$T/nonexistent.sh"
	fmt_check "unterminated quote" $fmt 2 input "$T/unterminated.sh"
	fmt_check "binary input" $fmt 2 input "$T/binary.sh"
	fmt_check "unknown option" $fmt 2 usage --bogus "$T/badint.sh"
	fmt_check "unknown accelerator" $fmt 2 usage --gpu Z999 "$T/badint.sh"
	fmt_check "a reader error" $fmt 1 argparse-type "$T/badint.sh"
	fmt_check "a rule error" $fmt 1 fit-weights --gpu H100 -- python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8 --trust-remote-code
done
PDWIZ_DATADIR=$T/nowhere $PDWIZ check --format json "$T/badint.sh" >"$T/out" 2>/dev/null
python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); assert o["diagnostics"][0]["rule"]=="rules"' "$T/out" && ok || bad "json: unreadable rules: $(cat "$T/out")"
$PDWIZ check --format json "$T/unterminated.sh" >"$T/out" 2>/dev/null
python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["diagnostics"][0]; assert (d["line"], d["column"]) == (1, 45), d' "$T/out" && ok || bad "json: the failure's line and column: $(cat "$T/out")"
$PDWIZ check --format github "$T/unterminated.sh" >"$T/out" 2>/dev/null
grep -q "^::error file=$T/unterminated.sh,line=1,col=45,title=pdwiz%3A could not check::" "$T/out" && ok || bad "github: failure annotation: $(cat "$T/out")"
# Workflow-command data is escaped: a message with a newline stays one line.
printf 'python -m sglang.launch_server --model-path m --served-model-name "a%%b"\n--tp-sizee 2\n' >"$T/pct.sh"
$PDWIZ check --format github "$T/pct.sh" >"$T/out" 2>/dev/null
! grep -q '%[^0-9A-F]' "$T/out" && ok || bad "github: unescaped %: $(cat "$T/out")"

# --- YAML that is not pdwiz's is read as what it is or refused by name, not read as a --config ---
if [ -d "$RW" ]; then
# (its --enable-deepep-moe is unrecognized, so no a2a backend sets ep_size and --enable-eplb fails too)
expect_rc "a Kubernetes manifest is read, not taken for a --config" 1 $PDWIZ check --format json "$RW"/ome-kimi-k2-pd-rt.yaml
python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); d=[x for x in o["diagnostics"] if x["severity"]=="error"]; assert d and all(x["rule"]=="argparse-unrecognized" and "--enable-deepep-moe" in x["message"] or x["rule"]=="par-eplb-ep-size" for x in d) and d[0]["line"]==93, d' "$T/out" && ok || bad "manifest: $(head -c 500 "$T/out")"
expect_rc "a real srt-slurm recipe is read, not refused" 0 $PDWIZ check --format json "$RW"/srtslurm-h200-8k1k-bs64-2p3d.yaml
python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["commands"]; assert [x["mode"] for x in c]==["prefill","decode"], c' "$T/out" && ok || bad "real recipe: $(head -c 500 "$T/out")"
expect_rc "Helm values: nothing to check" 0 $PDWIZ check -v "$RW"/sglang-docs-lws-pd-helm-values-example.yaml
grep -q "nothing to check: not an SGLang --config file: none of its keys ('global', ...) is an SGLang option" "$T/out" && ok || bad "helm values: $(cat "$T/out")"
expect_rc "--input config still reads it as a config" 1 $PDWIZ check --input config "$RW"/sglang-docs-lws-pd-helm-values-example.yaml
else skipped_rw=$((skipped_rw + 1)); fi
expect_rc "a real --config file is still a config" 0 $PDWIZ check share/examples/config.yaml
# a deployment file is recognised by its structure, not by a "roles:" line
EXD=share/examples/llama-1p1d-mooncake.yaml
$PDWIZ emit --format yaml "$EXD" > "$T/dep-block.yaml" 2>/dev/null
python3 -c 'import sys,yaml,json; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))' "$T/dep-block.yaml" > "$T/dep-flow.yaml"
sed 's/^roles:/"roles":/' "$T/dep-block.yaml" > "$T/dep-quoted.yaml"
{ printf '# a comment first\n\n'; sed 's/^roles:/# before roles\n'"'"'roles'"'"' :/' "$T/dep-block.yaml"; } > "$T/dep-comment.yaml"
$PDWIZ emit --format shell "$T/dep-block.yaml" > "$T/dep-block.sh"
for f in flow quoted comment; do
	expect_rc "deployment in $f style is a deployment" 0 $PDWIZ check "$T/dep-$f.yaml"
	$PDWIZ emit --format shell "$T/dep-$f.yaml" > "$T/dep-$f.sh" 2>"$T/err" && cmp -s "$T/dep-block.sh" "$T/dep-$f.sh" && ok || bad "emit of the $f-style deployment differs: $(cat "$T/err")"
done

# --- documents: fenced shell blocks of Markdown, "$ " prompts ---
cat >"$T/doc.md" <<'MD'
# Serving

Start the prefill:

```console
$ python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct \
    --disaggregation-mode prefill --tp-sizee 2
[2026-01-01] server started
```

Some YAML that is not shell:

```yaml
tp-size: 2
```

```bash
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --port 30001 --base-gpu-id 1
```
MD
expect_rc "Markdown: fenced shell blocks are checked" 1 $PDWIZ check --format json "$T/doc.md"
python3 - "$T/out" <<'PY' && ok || { bad "Markdown: findings and lines"; head -c 1500 "$T/out"; echo; }
import json, sys
o = json.load(open(sys.argv[1]))
assert len(o["commands"]) == 2, o["commands"]
assert [c["line"] for c in o["commands"]] == [6, 18], o["commands"]
err = [d for d in o["diagnostics"] if d["rule"] == "argparse-unrecognized"]
assert err and err[0]["line"] == 7, err
assert any(d["rule"] == "document-no-cross-role" for d in o["diagnostics"])
assert not any(d["rule"].startswith("xs-") for d in o["diagnostics"])
PY
# A guide that says where each block runs ("on Node 2" in the lead-in:
# its section's heading and the prose before the block) is one deployment:
# the cross-role checks run, on the machines it names. A lead-in naming two
# nodes, or servers of different models, keep it a set of examples.
cat >"$T/nodes.md" <<'MD'
# Two replicas

Both nodes need the model (Node 1 and Node 2).

## Step 1: Node 1

Open a terminal on node 1:

```bash
python -m sglang.launch_server --model-path Qwen/Qwen3-8B --disaggregation-mode prefill --disaggregation-transfer-backend nixl &
python -m sglang.launch_server --model-path Qwen/Qwen3-8B --disaggregation-mode decode --disaggregation-transfer-backend nixl --port 30001 --base-gpu-id 1
```

## Step 2: Node 2

```bash
python -m sglang.launch_server --model-path Qwen/Qwen3-8B --disaggregation-mode prefill --disaggregation-transfer-backend nixl --host 0.0.0.0 &
python -m sglang.launch_server --model-path Qwen/Qwen3-8B --disaggregation-mode decode --disaggregation-transfer-backend nixl --port 30001 --base-gpu-id 1
```
MD
expect_rc "Markdown: blocks that name their node are one deployment" 1 $PDWIZ check --format json "$T/nodes.md"
python3 - "$T/out" <<'PY' && ok || { bad "Markdown nodes: cross-role checks on the named machines"; head -c 2500 "$T/out"; echo; }
import json, sys
o = json.load(open(sys.argv[1]))
ids = [d["rule"] for d in o["diagnostics"]]
assert "document-one-deployment" in ids and "document-no-cross-role" not in ids, ids
note = [d for d in o["diagnostics"] if d["rule"] == "document-one-deployment"][0]
assert "(Node 1, Node 2)" in note["message"], note
lb = [d for d in o["diagnostics"] if d["rule"] == "xs-bootstrap-loopback"]
# Node 1's prefill binds 127.0.0.1 (no --host); Node 2's binds 0.0.0.0.
assert len(lb) == 1 and lb[0]["line"] == 10 and "on Node 1" in lb[0]["message"] \
    and "runs on Node 2" in lb[0]["message"], lb
assert o["diagnostics"][ids.index("xs-bootstrap-loopback")]["command"] == 0
assert not any(d["rule"] in ("xs-port-collision", "xs-gpu-collision") for d in o["diagnostics"]), ids
PY
sed 's/^Open a terminal on node 1:$/Open a terminal on node 1 (or node 2):/; s/^## Step 1: Node 1$/## Step 1/' "$T/nodes.md" >"$T/nodes2.md"
expect_rc "Markdown: a lead-in naming two nodes names none" 0 $PDWIZ check --format json "$T/nodes2.md"
grep -q '"document-no-cross-role"' "$T/out" && ! grep -q '"xs-bootstrap-loopback"' "$T/out" && ok || bad "two nodes in a lead-in: $(head -c 600 "$T/out")"
sed '0,/Qwen3-8B --disaggregation-mode decode/s//Qwen3-32B --disaggregation-mode decode/' "$T/nodes.md" >"$T/nodes3.md"
expect_rc "Markdown: named nodes, two models: examples" 0 $PDWIZ check --format json "$T/nodes3.md"
grep -q '"document-no-cross-role"' "$T/out" && ok || bad "two models: $(head -c 600 "$T/out")"
sed 's/^Open a terminal on node 1:$/Open a terminal on node 10:/; s/^## Step 1: Node 1$/## Step 1: Node 10/; s/^## Step 2: Node 2$/## Step 2: Node 1/' "$T/nodes.md" >"$T/nodes10.md"
expect_rc "Markdown: Node 10 and Node 1 are two machines" 1 $PDWIZ check "$T/nodes10.md"
grep -qF "(Node 10, Node 1)" "$T/out" && ok || bad "Node 10 and Node 1: $(grep document "$T/out")"
# Encoder disaggregation (EPD): a URL no encoder of the input listens on.
cat >"$T/epd.sh" <<'SH'
python -m sglang.launch_server --model-path Qwen/Qwen2.5-VL-7B-Instruct --encoder-only --port 30002 --base-gpu-id 2
python -m sglang.launch_server --model-path Qwen/Qwen2.5-VL-7B-Instruct --disaggregation-mode prefill --language-only \
    --encoder-urls http://127.0.0.1:30002 http://127.0.0.1:30003 --disaggregation-transfer-backend nixl
python -m sglang.launch_server --model-path Qwen/Qwen2.5-VL-7B-Instruct --disaggregation-mode decode --port 30001 --base-gpu-id 1 --disaggregation-transfer-backend nixl
SH
expect_rc "EPD: an encoder URL nothing listens on is a warning" 0 $PDWIZ check --format json "$T/epd.sh"
python3 - "$T/out" <<'PY' && ok || { bad "EPD: xs-encoder-url"; head -c 1500 "$T/out"; echo; }
import json, sys
o = json.load(open(sys.argv[1]))
w = [d for d in o["diagnostics"] if d["rule"] == "xs-encoder-url"]
assert len(w) == 1 and w[0]["severity"] == "warning" and w[0]["line"] == 3, w
assert "http://127.0.0.1:30003" in w[0]["message"] and "30002" in w[0]["message"], w
assert [c["mode"] for c in o["commands"]] == ["encoder", "prefill", "decode"], o["commands"]
assert w[0]["command"] == 1, w
PY
sed 's/--port 30002/--port $((BASE + 2))/' "$T/epd.sh" >"$T/epd2.sh"
expect_rc "EPD: an encoder port left to run time" 0 $PDWIZ check --format json "$T/epd2.sh"
python3 - "$T/out" <<'PY' && ok || { bad "EPD: unknown port is could-not-check"; head -c 1500 "$T/out"; echo; }
import json, sys
o = json.load(open(sys.argv[1]))
w = [d for d in o["diagnostics"] if d["rule"] == "xs-encoder-url"]
assert len(w) == 1 and w[0]["severity"] == "unknown" and "run time" in w[0]["note"], w
PY
grep -v 'encoder-only' "$T/epd.sh" >"$T/epd3.sh"
expect_rc "EPD: no encoder in the input" 0 $PDWIZ check --format json "$T/epd3.sh"
python3 - "$T/out" <<'PY' && ok || { bad "EPD: encoders elsewhere is could-not-check"; head -c 1500 "$T/out"; echo; }
import json, sys
o = json.load(open(sys.argv[1]))
w = [d for d in o["diagnostics"] if d["rule"] == "xs-encoder-url"]
assert len(w) == 1 and w[0]["severity"] == "unknown" and "no --encoder-only" in w[0]["note"], w
PY
printf '# Notes\n\nNothing to run here.\n' >"$T/empty.md"
expect_rc "Markdown without shell blocks: nothing to check" 0 $PDWIZ check -v "$T/empty.md"
grep -q "nothing to check: no fenced shell block" "$T/out" && ok || bad "Markdown without blocks: $(cat "$T/out")"
printf '$ python -m sglang.launch_server --model-path m --tp-sizee 2\n' >"$T/pasted.txt"
expect_rc "a pasted command with a \$ prompt" 1 $PDWIZ check "$T/pasted.txt"
grep -q "unrecognized arguments: --tp-sizee 2" "$T/out" && ok || bad "pasted prompt: $(cat "$T/out" "$T/err")"
expect_rc "--input markdown" 1 $PDWIZ check --input markdown - <"$T/doc.md"
# A guide whose YAML blocks hold the manifest (its shell blocks only run
# kubectl): the manifest is read, at the document's own line numbers.
cat >"$T/guide.md" <<'EOF'
# Deploy

```bash
kubectl apply -f pod.yaml
```

```yaml
apiVersion: v1
kind: Pod
metadata:
  name: prefill
spec:
  containers:
    - name: sglang
      image: lmsysorg/sglang:latest
      command: ["python3", "-m", "sglang.launch_server"]
      args: ["--model-path", "m", "--disaggregation-mode", "prefill", "--tp-sizee", "2"]
```
EOF
expect_rc "a guide with the manifest in a yaml block" 1 $PDWIZ check --format json "$T/guide.md"
python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); assert any(d["rule"]=="argparse-unrecognized" and d["line"]==17 for d in o["diagnostics"]), o["diagnostics"]' "$T/out" && ok || bad "yaml block of a guide: the flag at its line (17): $(head -c 400 "$T/out")"
# A root prompt "# " in a terminal transcript (```console) is a command; in
# a bash block "# " is a comment, often a command left out on purpose.
printf '# Guide\n\n```console\n# python -m sglang.launch_server --model-path m --tp-sizee 2\nINFO: started\n```\n\n```bash\n# python -m sglang.launch_server --model-path m --tp-sizee 3\n```\n' >"$T/root.md"
expect_rc "a # root prompt in a console block" 1 $PDWIZ check "$T/root.md"
grep -q "^$T/root.md:4:47: error: unrecognized arguments: --tp-sizee 2" "$T/out" && ! grep -q "tp-sizee 3" "$T/out" && ok || bad "root prompt: $(cat "$T/out" "$T/err")"

# --- control bytes of the checked script never reach the terminal raw ---
printf 'python -m sglang.launch_server --model-path m --disaggregation-transfer-backend "r\033[31mdma\007"\n' >"$T/esc.sh"
$PDWIZ check "$T/esc.sh" >"$T/out" 2>&1
! LC_ALL=C grep -q "$(printf '\033')" "$T/out" && ! LC_ALL=C grep -q "$(printf '\007')" "$T/out" &&
    grep -q 'r\\x1b\[31mdma\\x07' "$T/out" && ok || bad "text output copies control bytes: $(od -c "$T/out" | head -5)"

# --- a file named inside an input is read only when it is a regular file ---
mkfifo "$T/fifo.yaml"
timeout 10 $PDWIZ check -- python -m sglang.launch_server --model-path m --config "$T/fifo.yaml" >"$T/out" 2>&1; rc=$?
[ "$rc" = 0 ] && grep -q "config-not-regular" "$T/out" && ok || bad "--config naming a FIFO: exit $rc (124: it blocked): $(cat "$T/out")"
# A directory is a certain failure in SGLang (open() raises
# IsADirectoryError): an error, not the FIFO's warning.
mkdir -p "$T/cfgdir.yaml"
expect_rc "--config naming a directory: errors found" 1 $PDWIZ check --format json -- python -m sglang.launch_server --model-path m --config "$T/cfgdir.yaml"
json_check "--config naming a directory is an error" has config-is-directory error "--config $T/cfgdir.yaml is a directory: SGLang's open() of it raises IsADirectoryError: [Errno 21] Is a directory: '$T/cfgdir.yaml'"

# --- every file pdwiz reads is opened only when it is a regular file ---
# A FIFO would block pdwiz forever (timeout 10: the old binary fails
# instead of hanging), a device or a socket is no file to read: each is
# refused by its kind, exit 2. '-' is still standard input.
# not_regular NAME PATH KIND CMD...: exit 2 and "PATH: not a regular file (KIND)"
not_regular() {
	name=$1 what=$2 kind=$3; shift 3
	timeout 10 "$@" >"$T/out" 2>"$T/err" </dev/null; rc=$?
	[ "$rc" = 2 ] && grep -qF "$what: not a regular file ($kind)" "$T/err" && ok ||
	    bad "$name: exit $rc (124: it blocked): $(head -c 300 "$T/err")"
}
mkfifo "$T/in.fifo" "$T/in-fifo.md" "$T/in-fifo.yaml"
not_regular "check of a FIFO" "$T/in.fifo" "a FIFO" $PDWIZ check "$T/in.fifo"
not_regular "check of a FIFO named .md" "$T/in-fifo.md" "a FIFO" $PDWIZ check "$T/in-fifo.md"
not_regular "check --input config of a FIFO" "$T/in-fifo.yaml" "a FIFO" $PDWIZ check --input config "$T/in-fifo.yaml"
not_regular "emit of a FIFO" "$T/in-fifo.yaml" "a FIFO" $PDWIZ emit --format shell "$T/in-fifo.yaml"
not_regular "import of a FIFO" "$T/in.fifo" "a FIFO" $PDWIZ import "$T/in.fifo"
not_regular "wizard --import of a FIFO" "$T/in.fifo" "a FIFO" $PDWIZ --import "$T/in.fifo"
timeout 10 $PDWIZ "$T/in-fifo.yaml" </dev/null >"$T/out" 2>&1; rc=$?
[ "$rc" = 2 ] && ok || bad "wizard opening a FIFO: exit $rc (124: it blocked)"
not_regular "check of a character device" /dev/null "a character device" $PDWIZ check /dev/null
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$T/in.sock"
not_regular "check of a socket" "$T/in.sock" "a socket" $PDWIZ check "$T/in.sock"
not_regular "emit of a directory" "$T" "a directory" $PDWIZ emit --format shell "$T"
printf 'python -m sglang.launch_server --model-path m --tp-size 2\n' | $PDWIZ check - >"$T/out" 2>&1; rc=$?
[ "$rc" = 0 ] && ok || bad "check - (standard input): exit $rc: $(cat "$T/out")"
# A model directory whose config.json is a FIFO: no facts from it (as for
# any config.json that cannot be read), and no hang.
mkdir -p "$T/fifomodel"
mkfifo "$T/fifomodel/config.json"
timeout 10 $PDWIZ check --format json -- python -m sglang.launch_server --model-path "$T/fifomodel" --tp-size 8 >"$T/out" 2>"$T/err"; rc=$?
[ "$rc" = 0 ] && ok || bad "--model-path whose config.json is a FIFO: exit $rc (124: it blocked): $(head -c 300 "$T/err")"
json_check "--model-path whose config.json is a FIFO: heads could not be checked" has model-tp-heads unknown ""
# The checkpoint's quantization from a local model directory: config.json's
# quantization_config.quant_method (lower case), none (not quantized), or
# unknown beside a standalone hf_quant_config.json (ModelOpt).
mkdir -p "$T/qm/mx" "$T/qm/bf16" "$T/qm/mo"
printf '{"architectures": ["GptOssForCausalLM"], "quantization_config": {"quant_method": "MXFP4"}}\n' >"$T/qm/mx/config.json"
printf '{"architectures": ["LlamaForCausalLM"]}\n' >"$T/qm/bf16/config.json"
cp "$T/qm/bf16/config.json" "$T/qm/mo/config.json"
printf '{"quantization": {"quant_algo": "FP8"}}\n' >"$T/qm/mo/hf_quant_config.json"
expect_rc "an MXFP4 checkpoint on MI300X" 1 $PDWIZ check --format json --gpu MI300X -- python -m sglang.launch_server --model-path "$T/qm/mx" --tp-size 8
json_check "an MXFP4 checkpoint on MI300X: SGLang's message" has quant-mxfp4-not-registered error "Unknown quantization method: mxfp4. Must be one of ['fp8', 'mxfp8', 'blockwise_int8', 'modelopt', 'modelopt_fp8', 'modelopt_fp4', 'nvfp4_online', 'modelopt_mixed', 'w8a8_int8', 'w8a8_fp8', 'awq', 'awq_marlin', 'bitsandbytes', 'gguf', 'gptq', 'gptq_marlin', 'moe_wna16', 'compressed-tensors', 'w4afp8', 'petit_nvfp4', 'quark', 'quark_mxfp4', 'auto-round', 'auto-round-int8', 'modelslim', 'quark_int4fp8_moe', 'humming', 'mxfp_w4a8']."
expect_rc "an MXFP4 checkpoint with --quantization fp8" 1 $PDWIZ check --format json -- python -m sglang.launch_server --model-path "$T/qm/mx" --tp-size 8 --quantization fp8
json_check "an MXFP4 checkpoint with --quantization fp8: the mismatch" has quant-model-mismatch error "Quantization method specified in the model config (mxfp4) does not match the quantization method specified in the \`quantization\` argument (fp8)."
expect_rc "a checkpoint that is not quantized, --quantization fp8" 0 $PDWIZ check --format json -- python -m sglang.launch_server --model-path "$T/qm/bf16" --quantization fp8
json_check "not quantized: no mismatch, nothing unknown" lacks quant-model-mismatch
expect_rc "a ModelOpt checkpoint (hf_quant_config.json)" 0 $PDWIZ check --format json -- python -m sglang.launch_server --model-path "$T/qm/mo" --quantization w8a8_int8
json_check "hf_quant_config.json: the method is not known" has quant-model-mismatch unknown ""
# The data directory: a rule file, a form, the flag history or the
# citation summary that is a FIFO.
DD=$T/fifodata
mkdir -p "$DD"
cp -R rules forms "$DD"/
rm -f "$DD/rules/catalog.img"
mkfifo "$DD/rules/checks/99-fifo.yaml"
not_regular "a rule file that is a FIFO" "$DD/rules/checks/99-fifo.yaml" "a FIFO" env PDWIZ_DATADIR="$DD" $PDWIZ rules
rm "$DD/rules/checks/99-fifo.yaml"
mkfifo "$DD/forms/99-fifo.yaml"
not_regular "a form that is a FIFO" "$DD/forms/99-fifo.yaml" "a FIFO" env PDWIZ_DATADIR="$DD" $PDWIZ
rm "$DD/forms/99-fifo.yaml"
mv "$DD/rules/flag-history.yaml" "$T/flag-history.yaml"
mkfifo "$DD/rules/flag-history.yaml"
not_regular "a flag history that is a FIFO" "$DD/rules/flag-history.yaml" "a FIFO" env PDWIZ_DATADIR="$DD" $PDWIZ rules
rm "$DD/rules/flag-history.yaml"
mv "$T/flag-history.yaml" "$DD/rules/flag-history.yaml"
rm "$DD/rules/sglang-state.tsv"
mkfifo "$DD/rules/sglang-state.tsv"
timeout 10 env PDWIZ_DATADIR="$DD" $PDWIZ --version >"$T/out" 2>&1 </dev/null; rc=$?
[ "$rc" = 0 ] && ! grep -q '^citations:' "$T/out" && ok || bad "--version with a FIFO for sglang-state.tsv: exit $rc (124: it blocked)"
# A rule whose message is empty (a bare assert written as message: "") is
# a load error: it would print an empty diagnostic.
DD=$T/emptymsg
mkdir -p "$DD"
cp -R rules forms "$DD"/
rm -f "$DD/rules/catalog.img"
printf 'rules:\n  - id: x-empty\n    severity: error\n    kind: AssertionError\n    when: "enable_eplb"\n    message: ""\n' >"$DD/rules/checks/99-empty.yaml"
env PDWIZ_DATADIR="$DD" $PDWIZ rules >"$T/out" 2>&1; rc=$?
[ "$rc" = 2 ] && grep -q "99-empty.yaml:6:14: empty message: a bare assert's message is \"AssertionError (SGLang's bare assert, no message): ONE LINE\"" "$T/out" && ok || bad "empty rule message: exit $rc: $(cat "$T/out")"

# --- unknown stays unknown: servers bound to 0.0.0.0, machine not stated ---
printf 'python -m sglang.launch_server --model-path m --disaggregation-mode prefill --host 0.0.0.0 --port 30000 --tp-size 2\npython -m sglang.launch_server --model-path m --disaggregation-mode decode --host 0.0.0.0 --port 30001 --tp-size 2\n' >"$T/wild.sh"
expect_rc "wildcard binds, machine not stated: no collision claimed" 0 $PDWIZ check --format json "$T/wild.sh"
json_check "wildcard binds: the GPU check could not be made" has xs-gpu-collision unknown ""
python3 -c 'import json,sys; d=[d for d in json.load(open(sys.argv[1]))["diagnostics"] if d["rule"]=="xs-gpu-collision"][0]; assert "0.0.0.0" in d["note"], d' "$T/out" && ok || bad "wildcard binds: the reason is not given"
printf 'PDWIZ_NODE_HOST=10.0.0.1 python -m sglang.launch_server --model-path m --disaggregation-mode prefill --host 0.0.0.0 --port 30000 --tp-size 2\nPDWIZ_NODE_HOST=10.0.0.1 python -m sglang.launch_server --model-path m --disaggregation-mode decode --host 0.0.0.0 --port 30001 --tp-size 2\n' >"$T/wild-same.sh"
expect_rc "wildcard binds on one stated machine: the collision is found" 1 $PDWIZ check --format json "$T/wild-same.sh"
json_check "wildcard binds on one stated machine" has xs-gpu-collision error ""
printf 'python -m sglang.launch_server --model-path m --disaggregation-mode prefill --host 127.0.0.1 --port 30000 --tp-size 2\npython -m sglang.launch_server --model-path m --disaggregation-mode decode --host 127.0.0.1 --port 30001 --tp-size 2\n' >"$T/local.sh"
expect_rc "one box, loopback: the full check" 1 $PDWIZ check --format json "$T/local.sh"
json_check "one box, loopback: the collision is found" has xs-gpu-collision error ""

# Two servers sharing GPUs on purpose, each with a stated share of memory
# that fits together: no collision; shares that do not fit: the collision,
# naming them; a share left to run time ($MEM_ARGS): could not check.
sh_pair() {	# FILE PREFILL-EXTRA DECODE-EXTRA
	printf 'python -m sglang.launch_server --model-path m --disaggregation-mode prefill --host 127.0.0.1 --port 30000 --tp-size 2 %s\npython -m sglang.launch_server --model-path m --disaggregation-mode decode --host 127.0.0.1 --port 30001 --tp-size 2 %s\n' "$2" "$3" >"$1"
}
sh_pair "$T/share-fit.sh" "--mem-fraction-static 0.45" "--mem-fraction-static 0.45"
expect_rc "shared GPUs, memory shares that fit" 0 $PDWIZ check --format json "$T/share-fit.sh"
json_check "shared GPUs, memory shares that fit: no collision" lacks xs-gpu-collision
sh_pair "$T/share-over.sh" "--mem-fraction-static 0.6" "--mem-fraction-static 0.6"
expect_rc "shared GPUs, memory shares over the GPU" 1 $PDWIZ check --format json "$T/share-over.sh"
json_check "shared GPUs, memory shares over the GPU: the collision" has xs-gpu-collision error ""
grep -q -- "--mem-fraction-static 0.6 + 0.6 is more than the whole GPU" "$T/out" && ok || bad "shared GPUs: the shares are not named"
sh_pair "$T/share-unk.sh" '$MEM_ARGS' ""
expect_rc "shared GPUs, options left to run time" 0 $PDWIZ check --format json "$T/share-unk.sh"
json_check "shared GPUs, options left to run time: could not check" has xs-gpu-collision unknown ""
$PDWIZ check --show-unknown "$T/share-unk.sh" >"$T/out" 2>&1
grep -q "could not check: prefill 0 rank 0 and decode 0 rank 0 share GPUs" "$T/out" && ! grep -q "<unknown>\|Fix: None" "$T/out" && ok || bad "could-not-check text shows a message it could not fill: $(cat "$T/out")"
for f in github sarif; do $PDWIZ check --format $f "$T/share-unk.sh" 2>&1; done >"$T/out"
! grep -q "<unknown>" "$T/out" && ok || bad "github/sarif show a message they could not fill"
# DP attention on one node takes its ZMQ ports from --dist-init-addr when
# given (SGLang's PortArgs), not from --port + 233: disjoint blocks are
# fine, overlapping ones collide; the port survives import and emit.
dp_pair() {	# FILE PREFILL-DIST DECODE-DIST
	printf 'python -m sglang.launch_server --model-path m --disaggregation-mode prefill --port 30000 --tp 2 --dp-size 2 --enable-dp-attention --dist-init-addr %s\npython -m sglang.launch_server --model-path m --disaggregation-mode decode --port 30001 --tp 2 --dp-size 2 --enable-dp-attention --base-gpu-id 2 --dist-init-addr %s\n' "$2" "$3" >"$1"
}
dp_pair "$T/dp-apart.sh" 127.0.0.1:29500 127.0.0.1:29510
expect_rc "DP attention, --dist-init-addr blocks apart" 0 $PDWIZ check --format json "$T/dp-apart.sh"
json_check "DP attention, --dist-init-addr blocks apart: no port collision" lacks xs-port-collision
dp_pair "$T/dp-over.sh" 127.0.0.1:29500 127.0.0.1:29504
expect_rc "DP attention, --dist-init-addr blocks overlap" 1 $PDWIZ check --format json "$T/dp-over.sh"
json_check "DP attention, --dist-init-addr blocks overlap: the collision" has xs-port-collision error ""
grep -q "ports 29504-29507 on 127.0.0.1" "$T/out" && ok || bad "DP attention: the overlapping rendezvous ports are not named"
$PDWIZ import --keep-going -o "$T/dp-apart.yaml" "$T/dp-apart.sh" 2>/dev/null
grep -c "dist_init_port: 295[01]0" "$T/dp-apart.yaml" | grep -qx 2 && ok || bad "import dropped a single-node --dist-init-addr: $(cat "$T/dp-apart.yaml")"
$PDWIZ emit --force --format shell "$T/dp-apart.yaml" >"$T/dp-apart-out.sh" 2>/dev/null
grep -q -- "--dist-init-addr 127.0.0.1:29510" "$T/dp-apart-out.sh" && ! grep -q -- "--nnodes" "$T/dp-apart-out.sh" && ok || bad "emit: a single-node --dist-init-addr (without --nnodes): $(grep -o -- '--dist-init-addr [^ ]*' "$T/dp-apart-out.sh")"

# Ports the script computes at run time are unknown, not SGLang's default.
cat >"$T/loop.sh" <<'SH'
for i in 0 1; do
  PORT=$((30001 + i))
  python -m sglang.launch_server --model-path m --disaggregation-mode prefill --host 127.0.0.1 --port "$PORT" --base-gpu-id "$i"
done
python -m sglang.launch_server --model-path m --disaggregation-mode decode --host 127.0.0.1 --port 30000 --base-gpu-id 4
SH
expect_rc "ports computed at run time: no collision claimed" 0 $PDWIZ check --format json "$T/loop.sh"
json_check "ports computed at run time: could not check" has xs-port-collision unknown ""

# --- pdwiz reports every error; the summary says SGLang stops at the first ---
$PDWIZ check -- --model-path m --tp-sizee 2 --disaggregation-transfer-backend rdma >"$T/out" 2>&1
grep -q "^2 errors" "$T/out" && tail -1 "$T/out" | grep -q "SGLang would stop at the first error of each server" && ok ||
    bad "two errors: the summary does not say SGLang stops at the first: $(cat "$T/out")"
$PDWIZ check -- --model-path m --tp-sizee 2 >"$T/out" 2>&1
grep -q "SGLang would stop" "$T/out" && bad "one error: the note is not needed" || ok

# --- shell traps: bash accepts them, and they change what runs ---
printf 'python -m sglang.launch_server --model-path m \\\n  --disaggregation-mode decode \\\n  # speculative decoding\n  --speculative-algorithm EAGLE \\\n  --tp 2\n' >"$T/trap-comment.sh"
expect_rc "comment inside a continuation" 0 $PDWIZ check --format json "$T/trap-comment.sh"
json_check "comment inside a continuation: a warning" has shell-comment-in-continuation warning ""
python3 -c 'import json,sys; d=[d for d in json.load(open(sys.argv[1]))["diagnostics"] if d["rule"]=="shell-comment-in-continuation"][0]; assert d["line"]==3 and "--speculative-algorithm" in d["message"], d' "$T/out" && ok || bad "comment trap: line or message"
# bash itself agrees: the flags after the comment are a command of their own.
bash -n "$T/trap-comment.sh" 2>/dev/null && ok || bad "trap script is not valid bash"
printf 'python -m sglang.launch_server --model-path m \\\n  --disaggregation-mode prefill\n  --tp 2\n' >"$T/trap-orphan.sh"
expect_rc "orphan option line" 0 $PDWIZ check --format json "$T/trap-orphan.sh"
json_check "orphan option line: a warning" has shell-orphan-option warning ""
# The orphan line is no part of the command before it: on no command.
python3 -c 'import json,sys; d=[d for d in json.load(open(sys.argv[1]))["diagnostics"] if d["rule"]=="shell-orphan-option"][0]; assert d["line"]==3 and d["command"]==-1, d' "$T/out" && ok || bad "orphan option: line or command"
printf "python -m sglang.launch_server --model-path m --json-model-override-args {\"a\":1,\"b\":2}\n" >"$T/trap-brace.sh"
[ "$(bash -c 'printf "%s\n" {"a":1,"b":2}' | wc -l)" = 2 ] && ok || bad "bash does not brace-expand as assumed"
expect_rc "unquoted braces" 0 $PDWIZ check --format json "$T/trap-brace.sh"
json_check "unquoted braces: a warning" has shell-brace-expansion warning ""
printf "python -m sglang.launch_server --model-path m --json-model-override-args '{\"a\":1,\"b\":2}' --served-model-name \"\${NAME}\" --tp 2\n" >"$T/trap-quoted.sh"
expect_rc "quoted braces" 0 $PDWIZ check --format json "$T/trap-quoted.sh"
json_check "quoted braces: no warning" lacks shell-brace-expansion
json_check "well-formed script: no orphan" lacks shell-orphan-option
if [ -d "$RW" ]; then
expect_rc "real issue snippet with unquoted JSON" 0 $PDWIZ check --format json "$RW"/issue-15665-qwen3-next-mooncake.txt
json_check "real issue snippet: brace expansion found" has shell-brace-expansion warning ""
else skipped_rw=$((skipped_rw + 1)); fi

# --- commands behind wrappers: dynamo.sglang, docker run, the old mini_lb ---
printf 'python3 -m dynamo.sglang --model-path m --endpoint dyn://ns.prefill.generate --migration-limit 3 --disaggregation-mode prefill --tp 2 --use-sglang-tokenizer --connector nixl kvbm --no-fpm-trace\n' >"$T/dyn.sh"
expect_rc "dynamo.sglang with Dynamo's own options" 0 $PDWIZ check --format json "$T/dyn.sh"
json_check "dynamo.sglang: its options are not unrecognized" lacks argparse-unrecognized
python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["commands"]; assert len(c)==1 and c[0]["mode"]=="prefill", c' "$T/out" && ok || bad "dynamo.sglang: not read as a prefill server: $(head -c 400 "$T/out")"
printf 'python3 -m dynamo.sglang --model-path m --tp-sizee 2\n' >"$T/dyn-bad.sh"
expect_rc "dynamo.sglang: a misspelt SGLang option is still an error" 1 $PDWIZ check --format json "$T/dyn-bad.sh"
json_check "dynamo.sglang: the SGLang options are checked" has argparse-unrecognized error ""
for m in dynamo.sglang.worker dynamo.sglang.decode_worker; do
	printf 'python -m %s --model-path m --disaggregation-mode decode\n' "$m" >"$T/dyn-old.sh"
	$PDWIZ check --format json "$T/dyn-old.sh" >"$T/out" 2>&1
	python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["commands"]; assert len(c)==1 and c[0]["mode"]=="decode", c' "$T/out" && ok || bad "$m: not read as a server"
done
# Two Dynamo workers on one box open no SGLang HTTP port: no port collision.
printf 'python3 -m dynamo.sglang --model-path m --disaggregation-mode prefill --host 127.0.0.1 --base-gpu-id 0 &\npython3 -m dynamo.sglang --model-path m --disaggregation-mode decode --host 127.0.0.1 --base-gpu-id 1\n' >"$T/dyn-pd.sh"
$PDWIZ check --format json "$T/dyn-pd.sh" >"$T/out" 2>&1
python3 -c 'import json,sys; d=[d for d in json.load(open(sys.argv[1]))["diagnostics"] if d["rule"]=="xs-port-collision"]; assert all(x["severity"]!="error" for x in d), d' "$T/out" && ok || bad "dynamo workers: an HTTP port collision"
sed 's/dynamo.sglang/sglang.launch_server/' "$T/dyn-pd.sh" >"$T/sgl-pd.sh"
$PDWIZ check --format json "$T/sgl-pd.sh" >"$T/out" 2>&1
json_check "the same two SGLang servers: the port collision is found" has xs-port-collision error ""
printf 'docker run -d --gpus all -p 30000:30000 -e SGLANG_DISAGGREGATION_QUEUE_SIZE=x lmsysorg/sglang python3 -m sglang.launch_server --model-path m --disaggregation-mode prefill --tp 2\n' >"$T/docker.sh"
expect_rc "docker run IMAGE python3 -m sglang.launch_server" 1 $PDWIZ check --format json "$T/docker.sh"
json_check "docker run: the container's -e environment is read" has env-type error ""
json_check "docker run: bridged prefill without its bootstrap port" has docker-bridge-prefill warning ""
printf 'docker run --network host -e SGLANG_DISAGGREGATION_QUEUE_SIZE=2 img python3 -m sglang.launch_server --model-path m --disaggregation-mode prefill\n' >"$T/docker-host.sh"
expect_rc "docker run --network host" 0 $PDWIZ check --format json "$T/docker-host.sh"
json_check "docker run --network host: no bridge warning" lacks docker-bridge-prefill
printf 'docker run -p 30000:30000 -p 8998:8998 img python3 -m sglang.launch_server --model-path m --disaggregation-mode prefill\n' >"$T/docker-pub.sh"
$PDWIZ check --format json "$T/docker-pub.sh" >"$T/out" 2>&1
json_check "docker run publishing the bootstrap port: no bridge warning" lacks docker-bridge-prefill
printf 'docker run img\n' >"$T/docker-none.sh"
expect_rc "docker run with the image's own command: nothing to check" 0 $PDWIZ check "$T/docker-none.sh"
printf 'python3 -m sglang.srt.disaggregation.mini_lb --prefill http://127.0.0.1:30000 --decode http://127.0.0.1:30001 --host 0.0.0.0 --port 8000\n' >"$T/minilb.sh"
expect_rc "the old mini_lb router" 0 $PDWIZ check --format json "$T/minilb.sh"
json_check "mini_lb: recognised and flagged as gone" has router-mini-lb-gone warning ""
python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["commands"]; assert c[0]["mode"]=="router", c' "$T/out" && ok || bad "mini_lb: not a router"
expect_rc "sglang serve" 1 $PDWIZ check --format json -- sglang serve --model-path m --tp-sizee 2
json_check "sglang serve: its options are SGLang's" has argparse-unrecognized error ""
# sglang serve MODEL (python/sglang/cli/serve.py): a first word that is no
# flag is the model path in current SGLang, --model-type is the CLI's own
# (since 0.5.10); a release before the positional model path rejects it.
expect_rc "sglang serve MODEL" 0 $PDWIZ check --format json -- sglang serve meta-llama/Llama-3.1-8B-Instruct --tp 2 --model-type llm
json_check "sglang serve MODEL: no argparse error" only ""
expect_rc "sglang serve MODEL --disaggregation-mode prefill: the model's facts" 1 $PDWIZ check --format json -- sglang serve deepseek-ai/DeepSeek-V3-0324 --tp-size 8 --quantization w8a8_int8
json_check "sglang serve MODEL: the model path is read" has quant-model-mismatch error ""
expect_rc "sglang serve MODEL for 0.5.13.post2" 1 $PDWIZ check --format json --sglang-version 0.5.13.post2 -- sglang serve meta-llama/Llama-3.1-8B-Instruct --tp 2
json_check "sglang serve MODEL for 0.5.13.post2: unrecognized" has argparse-unrecognized error "unrecognized arguments: meta-llama/Llama-3.1-8B-Instruct"
expect_rc "sglang serve --model-type for 0.5.9" 1 $PDWIZ check --format json --sglang-version 0.5.9 -- sglang serve --model-path m --model-type llm
json_check "sglang serve --model-type for 0.5.9: unrecognized" has argparse-unrecognized error "unrecognized arguments: --model-type llm"
expect_rc "python -m sglang.launch_server MODEL stays unrecognized" 1 $PDWIZ check --format json -- python -m sglang.launch_server meta-llama/Llama-3.1-8B-Instruct
json_check "launch_server MODEL: unrecognized" has argparse-unrecognized error "unrecognized arguments: meta-llama/Llama-3.1-8B-Instruct"

# --- shell traps of real scripts ---
printf 'while [ $# -gt 0 ]; do\n  case $1 in\n    --model)\n      M=$2; shift 2 ;;\n    -h|--help)\n      exit 0 ;;\n  esac\ndone\npython -m sglang.launch_server --model-path m\n' >"$T/case.sh"
expect_rc "case patterns" 0 $PDWIZ check --format json "$T/case.sh"
json_check "case patterns are not orphan options" lacks shell-orphan-option
printf 'python -m sglang.launch_server --model-path m \\\n  --tp 2  # two GPUs \\\n  --page-size 16\n' >"$T/bs-comment.sh"
[ "$(bash -c 'f() { printf "%s\n" "$@"; }; f a \
  b # c \
  --x 2>/dev/null' | wc -l)" = 2 ] && ok || bad "bash does not end the line at a backslash in a comment"
expect_rc "a backslash inside a comment" 0 $PDWIZ check --format json "$T/bs-comment.sh"
json_check "a backslash inside a comment: a warning" has shell-backslash-in-comment warning ""
python3 -c 'import json,sys; d=[d for d in json.load(open(sys.argv[1]))["diagnostics"] if d["rule"]=="shell-backslash-in-comment"][0]; assert d["line"]==2 and d["command"]==0 and "--page-size" in d["message"], d' "$T/out" && ok || bad "backslash in comment: line, command or message"
printf 'export MOONCAKE_CONFIG_PATH=/etc/mooncake.json\npython -m sglang.launch_server --model-path m --disaggregation-mode prefill\npython -m sglang.launch_server --model-path m --disaggregation-mode decode --port 30001 --base-gpu-id 1\n' >"$T/env-dep.sh"
expect_rc "a deprecated environment variable" 0 $PDWIZ check --format json "$T/env-dep.sh"
json_check "MOONCAKE_CONFIG_PATH: a warning" has env-deprecated warning ""
python3 -c 'import json,sys; d=[d for d in json.load(open(sys.argv[1]))["diagnostics"] if d["rule"]=="env-deprecated"]; assert len(d)==1 and d[0]["line"]==1 and "SGLANG_HICACHE_MOONCAKE_CONFIG_PATH" in d[0]["message"], d' "$T/out" && ok || bad "env-deprecated: once, on its line, naming the new variable"

# --- bash arrays: expanded as bash does when every element is known ---
cat >"$T/arr.sh" <<'EOF'
X="p q"
ARGS=(--tp 2 "--host" "0.0.0.0" $X)  # split like bash
ARGS+=(--page-size 16)
EMPTY=()
S=--trust-remote-code
python -m sglang.launch_server --model-path m "${ARGS[@]}" "${EMPTY[@]}" "x${EMPTY[@]}" "${#ARGS[@]}" "${ARGS[1]}" "${ARGS[*]}" $ARGS ${ARGS[@]} ${S[0]} "${#S}"
EOF
$PDWIZ check --format json "$T/arr.sh" >"$T/out" 2>&1
python3 - "$T/out" "$T/arr.sh" <<'PY' && ok || bad "arrays: pdwiz's words differ from bash's"
import json, shlex, subprocess, sys
stub = 'python() { shift 2; printf "%s\\n" "$@"; }\n'
want = subprocess.run(["bash", "-c", stub + open(sys.argv[2]).read()], capture_output=True, text=True).stdout.split("\n")[:-1]
got = shlex.split(json.load(open(sys.argv[1]))["commands"][0]["command"])[3:]
assert want == got, (want, got)
PY
printf 'ARGS=(--tp-sizee 2)\npython -m sglang.launch_server --model-path m "${ARGS[@]}"\n' >"$T/arr-bad.sh"
expect_rc "an array holding a misspelt option" 1 $PDWIZ check --format json "$T/arr-bad.sh"
json_check "array elements are checked as options" has argparse-unrecognized error ""
printf 'ARGS=(--tp 2 $(extra_args))\nEXTRA+=(--foo)\npython -m sglang.launch_server --model-path m "${ARGS[@]}" ${UNSET[@]} "${ARGS[@]:1}"\n' >"$T/arr-unknown.sh"
expect_rc "arrays with unknown elements" 0 $PDWIZ check --format json "$T/arr-unknown.sh"
json_check "unknown array words: not unrecognized" lacks argparse-unrecognized
json_check "unknown array words: could not check" has argv-unknown-words unknown ""
printf 'ARGS=(--tp 2)\nexport ARGS\nSGLANG_X=(1 2) python -m sglang.launch_server --model-path m "${ARGS[@]}"\n' >"$T/arr-env.sh"
$PDWIZ check --format json "$T/arr-env.sh" >"$T/out" 2>&1
json_check "an array is not exported (bash exports no array)" clean

# --- document placeholders are unknown, not findings ---
printf 'export ASCEND_NPU_PHY_ID=xxx\nexport SGLANG_DISAGGREGATION_QUEUE_SIZE=YOUR_QUEUE_SIZE\npython -m sglang.launch_server --model-path <your-model> --host=<INFRA_NODE_IP> --tp xxx --page-size ... --disaggregation-mode prefill\n' >"$T/ph.sh"
expect_rc "placeholders" 0 $PDWIZ check --format json "$T/ph.sh"
json_check "placeholders: no error" clean
json_check "placeholders: could not check" has par-tp-pp-nnodes unknown ""
python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["commands"][0]["command"]; assert "<your-model>" in c and "--host=<INFRA_NODE_IP>" in c, c' "$T/out" && ok || bad "placeholders: <NAME> is not one word"
printf 'export SGLANG_DISAGGREGATION_QUEUE_SIZE=abc\npython -m sglang.launch_server --model-path m --tp x2\n' >"$T/not-ph.sh"
expect_rc "values that are no placeholder" 1 $PDWIZ check --format json "$T/not-ph.sh"
json_check "a wrong env value is still an error" has env-type error ""
json_check "a wrong option value is still an error" has argparse-type error ""

# --- srt-slurm recipes: each worker mode's sglang_config as its command line ---
cat >"$T/recipe.yaml" <<'EOF'
name: "t"
model:
  path: "hf:meta-llama/Llama-3.1-8B-Instruct"
resources:
  gpu_type: "h100"
  gpus_per_node: 8
  prefill_nodes: 2
  prefill_workers: 1
  decode_nodes: 1
  decode_workers: 1
frontend:
  type: sglang
backend:
  prefill_environment:
    SGLANG_DISAGGREGATION_QUEUE_SIZE: "x"
  sglang_config:
    prefill:
      model-path: /model/
      tp-size: 16
      disable-radix-cache: true
      enable-metrics: false
      cuda-graph-bs: [1, 2, 4]
    decode:
      tp_size: 8
      tp-sizee: 2
EOF
expect_rc "an srt-slurm recipe" 1 $PDWIZ check --format json "$T/recipe.yaml"
json_check "recipe: the prefill's environment is checked" has env-type error ""
json_check "recipe: the decode's options are checked" has argparse-unrecognized error ""
python3 - "$T/out" <<'PY' && ok || bad "recipe: roles, lines and the command srtctl runs"
import json, sys
o = json.load(open(sys.argv[1]))
c = o["commands"]
assert [x["mode"] for x in c] == ["prefill", "decode"], c
p = c[0]["command"]
assert "python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct" in p, p
assert "--nnodes 2" in p and "--cuda-graph-bs 1 2 4" in p and "--disable-radix-cache" in p, p
assert "--enable-metrics" not in p and "/model/" not in p, p
u = [d for d in o["diagnostics"] if d["rule"] == "argparse-unrecognized"][0]
assert u["line"] == 25, u
PY
sed -e 's/      tp-sizee: 2//' -e 's/"x"/"2"/' "$T/recipe.yaml" >"$T/recipe-ok.yaml"
expect_rc "a consistent srt-slurm recipe" 0 $PDWIZ check --format json "$T/recipe-ok.yaml"
# Prefill against decode as for a script (page size, KV dtype, backend);
# the Slurm nodes are not named, so machine and port checks stay unknown.
sed -e 's/      tp-sizee: 2/      page-size: 32/' -e 's/"x"/"2"/' -e 's/      tp-size: 16/      tp-size: 16\n      page-size: 64/' "$T/recipe.yaml" >"$T/recipe-pages.yaml"
expect_rc "a recipe whose prefill and decode page sizes differ" 1 $PDWIZ check --format json "$T/recipe-pages.yaml"
json_check "recipe: cross-role page size" has xs-page-size error ""
json_check "recipe: the nodes are not named (no collision), srtctl's rendezvous is not missing: only the page size" only xs-page-size
printf 'base:\n  resources: {prefill_nodes: 1, decode_nodes: 1}\n  backend:\n    sglang_config:\n      prefill: {tp-size: 8}\n      decode: {tp-size: 8}\nzip_override_a:\n  resources:\n    decode_nodes: [1, 2]\n' >"$T/sweep.yaml"
expect_rc "an srt-slurm sweep" 0 $PDWIZ check --format json "$T/sweep.yaml"
json_check "sweep: the unexpanded blocks are named" has recipe-sweep-not-expanded note ""
printf 'resources: {prefill_nodes: 1}\nbackend:\n  type: trtllm\n  trtllm_config: {}\n' >"$T/trt.yaml"
expect_rc "a recipe for another backend: nothing to check" 0 $PDWIZ check -v "$T/trt.yaml"
grep -q "nothing to check: an srt-slurm recipe without backend.sglang_config (backend type trtllm)" "$T/out" && ok || bad "trtllm recipe: $(cat "$T/out")"
sed 's/trtllm_config: {}/trtllm_config: {}\n  sglang: [/' "$T/trt.yaml" >"$T/trt-bad.yaml"
expect_rc "a broken recipe that names SGLang" 2 $PDWIZ check "$T/trt-bad.yaml"

# --- will it fit: --gpu turns on the memory estimate ---
DSV3="python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8 --trust-remote-code"
expect_rc "--gpu H100: DeepSeek-V3 at TP 8 does not fit" 1 $PDWIZ check --format json --gpu H100 -- $DSV3
json_check "--gpu H100: fit-weights with the numbers" has fit-weights error \
    "The weights need about 79.2 GiB on each GPU at --tp-size 8, more than the about 76.6 GiB free on a H100 before they load: loading fails with CUDA out of memory (pdwiz's estimate)."
python3 - "$T/out" <<'PY' && ok || bad "--gpu H100: the offered fixes are the verified ones"
import json, sys
d = [x for x in json.load(open(sys.argv[1]))["diagnostics"] if x["rule"] == "fit-weights"][0]
sets = [f["set"] for f in d["fixes"]]
assert {"tp_size": 16, "nnodes": 2} in sets and {"gpu": "H200"} in sets, sets
PY
expect_rc "--gpu H200: DeepSeek-V3 at TP 8 fits" 0 $PDWIZ check --format json --gpu H200 -- $DSV3
json_check "--gpu H200: clean" clean
json_check "--gpu H200: a KV estimate" has fit-estimate note ""
grep -q "tokens" "$T/out" && ok || bad "--gpu H200: no token count: $(head -c 400 "$T/out")"
expect_rc "--gpu H100: Llama-3.1-8B" 0 $PDWIZ check --gpu H100 -- python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct
grep -q "note: memory per GPU: .*KV pool .* -> [0-9]* tokens" "$T/out" && ok || bad "--gpu H100 Llama: no KV token count: $(cat "$T/out")"
expect_rc "--gpu with an unknown accelerator" 2 $PDWIZ check --gpu Z999 -- python -m sglang.launch_server --model-path m
grep -q "unknown accelerator 'Z999' (known: A100-40GB" "$T/err" && ok || bad "--gpu Z999: $(cat "$T/err")"
expect_rc "--gpu with an unknown model: could not check" 0 $PDWIZ check --format json --gpu H100 -- python -m sglang.launch_server --model-path my-org/private --tp 8
python3 - "$T/out" <<'PY' && ok || bad "--gpu with an unknown model gives no finding"
import json, sys
out = json.load(open(sys.argv[1]))
fit = [d for d in out["diagnostics"] if d["rule"].startswith("fit-")]
assert all(d["severity"] in ("unknown", "note") for d in fit), fit
assert any(d["severity"] == "unknown" for d in fit), fit
PY
expect_rc "no --gpu: no estimate" 0 $PDWIZ check --format json -- $DSV3
json_check "no --gpu: no fit rule" lacks fit-estimate
# A deployment file takes an env boolean in any spelling SGLang reads, and
# a router integer past 2^31 (a 2 GiB payload limit), as the import of a
# real manifest writes them.
sed 's|^shared:$|shared:\n  env:\n    SGLANG_DISAGG_STAGING_BUFFER: 1|; s|^  router: {}$|  router:\n    options:\n      max_payload_size: 2147483648|' share/examples/minimal-1p1d.yaml >"$T/envbool.yaml"
grep -q 'max_payload_size: 2147483648' "$T/envbool.yaml" && grep -q 'STAGING_BUFFER: 1' "$T/envbool.yaml" && ok || bad "envbool fixture not made"
expect_rc "env bool 1 and a 64-bit router integer in a deployment file" 0 $PDWIZ check "$T/envbool.yaml"
sed 's/STAGING_BUFFER: 1/STAGING_BUFFER: maybe/' "$T/envbool.yaml" >"$T/envbool2.yaml"
expect_rc "an env boolean SGLang does not read is still refused" 2 $PDWIZ check "$T/envbool2.yaml"
# --gpu on a deployment file is not ignored, and wins over the file's fact.
expect_rc "--gpu on a deployment file" 0 $PDWIZ check --gpu H200 share/examples/minimal-1p1d.yaml
grep -q 'note: memory per GPU: meta-llama/Llama-3.1-8B-Instruct on H200-141GB' "$T/out" && ok || bad "--gpu on a deployment file is ignored: $(head -c 400 "$T/out")"
expect_rc "--gpu over the file's accelerator" 1 $PDWIZ check --gpu H200 tests/verdict/l40s-70b-tp1.yaml
grep -q 'on H200-141GB' "$T/out" && ! grep -q 'on L40S' "$T/out" && ok || bad "--gpu does not win over model.facts.gpu: $(head -c 400 "$T/out")"
# What an import leaves unknown (missing.ROLE: words in place of options)
# goes into its launch script and manifests as PDWIZ_MISSING_ROLE, so the
# export's stand-in ports are not checked as the script's own.
printf 'python3 -m sglang.launch_server --model-path m --disaggregation-mode prefill $EXTRA &\npython3 -m sglang.launch_server --model-path m --disaggregation-mode decode $EXTRA &\n' >"$T/unk.sh"
$PDWIZ import -o "$T/unk.yaml" "$T/unk.sh" 2>/dev/null
mkdir -p "$T/unk" && $PDWIZ emit --force --format shell -o "$T/unk" "$T/unk.yaml" >/dev/null 2>&1
grep -q "^PDWIZ_MISSING_DECODE='words of its command are expanded at run time" "$T/unk/launch.sh" && ok || bad "PDWIZ_MISSING_DECODE not in the launch script"
expect_rc "an export keeps what its source left unknown" 0 $PDWIZ check "$T/unk/launch.sh"
$PDWIZ emit --force --format k8s -o "$T/unk" "$T/unk.yaml" >/dev/null 2>&1
expect_rc "... in its manifests too" 0 $PDWIZ check "$T/unk/k8s.yaml"
# ... and over a script's PDWIZ_FACT_gpu line.
printf 'PDWIZ_FACT_gpu=L40S\npython -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp 1\n' >"$T/fact.sh"
expect_rc "a script's PDWIZ_FACT_gpu" 0 $PDWIZ check "$T/fact.sh"
grep -q 'on L40S-48GB' "$T/out" && ok || bad "PDWIZ_FACT_gpu not read: $(head -c 400 "$T/out")"
expect_rc "--gpu over PDWIZ_FACT_gpu" 0 $PDWIZ check --gpu H100 "$T/fact.sh"
grep -q 'on H100' "$T/out" && ! grep -q 'L40S' "$T/out" && ok || bad "--gpu does not win over PDWIZ_FACT_gpu: $(head -c 400 "$T/out")"
printf 'PDWIZ_FACT_nosuch=1\npython -m sglang.launch_server --model-path m\n' >"$T/fact2.sh"
expect_rc "a script's unknown fact is refused with its place" 2 $PDWIZ check "$T/fact2.sh"
grep -q 'fact2.sh:1:1: PDWIZ_FACT_nosuch: unknown fact' "$T/err" && ok || bad "unknown fact: $(cat "$T/err")"
expect_rc "import refuses it the same way" 2 $PDWIZ import -o "$T/fact2.yaml" "$T/fact2.sh"
[ ! -e "$T/fact2.yaml" ] && grep -q 'fact2.sh:1:1: PDWIZ_FACT_nosuch' "$T/err" && ok || bad "import of an unknown fact: $(cat "$T/err")"
# The deployment file names the accelerator: the check and the runbook
# carry the estimate per role.
sed 's|^  path: "meta-llama/Llama-3.1-8B-Instruct"|&\n  facts:\n    gpu: H100|' share/examples/llama-1p1d-mooncake.yaml >"$T/gpu.yaml"
expect_rc "deployment with model.facts.gpu" 0 $PDWIZ check --format json "$T/gpu.yaml"
python3 -c 'import json,sys; n=[d for d in json.load(open(sys.argv[1]))["diagnostics"] if d["rule"]=="fit-estimate"]; assert len(n)==2 and all("tokens" in d["message"] for d in n), n' "$T/out" && ok || bad "deployment gpu fact: no estimate per role: $(head -c 600 "$T/out")"
$PDWIZ emit --format runbook -o - "$T/gpu.yaml" >"$T/out" 2>&1
grep -q "^- prefill: meta-llama/Llama-3.1-8B-Instruct on H100-SXM-80GB, tp 1: weights" "$T/out" && grep -q "^- decode: " "$T/out" && ok || bad "runbook: no memory estimate: $(grep -n Memory "$T/out")"
$PDWIZ emit --format runbook -o - share/examples/llama-1p1d-mooncake.yaml >"$T/out" 2>&1
grep -q "Memory per GPU" "$T/out" && bad "runbook without an accelerator shows an estimate" || ok
# A runbook read without its .md name (standard input, another name) is
# still the Markdown it is: its heading and fenced shell blocks say so; a
# script whose first line is a comment stays a script.
$PDWIZ check share/examples/llama-1p1d-mooncake.yaml >"$T/want" 2>&1
$PDWIZ emit --format runbook -o - share/examples/llama-1p1d-mooncake.yaml | $PDWIZ check - >"$T/got" 2>&1
tail -1 "$T/got" | grep -q "in 3 commands" && [ "$(tail -1 "$T/got" | cut -d, -f1-2)" = "$(tail -1 "$T/want" | cut -d, -f1-2)" ] && ok ||
    bad "runbook on standard input: $(tail -2 "$T/got") (the file: $(tail -1 "$T/want"))"
printf '# my launch script\npython -m sglang.launch_server --model-path m --disaggregation-mode prefill\n' >"$T/c.sh"
$PDWIZ check --format json "$T/c.sh" >"$T/out" 2>&1
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["summary"]["checked"] == 1 and len(d["commands"]) == 1, d["summary"]' "$T/out" && ok || bad "a commented script read as Markdown: $(head -c 300 "$T/out")"
# A deployment without a prefill (missing.prefill): the cross-role checks
# that compare it with the decode could not check, with that reason, not
# a mismatch against a default prefill ("x or 1" of an unknown is unknown).
printf 'pdwiz: 1\nmodel:\n  path: "m"\nmissing:\n  prefill: "no prefill command in the script"\n  router: "no router"\nroles:\n  decode:\n    instances: 1\n    nodes_per_instance: 1\n    gpus_per_node: 1\n    hosts: ["10.0.0.2"]\n    port: 30000\n    options:\n      page_size: 64\n' >"$T/nopf.yaml"
$PDWIZ check "$T/nopf.yaml" >"$T/out" 2>&1
! grep -q 'error:.*xs-page-size' "$T/out" && grep -q 'checks: the prefill is not in the deployment (missing.prefill) \[.*xs-page-size' "$T/out" && ok || bad "deployment without a prefill: $(cat "$T/out")"
# A script whose servers bind 0.0.0.0 on the one machine it runs on, and
# whose router lists a port no decode has: its import says the machine is
# not stated (missing.ROLE), but its literal ports stay known, so the
# router's findings are the same from the file as from the script.
printf 'python3 -m sglang.launch_server --model-path m --disaggregation-mode prefill --host 0.0.0.0 --port 30000 --disaggregation-ib-device mlx5_0 &\npython3 -m sglang.launch_server --model-path m --disaggregation-mode decode --host 0.0.0.0 --port 30001 --base-gpu-id 1 --disaggregation-ib-device mlx5_0 &\npython3 -m sglang_router.launch_router --pd-disaggregation --prefill http://127.0.0.1:30000 --decode http://127.0.0.1:30002 --host 0.0.0.0 --port 8000\n' >"$T/v1.sh"
$PDWIZ check "$T/v1.sh" 2>&1 | grep -o '\[[a-z0-9-]*\]$' | sort -u >"$T/v1.a"
$PDWIZ import --keep-going -o "$T/v1.yaml" "$T/v1.sh" >/dev/null 2>&1
$PDWIZ check "$T/v1.yaml" 2>&1 | grep -o '\[[a-z0-9-]*\]$' | sort -u >"$T/v1.b"
grep -q 'xs-router-missing' "$T/v1.a" && cmp -s "$T/v1.a" "$T/v1.b" && ok || bad "import of 0.0.0.0 servers changes the router findings: $(cat "$T/v1.a") / $(cat "$T/v1.b")"
# A script says nothing of its machines' GPU count: its import says so
# (gpus_per_host: null), which reads back as such, so the deployment file,
# its exports and the wizard's export of the import agree (no stand-in 8).
$PDWIZ import -o "$T/gph.yaml" share/examples/nixl-llama-1p1d.sh >/dev/null 2>&1
rm -rf "$T/gph.e" && mkdir "$T/gph.e"
$PDWIZ emit --format yaml -o "$T/gph.e" "$T/gph.yaml" >/dev/null 2>&1
$PDWIZ emit --format shell -o "$T/gph.e" "$T/gph.yaml" >/dev/null 2>&1
grep -qx 'gpus_per_host: null' "$T/gph.yaml" && grep -qx 'gpus_per_host: null' "$T/gph.e/deployment.yaml" && ! grep -q 'PDWIZ_GPUS_PER_HOST' "$T/gph.e/launch.sh" && ok || bad "an import's unknown GPUs per host: $(grep -n gpus_per_host "$T/gph.yaml" "$T/gph.e/deployment.yaml"; grep -n PDWIZ_GPUS "$T/gph.e/launch.sh")"
# A server whose machine the source did not state (bound to 0.0.0.0, no
# machine named): its exports keep the machine unknown, so their checks
# say "could not check" as the source's does, not collisions on the
# deployment's stand-in host; a deployment without a router gets no smoke
# test against a router that is not there.
printf 'python -m sglang.launch_server --model-path Qwen/Qwen3-0.6B --disaggregation-mode prefill --host 0.0.0.0 --port 30000\npython -m sglang.launch_server --model-path Qwen/Qwen3-0.6B --disaggregation-mode decode --host 0.0.0.0 --port 30000\n' >"$T/unst.sh"
$PDWIZ import --keep-going -o "$T/unst.yaml" "$T/unst.sh" >/dev/null 2>&1
grep -q '^missing:' "$T/unst.yaml" && ok || bad "unstated machines: no missing in the import: $(head -c 400 "$T/unst.yaml")"
for fmt in shell runbook; do
	rm -rf "$T/unst.$fmt"; mkdir "$T/unst.$fmt"
	$PDWIZ emit --format $fmt --force -o "$T/unst.$fmt" "$T/unst.yaml" >/dev/null 2>&1
	f=$T/unst.$fmt/launch.sh; [ $fmt = runbook ] && f=$T/unst.$fmt/RUNBOOK.md
	$PDWIZ check --show-unknown "$f" >"$T/out" 2>&1
	grep -q 'xs-port-collision' "$T/out" && grep -q '0 errors' "$T/out" && ! grep -q 'PDWIZ_NODE_HOST=127' "$f" && ok || bad "emit $fmt of unstated machines: $(cat "$T/out" | head -c 600)"
done
grep -q 'prefill-0-0 (machine not stated)' "$T/unst.runbook/RUNBOOK.md" && ! grep -q ':-1/generate' "$T/unst.runbook/RUNBOOK.md" && grep -q 'has no router' "$T/unst.runbook/RUNBOOK.md" && ok || bad "runbook of unstated machines, no router: $(grep -n 'generate\|###' "$T/unst.runbook/RUNBOOK.md")"
# Instances sharing one 8-GPU host: each with its own GPUs, not "8" each;
# the runbook is checked as the deployment, with the file's own verdict.
$PDWIZ emit --format runbook -o - share/examples/llama-2p2d-one-node.yaml >"$T/RUNBOOK.md" 2>&1
grep -qF '| Node 1 | `127.0.0.1` | prefill-1-0 | 2-3 (2 GPUs) | 30001, 8999 |' "$T/RUNBOOK.md" &&
    grep -qF '| Node 1 | `127.0.0.1` | decode-1-0 | 6-7 (2 GPUs) | 30003 |' "$T/RUNBOOK.md" &&
    grep -q '^# decode instance 1, node rank 0: GPUs 6-7 (2 GPUs), port 30003$' "$T/RUNBOOK.md" &&
    ! grep -q 'launch\.sh' "$T/RUNBOOK.md" && ok || bad "runbook GPUs per instance: $(grep -n '^| Node' "$T/RUNBOOK.md")"
$PDWIZ check -v "$T/RUNBOOK.md" >"$T/out" 2>&1
grep -q 'document-one-deployment' "$T/out" && tail -1 "$T/out" | grep -q '^0 errors, 0 warnings, 0 not checked, [0-9]* notes\?, in 5 commands' && ok ||
    bad "check RUNBOOK.md: $(tail -3 "$T/out")"

# The accelerator settles the platform: a rule that needs it is checked.
CPDSA="python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3.2-Exp --disaggregation-mode prefill --enable-prefill-cp --cp-strategy interleave --trust-remote-code"
$PDWIZ check --format json -- $CPDSA >"$T/out" 2>&1
json_check "no --gpu: the platform is unknown" has cp-platform unknown ""
$PDWIZ check --format json --gpu H100 -- $CPDSA >"$T/out" 2>&1
json_check "--gpu H100 settles the platform (cuda)" has cp-dsa-auto-config warning ""
json_check "--gpu H100: the platform is known" lacks cp-platform

. tests/cli/import.sh
. tests/cli/lint.sh

# --- make install: found from any directory, man page and completion ---
if [ "$PDWIZ" = ./pdwiz ]; then
	make -s install PREFIX=/usr DESTDIR="$T/root" >"$T/out" 2>&1 || bad "make install: $(cat "$T/out")"
	for f in usr/bin/pdwiz usr/share/pdwiz/rules/options.yaml usr/share/man/man1/pdwiz.1 \
	    usr/share/bash-completion/completions/pdwiz; do
		[ -f "$T/root/$f" ] && ok || bad "install lacks $f"
	done
	make -s install PREFIX="$T/pfx" >/dev/null 2>&1
	(cd / && env -u PDWIZ_DATADIR "$T/pfx/bin/pdwiz" check -- --model-path m --tp-size 2 >/dev/null 2>&1) && ok || bad "installed pdwiz does not find its rules"
	(cd / && env -u PDWIZ_DATADIR "$T/pfx/bin/pdwiz" --version | grep -q "checks") && ok || bad "installed --version"
	(cd / && env -u PDWIZ_DATADIR "$T/pfx/bin/pdwiz" --version | grep -q "^catalog: compiled image $T/pfx/lib/pdwiz/catalog.img") && ok || bad "installed pdwiz does not use its compiled catalog"
	make -s uninstall PREFIX="$T/pfx" >/dev/null 2>&1
	[ ! -e "$T/pfx/bin/pdwiz" ] && [ ! -e "$T/pfx/share/pdwiz" ] && ok || bad "make uninstall leaves files"
	man -l share/pdwiz.1 >/dev/null 2>&1 && ok || bad "man page does not render"
	bash -n share/bash-completion/pdwiz && ok || bad "completion syntax"
fi

# --- Kubernetes manifests (tests/cli/manifests/) ---
M=tests/cli/manifests
# json_at RULE LINE: a diagnostic of RULE at LINE of the manifest
json_at() {
	python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); sys.exit(0 if any(d["rule"]==sys.argv[2] and d["line"]==int(sys.argv[3]) for d in o["diagnostics"]) else 1)' "$T/out" "$1" "$2"
}
# A manifest that starts with a UTF-8 byte order mark, or whose lines end
# in a CR alone (or CR LF), is the same manifest: not a --config ("none of
# its keys ('apiVersion', ...)"), the same report at the same lines and
# columns, the same import.
for m in lws vars multi-anchors; do
	$PDWIZ check --format json "$M/$m.yaml" 2>&1 | sed "s|$M/$m.yaml|F|g" >"$T/lf.json"
	$PDWIZ import --keep-going "$M/$m.yaml" 2>&1 | sed "s|$M/$m.yaml|F|g" >"$T/lf.imp"
	for v in bom cr crlf; do
		mkdir -p "$T/ends-$v"
		f=$T/ends-$v/$m.yaml
		case $v in
		bom) { printf '\357\273\277'; cat "$M/$m.yaml"; } >"$f" ;;
		cr) tr '\n' '\r' <"$M/$m.yaml" >"$f" ;;
		crlf) sed 's/$/\r/' "$M/$m.yaml" >"$f" ;;
		esac
		$PDWIZ check --format json "$f" 2>&1 | sed "s|$f|F|g" >"$T/v.json"
		cmp -s "$T/lf.json" "$T/v.json" && ok || bad "manifest $m.yaml ($v): not read as with LF: $(head -c 300 "$T/v.json")"
		$PDWIZ import --keep-going "$f" 2>&1 | sed "s|$f|F|g" >"$T/v.imp"
		cmp -s "$T/lf.imp" "$T/v.imp" && ok || bad "import of manifest $m.yaml ($v): $(head -c 300 "$T/v.imp")"
	done
done
expect_rc "manifest: multi-document List with anchors and a merge key" 1 $PDWIZ check --format json $M/multi-anchors.yaml
json_at argparse-unrecognized 30 && ok || bad "manifest: the typo is reported at its line in the manifest (30)"
python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); c=o["commands"]; assert len(c)==2 and c[1]["command"].endswith("--port 8000"), c' "$T/out" && ok || bad "manifest: the decode merges the anchored container and expands \$(PORT) from the merged env"
expect_rc "manifest: \$(VAR) from env, \$\$ escapes" 1 $PDWIZ check --format json $M/vars.yaml
json_check "manifest: \$(BASE) expanded inside an env value" has argparse-type error "argument --port: invalid int value: '300x'"
json_check "manifest: \$\$(TP) is the literal text" has argparse-type error "argument --dp-size: invalid int value: '\$(TP)'"
python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); bad=[d for d in o["diagnostics"] if d["severity"]=="error" and ("POD_IP" in d["message"] or "--tp-size" in d["message"] or "--pp-size" in d["message"])]; sys.exit(1 if bad else 0)' "$T/out" && ok || bad "manifest: valueFrom and unset \$(VAR) stay unknown, never an error"
json_check "manifest: an unknown TP is could-not-check" has par-tp-pp-nnodes unknown ""
expect_rc "manifest: LWS ranks" 1 $PDWIZ check --format json $M/lws.yaml
json_at argparse-unrecognized 24 && ok || bad "manifest: a sh -c script's word is reported at its line (24)"
json_check "manifest: the ranks of an instance are separate machines" lacks xs-port-collision
json_check "manifest: router addresses LWS pods by their DNS names" has xs-router-missing warning ""
grep -q '"decode instance 1 (dec-1.dec:30000) is not listed' "$T/out" && ok || bad "manifest: the unlisted decode is the second LWS replica"
$PDWIZ import --keep-going $M/lws.yaml >"$T/imp" 2>/dev/null
grep -q 'hosts: \["dec-0.dec", "dec-0-1.dec", "dec-1.dec", "dec-1-1.dec"\]' "$T/imp" && grep -q "nodes_per_instance: 2" "$T/imp" && ok || bad "manifest: import places leader and worker as the 2 ranks of each of 2 instances"
# The pods are machines of their own: the deployment file and its launch
# script say so (pod_hosts, PDWIZ_POD_HOSTS_DECODE), so the unlisted decode
# pod is still found unlisted there.
grep -q "pod_hosts: true" "$T/imp" && ok || bad "manifest: import writes pod_hosts"
$PDWIZ import --keep-going -o "$T/lws-imp.yaml" $M/lws.yaml >/dev/null 2>&1
# (exit 1: the leader's misspelt flag is kept as an extra argument, and
# reported as the manifest's own check reports it)
expect_rc "manifest: its import keeps the unlisted decode pod" 1 $PDWIZ check --format json "$T/lws-imp.yaml"
json_check "manifest: its import keeps the misspelt flag" has argparse-unrecognized error ""
json_check "manifest: pod hosts in the deployment file" has xs-router-missing warning ""
mkdir -p "$T/lws-sh" && $PDWIZ emit --force --format shell -o "$T/lws-sh" "$T/lws-imp.yaml" >/dev/null 2>&1
grep -q '^PDWIZ_POD_HOSTS_DECODE=true$' "$T/lws-sh/launch.sh" && ok || bad "manifest: the launch script says the hosts are pods"
expect_rc "manifest: its launch script keeps the unlisted decode pod" 1 $PDWIZ check --format json "$T/lws-sh/launch.sh"
json_check "manifest: pod hosts in the launch script" has xs-router-missing warning ""
# A container's nvidia.com/gpu limit is the GPUs its server has: tp 8 in a
# pod granted 4 cannot start; granted 8 it can.
gpupod() {
	for r in prefill decode; do
		printf -- '---\napiVersion: v1\nkind: Pod\nmetadata: {name: %s}\nspec:\n  containers:\n    - name: s\n      command: [python3, -m, sglang.launch_server]\n      args: [--model-path, meta-llama/Llama-3.1-70B-Instruct, --disaggregation-mode, %s, --tp-size, "8", --disaggregation-ib-device, mlx5_0]\n      resources:\n        limits:\n          nvidia.com/gpu: "%s"\n' $r $r "$([ $r = prefill ] && echo "$1" || echo 8)"
	done
}
gpupod 4 >"$T/gpu4.yaml"
expect_rc "manifest: a GPU limit below tp" 1 $PDWIZ check --format json "$T/gpu4.yaml"
json_check "manifest: the container's GPU limit is its server's GPUs" has xs-prefill-gpus error ""
gpupod 8 >"$T/gpu8.yaml"
$PDWIZ check --format json "$T/gpu8.yaml" >"$T/out" 2>"$T/err"
json_check "manifest: a GPU limit that fits tp" lacks xs-prefill-gpus
# An alias bomb is refused without expanding it: exit 2 where the file
# claims to be SGLang's, nothing to check (the reason under -v) where not.
expect_rc "manifest: alias bomb, no SGLang in it" 0 $PDWIZ check -v $M/bomb.yaml
grep -q "bomb.yaml:9:10: note: nothing to check: YAML aliases expand to more than 100000 nodes" "$T/out" && ok || bad "manifest: alias bomb message: $(head -c 300 "$T/out")"
{ echo '# image: lmsysorg/sglang'; cat $M/bomb.yaml; } >"$T/bomb-sg.yaml"
expect_rc "manifest: alias bomb naming SGLang" 2 $PDWIZ check "$T/bomb-sg.yaml"
grep -q "bomb-sg.yaml:10:10: YAML aliases expand to more than 100000 nodes" "$T/err" && ok || bad "manifest: alias bomb message (SGLang): $(cat "$T/err")"
cp $M/vars.yaml "$T/pod.txt"
expect_rc "manifest: --input k8s forces a manifest" 1 $PDWIZ check --input k8s --format json "$T/pod.txt"
json_check "manifest: forced manifest is read" has argparse-type error ""
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec:\n  containers:\n    - name: s\n      command:\n        - >\n          python3 -m sglang.launch_server\n          --model-path m --port 30000\n    - name: side\n      command: ["sleep infinity"]\n' >"$T/one.yaml"
expect_rc "manifest: a whole command line in one command item" 1 $PDWIZ check --format json "$T/one.yaml"
json_at manifest-command-one-item 8 && ok || bad "manifest: one-item command reported at its item (line 8)"
python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); assert sum(d["rule"]=="manifest-command-one-item" for d in o["diagnostics"])==1' "$T/out" && ok || bad "manifest: a non-SGLang container's one-item command is not reported"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n' >"$T/cm.yaml"
expect_rc "manifest: no SGLang command: nothing to check" 0 $PDWIZ check -v "$T/cm.yaml"
grep -q "nothing to check: .*a Kubernetes manifest (kind: ConfigMap) with no SGLang command" "$T/out" && ok || bad "manifest: the note names the kind: $(cat "$T/out")"

# --- a manifest's image tag names the SGLang release its commands are checked against ---
if [ -d "$RW" ]; then
expect_rc "image v0.4.8.post1: --enable-deepep-moe is that release's flag" 0 $PDWIZ check --format json "$RW"/ome-deepseek-rdma-pd-rt.yaml
grep -q '"rule":"flag-history","severity":"note","message":"--enable-deepep-moe is accepted by SGLang 0.4.8.post1' "$T/out" && ok || bad "image version: no note naming 0.4.8.post1: $(head -c 300 "$T/out")"
expect_rc "--sglang-version overrides the image tag" 1 $PDWIZ check --format json --sglang-version 0.5.18 "$RW"/ome-deepseek-rdma-pd-rt.yaml
grep -q '"rule":"argparse-unrecognized","severity":"error","message":"unrecognized arguments: --enable-deepep-moe' "$T/out" && ok || bad "--sglang-version 0.5.18 over an image: $(head -c 300 "$T/out")"
expect_rc "a floating image tag (:dev) is no release: current SGLang" 1 $PDWIZ check --format json "$RW"/ome-kimi-k2-pd-rt.yaml

else skipped_rw=$((skipped_rw + 1)); fi
# --- an assignment whose value holds JSON is still a command line ---
# A script's first line X='{"a": 1}' python ... is no YAML "key: value";
# after --, NAME=VALUE words before the command stay assignments.
printf '#!/bin/sh\nSGLANG_DISAGGREGATION_NIXL_BACKEND_PARAMS=%s python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-transfer-backend nixl\n' "'{\"num_threads\": 4}'" > "$T/nixl.sh"
expect_rc "JSON in an assignment: a script" 1 $PDWIZ check --format json "$T/nixl.sh"
json_check "JSON in an assignment: a script, checked" has tb-nixl-backend-params error "" "$T/nixl.sh"
expect_rc "JSON in an assignment: after --" 1 $PDWIZ check --format json -- SGLANG_DISAGGREGATION_NIXL_BACKEND_PARAMS='{"num_threads": 4}' python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-transfer-backend nixl
json_check "JSON in an assignment: after --, checked" has tb-nixl-backend-params error "" --
expect_rc "JSON in an assignment: after --, string values" 0 $PDWIZ check --format json -- SGLANG_DISAGGREGATION_NIXL_BACKEND_PARAMS='{"num_threads": "4"}' python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-transfer-backend nixl --disaggregation-ib-device mlx5_0
json_check "JSON in an assignment: after --, string values clean" lacks tb-nixl-backend-params --

# --- --version says which SGLang the rules model ---
expect_rc "--version" 0 $PDWIZ --version
grep -q "^SGLang modelled: main, newer than release 0.5.13.post2; the cited files mix" "$T/out" && ok || bad "--version: no SGLang statement: $(head -5 "$T/out")"
grep -q "^citations: [0-9]* of [0-9]* rules at home in sgl-project/sglang@8905cbd4" "$T/out" && ok || bad "--version: no citation summary"

[ "$skipped_rw" -gt 0 ] &&
    echo "skipped: $skipped_rw groups of real-world checks (the corpus $RW is not present)"
echo "cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
