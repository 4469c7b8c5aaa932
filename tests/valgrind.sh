#!/bin/sh
# Unit suites and representative CLI runs under valgrind memcheck: zero
# errors and zero leaks (definite, indirect, possible) required.
cd "$(dirname "$0")/.." || exit 2
export PDWIZ_DATADIR="$PWD"
VG="valgrind -q --suppressions=$PWD/tests/valgrind-ncurses.supp --leak-check=full --show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99"
pass=0 fail=0
run() {
	name=$1; shift
	$VG "$@" >/dev/null 2>/tmp/pdwiz-vg.$$
	rc=$?
	if [ "$rc" = 99 ] || grep -q "==[0-9]*==" /tmp/pdwiz-vg.$$; then
		fail=$((fail + 1)); echo "FAIL (valgrind): $name"; head -30 /tmp/pdwiz-vg.$$
	else
		pass=$((pass + 1))
	fi
}
for t in build/tests/test_*; do
	[ -x "$t" ] && run "$t" "$t"
done
for f in share/examples/*.sh share/examples/*.yaml; do
	[ -f "$f" ] && run "check $f" ./pdwiz check --format json "$f"
done
run "check --" ./pdwiz check -- --model-path m --tp-sizee 2 --disaggregation-transfer-backend rdma
run "explain" ./pdwiz explain stg-backend
run "rules" ./pdwiz rules
run "coverage" ./pdwiz coverage
printf 'python -m sglang.launch_server --model-path "x\n' > /tmp/pdwiz-vg-q.$$
run "bad input" ./pdwiz check /tmp/pdwiz-vg-q.$$
printf 'python -m sglang.launch_server --model-path m --served-model-name "caf\351"\ncat <<EOF\n' > /tmp/pdwiz-vg-q.$$
run "check: not UTF-8, unclosed here-document" ./pdwiz check /tmp/pdwiz-vg-q.$$
run "import: refused partial script" ./pdwiz import tests/bad/files/imp-multinode-partial.sh
run "import: a launch script" ./pdwiz import share/examples/mooncake-llama-1p1d.sh
rm -f /tmp/pdwiz-vg.$$ /tmp/pdwiz-vg-q.$$

# The wizard end to end: every tmux scenario with pdwiz under memcheck.
# Each process logs to its own file; any line in any log is a failure.
VGD=$(mktemp -d)
printf '#!/bin/sh\nexec %s --log-file=%s/log.%%p %s/pdwiz "$@"\n' "$VG" "$VGD" "$PWD" > "$VGD/pdwiz"
chmod +x "$VGD/pdwiz"
if PDWIZ="$VGD/pdwiz" POLL_TIMEOUT=60 sh tests/tmux/run.sh >"$VGD/out" 2>&1; then
	pass=$((pass + 1))
else
	fail=$((fail + 1)); echo "FAIL (valgrind): wizard tmux suite"; grep -v '^PASS' "$VGD/out" | head -30
fi
if cat "$VGD"/log.* 2>/dev/null | grep -q .; then
	fail=$((fail + 1)); echo "FAIL (valgrind): wizard under memcheck"; cat "$VGD"/log.* | head -40
else
	pass=$((pass + 1))
fi
rm -rf "$VGD"
echo "valgrind: $pass passed, $fail failed"
[ "$fail" = 0 ]
