#!/bin/sh
# valgrind.sh [units] [cli] [wizard] - under valgrind memcheck, zero errors
# and zero leaks (definite, indirect, possible) required:
#   units   the unit test programs ($BUILD/tests, default build/tests);
#           units-a and units-b each half of them
#   cli     representative runs of ./pdwiz check, explain, rules, import
#   wizard  tmux scenarios (tests/tmux/run.sh) with pdwiz under memcheck: a
#           representative subset (VG_SCENARIOS below: the quick start,
#           two done-when tasks (DeepSeek, import and fix), fix side
#           effects, help, save, export, resize, signals, the line editor,
#           preview); VG_ALL=1 (make check-full) every scenario. ASan runs
#           them all anyway.
# No argument: all three. The parts share nothing, so they may run at the
# same time. Prints "valgrind: N passed, M failed".
cd "$(dirname "$0")/.." || exit 2
export PDWIZ_DATADIR="$PWD"
# The real-world corpus beside the project; its runs are left out where it is absent.
RW=${PDWIZ_REALWORLD:-../shared/realworld}/files
VG="valgrind -q --suppressions=$PWD/tests/valgrind-ncurses.supp --leak-check=full --show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99"
T=$(mktemp -d "${TMPDIR:-/tmp}/pdwiz-vg.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
pass=0 fail=0
run() {
	name=$1; shift
	$VG "$@" >/dev/null 2>"$T/vg"
	rc=$?
	if [ "$rc" = 99 ] || grep -q "==[0-9]*==" "$T/vg"; then
		fail=$((fail + 1)); echo "FAIL (valgrind): $name"; head -30 "$T/vg"
	else
		pass=$((pass + 1))
	fi
}

# The unit programs in two halves of about equal time under memcheck, so
# that make check runs them side by side: units-b the longest ones,
# units-a the rest (every program is in exactly one).
UNITS_B="test_vm test_deploy_prop test_examples test_corpus test_shell test_quote_prop"
units() {
	_n=0
	for t in "${BUILD:-build}"/tests/test_*; do
		case $t in *.d) continue ;; esac
		case " $UNITS_B " in
		*" ${t##*/} "*) [ "${1:-all}" = a ] && continue ;;
		*) [ "${1:-all}" = b ] && continue ;;
		esac
		[ -x "$t" ] && run "$t" "$t" && _n=$((_n + 1))
	done
	[ "$_n" -gt 0 ] || { fail=$((fail + 1)); echo "FAIL (valgrind): no unit test programs in ${BUILD:-build}/tests"; }
}

cli() {
	for f in share/examples/*.sh share/examples/*.yaml; do
		[ -f "$f" ] && run "check $f" ./pdwiz check --format json "$f"
	done
	run "check --" ./pdwiz check -- --model-path m --tp-sizee 2 --disaggregation-transfer-backend rdma
	run "explain" ./pdwiz explain stg-backend
	run "explain --log: server_args, interleaved ranks" ./pdwiz explain --log tests/logs/cases/seed-004-staging-pp-nixl.log
	run "explain --log x3: one deployment, --format json" ./pdwiz explain --format json --log tests/logs/cases/mine-page-size-prefill.log --log tests/logs/cases/mine-page-size-decode.log --log tests/logs/cases/mine-page-size-router.log
	run "explain: not explained, the closest" ./pdwiz explain --log tests/logs/cases/sglang-pr14474-page-size-mismatch.log
	run "rules" ./pdwiz rules
	run "coverage" ./pdwiz coverage
	printf 'python -m sglang.launch_server --model-path "x\n' > "$T/q"
	run "bad input" ./pdwiz check "$T/q"
	printf 'python -m sglang.launch_server --model-path m --served-model-name "caf\351"\ncat <<EOF\n' > "$T/q"
	run "check: not UTF-8, unclosed here-document" ./pdwiz check "$T/q"
	run "import: words not placed, refused" ./pdwiz import tests/bad/files/imp-model-path-evil.sh
	run "import: refused words kept (extra_args)" ./pdwiz import tests/bad/files/imp-unknown-flag.sh
	run "import: a partial script, unchecked env" ./pdwiz import tests/realworld/cases/sglang-ci-start-disaggregation-servers.sh
	run "import: a prefill-only script" ./pdwiz import tests/realworld/cases/amd-cpx-prefill.sh
	run "import: a launch script" ./pdwiz import share/examples/mooncake-llama-1p1d.sh
	[ -d "$RW" ] && run "check --format sarif" ./pdwiz check --format sarif "$RW"/issue-15665-qwen3-next-mooncake.txt
	run "check --format github, unusable input" ./pdwiz check --format github "$T/q"
	run "check --format json, missing file" ./pdwiz check --format json "$T/nonexistent"
	[ -d "$RW" ] && run "check: a Markdown document" ./pdwiz check "$RW"/sglang-docs-pd-disaggregation.md
	[ -d "$RW" ] && run "check: a manifest, refused" ./pdwiz check "$RW"/ome-kimi-k2-pd-rt.yaml
	[ -d "$RW" ] && run "check: wildcard binds, could not check" ./pdwiz check "$RW"/pr-16056-qwen3-next-hetero-tp-dp.txt
	run "check --gpu: the memory estimate" ./pdwiz check --gpu H100 -- python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8
	run "emit --format yaml --pin" ./pdwiz emit --format yaml --pin -o - share/examples/minimal-1p1d.yaml
	run "compile-catalog" ./pdwiz compile-catalog -o "$T/catalog.img"
}

# The wizard end to end: tmux scenarios with pdwiz under memcheck.
# Each process logs to its own file; any line in any log is a failure.
VG_SCENARIOS="quick_1p1d done_b_deepseek done_c_import_fix fix_side_effects
help_explains save_check export_same_bytes resize sigint_restores
line_editor preview_scroll"
wizard() {
	mkdir "$T/wiz" || return
	printf '#!/bin/sh\nexec %s --log-file=%s/log.%%p %s/pdwiz "$@"\n' "$VG" "$T/wiz" "$PWD" > "$T/pdwiz"
	chmod +x "$T/pdwiz"
	_sc=$(echo $VG_SCENARIOS)
	[ "${VG_ALL:-0}" = 1 ] && _sc=
	if PDWIZ="$T/pdwiz" POLL_TIMEOUT=${POLL_TIMEOUT:-60} SCENARIOS="$_sc" \
	    sh tests/tmux/run.sh >"$T/out" 2>&1; then
		pass=$((pass + 1))
		_want=$(echo $_sc | wc -w)
		_ran=$(grep -cE '^(PASS|SKIP) ' "$T/out")
		if [ -n "$_sc" ] && [ "$_ran" -ne "$_want" ]; then
			fail=$((fail + 1)); echo "FAIL (valgrind): $_ran of the $_want wizard scenarios ran (a name in VG_SCENARIOS is gone?)"
		fi
		echo "wizard under memcheck: $_ran scenarios"
	else
		fail=$((fail + 1)); echo "FAIL (valgrind): wizard tmux suite"; grep -v '^PASS' "$T/out" | head -30
	fi
	if cat "$T/wiz"/log.* 2>/dev/null | grep -q .; then
		fail=$((fail + 1)); echo "FAIL (valgrind): wizard under memcheck"; cat "$T/wiz"/log.* | head -40
	else
		pass=$((pass + 1))
	fi
}

[ $# = 0 ] && set -- units cli wizard
for part in "$@"; do
	case $part in
	units|cli|wizard) $part ;;
	units-a) units a ;;
	units-b) units b ;;
	*) echo "valgrind.sh: unknown part $part (units, cli, wizard)" >&2; exit 2 ;;
	esac
done
echo "valgrind: $pass passed, $fail failed"
[ "$fail" = 0 ]
