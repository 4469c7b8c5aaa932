#!/bin/sh
# figures.sh [DIR]: one Markdown table row per finished long fuzz run in
# DIR (default build-fuzz/long, written by the runs described in README.md):
# harness, inputs executed, exec/s, crashes, corpus (libFuzzer's last
# figure), dates, exit status.
cd "$(dirname "$0")/../.." || exit 2
D=${1:-build-fuzz/long}
for log in "$D"/*.log; do
	[ -e "$log" ] || continue
	f=$(basename "$log" .log)
	[ -e "$D/$f.end" ] || continue
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	crashes=$(find "$D" -maxdepth 1 -name "$f-*" | wc -l)
	# libFuzzer's last corpus figure: inputs / bytes
	corp=$(grep -o 'corp: [0-9]*/[0-9]*[A-Za-z]*' "$log" | tail -n 1 |
	    sed 's/corp: //; s|/| inputs, |')
	printf '| %s | %s | %s | %s | %s | %s to %s | %s |\n' \
	    "$f" "${execs:-?}" "${speed:-?}" "$crashes" "${corp:-?}" \
	    "$(cat "$D/$f.start")" "$(cat "$D/$f.end")" "$(cat "$D/$f.rc")"
done
