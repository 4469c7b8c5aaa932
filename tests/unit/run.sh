#!/bin/sh
# run.sh TEST... - run the cmocka test programs given (the plain build's or
# the ASan build's), every one even after a failure. Prints each program's
# output and "unit: N passed, M failed" (programs); exits 1 on any failure.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export PDWIZ_DATADIR="$ROOT"
# The wizard's results of an unchanged deployment are reused: check on
# every reuse that it is unchanged (src/tui/vm.c, build_results).
export PDWIZ_VM_VERIFY=1
pass=0
fail=0
for t in "$@"; do
	echo "== $t"
	if "$t"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $t"
	fi
done
echo "unit: $pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
