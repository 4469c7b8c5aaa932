#!/bin/sh
# tests/bench/scale.sh BUILD - the scaling table of make bench: what
# `pdwiz check` costs as its input grows (server commands one per machine,
# deployment instances, one long word) and what one wizard keystroke costs
# on a deployment of many instances, each beside the goal of issue #21.
# Times are medians of alternating runs (bench_engine race); instruction
# counts are callgrind's, where valgrind is there and the input is small
# enough for it. Numbers, not pass/fail.
cd "$(dirname "$0")/../.." || exit 2
BUILD=${1:-build}
B=$BUILD/bench/bench_engine
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# script N: N server commands, prefill and decode in turn, one per machine.
script() {
	$PY - "$1" >"$T/s$1.sh" <<'PY'
import sys
n = int(sys.argv[1])
for i in range(n):
    role = "prefill" if i % 2 == 0 else "decode"
    print("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct"
          f" --disaggregation-mode {role} --host 10.{i // 62500}.{i // 250 % 250}.{i % 250 + 1}"
          " --port 30000 --disaggregation-ib-device mlx5_0")
PY
}
# deploy N: a deployment file of N prefill and N decode instances.
deploy() {
	printf 'pdwiz: 1\nname: "scale-%s"\nmodel:\n  path: "meta-llama/Llama-3.1-8B-Instruct"\nshared:\n  options:\n    disaggregation_transfer_backend: "mooncake"\n    disaggregation_ib_device: "mlx5_0"\nroles:\n  prefill:\n    instances: %s\n  decode:\n    instances: %s\n  router: {}\n' \
	    "$1" "$1" "$1" >"$T/d$1.yaml"
}
# ms FILE: the median wall time of pdwiz check FILE (5 runs).
ms() {
	$B race 5 "check" "$PWD/pdwiz check $1" 2>/dev/null |
	    awk '$1 == "check" { print $2 }'
}
# ir FILE: callgrind's instruction count of pdwiz check FILE.
ir() {
	if command -v valgrind >/dev/null 2>&1; then
		valgrind --tool=callgrind --callgrind-out-file="$T/cg" ./pdwiz \
		    check "$1" >/dev/null 2>"$T/cg.err"
		sed -n 's/.*Collected : //p' "$T/cg.err"
	else
		echo "-"
	fi
}

echo "== scaling: pdwiz check as the input grows"
for n in 1 100 1000 8000; do script $n; done
i1=$(ir "$T/s1.sh")
i100=$(ir "$T/s100.sh")
printf '   %-44s %12s %14s\n' "input" "median ms" "instructions"
for n in 1 100 1000 8000; do
	case $n in 1) i=$i1 ;; 100) i=$i100 ;; *) i="-" ;; esac
	printf '   %-44s %12s %14s\n' "script of $n server commands" "$(ms "$T/s$n.sh")" "$i"
done
echo "$i1 $i100" | awk '$1 != "-" { printf "   per command beyond the first: %.2f M instructions (goal: at most 0.1 M)\n", ($2 - $1) / 99 / 1e6 }'
t1000=$(ms "$T/s1000.sh")
t8000=$(ms "$T/s8000.sh")
echo "$t1000 $t8000" | awk '{ printf "   8000 against 1000 commands: %.1fx the time (goal: at most 10x); 1000 in %.0f ms (goal: at most 1000)\n", $2 / $1, $1 }'
for n in 100 500; do deploy $n; done
for n in 100 500; do
	printf '   %-44s %12s\n' "deployment of $n instances per role" "$(ms "$T/d$n.yaml")"
done
$PY -c "print('python -m sglang.launch_server --model-path /' + 'a' * (1 << 20) + ' --tp 2')" >"$T/w1.sh"
$PY -c "print('python -m sglang.launch_server --model-path /' + 'a' * (8 << 20) + ' --tp 2')" >"$T/w8.sh"
printf '   %-44s %12s %14s\n' "one 1 MiB --model-path word" "$(ms "$T/w1.sh")" "$(ir "$T/w1.sh")"
printf '   %-44s %12s\n' "one 8 MiB --model-path word" "$(ms "$T/w8.sh")"
echo "   goal: an 8 MiB word in at most 20 M instructions"

echo "== scaling: one wizard keystroke's model work on a deployment (median of 20)"
for n in 100 500 1000; do
	deploy $n
	printf '   %-24s %s\n' "$n instances per role:" "$($BUILD/bench/bench_wizard "$PWD" "$PWD/forms" 20 "$T/d$n.yaml")"
done
echo "   goal: a keystroke in at most 10 ms at 1000 instances"
