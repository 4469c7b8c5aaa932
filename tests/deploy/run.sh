#!/bin/sh
# Shell-level tests of deployments: cross-role rule corpus, the acceptance
# cases of `pdwiz check`, deployment-file errors, emitters (golden files,
# bash -n, shellcheck, --config keys, k8s YAML), quoting through real bash,
# and import -> emit -> import round trips.
#   tests/deploy/run.sh            run (PDWIZ=path/to/pdwiz to pick a binary)
#   tests/deploy/run.sh --update   rewrite tests/golden/ from the examples
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
PDWIZ=${PDWIZ:-$top/pdwiz}
PDWIZ_DATADIR=$top
export PDWIZ_DATADIR
case "$PDWIZ" in /*) ;; *) PDWIZ=$top/$PDWIZ ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
formats="shell yaml config runbook k8s"

# JSON diagnostics of `pdwiz check` -> sorted rule ids (no overrides)
ids() {
	python3 -c 'import json,sys
d=json.load(sys.stdin)
print(" ".join(sorted(set(x["rule"] for x in d["diagnostics"] if x["severity"]!="override"))))'
}

if [ "${1:-}" = --update ]; then
	mkdir -p "$top/tests/golden"
	for ex in "$top"/share/examples/*.yaml; do
		grep -q '^roles:' "$ex" || continue
		b=$(basename "$ex" .yaml)
		for f in $formats; do
			"$PDWIZ" emit --format "$f" "$ex" > "$top/tests/golden/$b.$f"
		done
	done
	echo "golden files updated"
	exit 0
fi

# ---- 1. cross-role rule corpus: every rule fires on .fire, not on .quiet
for c in "$top"/tests/deploy/corpus/*.fire.* "$top"/tests/deploy/corpus/*.quiet.*; do
	n=$(basename "$c")
	rule=${n%%.*}
	case "$n" in *.fire.*) want=yes ;; *) want=no ;; esac
	got=$("$PDWIZ" check --format json "$c" | ids)
	case " $got " in *" $rule "*) has=yes ;; *) has=no ;; esac
	[ "$rule" = clean ] && { [ -z "$got" ] && ok || bad "$n: expected no findings, got: $got"; continue; }
	[ "$has" = "$want" ] && ok || bad "$n: $rule expected fire=$want, got: $got"
done

# ---- 2. acceptance: page size and bootstrap port on a 1P1D script
cat > "$tmp/pd.sh" <<'S'
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct \
  --disaggregation-mode prefill --port 30000 --page-size 64 --disaggregation-ib-device mlx5_0
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct \
  --disaggregation-mode decode --port 30001 --base-gpu-id 1 --disaggregation-ib-device mlx5_0
python -m sglang_router.launch_router --pd-disaggregation --prefill http://127.0.0.1:30000 9000 \
  --decode http://127.0.0.1:30001 --host 0.0.0.0 --port 8000
S
out=$("$PDWIZ" check "$tmp/pd.sh"); rc=$?
[ $rc = 1 ] && ok || bad "check pd.sh: exit $rc, want 1"
echo "$out" | grep -qF 'Page size mismatch: prefill server has page_size=64, but decode server has page_size=1. Both servers must use the same --page-size value. [xs-page-size]' && ok || bad "page size message: $out"
echo "$out" | grep -q 'xs-router-bootstrap-port' && ok || bad "bootstrap port not reported: $out"
echo "$out" | grep -q 'in: router command at line 5' && ok || bad "router diagnostic not attributed: $out"
for ex in "$top"/share/examples/*.yaml; do
	grep -q '^roles:' "$ex" || continue
	out=$("$PDWIZ" check "$ex"); rc=$?
	[ $rc = 0 ] && [ -z "$out" ] && ok || bad "example $(basename "$ex") not clean (exit $rc): $out"
done

# ---- 3. bad deployment files: file:line:col, exit 2
ex1="$top/share/examples/llama-1p1d-mooncake.yaml"
sed 's/^    gpus_per_node: 1$/    gpu_per_node: 1/' "$ex1" > "$tmp/b1.yaml"
err=$("$PDWIZ" check "$tmp/b1.yaml" 2>&1); rc=$?
[ $rc = 2 ] && ok || bad "unknown key: exit $rc"
echo "$err" | grep -q "b1.yaml:14:5: unknown key 'gpu_per_node' in roles.prefill (did you mean 'gpus_per_node'?)" && ok || bad "unknown key message: $err"
sed 's/^    port: 30000$/    port: "thirty"/' "$ex1" > "$tmp/b2.yaml"
err=$("$PDWIZ" check "$tmp/b2.yaml" 2>&1); rc=$?
[ $rc = 2 ] && echo "$err" | grep -q 'b2.yaml:[0-9]*:[0-9]*: port must be an integer' && ok || bad "wrong type: $rc $err"
sed 's/^    port: 30000$/    port: 30000\n    port: 30002/' "$ex1" > "$tmp/b3.yaml"
err=$("$PDWIZ" check "$tmp/b3.yaml" 2>&1); rc=$?
[ $rc = 2 ] && echo "$err" | grep -qi 'b3.yaml:[0-9]*:[0-9]*: .*duplicate' && ok || bad "duplicate key: $rc $err"
sed 's/^    disaggregation_transfer_backend: "mooncake"$/    disaggregation_transfer_backend: "moon"\n    tp_sise: 2/' "$ex1" > "$tmp/b4.yaml"
err=$("$PDWIZ" check "$tmp/b4.yaml" 2>&1); rc=$?
[ $rc = 2 ] && echo "$err" | grep -q "b4.yaml:10:5: unknown SGLang option 'tp_sise' (did you mean 'tp_size'?)" &&
    echo "$err" | grep -q "b4.yaml:9:38: disaggregation_transfer_backend: 'moon' is not one of the choices" && ok || bad "several errors: $rc $err"

# ---- 4. emitters: golden files, determinism, shell checks
for ex in "$top"/share/examples/*.yaml; do
	grep -q '^roles:' "$ex" || continue
	b=$(basename "$ex" .yaml)
	for f in $formats; do
		"$PDWIZ" emit --format "$f" "$ex" > "$tmp/$b.$f" || bad "emit $f $b"
		"$PDWIZ" emit --format "$f" "$ex" | cmp -s - "$tmp/$b.$f" && ok || bad "emit $f $b not deterministic"
		cmp -s "$top/tests/golden/$b.$f" "$tmp/$b.$f" && ok || bad "golden $b.$f differs (tests/deploy/run.sh --update after review)"
	done
	bash -n "$tmp/$b.shell" && ok || bad "bash -n $b.shell"
	shellcheck -s bash "$tmp/$b.shell" && ok || bad "shellcheck $b.shell"
	mkdir -p "$tmp/cfg-$b"
	"$PDWIZ" emit --format config -o "$tmp/cfg-$b" "$ex" || bad "emit config -o $b"
	bash -n "$tmp/cfg-$b/launch.sh" && shellcheck -s bash "$tmp/cfg-$b/launch.sh" && ok || bad "config launch.sh $b"
	for r in prefill decode; do
		# Keys must exist and be accepted by SGLang's config loader.
		bad_ids=$("$PDWIZ" check --format json --input config "$tmp/cfg-$b/$r.yaml" | python3 -c 'import json,sys
d=json.load(sys.stdin)
print(" ".join(x["rule"] for x in d["diagnostics"] if x["rule"].startswith(("config-","argparse-"))))')
		[ -z "$bad_ids" ] && ok || bad "config $b/$r.yaml: $bad_ids"
	done
	python3 - "$tmp/$b.k8s" <<'PY' && ok || bad "k8s $b"
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
kinds = sorted(d["kind"] for d in docs)
assert kinds == ["Deployment", "LeaderWorkerSet", "LeaderWorkerSet", "Service", "Service", "Service"], kinds
for d in docs:
    if d["kind"] == "LeaderWorkerSet":
        t = d["spec"]["leaderWorkerTemplate"]
        args = t["workerTemplate"]["spec"]["containers"][0]["args"]
        if t["size"] > 1:
            assert "$(LWS_WORKER_INDEX)" in args and "$(LWS_GROUP_SIZE)" in args, args
PY
	# import -> emit -> import: the same deployment
	"$PDWIZ" import "$tmp/$b.shell" > "$tmp/$b.i1.yaml" 2>/dev/null || bad "import $b"
	"$PDWIZ" emit --format shell "$tmp/$b.i1.yaml" > "$tmp/$b.s2" || bad "emit i1 $b"
	"$PDWIZ" import "$tmp/$b.s2" > "$tmp/$b.i2.yaml" 2>/dev/null
	cmp -s "$tmp/$b.i1.yaml" "$tmp/$b.i2.yaml" && ok || bad "round trip $b"
	# (The name and a router's own host behind --host 0.0.0.0 are not in
	# the commands, so they are not compared.)
	grep -v '^name: ' "$tmp/$b.yaml" | sed '/^  router:/,$s/^    hosts: .*/    hosts: ROUTER/' > "$tmp/$b.want"
	sed '/^  router:/,$s/^    hosts: .*/    hosts: ROUTER/' "$tmp/$b.i1.yaml" | cmp -s "$tmp/$b.want" - && ok || bad "import of emitted $b differs from the example: $(diff "$tmp/$b.yaml" "$tmp/$b.i1.yaml")"
done

# ---- 5. refusal and --force
sed 's/^    port: 30001$/    port: 30000/; s/^    base_gpu_id: 1$/    base_gpu_id: 0/' "$ex1" > "$tmp/err.yaml"
"$PDWIZ" emit --format shell "$tmp/err.yaml" > /dev/null 2>&1; rc=$?
[ $rc = 1 ] && ok || bad "emit with errors: exit $rc, want 1"
"$PDWIZ" emit --format shell --force "$tmp/err.yaml" > "$tmp/forced.sh" && grep -q 'FAILS pdwiz VALIDATION' "$tmp/forced.sh" && ok || bad "--force marking"
"$PDWIZ" emit --format yaml --force "$tmp/err.yaml" | head -1 | grep -q '^# THIS DEPLOYMENT FAILS' && ok || bad "--force yaml marking"

# ---- 6. hostile strings through real bash
cat > "$tmp/hostile.yaml" <<'Y'
pdwiz: 1
name: "hostile"
model:
  path: "/models/it's a \"model\" $HOME `id`\nline2 \\ end"
shared:
  options:
    disaggregation_ib_device: "mlx5_0"
    served_model_name: "  $(touch /tmp/pwned) ; rm -rf / 'x' \"y\" \t tab"
  env:
    MOONCAKE_MASTER: "a'b\"c $PATH `d` e\nf"
roles:
  prefill:
    instances: 1
    gpus_per_node: 1
    hosts: ["127.0.0.1"]
    port: 30000
    base_gpu_id: 0
  decode:
    instances: 1
    gpus_per_node: 1
    hosts: ["127.0.0.1"]
    port: 30001
    base_gpu_id: 1
  router:
    hosts: ["127.0.0.1"]
    port: 8000
Y
"$PDWIZ" emit --format shell "$tmp/hostile.yaml" > "$tmp/hostile.sh" || bad "emit hostile"
bash -n "$tmp/hostile.sh" && shellcheck -s bash "$tmp/hostile.sh" && ok || bad "hostile script checks"
mkdir -p "$tmp/bin"
cat > "$tmp/bin/python3" <<'F'
#!/bin/sh
printf '%s\0' "$@" > "$OUT"
printf '%s' "$MOONCAKE_MASTER" > "$OUT.env"
F
chmod +x "$tmp/bin/python3"
OUT=$tmp/args PATH="$tmp/bin:$PATH" bash "$tmp/hostile.sh" prefill-0-0 || bad "run hostile"
python3 - "$tmp/args" <<'PY' && ok || bad "hostile strings changed on the way through bash"
import sys
a = open(sys.argv[1], "rb").read().split(b"\0")[:-1]
a = [x.decode() for x in a]
m = "/models/it's a \"model\" $HOME `id`\nline2 \\ end"
s = "  $(touch /tmp/pwned) ; rm -rf / 'x' \"y\" \t tab"
assert a[a.index("--model-path") + 1] == m, a
assert a[a.index("--served-model-name") + 1] == s, a
e = open(sys.argv[1] + ".env").read()
assert e == "a'b\"c $PATH `d` e\nf", repr(e)
PY
[ ! -e /tmp/pwned ] && ok || bad "a hostile string was executed"


# ---- router options are data (rules/deploy/05-router-options.yaml): rules
# read them as deploy.router.NAME, and an option the data lacks is unknown
mkdir -p "$tmp/data"
cp -R "$top/rules" "$tmp/data/rules"
cat > "$tmp/data/rules/deploy/99-router-test.yaml" <<'Y'
rules:
  - id: t-router-opts
    severity: warning
    stage: launch
    when: "deploy.router.request_timeout_secs == 5 and deploy.router.disable_retries and deploy.router.policy == 'random' and deploy.router.worker_startup_timeout_secs == 600 and deploy.router.log_dir == null"
    message: "router options reach the rules"
Y
cat > "$tmp/ropts.yaml" <<'Y'
pdwiz: 1
name: ropts
model:
  path: meta-llama/Llama-3.1-8B-Instruct
roles:
  prefill:
    instances: 1
    gpus_per_node: 1
    hosts: ["127.0.0.1"]
    port: 30000
    base_gpu_id: 0
  decode:
    instances: 1
    gpus_per_node: 1
    hosts: ["127.0.0.1"]
    port: 30001
    base_gpu_id: 1
  router:
    hosts: ["127.0.0.1"]
    port: 8000
    policy: random
    options:
      request_timeout_secs: 5
      disable_retries: true
Y
got=$(PDWIZ_DATADIR=$tmp/data "$PDWIZ" check --format json "$tmp/ropts.yaml" | ids)
case " $got " in *" t-router-opts "*) ok ;; *) bad "router options do not reach deploy rules: $got" ;; esac
sed 's/request_timeout_secs: 5/request_timeout_secs: 6/' "$tmp/ropts.yaml" > "$tmp/ropts2.yaml"
got=$(PDWIZ_DATADIR=$tmp/data "$PDWIZ" check --format json "$tmp/ropts2.yaml" | ids)
case " $got " in *" t-router-opts "*) bad "router option value ignored: $got" ;; *) ok ;; esac
"$PDWIZ" emit --format shell "$tmp/ropts.yaml" > "$tmp/ropts.sh" 2>&1 &&
    grep -q -- '--request-timeout-secs 5' "$tmp/ropts.sh" &&
    grep -q -- '--disable-retries' "$tmp/ropts.sh" && ok ||
    bad "router options missing from the launch script: $(cat "$tmp/ropts.sh")"
python3 - "$tmp/data/rules/deploy/05-router-options.yaml" <<'PY'
import re, sys
p = sys.argv[1]
s = open(p).read()
s = re.sub(r"  - name: deploy\.router\.request_timeout_secs\n(    .*\n)*", "", s)
open(p, "w").write(s)
PY
rm "$tmp/data/rules/deploy/99-router-test.yaml"
PDWIZ_DATADIR=$tmp/data "$PDWIZ" check "$tmp/ropts.yaml" > "$tmp/ropts.out" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "unknown router option 'request_timeout_secs'" "$tmp/ropts.out" && ok ||
    bad "an option removed from the data is still known (exit $rc): $(cat "$tmp/ropts.out")"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
