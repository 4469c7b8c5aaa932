# tests/cli/import.sh - `pdwiz import`: what a script holds is kept, what
# cannot be placed is reported, bounded memory. Sourced by tests/cli/run.sh
# (uses its PDWIZ, T, ok, bad, expect_rc).

# --- a script of 100,000 commands: refused at the cap, in bounded memory ---
python3 - "$T/huge.sh" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    for i in range(100000):
        f.write("python3 -m sglang.launch_server --model-path /m "
                "--disaggregation-mode prefill --port %d\n" % (20000 + i % 40000))
PY
# 256 MiB of address space: the whole pdwiz, catalog included. A build
# that cannot start under any such limit (ASan reserves terabytes of
# shadow memory) runs without it.
lim=262144
(ulimit -v $lim; exec $PDWIZ --version) >/dev/null 2>&1 || lim=unlimited
for sub in "import -o $T/huge.yaml" "check --format json"; do
	(ulimit -v $lim; exec $PDWIZ $sub "$T/huge.sh") >"$T/out" 2>"$T/err"; rc=$?
	[ $rc = 2 ] && grep -q "huge.sh:16385:1: more than 16384 SGLang commands in one script" "$T/err" "$T/out" && ok ||
	    bad "100,000 commands ($sub): exit $rc, want 2 and the cap's message: $(head -c 300 "$T/err")"
done
[ ! -e "$T/huge.yaml" ] && ok || bad "a refused import wrote its file"

# --- nothing dropped silently: every word not placed, at its line:col ---
cat > "$T/lost.sh" <<'S'
python3 -m sglang.launch_server --model-path --evil \
  --disaggregation-mode prefill --tp-size 2 --bogus-flag 3 stray \
  --port
python3 -m sglang.launch_server --model-path /m --disaggregation-mode decode --port 30001 --base-gpu-id 2
python3 -m sglang_router.launch_router --pd-disaggregation --prefill http://127.0.0.1:30000 --decode http://127.0.0.1:30001 --port 8000
S
expect_rc "import of unplaceable words" 2 $PDWIZ import -o "$T/lost.yaml" "$T/lost.sh"
for want in "lost.sh:1:33: error: argument --model-path: expected one argument" \
    "lost.sh:1:46: warning: unrecognized argument '--evil'; kept as an extra argument" \
    "lost.sh:2:45: warning: unrecognized argument '--bogus-flag'; kept" \
    "lost.sh:2:58: warning: unrecognized argument '3'; kept" "lost.sh:2:60: warning: unrecognized argument 'stray'; kept" \
    "lost.sh:3:3: error: argument --port: expected one argument" "nothing written (--keep-going proceeds without them)"; do
	grep -qF "$want" "$T/err" && ok || bad "import does not report: $want: $(cat "$T/err")"
done
[ ! -e "$T/lost.yaml" ] && ok || bad "import wrote a file despite words it could not place"
expect_rc "emit of a script with unplaceable words" 2 $PDWIZ emit --format shell "$T/lost.sh"
expect_rc "import --keep-going" 0 $PDWIZ import --keep-going -o "$T/lost.yaml" "$T/lost.sh"
grep -q "unrecognized argument 'stray'" "$T/err" && [ -s "$T/lost.yaml" ] && ok || bad "--keep-going: not reported or not written"
$PDWIZ import --help | grep -q -- "--keep-going" && ok || bad "import --help lacks --keep-going"
grep -q 'keep\\-going' share/pdwiz.1 && ok || bad "pdwiz.1 lacks --keep-going"

# --- what SGLang's argparse refuses is kept as written (extra_args) and
# checked as SGLang would: import, the file, every export, re-import ---
cat > "$T/refused.sh" <<'S'
python3 -m sglang.launch_server --model-path /m --disaggregation-mode prefill --disaggregation-ib-device mlx5_0 --enable-deepep-moe --load-balance-method decode_round_robin --tp-size 2
python3 -m sglang.launch_server --model-path /m --disaggregation-mode decode --port 30001 --base-gpu-id 2 --disaggregation-ib-device mlx5_0 --watchdog-timeout soon
python3 -m sglang_router.launch_router --pd-disaggregation --prefill http://127.0.0.1:30000 --decode http://127.0.0.1:30001 --port 8000
S
expect_rc "import of refused words" 0 $PDWIZ import -o "$T/refused.yaml" "$T/refused.sh"
for want in "refused.sh:1:113: warning: unrecognized argument '--enable-deepep-moe'; kept as an extra argument (extra_args)" \
    "refused.sh:1:133: warning: argument --load-balance-method: invalid choice: 'decode_round_robin'" \
    "refused.sh:2:141: warning: argument --watchdog-timeout: invalid float value: 'soon'"; do
	grep -qF "$want" "$T/err" && ok || bad "import does not say: $want: $(cat "$T/err")"
done
grep -qF 'extra_args: ["--enable-deepep-moe", "--load-balance-method", "decode_round_robin"]' "$T/refused.yaml" &&
    grep -qF 'extra_args: ["--watchdog-timeout", "soon"]' "$T/refused.yaml" && grep -q 'tp_size: 2' "$T/refused.yaml" && ok ||
    bad "refused words not in the file as written: $(grep -n 'extra_args\|tp_size' "$T/refused.yaml")"
rids() { $PDWIZ check --format json "$1" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
ids = set()
def walk(x):
    if isinstance(x, dict):
        if x.get("severity") in ("error", "warning") and "rule" in x:
            ids.add(x["rule"])
        for v in x.values(): walk(v)
    elif isinstance(x, list):
        for v in x: walk(v)
walk(d)
print(" ".join(sorted(i for i in ids if i.startswith("argparse"))))'; }
want_ids=$(rids "$T/refused.sh")
[ "$want_ids" = "argparse-choice argparse-type argparse-unrecognized" ] && ok || bad "check of the script: '$want_ids'"
[ "$(rids "$T/refused.yaml")" = "$want_ids" ] && ok || bad "check of the imported file: '$(rids "$T/refused.yaml")', script: '$want_ids'"
for fmt in shell config k8s; do
	rm -rf "$T/ref.$fmt" && mkdir "$T/ref.$fmt"
	$PDWIZ emit --force --format $fmt -o "$T/ref.$fmt" "$T/refused.yaml" >/dev/null 2>&1
	f=$T/ref.$fmt/launch.sh; [ $fmt = k8s ] && f=$T/ref.$fmt/k8s.yaml
	[ "$(rids "$f")" = "$want_ids" ] && ok || bad "check of the $fmt export: '$(rids "$f")', script: '$want_ids'"
done
# config mode: the refused words stay on the command line, as given
grep -q -- '--enable-deepep-moe' "$T/ref.config/launch.sh" && ! grep -q 'deepep' "$T/ref.config/prefill.yaml" && ok ||
    bad "emit config moved or lost the extra arguments"
$PDWIZ import -o "$T/refused2.yaml" "$T/ref.shell/launch.sh" 2>/dev/null
grep -F 'extra_args' "$T/refused.yaml" >"$T/ea1"; grep -F 'extra_args' "$T/refused2.yaml" >"$T/ea2"
cmp -s "$T/ea1" "$T/ea2" && ok || bad "re-import of the shell export changes extra_args: $(cat "$T/ea2")"
# what the layout writes itself is not passed through beside it
printf '%s\n' 'python3 -m sglang.launch_server --model-path /m --disaggregation-mode prefill --node-rank x' >"$T/refl.sh"
$PDWIZ import --keep-going -o "$T/refl.yaml" "$T/refl.sh" 2>"$T/err"
grep -q "refl.sh:1:91: error: argument --node-rank: invalid int value: 'x'; not placed" "$T/err" && ! grep -q extra_args "$T/refl.yaml" && ok ||
    bad "a refused layout flag: $(cat "$T/err")"

# --- numbers keep their written form: import, file, emit ---
cat > "$T/num.sh" <<'S'
python3 -m sglang.launch_server --model-path /m --disaggregation-mode prefill --watchdog-timeout 9000 --disaggregation-ib-device mlx5_0
python3 -m sglang.launch_server --model-path /m --disaggregation-mode decode --port 30001 --base-gpu-id 1 --watchdog-timeout=300.0 --disaggregation-ib-device mlx5_0
python3 -m sglang_router.launch_router --pd-disaggregation --prefill http://127.0.0.1:30000 --decode http://127.0.0.1:30001 --port 8000
S
expect_rc "import of numbers" 0 $PDWIZ import -o "$T/num.yaml" "$T/num.sh"
grep -q "watchdog_timeout: 9000$" "$T/num.yaml" && grep -q "watchdog_timeout: 300.0$" "$T/num.yaml" && ok ||
    bad "numbers lose their written form in the file: $(grep watchdog "$T/num.yaml")"
$PDWIZ emit --format shell "$T/num.yaml" >"$T/num.out" 2>&1
grep -Eq -- "--watchdog-timeout 9000( |$)" "$T/num.out" && grep -Eq -- "--watchdog-timeout 300.0( |$)" "$T/num.out" && ok ||
    bad "numbers lose their written form in the shell emitter: $(grep -o 'watchdog-timeout [^ ]*' "$T/num.out")"
mkdir -p "$T/numcfg" && $PDWIZ emit --format config -o "$T/numcfg" "$T/num.yaml" 2>/dev/null
grep -q "^watchdog-timeout: 9000$" "$T/numcfg/prefill.yaml" && grep -q "^watchdog-timeout: 300.0$" "$T/numcfg/decode.yaml" && ok ||
    bad "numbers lose their written form in the config emitter: $(cat "$T/numcfg/"*.yaml | grep watchdog)"
$PDWIZ emit --format k8s "$T/num.yaml" 2>/dev/null | grep -A1 -- '"--watchdog-timeout"' | grep -q '"9000"' && ok ||
    bad "numbers lose their written form in the k8s emitter"

# --- exports outside the catalog: kept verbatim, unchecked, emitted again ---
cat > "$T/env.sh" <<'S'
export NCCL_SOCKET_IFNAME=eth0
export GLOO_SOCKET_IFNAME=eth0
export SGLANG_DISAGGREGATION_QUEUE_SIZE=4
HCCL_BUFFSIZE=400 SGLANG_USE_AITER=1 python3 -m sglang.launch_server --model-path /m --disaggregation-mode prefill --disaggregation-ib-device mlx5_0
python3 -m sglang.launch_server --model-path /m --disaggregation-mode decode --port 30001 --base-gpu-id 1 --disaggregation-ib-device mlx5_0
python3 -m sglang_router.launch_router --pd-disaggregation --prefill http://127.0.0.1:30000 --decode http://127.0.0.1:30001 --port 8000
S
expect_rc "import of exports outside the catalog" 0 $PDWIZ import -o "$T/env.yaml" "$T/env.sh"
python3 - "$T/env.yaml" <<'PY' && ok || bad "unchecked env not kept: $(cat "$T/env.yaml")"
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
assert d["shared"]["unchecked_env"] == {"NCCL_SOCKET_IFNAME": "eth0", "GLOO_SOCKET_IFNAME": "eth0"}, d["shared"]
assert d["shared"]["env"] == {"SGLANG_DISAGGREGATION_QUEUE_SIZE": "4"}
assert d["roles"]["prefill"]["unchecked_env"] == {"HCCL_BUFFSIZE": "400", "SGLANG_USE_AITER": "1"}
assert d["roles"]["router"]["unchecked_env"]["NCCL_SOCKET_IFNAME"] == "eth0"
PY
expect_rc "check of a file with unchecked env" 0 $PDWIZ check "$T/env.yaml"
$PDWIZ emit --format shell "$T/env.yaml" >"$T/env.out" 2>/dev/null
for v in NCCL_SOCKET_IFNAME=eth0 GLOO_SOCKET_IFNAME=eth0 HCCL_BUFFSIZE=400 SGLANG_USE_AITER=1; do
	grep -q "$v" "$T/env.out" && ok || bad "shell emitter drops $v"
done
mkdir -p "$T/envcfg" && $PDWIZ emit --format config -o "$T/envcfg" "$T/env.yaml" 2>/dev/null
grep -q "HCCL_BUFFSIZE=400" "$T/envcfg/launch.sh" && ok || bad "config emitter's launch.sh drops unchecked env"
$PDWIZ emit --format k8s "$T/env.yaml" 2>/dev/null | grep -A1 '"NCCL_SOCKET_IFNAME"' | grep -q '"eth0"' && ok || bad "k8s emitter drops unchecked env"
# import -> emit -> import gives the same deployment
$PDWIZ import "$T/env.out" 2>/dev/null | cmp -s - "$T/env.yaml" && ok || bad "unchecked env: import of the emitted script differs"
# the reader: a catalog variable under unchecked_env, a bad name
sed 's/^  unchecked_env:$/  unchecked_env:\n    SGLANG_DISAGGREGATION_QUEUE_SIZE: "8"\n    "1BAD": "x"/' "$T/env.yaml" >"$T/env-bad.yaml"
expect_rc "unchecked_env: catalog variable and bad name refused" 2 $PDWIZ check "$T/env-bad.yaml"
grep -q "'SGLANG_DISAGGREGATION_QUEUE_SIZE' is in pdwiz's catalog: put it under env" "$T/err" "$T/out" && grep -q "'1BAD' is not an environment variable name" "$T/err" "$T/out" && ok ||
    bad "unchecked_env reader messages: $(cat "$T/err" "$T/out")"

# --- partial scripts: what is there is imported, what is missing is said ---
M="python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0"
printf '%s\n' "$M --disaggregation-mode prefill --host 10.0.0.1 --tp-size 2" >"$T/only-prefill.sh"
printf '%s\n' "$M --disaggregation-mode decode --host 10.0.0.2 --tp-size 2" >"$T/only-decode.sh"
cat "$T/only-prefill.sh" "$T/only-decode.sh" >"$T/no-router.sh"
printf '%s\n' "$M --disaggregation-mode decode --tp-size 16 --nnodes 2 --node-rank 1 --dist-init-addr 10.0.0.5:5000 --host 10.0.0.6" >"$T/one-rank.sh"
printf '%s\n' "python3 -m sglang_router.launch_router --pd-disaggregation --prefill http://10.0.0.1:30000 --decode http://10.0.0.2:30000 --port 8000" >"$T/only-router.sh"
for s in only-prefill:decode,router only-decode:prefill,router no-router:router one-rank:prefill,router only-router:prefill,decode; do
	f=${s%%:*} miss=${s#*:}
	expect_rc "partial import $f" 0 $PDWIZ import -o "$T/$f.yaml" "$T/$f.sh"
	for r in $(echo "$miss" | tr , ' '); do
		grep -q "^$f.sh: warning: no $r command" "$T/err" 2>/dev/null ||
		    grep -q "warning: no $r command" "$T/err" && ok || bad "partial import $f: stderr does not say $r is missing: $(cat "$T/err")"
	done
	python3 - "$T/$f.yaml" "$miss" <<'PY' && ok || bad "partial import $f: missing roles not stated or invented: $(cat "$T/$f.yaml")"
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
miss = sys.argv[2].split(",")
for r in ("prefill", "decode", "router"):
    assert (r in d["roles"]) != (r in miss), (r, d["roles"].keys())
    if r in miss:
        assert r in d["missing"], d.get("missing")
if "one-rank" in sys.argv[1]:
    assert "of the 2 node commands" in d["missing"]["decode"], d["missing"]
PY
	# the written file checks: no finding about a role that is not there
	$PDWIZ check --format json "$T/$f.yaml" >"$T/out" 2>"$T/err"; rc=$?
	[ $rc = 0 ] && ok || bad "partial import $f: check of the file exits $rc: $(head -c 600 "$T/out")"
	python3 - "$T/out" <<'PY' && ok || bad "partial import $f: findings invented for a missing role: $(head -c 800 "$T/out")"
import json, sys
o = json.load(open(sys.argv[1]))
errs = [d["rule"] for d in o["diagnostics"] if d["severity"] in ("error", "warning") and d["rule"].startswith("xs-")]
assert not errs, errs
PY
done
$PDWIZ check --format json "$T/only-prefill.yaml" >"$T/out" 2>&1
python3 - "$T/out" <<'PY' && ok || bad "only prefill: cross-role rules are not reported as not checked: $(head -c 600 "$T/out")"
import json, sys
o = json.load(open(sys.argv[1]))
unk = [d["rule"] for d in o["diagnostics"] if d["severity"] == "unknown"]
assert "xs-model-path" in unk and "xs-transfer-backend" in unk, unk
PY
# import -> emit -> import: the partial deployment comes back the same
$PDWIZ emit --format shell "$T/only-prefill.yaml" >"$T/op.sh" 2>/dev/null
grep -q -- "--disaggregation-mode decode" "$T/op.sh" && bad "emit of a prefill-only deployment invents a decode" || ok
$PDWIZ import "$T/op.sh" 2>/dev/null | cmp -s - "$T/only-prefill.yaml" && ok || bad "only prefill: import of the emitted script differs"
# a hand-written file still needs every role unless missing says otherwise
sed '/^missing:/,/^roles:/{/^roles:/!d}' "$T/only-prefill.yaml" >"$T/nomissing.yaml"
expect_rc "a role left out without missing" 2 $PDWIZ check "$T/nomissing.yaml"
grep -q "missing required key 'decode'" "$T/err" "$T/out" && ok || bad "role left out: message: $(cat "$T/err")"

# --- the config launch.sh reads back: emit config -> check -> import -> emit ---
mkdir -p "$T/c1" "$T/c2"
$PDWIZ emit --format config -o "$T/c1" share/examples/llama-2p2d-one-node.yaml 2>/dev/null
expect_rc "check of the config launch.sh" 0 $PDWIZ check "$T/c1/launch.sh"
expect_rc "import of the config launch.sh" 0 $PDWIZ import -o "$T/c1.yaml" "$T/c1/launch.sh"
$PDWIZ emit --format config -o "$T/c2" "$T/c1.yaml" 2>/dev/null
for f in launch.sh prefill.yaml decode.yaml; do
	grep -v '^#' "$T/c1/$f" >"$T/a"; grep -v '^#' "$T/c2/$f" >"$T/b"
	cmp -s "$T/a" "$T/b" && ok || bad "config round trip: $f differs: $(diff "$T/a" "$T/b" | head -20)"
done
case $PDWIZ in /*) apd=$PDWIZ ;; *) apd=$PWD/$PDWIZ ;; esac
(cd "$T" && PDWIZ_DATADIR="$OLDPWD" "$apd" check c1/launch.sh) >"$T/out" 2>&1 && ok || bad "config launch.sh from another directory: $(head -c 400 "$T/out")"

# --- the real-world script cases and the corpus's issue snippets: every
# one imports (or is refused with the reason) and the written file checks
# back without an error ---
RW=${PDWIZ_REALWORLD:-../shared/realworld}/files
[ -d "$RW" ] || echo "skipped: the corpus's snippets (the corpus $RW is not present)"
for f in tests/realworld/cases/*.sh "$RW"/*.txt; do
	[ -f "$f" ] || continue
	b=$(basename "$f")
	rm -f "$T/rw.yaml"
	$PDWIZ import -o "$T/rw.yaml" "$f" >/dev/null 2>"$T/err"; rc=$?
	if [ $rc = 2 ] && [ ! -e "$T/rw.yaml" ] && grep -q "no prefill, decode or router command found" "$T/err"; then
		ok; continue
	fi
	if [ $rc = 2 ]; then
		grep -q "nothing written (--keep-going" "$T/err" && [ ! -e "$T/rw.yaml" ] && ok || bad "$b: import exit 2 without saying why: $(cat "$T/err")"
		$PDWIZ import --keep-going -o "$T/rw.yaml" "$f" >/dev/null 2>"$T/err"; rc=$?
	fi
	[ $rc = 0 ] && [ -s "$T/rw.yaml" ] && ok || { bad "$b: import exit $rc: $(head -c 400 "$T/err")"; continue; }
	$PDWIZ check "$T/rw.yaml" >"$T/out" 2>&1 && ok || bad "$b: the imported file does not check back clean: $(grep error "$T/out" | head -c 600)"
done

# A wrapper import does not keep, and an entry point it replaces, are said.
"$PDWIZ" import tests/realworld/cases/docker-run-prefill-container.sh >/dev/null 2>"$T/err"
grep -q 'warning: runs SGLang through docker run; the deployment keeps' "$T/err" && ok || bad "import drops docker run without a word: $(head -c 400 "$T/err")"
printf 'python3 -m sglang.srt.disaggregation.mini_lb --prefill http://10.0.0.1:30000 --decode http://10.0.0.2:30000\npython -m sglang.launch_server --model-path m --disaggregation-mode prefill --host 10.0.0.1\npython -m sglang.launch_server --model-path m --disaggregation-mode decode --host 10.0.0.2\n' >"$T/minilb.sh"
"$PDWIZ" import "$T/minilb.sh" >/dev/null 2>"$T/err"
grep -q "warning: this router's entry point is gone from current SGLang" "$T/err" && ok || bad "import replaces mini_lb without a word: $(head -c 400 "$T/err")"

# A decode's --disaggregation-bootstrap-port is kept: with no port after the
# router's --prefill URL it is the port the decode asks the prefill on, so
# prefill 9000 + decode 9000 + a router without a port works.
cat > "$T/b9000.sh" <<'S'
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0 --disaggregation-mode prefill --host 10.0.0.1 --port 30000 --disaggregation-bootstrap-port 9000
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0 --disaggregation-mode decode --host 10.0.0.2 --port 30000 --disaggregation-bootstrap-port 9000
python -m sglang_router.launch_router --pd-disaggregation --prefill http://10.0.0.1:30000 --decode http://10.0.0.2:30000 --host 10.0.0.9
S
expect_rc "prefill and decode on bootstrap port 9000, router without a port" 0 $PDWIZ check --format json "$T/b9000.sh"
json_check "bootstrap 9000 on both, router without a port: no mismatch" lacks xs-router-bootstrap-port
expect_rc "import keeps the decode's bootstrap port" 0 $PDWIZ import -o "$T/b9000.yaml" "$T/b9000.sh"
grep -A12 '^  decode:' "$T/b9000.yaml" | grep -q 'disaggregation_bootstrap_port: 9000' && ok || bad "decode's bootstrap port not imported: $(cat "$T/b9000.yaml")"
expect_rc "the imported deployment checks clean" 0 $PDWIZ check "$T/b9000.yaml"
[ "$($PDWIZ emit --format shell "$T/b9000.yaml" | grep -c -- '--disaggregation-bootstrap-port 9000')" = 2 ] && ok || bad "emit drops a bootstrap port: $($PDWIZ emit --format shell "$T/b9000.yaml" | grep -- bootstrap)"
sed '2s/--disaggregation-bootstrap-port 9000$/--disaggregation-bootstrap-port 9001/' "$T/b9000.sh" >"$T/b9001.sh"
expect_rc "the decode's own bootstrap port differs" 1 $PDWIZ check --format json "$T/b9001.sh"
json_check "the decode's own bootstrap port differs: the mismatch" has xs-router-bootstrap-port error "Bootstrap port mismatch: the router gives no bootstrap port for http://10.0.0.1:30000, so decode 0 uses its own, 9001, but that prefill serves its bootstrap server on port 9000."
