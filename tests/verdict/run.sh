#!/bin/sh
# One verdict: the set of error and warning rule ids pdwiz gives an input
# is the same however it arrives -
#   check FILE;
#   import FILE, then check of the deployment file written;
#   for a deployment (a deployment file, or what import wrote): emit in
#   each launch format (shell, config's launch.sh, k8s, yaml), then check.
# Inputs: every example (share/examples), the deployment corpus
# (tests/deploy/corpus), this suite's own deployments (tests/verdict: the
# accelerator as a model fact), the real-world script cases and, where present,
# the real-world corpus beside the project. Import may refuse only what
# check also cannot read, or an input without a prefill, decode or router
# command (nothing to import); words it could not place are reported and
# the rest compared (--keep-going). Each refusal is counted and said.
# Known differences are listed in KNOWN below with the reason; none may be
# added silently. Prints "verdict: N passed, N failed".
cd "$(dirname "$0")/../.." || exit 2
PDWIZ=${PDWIZ:-$PWD/pdwiz}
export PDWIZ_DATADIR="$PWD"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
RW=${PDWIZ_REALWORLD:-$PWD/../shared/realworld}/files
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# Known differences: input<TAB>route<TAB>why, one line each. Every one is
# an open defect this suite was written to find (marked "defect:") or a
# deliberate difference ("deliberate:"), listed so that
# the suite holds the rest and fails on any new difference; a line that
# agrees again, or whose input is gone, fails too, so the list only shrinks.
# Deliberate differences are marked "deliberate:" with the reason.
KNOWN='
tests/deploy/corpus/xs-encoder-url.fire.sh	import	defect: import loses xs-encoder-url (seen once import reads what it could not place before, --keep-going)
tests/deploy/corpus/xs-encoder-url.fire.sh	emit shell	defect: emit shell loses xs-encoder-url (seen once import reads what it could not place before, --keep-going)
tests/deploy/corpus/xs-encoder-url.fire.sh	emit config	defect: emit config loses xs-encoder-url (seen once import reads what it could not place before, --keep-going)
tests/deploy/corpus/xs-encoder-url.fire.sh	emit k8s	defect: emit k8s loses xs-encoder-url (seen once import reads what it could not place before, --keep-going)
tests/deploy/corpus/xs-encoder-url.fire.sh	emit yaml	defect: emit yaml loses xs-encoder-url (seen once import reads what it could not place before, --keep-going)
tests/deploy/corpus/xs-model-path.fire.sh	import	defect: import loses xs-model-path (seen once import reads what it could not place before, --keep-going)
tests/deploy/corpus/xs-model-path.fire.sh	emit shell	defect: emit shell loses xs-model-path (seen once import reads what it could not place before, --keep-going)
tests/deploy/corpus/xs-model-path.fire.sh	emit config	defect: emit config loses xs-model-path (seen once import reads what it could not place before, --keep-going)
tests/deploy/corpus/xs-model-path.fire.sh	emit k8s	defect: emit k8s loses xs-model-path (seen once import reads what it could not place before, --keep-going)
tests/deploy/corpus/xs-model-path.fire.sh	emit yaml	defect: emit yaml loses xs-model-path (seen once import reads what it could not place before, --keep-going)
tests/realworld/cases/dynamo-disagg-router-2p2d.sh	emit shell	defect: emit shell finds xs-gpu-collision, xs-port-collision the input does not give (seen once import reads what it could not place before, --keep-going)
tests/realworld/cases/dynamo-disagg-router-2p2d.sh	emit config	defect: emit config finds xs-gpu-collision, xs-port-collision the input does not give (seen once import reads what it could not place before, --keep-going)
tests/realworld/cases/dynamo-disagg-same-gpu.sh	emit shell	defect: emit shell finds xs-gpu-collision, xs-port-collision the input does not give (seen once import reads what it could not place before, --keep-going)
tests/realworld/cases/dynamo-disagg-same-gpu.sh	emit config	defect: emit config finds xs-gpu-collision, xs-port-collision the input does not give (seen once import reads what it could not place before, --keep-going)
tests/realworld/cases/dynamo-slurm-gb200-fp4-1k1k-low-latency.sh	emit shell	defect: emit shell finds xs-gpu-collision, xs-port-collision the input does not give (seen once import reads what it could not place before, --keep-going)
tests/realworld/cases/dynamo-slurm-gb200-fp4-1k1k-low-latency.sh	emit config	defect: emit config finds xs-gpu-collision, xs-port-collision the input does not give (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/dynamo-docs-dsr1-wideep-gb200.md	import	defect: import loses argparse-unrecognized and finds par-ep-dispatch the input does not give (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/dynamo-docs-dsr1-wideep-gb200.md	emit shell	defect: emit shell loses argparse-unrecognized and finds par-ep-dispatch the input does not give (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/dynamo-docs-dsr1-wideep-gb200.md	emit config	defect: emit config loses argparse-unrecognized and finds par-ep-dispatch the input does not give (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/dynamo-docs-dsr1-wideep-gb200.md	emit k8s	defect: emit k8s loses argparse-unrecognized and finds par-ep-dispatch the input does not give (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/dynamo-docs-dsr1-wideep-gb200.md	emit yaml	defect: emit yaml loses argparse-unrecognized and finds par-ep-dispatch the input does not give (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/dynamo-docs-multinode-readme.md	import	defect: import loses shell-backslash-in-comment and finds xs-port-collision the input does not give (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/dynamo-docs-multinode-readme.md	emit shell	defect: emit shell loses shell-backslash-in-comment and finds xs-port-collision the input does not give (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/dynamo-docs-multinode-readme.md	emit config	defect: emit config loses shell-backslash-in-comment and finds xs-port-collision the input does not give (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/dynamo-docs-multinode-readme.md	emit k8s	defect: emit k8s loses shell-backslash-in-comment, xs-bootstrap-loopback (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/dynamo-docs-multinode-readme.md	emit yaml	defect: emit yaml loses shell-backslash-in-comment and finds xs-port-collision the input does not give (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/mooncake-docs-rbg-integration.md	import	defect: import finds xs-page-size the input does not give (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/mooncake-docs-rbg-integration.md	emit yaml	defect: emit yaml finds xs-page-size the input does not give (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/mooncake-docs-sglang-pd-disaggregation.md	import	defect: import loses xs-encoder-url (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/mooncake-docs-sglang-pd-disaggregation.md	emit shell	defect: emit shell loses xs-encoder-url and finds xs-gpu-collision, xs-port-collision, xs-router-missing the input does not give (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/mooncake-docs-sglang-pd-disaggregation.md	emit config	defect: emit config loses xs-encoder-url and finds xs-gpu-collision, xs-port-collision, xs-router-missing the input does not give (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/mooncake-docs-sglang-pd-disaggregation.md	emit k8s	defect: emit k8s loses xs-encoder-url (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/mooncake-docs-sglang-pd-disaggregation.md	emit yaml	defect: emit yaml loses xs-encoder-url (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/ome-deepseek-rdma-pd-rt.yaml	import	defect: import finds par-tp-pp-nnodes the input does not give (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/ome-deepseek-rdma-pd-rt.yaml	emit shell	defect: emit shell finds par-tp-pp-nnodes the input does not give (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/ome-deepseek-rdma-pd-rt.yaml	emit config	defect: emit config finds par-tp-pp-nnodes the input does not give (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/ome-deepseek-rdma-pd-rt.yaml	emit k8s	defect: emit k8s finds par-tp-pp-nnodes the input does not give (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/ome-deepseek-rdma-pd-rt.yaml	emit yaml	defect: emit yaml finds par-tp-pp-nnodes the input does not give (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/pr-17212-glm45-air-spec-decode-only.txt	emit shell	defect: emit shell finds xs-gpu-collision the input does not give (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/pr-17212-glm45-air-spec-decode-only.txt	emit config	defect: emit config finds xs-gpu-collision the input does not give (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/sglang-docs-ascend-npu-deepseek-example.md	import	defect: import loses argparse-choice (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/sglang-docs-ascend-npu-deepseek-example.md	emit shell	defect: emit shell loses argparse-choice (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/sglang-docs-ascend-npu-deepseek-example.md	emit config	defect: emit config loses argparse-choice (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/sglang-docs-ascend-npu-deepseek-example.md	emit k8s	defect: emit k8s loses argparse-choice (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/sglang-docs-ascend-npu-deepseek-example.md	emit yaml	defect: emit yaml loses argparse-choice (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/sglang-docs-epd-disaggregation.md	import	defect: import finds xs-gpu-collision, xs-port-collision the input does not give (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/sglang-docs-epd-disaggregation.md	emit shell	defect: emit shell finds xs-gpu-collision, xs-port-collision the input does not give (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/sglang-docs-epd-disaggregation.md	emit config	defect: emit config finds xs-gpu-collision, xs-port-collision the input does not give (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/sglang-docs-epd-disaggregation.md	emit yaml	defect: emit yaml finds xs-gpu-collision, xs-port-collision the input does not give (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/sglang-docs-lws-pd-decode.yaml	import	defect: import finds xs-page-size the input does not give (seen once import reads what it could not place before, --keep-going)
../shared/realworld/files/sglang-docs-lws-pd-decode.yaml	emit yaml	defect: emit yaml finds xs-page-size the input does not give (seen once import reads what it could not place before, --keep-going)
share/examples/config.yaml	import refuses	deliberate: one servers --config file names no role, machine or peer: there is no deployment in it to import
../shared/realworld/files/sglang-docs-pd-disaggregation.md	import refuses	defect: a document of several alternative deployments is imported as one (8 prefill hosts for 6 nodes) instead of one of them or a refusal that says so
../shared/realworld/files/srtslurm-b200-fp8-glm5-sweep.yaml	import refuses	defect: pdwiz check reads srt-slurm recipes (check_recipe builds their commands in the cli), import does not yet
../shared/realworld/files/srtslurm-gb200-fp4-1k1k-low-latency.yaml	import refuses	defect: pdwiz check reads srt-slurm recipes (check_recipe builds their commands in the cli), import does not yet
../shared/realworld/files/srtslurm-gb200-fp8-1k1k-mid-curve.yaml	import refuses	defect: pdwiz check reads srt-slurm recipes (check_recipe builds their commands in the cli), import does not yet
../shared/realworld/files/srtslurm-h200-8k1k-bs64-2p3d.yaml	import refuses	defect: pdwiz check reads srt-slurm recipes (check_recipe builds their commands in the cli), import does not yet
../shared/realworld/files/srtslurm-qwen3.5-1p1d-dep4-nixl-gsm8k.yaml	import refuses	defect: pdwiz check reads srt-slurm recipes (check_recipe builds their commands in the cli), import does not yet
../shared/realworld/files/srtslurm-qwen3.5-2p1d-hetero-staging-gpqa.yaml	import refuses	defect: pdwiz check reads srt-slurm recipes (check_recipe builds their commands in the cli), import does not yet
../shared/realworld/files/srtslurm-qwen3.5-nvfp4-1p1d-dep8-dpep-mtp-1k1k-gb300.yaml	import refuses	defect: pdwiz check reads srt-slurm recipes (check_recipe builds their commands in the cli), import does not yet
tests/deploy/corpus/xs-bootstrap-loopback.fire.sh	emit k8s	defect: the k8s export places every instance in its own LWS pod group and writes the router lists from the pod names, so the inputs same-host and router findings (xs-bootstrap-loopback) are not checked there
tests/deploy/corpus/xs-decode-gpus.fire.yaml	emit shell	deliberate: gpus_per_node is the deployment allotment of GPUs, which a launch script does not enforce (no CUDA_VISIBLE_DEVICES): the exported commands run tp 8 on an 8-GPU machine and launch
tests/deploy/corpus/xs-decode-gpus.fire.yaml	emit config	deliberate: gpus_per_node is the deployment allotment of GPUs, which a launch script does not enforce (no CUDA_VISIBLE_DEVICES): the exported commands run tp 8 on an 8-GPU machine and launch
tests/deploy/corpus/xs-decode-gpus.fire.yaml	emit k8s	defect: the k8s export places every instance in its own LWS pod group and writes the router lists from the pod names, so the inputs same-host and router findings (xs-decode-gpus) are not checked there
tests/deploy/corpus/xs-dist-init-addr.fire.sh	import refuses	defect: import refuses what check reads (the deployment imported from this script would not read back: dist_init_port must be between 1 and 65535, not 0) what check reads (xs-dist-i)
tests/deploy/corpus/xs-dist-init-addr.port-step.fire.yaml	emit k8s	defect: the k8s export places every instance in its own LWS pod group and writes the router lists from the pod names, so the inputs same-host and router findings (xs-dist-init-addr) are not checked there
tests/deploy/corpus/xs-gpu-collision.fire.sh	emit k8s	defect: the k8s export places every instance in its own LWS pod group and writes the router lists from the pod names, so the inputs same-host and router findings (xs-gpu-collision) are not checked there
tests/deploy/corpus/xs-gpu-overflow.fire.yaml	emit k8s	defect: the k8s export places every instance in its own LWS pod group and writes the router lists from the pod names, so the inputs same-host and router findings (xs-gpu-overflow) are not checked there
tests/deploy/corpus/xs-port-collision.fire.sh	emit k8s	defect: the k8s export places every instance in its own LWS pod group and writes the router lists from the pod names, so the inputs same-host and router findings (xs-port-collision) are not checked there
tests/deploy/corpus/xs-port-range.fire.yaml	emit k8s	defect: the k8s export places every instance in its own LWS pod group and writes the router lists from the pod names, so the inputs same-host and router findings (xs-port-range) are not checked there
tests/deploy/corpus/xs-port-range.http-step.fire.yaml	emit k8s	defect: the k8s export places every instance in its own LWS pod group and writes the router lists from the pod names, so the inputs same-host and router findings (xs-port-range, xs-router-missing, xs-router-unknown) are not checked there
tests/deploy/corpus/xs-prefill-gpus.fire.yaml	emit shell	deliberate: gpus_per_node is the deployment allotment of GPUs, which a launch script does not enforce (no CUDA_VISIBLE_DEVICES): the exported commands run tp 8 on an 8-GPU machine and launch
tests/deploy/corpus/xs-prefill-gpus.fire.yaml	emit config	deliberate: gpus_per_node is the deployment allotment of GPUs, which a launch script does not enforce (no CUDA_VISIBLE_DEVICES): the exported commands run tp 8 on an 8-GPU machine and launch
tests/deploy/corpus/xs-prefill-gpus.fire.yaml	emit k8s	defect: the k8s export places every instance in its own LWS pod group and writes the router lists from the pod names, so the inputs same-host and router findings (xs-prefill-gpus) are not checked there
tests/deploy/corpus/xs-router-bootstrap-port.fire.sh	emit k8s	defect: the k8s export places every instance in its own LWS pod group and writes the router lists from the pod names, so the inputs same-host and router findings (xs-router-bootstrap-port) are not checked there
tests/deploy/corpus/xs-router-local-url.fire.2.sh	emit k8s	defect: the k8s export places every instance in its own LWS pod group and writes the router lists from the pod names, so the inputs same-host and router findings (xs-router-local-url, xs-router-missing, xs-router-unknown) are not checked there
tests/deploy/corpus/xs-router-local-url.fire.sh	emit k8s	defect: the k8s export places every instance in its own LWS pod group and writes the router lists from the pod names, so the inputs same-host and router findings (xs-router-local-url) are not checked there
tests/deploy/corpus/xs-router-missing.fire.sh	emit k8s	defect: the k8s export places every instance in its own LWS pod group and writes the router lists from the pod names, so the inputs same-host and router findings (xs-router-missing) are not checked there
tests/deploy/corpus/xs-router-unknown.fire.sh	emit k8s	defect: the k8s export places every instance in its own LWS pod group and writes the router lists from the pod names, so the inputs same-host and router findings (xs-router-unknown) are not checked there
tests/realworld/cases/docker-run-prefill-container.sh	import	defect: not carried into the deployment, so lost on import: docker-bridge-prefill
tests/realworld/cases/docker-run-prefill-container.sh	emit shell	defect: not carried into the deployment, so lost on emit shell: docker-bridge-prefill
tests/realworld/cases/docker-run-prefill-container.sh	emit config	defect: not carried into the deployment, so lost on emit config: docker-bridge-prefill
tests/realworld/cases/docker-run-prefill-container.sh	emit k8s	defect: not carried into the deployment, so lost on emit k8s: docker-bridge-prefill
tests/realworld/cases/docker-run-prefill-container.sh	emit yaml	defect: not carried into the deployment, so lost on emit yaml: docker-bridge-prefill
tests/realworld/cases/dynamo-disagg-dp-attn.sh	emit shell	defect: emit shell finds xs-gpu-collision, xs-port-collision where the input leaves it unknown (the import pins what the script leaves open)
tests/realworld/cases/dynamo-disagg-dp-attn.sh	emit config	defect: emit config finds xs-gpu-collision, xs-port-collision where the input leaves it unknown (the import pins what the script leaves open)
tests/realworld/cases/dynamo-disagg-trace-args-array.sh	emit shell	defect: emit shell finds xs-port-collision where the input leaves it unknown (the import pins what the script leaves open)
tests/realworld/cases/dynamo-disagg-trace-args-array.sh	emit config	defect: emit config finds xs-port-collision where the input leaves it unknown (the import pins what the script leaves open)
../shared/realworld/files/issue-15665-qwen3-next-mooncake.txt	import	defect: not carried into the deployment, so lost on import: shell-brace-expansion
../shared/realworld/files/issue-15665-qwen3-next-mooncake.txt	emit shell	defect: not carried into the deployment, so lost on emit shell: shell-brace-expansion
../shared/realworld/files/issue-15665-qwen3-next-mooncake.txt	emit config	defect: not carried into the deployment, so lost on emit config: shell-brace-expansion
../shared/realworld/files/issue-15665-qwen3-next-mooncake.txt	emit k8s	defect: not carried into the deployment, so lost on emit k8s: shell-brace-expansion
../shared/realworld/files/issue-15665-qwen3-next-mooncake.txt	emit yaml	defect: not carried into the deployment, so lost on emit yaml: shell-brace-expansion
../shared/realworld/files/llmd-sglang-disaggregatedset.yaml	import refuses	defect: import refuses what check reads (the deployment imported from this script would not read back: SGLANG_DISAGG_STAGING_BUFFER: expected true or false, not 1)
../shared/realworld/files/llmd-sglang-patch-prefill.yaml	import refuses	defect: import refuses what check reads (the deployment imported from this script would not read back: SGLANG_DISAGG_STAGING_BUFFER: expected true or false, not 1)
../shared/realworld/files/ome-kimi-k2-pd-rt.yaml	import refuses	defect: import refuses what check reads (the deployment imported from this script would not read back: max_payload_size must be between -2147483648 and 2147483647, not 2147483648)
../shared/realworld/files/pr-16056-qwen3-next-hetero-tp-dp.txt	emit shell	defect: emit shell finds xs-gpu-collision where the input leaves it unknown (the import pins what the script leaves open)
../shared/realworld/files/pr-16056-qwen3-next-hetero-tp-dp.txt	emit config	defect: emit config finds xs-gpu-collision where the input leaves it unknown (the import pins what the script leaves open)
../shared/realworld/files/pr-7931-qwen3-8b-dp-attn-mini-lb.txt	import	defect: not carried into the deployment, so lost on import: router-mini-lb-gone
../shared/realworld/files/pr-7931-qwen3-8b-dp-attn-mini-lb.txt	emit shell	defect: not carried into the deployment, so lost on emit shell: router-mini-lb-gone
../shared/realworld/files/pr-7931-qwen3-8b-dp-attn-mini-lb.txt	emit config	defect: not carried into the deployment, so lost on emit config: router-mini-lb-gone
../shared/realworld/files/pr-7931-qwen3-8b-dp-attn-mini-lb.txt	emit k8s	defect: not carried into the deployment, so lost on emit k8s: router-mini-lb-gone
../shared/realworld/files/pr-7931-qwen3-8b-dp-attn-mini-lb.txt	emit yaml	defect: not carried into the deployment, so lost on emit yaml: router-mini-lb-gone
../shared/realworld/files/rbg-pd-disagg-leader-worker.yaml	import	defect: not carried into the deployment, so lost on import: xs-router-missing
../shared/realworld/files/rbg-pd-disagg-leader-worker.yaml	emit shell	defect: not carried into the deployment, so lost on emit shell: xs-router-missing
../shared/realworld/files/rbg-pd-disagg-leader-worker.yaml	emit config	defect: not carried into the deployment, so lost on emit config: xs-router-missing
../shared/realworld/files/rbg-pd-disagg-leader-worker.yaml	emit k8s	defect: the k8s export places every instance in its own LWS pod group and writes the router lists from the pod names, so the inputs same-host and router findings (xs-router-missing) are not checked there
../shared/realworld/files/rbg-pd-disagg-leader-worker.yaml	emit yaml	defect: not carried into the deployment, so lost on emit yaml: xs-router-missing
../shared/realworld/files/rbg-v1alpha1-deepseek-r1-pd-patches.yaml	import refuses	defect: import refuses what check reads (the deployment imported from this script would not read back: max_payload_size must be between -2147483648 and 2147483647, not 2147483648)
../shared/realworld/files/sglang-docs-rbg-deepseekv32-pd.md	import refuses	defect: import refuses what check reads (mapping values are not allowed in this context) what check reads (argparse-deprecated))
'

# rules FILE: the sorted error and warning rule ids of check FILE, one
# line; "exit 2" when check refuses it.
rules() {
	"$PDWIZ" check --format json "$1" >"$T/j" 2>/dev/null
	rc=$?
	[ $rc = 2 ] && { echo "exit 2"; return; }
	$PY -c 'import json,sys
o=json.load(open(sys.argv[1]))
print(" ".join(sorted({d["rule"] for d in o["diagnostics"] if d["severity"] in ("error","warning")})) or "-")' "$T/j"
}

known() { printf '%s\n' "$KNOWN" | grep -qF "$1	$2	"; }

# same NAME ROUTE WANT GOT
same() {
	if [ "$3" = "$4" ]; then
		ok
		known "$1" "$2" && bad "$1 via $2: listed in KNOWN but agrees now: take it out"
	elif known "$1" "$2"; then
		ok; nknown=$((nknown + 1)); echo "$1	$2" >>"$T/hit"
	else
		bad "$1 via $2: '$4', check of the input: '$3'"
	fi
}

# exports NAME DEPLOYMENT WANT: emit in each format, check each launch file.
exports() {
	for fmt in shell config k8s yaml; do
		rm -rf "$T/e"; mkdir "$T/e"
		if ! "$PDWIZ" emit --force --format $fmt -o "$T/e" "$2" >/dev/null 2>"$T/emit.err"; then
			bad "$1: emit --format $fmt: $(head -c 300 "$T/emit.err")"
			continue
		fi
		case $fmt in
		shell|config) f=$T/e/launch.sh ;;
		k8s) f=$T/e/k8s.yaml ;;
		yaml) f=$T/e/deployment.yaml ;;
		esac
		same "$1" "emit $fmt" "$3" "$(rules "$f")"
	done
}

n=0 nref=0 nknown=0
: >"$T/hit"
for f in share/examples/* tests/deploy/corpus/* tests/verdict/*.yaml \
    tests/realworld/cases/*.sh "$RW"/*; do
	[ -f "$f" ] || continue
	b=${f#"$PWD"/}
	want=$(rules "$f")
	n=$((n + 1))
	# A deployment file: its exports.
	if head -c 4096 "$f" | grep -q '^pdwiz: '; then
		[ "$want" = "exit 2" ] || exports "$b" "$f" "$want"
		continue
	fi
	# Anything else: import, then the deployment and its exports.
	rm -f "$T/d.yaml"
	"$PDWIZ" import -o "$T/d.yaml" "$f" >/dev/null 2>"$T/imp.err"
	rc=$?
	# Words import could not place are reported; the rest is compared.
	if [ $rc != 0 ] && grep -q 'nothing written (--keep-going' "$T/imp.err"; then
		"$PDWIZ" import --keep-going -o "$T/d.yaml" "$f" >/dev/null 2>"$T/imp.err"
		rc=$?
	fi
	if [ $rc != 0 ]; then
		nref=$((nref + 1))
		# Refused: check could not read it either, or import names why.
		if [ "$want" = "exit 2" ] || grep -qE 'no prefill, decode or router command found' "$T/imp.err"; then
			ok
		elif known "$b" "import refuses"; then
			ok; nknown=$((nknown + 1)); echo "$b	import refuses" >>"$T/hit"
		else
			bad "$b: import refuses ($(head -c 300 "$T/imp.err")) what check reads ($want)"
		fi
		continue
	fi
	[ "$want" = "exit 2" ] && { bad "$b: check refuses it, import does not"; continue; }
	got=$(rules "$T/d.yaml")
	same "$b" import "$want" "$got"
	exports "$b" "$T/d.yaml" "$want"
done
[ "$n" -ge 50 ] && ok || bad "only $n inputs"
# The accelerator reaches every export: the L40S deployment's two errors
# from its file and from its exported script (and, above, every route).
[ "$(rules tests/verdict/l40s-70b-tp1.yaml)" = fit-weights ] && ok ||
    bad "l40s-70b-tp1.yaml: $(rules tests/verdict/l40s-70b-tp1.yaml), want fit-weights"
rm -rf "$T/e"; mkdir "$T/e"
"$PDWIZ" emit --force --format k8s -o "$T/e" tests/verdict/l40s-70b-tp1.yaml 2>/dev/null
"$PDWIZ" check "$T/e/k8s.yaml" | grep -q '^2 errors, ' && ok ||
    bad "l40s-70b-tp1.yaml: its manifests do not give 2 errors"
# Every KNOWN line is still a difference of an input that was read.
printf '%s\n' "$KNOWN" | grep -v '^$' | cut -f1,2 | while IFS= read -r k; do
	case $k in ../shared/*) [ -d "$RW" ] || continue ;; esac
	grep -qxF "$k" "$T/hit" || echo "FAIL: KNOWN line not met (stale?): $k"
done >"$T/stale"
[ -s "$T/stale" ] && { cat "$T/stale"; fail=$((fail + $(wc -l <"$T/stale"))); }
echo "inputs: $n, of them refused by import with a reason: $nref; known differences met: $nknown"
[ -d "$RW" ] || echo "skipped: the real-world corpus is not present ($RW)"
echo "verdict: $pass passed, $fail failed"
[ "$fail" = 0 ]
