#!/bin/sh
# suite.sh - run test suites as independent jobs (make -j runs several at
# once), each with its output in its own log, and add up the results.
#
#   suite.sh run LOGDIR NAME CMD [ARG...]
#	Runs CMD with stdout and stderr in LOGDIR/NAME.log and its exit status
#	in LOGDIR/NAME.rc (start and end, in seconds since the epoch, in
#	LOGDIR/NAME.time). Prints one line, "PASS NAME (Ns): <the suite's
#	last line>"; "SKIP NAME" for exit 77 (the suite could not run here:
#	it says why); on failure "FAIL NAME" and the end of the log. Exits 0
#	either way, so that make goes on with the other suites.
#   suite.sh summary LOGDIR NAME...
#	Names the suites that failed, were skipped or did not run (no
#	LOGDIR/NAME.rc: their build failed), lists each suite's wall and CPU time (user + system seconds), then
#	prints "suites: N passed, M failed" (", K skipped" when any was) as
#	its last line, also kept in LOGDIR/summary. Exits 1 if a suite failed
#	or did not run; a skipped suite is neither passed nor failed.
#
# Suites run side by side share nothing fixed: each makes its own temporary
# directory (mktemp) and the tmux suites their own tmux server (lib.sh).

LOG_TAIL=${LOG_TAIL:-200}

run() {
	logdir=$1 name=$2
	shift 2
	mkdir -p "$logdir" || exit 2
	log=$logdir/$name.log
	rm -f "$logdir/$name.rc" "$logdir/$name.fail"
	# A make started by a suite (tests/cli/run.sh runs make install) is a
	# make of its own: without the jobserver of the make running the
	# suites, serially, keeping the variables given on the command line.
	MAKEFLAGS=$(printf ' %s\n' "$MAKEFLAGS" |
	    sed 's/ -j[0-9]*//g; s/ --jobserver-[a-z]*=[^ ]*//g; s/^ *//')
	export MAKEFLAGS
	unset MFLAGS
	# The suites' own python3 is the distribution's interpreter where there
	# is one: a version manager's shim on PATH costs ~200 ms a start, and
	# the cli and deploy suites start python3 hundreds of times.
	if [ -x /usr/bin/python3 ] && [ "$(command -v python3)" != /usr/bin/python3 ]; then
		mkdir -p "$logdir/pybin" &&
		    ln -sf /usr/bin/python3 "$logdir/pybin/python3" &&
		    PATH=$(cd "$logdir/pybin" && pwd):$PATH
		export PATH
	fi
	start=$(date +%s)
	"$@" >"$log" 2>&1 </dev/null
	rc=$?
	secs=$(( $(date +%s) - start ))
	# CPU seconds (user + system) of everything the suite ran: the
	# second line of times is this shell's children.
	times >"$logdir/$name.cpu"
	cpu=$(awk 'NR == 2 {
		t = 0
		for (i = 1; i <= 2; i++) {
			split($i, p, "m"); sub("s", "", p[2]); t += p[1] * 60 + p[2]
		}
		printf "%d", t + 0.5 }' "$logdir/$name.cpu")
	rm -f "$logdir/$name.cpu"
	echo "$rc" >"$logdir/$name.rc"
	echo "$start $((start + secs)) ${cpu:-0}" >"$logdir/$name.time"
	last=$(grep -v '^[[:space:]]*$' "$log" | tail -n 1)
	if [ "$rc" = 0 ]; then
		echo "PASS $name (${secs}s): $last"
	elif [ "$rc" = 77 ]; then
		echo "SKIP $name (${secs}s): $(grep -m1 '^skipped:' "$log" || echo "$last")"
	else
		# One write, so that suites ending together do not interleave.
		{
			echo "FAIL $name (exit $rc, ${secs}s); end of $log:"
			tail -n "$LOG_TAIL" "$log" | sed "s/^/  $name| /"
		} >"$logdir/$name.fail"
		cat "$logdir/$name.fail"
	fi
	return 0
}

summary() {
	logdir=$1
	shift
	mkdir -p "$logdir" || exit 2
	pass=0 fail=0 skip=0 tcpu=0 first= last=
	printf '  %-12s %6s %8s\n' suite wall cpu
	for name in "$@"; do
		rc=$(cat "$logdir/$name.rc" 2>/dev/null)
		if [ -f "$logdir/$name.time" ]; then
			read -r a b c <"$logdir/$name.time"
			printf '  %-12s %5ss %7ss\n' "$name" "$((b - a))" "${c:-?}"
			tcpu=$((tcpu + ${c:-0}))
			[ -z "$first" ] || [ "$a" -lt "$first" ] && first=$a
			[ -z "$last" ] || [ "$b" -gt "$last" ] && last=$b
		fi
		if [ "$rc" = 0 ]; then
			pass=$((pass + 1))
		elif [ "$rc" = 77 ]; then
			skip=$((skip + 1))
			echo "SKIP $name: $(grep -m1 '^skipped:' "$logdir/$name.log" || echo "see $logdir/$name.log")"
		elif [ -z "$rc" ]; then
			fail=$((fail + 1))
			echo "FAIL $name: did not run (its build failed)"
		else
			fail=$((fail + 1))
			echo "FAIL $name: exit $rc, log in $logdir/$name.log"
		fi
	done
	[ -n "$first" ] && printf '  %-12s %5ss %7ss  (first start to last end; CPU of all suites)\n' \
	    all "$((last - first))" "$tcpu"
	if [ "$skip" -gt 0 ]; then
		echo "suites: $pass passed, $fail failed, $skip skipped"
	else
		echo "suites: $pass passed, $fail failed"
	fi | tee "$logdir/summary"
	[ "$fail" = 0 ]
}

cmd=$1
shift
case $cmd in
run)	[ $# -ge 3 ] || { echo "usage: suite.sh run LOGDIR NAME CMD..." >&2; exit 2; }
	run "$@" ;;
summary) [ $# -ge 1 ] || { echo "usage: suite.sh summary LOGDIR NAME..." >&2; exit 2; }
	summary "$@" ;;
*)	echo "usage: suite.sh run|summary ..." >&2; exit 2 ;;
esac
