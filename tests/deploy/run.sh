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
# python3 -c and python3 - run in one python3 for the whole suite.
. "$top/tests/pyhost.sh"
pyhost_start "$tmp/py" "$top"
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# is_clean OUT: pdwiz check's text is a clean verdict and nothing else
is_clean() {
	[ "$(printf '%s\n' "$1" | wc -l)" = 1 ] && printf '%s\n' "$1" |
	    grep -qxE '0 errors, 0 warnings, 0 not checked, 0 notes, in [0-9]+ commands?'
}
formats="shell yaml config runbook k8s"
# examples that leave hosts, ports or GPUs to the layout
derived_examples="minimal-1p1d llama-2p2d-one-node"

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

# computed ports past 65535 (port + instance x port_step, the bootstrap and
# dist-init ports): an error at the role's line
c=$top/tests/deploy/corpus
out=$("$PDWIZ" check "$c/xs-port-range.http-step.fire.yaml")
echo "$out" | grep -qF "xs-port-range.http-step.fire.yaml:16:1: error: bind(): port must be 0-65535 (decode 1 rank 0: --port 65536) [xs-port-range]" && ok || bad "HTTP port past 65535: $out"
out=$("$PDWIZ" check "$c/xs-port-range.fire.yaml")
echo "$out" | grep -qF "xs-port-range.fire.yaml:12:1: error: bind(): port must be 0-65535 (prefill 1 rank 0: --disaggregation-bootstrap-port 65536) [xs-port-range]" && ok || bad "bootstrap port past 65535: $out"
out=$("$PDWIZ" check "$c/xs-dist-init-addr.port-step.fire.yaml")
echo "$out" | grep -qF "xs-dist-init-addr.port-step.fire.yaml:16:1: error: please provide --dist-init-addr as host:port of head node (decode 1 rank 0 runs with --nnodes 2" && ok || bad "dist-init port past 65535: $out"
# ---- 1b. cross-role checks, table-driven (tests/deploy/cross/expect.tsv):
# the exact cross-role diagnostics of each script, and the texts (findings
# and "could not check" reasons) they must carry
grep -v '^#' "$top/tests/deploy/cross/expect.tsv" > "$tmp/cross.tsv"
ncross=0
while IFS="$(printf '\t')" read -r f want texts; do
	ncross=$((ncross + 1))
	"$PDWIZ" check --format json "$top/tests/deploy/cross/$f" > "$tmp/cross.json"
	python3 - "$tmp/cross.json" "$want" "$texts" <<'PY' && ok || bad "cross/$f"
import json, sys
ds = json.load(open(sys.argv[1]))["diagnostics"]
xs = [d for d in ds if d["rule"].startswith("xs-") and
      d["rule"] not in ("xs-tp-non-mla", "xs-nixl-ib-device")]
got = " ".join(sorted(d["severity"] + ":" + d["rule"] for d in xs)) or "-"
if got != sys.argv[2]:
    print("  want:", sys.argv[2]); print("  got: ", got); sys.exit(1)
said = [d["message"] for d in xs] + [d.get("note") or "" for d in xs]
for t in sys.argv[3].split(" | "):
    if t != "-" and not any(t in s for s in said):
        print("  no diagnostic says:", t); print("  " + "\n  ".join(said)); sys.exit(1)
PY
done < "$tmp/cross.tsv"
[ "$ncross" -ge 12 ] && ok || bad "only $ncross table-driven cross-role cases"

# ---- 1c. a could-not-check offers only fixes that change something and
# then decide it: RULE=A;B (the changes of the fixes offered, in order;
# RULE= for none) for every unknown diagnostic of RULE in a file
unknown_fixes() {
	"$PDWIZ" check --format json "$1" > "$tmp/uf.json"
	shift
	python3 - "$tmp/uf.json" "$@" <<'PY'
import json, sys
ds = json.load(open(sys.argv[1]))["diagnostics"]
bad = 0
for want in sys.argv[2:]:
    rule, fixes = want.split("=", 1)
    got = [";".join(f.get("change") or f["label"] for f in d.get("fixes", []))
           for d in ds if d["rule"] == rule and d["severity"] == "unknown"]
    if not got or any(g != fixes for g in got):
        print("  %s: want fixes %r, got %r" % (rule, fixes, got)); bad = 1
sys.exit(bad)
PY
}
cat > "$tmp/tp2.sh" <<'S'
python -m sglang.launch_server --model-path /models/foo --disaggregation-mode prefill --tp-size 2 --disaggregation-ib-device mlx5_0
S
# the server runs TP 2 already (use TP 2 changes nothing); TP 4 or 8
# leaves the heads of an unknown model unknown
unknown_fixes "$tmp/tp2.sh" model-tp-heads= \
    "ms-minicpm-sparse-pd=SGLANG_MINICPM_FORCE_DENSE=1;remove --disaggregation-mode" &&
    ok || bad "fixes of could-not-checks on a TP 2 server"
# TP unknown: --nnodes 2 leaves it unknown; a TP that divides Llama-8B's
# 32 heads decides model-tp-heads
unknown_fixes "$top/tests/deploy/cross/unknown-tp.sh" par-tp-pp-nnodes= \
    "model-tp-heads=--tp-size 4;--tp-size 2;--tp-size 8" &&
    ok || bad "fixes of could-not-checks with an unknown TP"
# service discovery: the router has no lists to drop (a fix that changes
# nothing); leaving the ports to pdwiz decides the port collision
unknown_fixes "$top/tests/deploy/cross/service-discovery.sh" xs-router-missing= \
    xs-router-unknown= xs-router-bootstrap-port= xs-router-local-url= \
    "xs-port-collision=prefill: remove --port, decode: remove --port;pdwiz works them out" &&
    ok || bad "fixes of cross-role could-not-checks under service discovery"

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
	[ $rc = 0 ] && is_clean "$out" && ok || bad "example $(basename "$ex") not clean (exit $rc): $out"
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

# runbook_runs NAME: the runbook runs as written. Each host's ```bash blocks
# (under its "### Node N" heading) run in a directory of their own with a
# python3 that records its arguments and the PD environment; they start
# exactly the commands of the launch script (./launch.sh NODE with the
# same python3), each with a log and a PID file, and name no file the
# export did not write. pdwiz check reads the runbook as one deployment.
runbook_runs() {
	_rb=$tmp/rb-$1
	mkdir -p "$_rb/bin" "$_rb/rec" "$_rb/want"
	cat >"$_rb/bin/python3" <<'SH'
#!/bin/sh
{ printf '%s\n' "$@"; env | grep -E '^(SGLANG_|MC_|UCX_|NCCL_|CUDA_|PDWIZ_)' | sort; } >"$REC/$$"
SH
	printf '#!/bin/sh\nexit 0\n' >"$_rb/bin/curl"
	chmod +x "$_rb/bin/python3" "$_rb/bin/curl"
	"$PDWIZ" emit --format runbook -o "$_rb" "$ex" >/dev/null || { bad "runbook $1: emit"; return; }
	grep -n 'launch\.sh' "$_rb/RUNBOOK.md" && bad "runbook $1 names launch.sh, which it did not write"
	python3 - "$_rb/RUNBOOK.md" "$_rb" <<'PY' || { bad "runbook $1: blocks"; return; }
import os, re, sys
text, out = open(sys.argv[1]).read(), sys.argv[2]
node, cur, blocks = None, None, {}
for line in text.split("\n"):
    m = re.match(r"### Node (\d+)", line)
    if m:
        node = m.group(1)
    elif line.startswith("## "):
        node = None
    if cur is not None:
        if line.startswith("```"):
            cur = None
        else:
            blocks[node].append(line)
    elif line == "```bash":
        assert node is not None, "a bash block outside a host's section"
        cur = node
        blocks.setdefault(node, [])
assert blocks, "no host block"
for n, lines in blocks.items():
    os.makedirs(os.path.join(out, "node" + n), exist_ok=True)
    open(os.path.join(out, "node" + n + ".sh"), "w").write("\n".join(lines) + "\nwait\n")
PY
	for _h in "$_rb"/node*.sh; do
		(cd "${_h%.sh}" && REC=$_rb/rec PATH=$_rb/bin:$PATH bash -e "$_h") ||
		    bad "runbook $1: $(basename "$_h") fails"
		_n=$(grep -c '^nohup ' "$_h")
		[ "$(ls "${_h%.sh}"/logs/*.pid | wc -l)" = "$_n" ] && [ "$(ls "${_h%.sh}"/logs/*.log | wc -l)" = "$_n" ] && ok ||
		    bad "runbook $1: $(basename "$_h"): not a log and a PID file per server"
	done
	"$PDWIZ" emit --format shell -o "$_rb/want" "$ex" >/dev/null
	for _node in $(bash "$_rb/want/launch.sh" list | cut -d' ' -f1); do
		REC=$_rb/want PATH=$_rb/bin:$PATH bash "$_rb/want/launch.sh" "$_node"
	done
	rm -f "$_rb/want/launch.sh"
	[ "$(cat "$_rb"/rec/* | sort | md5sum)" = "$(cat "$_rb"/want/* | sort | md5sum)" ] &&
	    [ "$(ls "$_rb/rec" | wc -l)" = "$(ls "$_rb/want" | wc -l)" ] && ok ||
	    bad "runbook $1 does not start the launch script's commands"
	"$PDWIZ" check -v "$_rb/RUNBOOK.md" 2>&1 | grep -q 'document-one-deployment' && ok ||
	    bad "runbook $1: pdwiz check does not read it as one deployment"
}
for ex in "$top"/share/examples/*.yaml; do
	grep -q '^roles:' "$ex" || continue
	b=$(basename "$ex" .yaml)
	for f in $formats; do
		"$PDWIZ" emit --format "$f" "$ex" > "$tmp/$b.$f" || bad "emit $f $b"
		"$PDWIZ" emit --format "$f" "$ex" | cmp -s - "$tmp/$b.$f" && ok || bad "emit $f $b not deterministic"
		cmp -s "$top/tests/golden/$b.$f" "$tmp/$b.$f" && ok || bad "golden $b.$f differs (tests/deploy/run.sh --update after review)"
	done
	bash -n "$tmp/$b.shell" && ok || bad "bash -n $b.shell"
	runbook_runs "$b"
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
	# Names: LWS creates a headless Service named after each LeaderWorkerSet
	# (only if none exists) and the leaders' DNS names <lws>-<i>.<lws> come
	# from it, so no Service of ours may take an LWS name; every router URL
	# names a leader that exists, on the ports its pod template listens on.
	python3 - "$tmp/$b.k8s" <<'PY' && ok || bad "k8s names and router URLs $b"
import re, sys, yaml
from urllib.parse import urlsplit
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
lws = {d["metadata"]["name"]: d for d in docs if d["kind"] == "LeaderWorkerSet"}
svcs = {d["metadata"]["name"] for d in docs if d["kind"] == "Service"}
assert lws and not svcs & set(lws), f"Service takes an LWS name: {svcs & set(lws)}"
names = [(d["kind"], d["metadata"]["name"]) for d in docs]
assert len(names) == len(set(names)), names
def flag(args, f):
    return args[args.index(f) + 1] if f in args else None
router = [d for d in docs if d["kind"] == "Deployment"][0]
rargs = router["spec"]["template"]["spec"]["containers"][0]["args"]
urls = 0
for i, a in enumerate(rargs):
    if a not in ("--prefill", "--decode"):
        continue
    u = urlsplit(rargs[i + 1])
    host, port = u.hostname, u.port
    labels = host.split(".")
    pod, svc = labels[0], ".".join(labels[1:])
    # the host resolves: a Service of ours, or a leader pod under the
    # headless Service LWS gives its set
    if host in svcs:
        continue
    assert svc in lws and svc not in svcs, f"{host}: no headless Service {svc}"
    m = re.fullmatch(re.escape(svc) + r"-(\d+)", pod)
    spec = lws[svc]["spec"]
    assert m and int(m.group(1)) < spec["replicas"], f"{host}: no leader pod {pod}"
    c = spec["leaderWorkerTemplate"]["workerTemplate"]["spec"]["containers"][0]
    assert str(port) == flag(c["args"], "--port"), f"{host}:{port} vs {c['args']}"
    if a == "--prefill":
        bp = rargs[i + 2]
        assert int(bp) in [p["containerPort"] for p in c["ports"]], f"bootstrap {bp}"
        want = flag(c["args"], "--disaggregation-bootstrap-port")
        assert want is None or want == bp, f"bootstrap {bp} vs {want}"
    urls += 1
assert urls == sum(d["spec"]["replicas"] for d in lws.values()), urls
images = {c["image"] for d in docs for c in (d["spec"].get("leaderWorkerTemplate", {}).get("workerTemplate", d["spec"].get("template", {})).get("spec", {}).get("containers", []))}
assert images and all(re.fullmatch(r"lmsysorg/sglang:v\d+\.\d+\.\d+(\.post\d+)?", i) for i in images), images
PY
	# import -> emit -> import: the same deployment
	"$PDWIZ" import "$tmp/$b.shell" > "$tmp/$b.i1.yaml" 2>/dev/null || bad "import $b"
	"$PDWIZ" emit --format shell "$tmp/$b.i1.yaml" > "$tmp/$b.s2" || bad "emit i1 $b"
	"$PDWIZ" import "$tmp/$b.s2" > "$tmp/$b.i2.yaml" 2>/dev/null
	cmp -s "$tmp/$b.i1.yaml" "$tmp/$b.i2.yaml" && ok || bad "round trip $b"
	# (The name and the model facts are in no command: the script states
	# them as PDWIZ_NAME and PDWIZ_FACT_* lines, a host behind --host
	# 0.0.0.0 as PDWIZ_NODE_HOST, and all of them are compared.)
	# Examples that leave values to the layout import as their pinned form:
	# the same launch commands, every value stated.
	case " $derived_examples " in
	*" $b "*)
		grep -v 'generated by pdwiz' "$tmp/$b.shell" > "$tmp/$b.want"
		grep -v 'generated by pdwiz' "$tmp/$b.s2" | cmp -s "$tmp/$b.want" - && ok ||
		    bad "import of emitted $b launches differently: $(diff "$tmp/$b.shell" "$tmp/$b.s2")"
		continue ;;
	esac
	sed '/^  router:/,$s/^    hosts: .*/    hosts: ROUTER/' "$tmp/$b.yaml" > "$tmp/$b.want"
	sed '/^  router:/,$s/^    hosts: .*/    hosts: ROUTER/' "$tmp/$b.i1.yaml" | cmp -s "$tmp/$b.want" - && ok || bad "import of emitted $b differs from the example: $(diff "$tmp/$b.yaml" "$tmp/$b.i1.yaml")"
done

# ---- the image: the catalog's SGLang release, the deployment's sglang key,
# or k8s.image, never :latest
img() { "$PDWIZ" emit --format k8s "$1" | sed -n 's/^ *image: "\(.*\)"$/\1/p' | sort -u | tr '\n' ' '; }
[ "$(img "$top/share/examples/minimal-1p1d.yaml")" = "lmsysorg/sglang:v0.5.18 " ] && ok || bad "default image: $(img "$top/share/examples/minimal-1p1d.yaml")"
sed 's/^pdwiz: 1$/pdwiz: 1\nsglang: "0.5.20"/' "$top/share/examples/minimal-1p1d.yaml" > "$tmp/sv.yaml"
[ "$(img "$tmp/sv.yaml")" = "lmsysorg/sglang:v0.5.20 " ] && ok || bad "sglang key image: $(img "$tmp/sv.yaml")"
for sv in "latest:lmsysorg/sglang:v0.5.18" "dev:lmsysorg/sglang:v0.5.18" "0.5.3.rc0:lmsysorg/sglang:v0.5.3rc0" "V0.4.8.post1:lmsysorg/sglang:v0.4.8.post1" "0.5.2-cu126:lmsysorg/sglang:v0.5.2-cu126"; do
	sed "s/^pdwiz: 1\$/pdwiz: 1\nsglang: \"${sv%%:*}\"/" "$top/share/examples/minimal-1p1d.yaml" > "$tmp/sw.yaml"
	[ "$(img "$tmp/sw.yaml")" = "${sv#*:} " ] && ok || bad "sglang: ${sv%%:*} image: $(img "$tmp/sw.yaml")"
done
printf 'k8s:\n  image: "registry.local/sglang:mine"\n' >> "$tmp/sv.yaml"
[ "$(img "$tmp/sv.yaml")" = "registry.local/sglang:mine " ] && ok || bad "k8s.image: $(img "$tmp/sv.yaml")"

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
# ---- 7. the layout: derived GPUs, ports and rendezvous, as a user meets them
# story: FILE -> check clean -> emit shell -> check the script clean -> import
story() {
	name=$1; f=$2
	out=$("$PDWIZ" check "$f"); rc=$?
	[ $rc = 0 ] && is_clean "$out" && ok || bad "$name: check not clean (exit $rc): $out"
	"$PDWIZ" emit --format shell "$f" > "$tmp/$name.sh" || bad "$name: emit"
	out=$("$PDWIZ" check "$tmp/$name.sh"); rc=$?
	[ $rc = 0 ] && is_clean "$out" && ok || bad "$name: emitted script not clean (exit $rc): $out"
	"$PDWIZ" import "$tmp/$name.sh" > "$tmp/$name.i.yaml" 2>"$tmp/$name.err" && ok ||
	    bad "$name: import of the emitted script: $(cat "$tmp/$name.err")"
	"$PDWIZ" emit --format shell "$tmp/$name.i.yaml" | grep -v 'generated by pdwiz' > "$tmp/$name.s2"
	grep -v 'generated by pdwiz' "$tmp/$name.sh" | cmp -s - "$tmp/$name.s2" && ok ||
	    bad "$name: the imported file launches differently: $(grep -v 'generated by pdwiz' "$tmp/$name.sh" | diff - "$tmp/$name.s2")"
}
# the launch words of one node function of an emitted script, on one line
words() {
	sed -n "/^$2()/,/^}/p" "$1" | tr -d '\\\t' | tr '\n' ' ' | tr -s ' '
}
has() {
	case "$(words "$1" "$2")" in *"$3"*) ok ;; *) bad "$1 $2: no '$3' in: $(words "$1" "$2")" ;; esac
}
lay_file() {	# name tp hosts_prefill hosts_decode instances nodes [model]
	{
		echo "pdwiz: 1"
		echo "name: \"$1\""
		echo "model:"
		echo "  path: \"${7:-meta-llama/Llama-3.1-8B-Instruct}\""
		echo "shared:"
		echo "  options:"
		echo "    disaggregation_transfer_backend: \"mooncake\""
		echo "    disaggregation_ib_device: \"mlx5_0\""
		echo "    tp_size: $2"
		[ -n "${7:-}" ] && echo "    trust_remote_code: true"
		echo "roles:"
		for r in prefill decode; do
			echo "  $r:"
			echo "    instances: $5"
			[ "$6" -gt 1 ] && echo "    nodes_per_instance: $6"
			h=$3; [ $r = decode ] && h=$4
			[ -n "$h" ] && echo "    hosts: [$h]"
		done
		echo "  router: {}"
	} > "$tmp/$1.yaml"
}
# a. 1P1D TP 2 on one 8-GPU node, nothing but the parallelism stated
lay_file a 2 "" "" 1 1
story a "$tmp/a.yaml"
has "$tmp/a.sh" run_prefill_0_0 "--port 30000 --disaggregation-bootstrap-port 8998 --base-gpu-id 0"
has "$tmp/a.sh" run_decode_0_0 "--port 30001 --base-gpu-id 2"
has "$tmp/a.sh" run_router "--prefill http://127.0.0.1:30000 8998 --decode http://127.0.0.1:30001"
# b. TP 8 each on two 8-GPU hosts: the decode on GPUs 0-7 of its own host
lay_file b 8 '"10.0.0.1"' '"10.0.0.2"' 1 1
story b "$tmp/b.yaml"
has "$tmp/b.sh" run_decode_0_0 "--host 10.0.0.2 --port 30000 --base-gpu-id 0"
has "$tmp/b.sh" run_router "--host 10.0.0.1 --port 8000"
#    ... and both on ONE 8-GPU host: the GPUs run out, and the fix named works
lay_file b1 8 '"10.0.0.1"' '"10.0.0.1"' 1 1
out=$("$PDWIZ" check "$tmp/b1.yaml"); rc=$?
[ $rc = 1 ] && ok || bad "b1: exit $rc, want 1"
echo "$out" | grep -qF 'error: GPUs run out: decode 0 rank 0 needs GPUs 8-15 of 10.0.0.1, but the host has 8 GPUs (0-7); no 8 GPUs are free there: give the decode its own hosts' && ok || bad "b1 message: $out"
echo "$out" | grep -q 'in: decode command' && ok || bad "b1 attribution: $out"
sed 's/^    hosts: \["10.0.0.1"\]$/&/; /^  decode:/,/^  router/s/10\.0\.0\.1/10.0.0.2/' "$tmp/b1.yaml" > "$tmp/b1fix.yaml"
out=$("$PDWIZ" check "$tmp/b1fix.yaml"); rc=$?
[ $rc = 0 ] && is_clean "$out" && ok || bad "b1 with the decode on its own host (exit $rc): $out"
#    a host with more GPUs: gpus_per_host
sed 's/^model:$/gpus_per_host: 16\nmodel:/' "$tmp/b1.yaml" > "$tmp/b16.yaml"
"$PDWIZ" emit --format shell "$tmp/b16.yaml" > "$tmp/b16.sh" && ok || bad "b16 emit"
has "$tmp/b16.sh" run_decode_0_0 "--port 30001 --base-gpu-id 8"
# c. DeepSeek-V3, 2-node instances (TP 16), 1P1D on 4 hosts, no dist_init_port
lay_file c 16 '"10.0.0.1", "10.0.0.2"' '"10.0.0.3", "10.0.0.4"' 1 2 deepseek-ai/DeepSeek-V3
story c "$tmp/c.yaml"
has "$tmp/c.sh" run_prefill_0_0 "--dist-init-addr 10.0.0.1:5000 --nnodes 2 --node-rank 0"
has "$tmp/c.sh" run_prefill_0_1 "--host 10.0.0.2 --port 30000 --disaggregation-bootstrap-port 8998 --base-gpu-id 0 --dist-init-addr 10.0.0.1:5000 --nnodes 2 --node-rank 1"
has "$tmp/c.sh" run_decode_0_1 "--dist-init-addr 10.0.0.3:5000 --nnodes 2 --node-rank 1"
grep -q 'dist_init_port: 5000' "$tmp/c.i.yaml" && ok || bad "c: import lacks the rendezvous port: $(cat "$tmp/c.i.yaml")"
# d. 2 prefill + 2 decode sharing one 8-GPU host, TP 2 each
lay_file d 2 "" "" 2 1
story d "$tmp/d.yaml"
has "$tmp/d.sh" run_prefill_0_0 "--port 30000 --disaggregation-bootstrap-port 8998 --base-gpu-id 0"
has "$tmp/d.sh" run_prefill_1_0 "--port 30001 --disaggregation-bootstrap-port 8999 --base-gpu-id 2"
has "$tmp/d.sh" run_decode_0_0 "--port 30002 --base-gpu-id 4"
has "$tmp/d.sh" run_decode_1_0 "--port 30003 --base-gpu-id 6"
has "$tmp/d.sh" run_router "--prefill http://127.0.0.1:30000 8998 --prefill http://127.0.0.1:30001 8999 --decode http://127.0.0.1:30002 --decode http://127.0.0.1:30003"
# user-set values are kept (and placed first) and checked: both decodes
# pinned to GPU 0 collide; the fix names the free range the layout leaves
sed '/^  decode:/a\    base_gpu_id: 0' "$tmp/d.yaml" > "$tmp/d0.yaml"
out=$("$PDWIZ" check "$tmp/d0.yaml")
echo "$out" | grep -qF 'GPU collision: GPUs 0-1 of 127.0.0.1 (decode 0 rank 0) overlap GPUs 0-1 (decode 1 rank 0)' && ok || bad "d0 collision: $out"
echo "$out" | grep -qF 'Fix: start decode 1 rank 0 at --base-gpu-id 6 (GPUs 6-7 of 127.0.0.1 are free)' && ok || bad "d0 fix names the free range: $out"
sed '/^  decode:/a\    gpu_step: 2' "$tmp/d0.yaml" > "$tmp/d02.yaml"
out=$("$PDWIZ" check "$tmp/d02.yaml"); rc=$?
[ $rc = 0 ] && is_clean "$out" && ok || bad "d02 (exit $rc): $out"
"$PDWIZ" emit --format shell "$tmp/d02.yaml" > "$tmp/d02.sh"
has "$tmp/d02.sh" run_decode_1_0 "--base-gpu-id 2"
has "$tmp/d02.sh" run_prefill_0_0 "--base-gpu-id 4"
has "$tmp/d02.sh" run_prefill_1_0 "--base-gpu-id 6"
# DP attention on one node: SGLang opens ZMQ ports from --port + 233, so the
# instances sharing a host are counted 10 ports apart (derived), and two set
# 1 apart collide
sed 's|meta-llama/Llama-3.1-8B-Instruct|deepseek-ai/DeepSeek-V2-Lite|; s/^    tp_size: 2$/    tp_size: 2\n    dp_size: 2\n    enable_dp_attention: true\n    trust_remote_code: true/' "$tmp/d.yaml" > "$tmp/dz.yaml"
out=$("$PDWIZ" check "$tmp/dz.yaml"); rc=$?
[ $rc = 0 ] && is_clean "$out" && ok || bad "dz: DP attention 2P2D on one host not clean (exit $rc): $out"
"$PDWIZ" emit --format shell "$tmp/dz.yaml" > "$tmp/dz.sh"
has "$tmp/dz.sh" run_prefill_1_0 "--port 30010 --disaggregation-bootstrap-port 9008 --base-gpu-id 2"
awk '/^  prefill:/{p=1} /^  decode:/{p=0} {print} p && /^    instances: 2$/{print "    port: 30000"; print "    port_step: 1"}' "$tmp/dz.yaml" > "$tmp/dz1.yaml"
out=$("$PDWIZ" check "$tmp/dz1.yaml")
echo "$out" | grep -qF 'Port collision: ports 30234-30240 on 127.0.0.1 are used by prefill 0 (DP attention ZMQ ports: --port + 233) and by prefill 1' && ok || bad "dz1: DP attention ZMQ ports: $out"
# a script's multi-node server without a rendezvous address
cat > "$tmp/nodist.sh" <<'S'
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-ib-device mlx5_0 --tp 2 --nnodes 2 --node-rank 0 --host 10.0.0.1
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-ib-device mlx5_0 --tp 2 --nnodes 2 --node-rank 1 --host 10.0.0.2
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-ib-device mlx5_0 --tp 2 --host 10.0.0.3
python -m sglang_router.launch_router --pd-disaggregation --prefill http://10.0.0.1:30000 --decode http://10.0.0.3:30000 --host 0.0.0.0
S
got=$("$PDWIZ" check --format json "$tmp/nodist.sh" | ids)
[ "$got" = "xs-dist-init-addr" ] && ok || bad "script without --dist-init-addr: $got"
# Import keeps what check found: the deployment has no usable rendezvous
# port (dist_init_port 0), and its check gives the same error.
"$PDWIZ" import -o "$tmp/nodist.yaml" "$tmp/nodist.sh" > /dev/null 2>&1 && ok || bad "import of a script without --dist-init-addr refused"
got=$("$PDWIZ" check --format json "$tmp/nodist.yaml" | ids)
[ "$got" = "xs-dist-init-addr" ] && ok || bad "imported deployment without a rendezvous port: $got"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
