#!/bin/sh
# The packaging of pdwiz, what a user or a CI gets besides the binary: the
# licence, one version string, warnings as errors only in CI. Prints
# "pkg: N passed, N failed".
# PDWIZ may point at another build of ./pdwiz.
cd "$(dirname "$0")/../.." || exit 2
PDWIZ=${PDWIZ:-$PWD/pdwiz}
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
note() { echo "note: $*"; }
[ -x "$PDWIZ" ] || { echo "pkg: no $PDWIZ (make pdwiz first)"; exit 2; }
V=$(cat VERSION)

# --- LICENSE: Apache-2.0 in full, naming pdwiz ---
head -3 LICENSE | grep -q 'Copyright 2026 the pdwiz authors' && ok ||
    bad "LICENSE: no copyright line naming pdwiz in its first lines"
grep -q 'Apache License' LICENSE && grep -q 'Version 2.0, January 2004' LICENSE &&
    grep -q 'END OF TERMS AND CONDITIONS' LICENSE && ok ||
    bad "LICENSE: not the full Apache-2.0 text"
grep -q 'Apache License, Version 2.0' README.md && grep -q '`LICENSE`' README.md && ok ||
    bad "README.md does not mention the licence"

# --- one version string: VERSION ---
printf '%s\n' "$V" | grep -Eqx '[0-9]+\.[0-9]+\.[0-9]+([~+.][0-9A-Za-z.~+]+)?' && ok ||
    bad "VERSION: '$V' is not a version"
[ "$("$PDWIZ" --version | head -1)" = "pdwiz $V" ] && ok ||
    bad "pdwiz --version says '$("$PDWIZ" --version | head -1)', VERSION says $V (stale build?)"
"$PDWIZ" check --format sarif share/examples/minimal-1p1d.yaml >"$T/sarif" 2>&1
$PY -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d["runs"][0]["tool"]["driver"]["version"] != sys.argv[2])' "$T/sarif" "$V" && ok ||
    bad "SARIF driver version differs from VERSION $V"
th=$(sed -n '1s/^\.TH .*"pdwiz \([^"]*\)".*/\1/p' share/pdwiz.1)
[ "$th" = "$V" ] && ok || bad "share/pdwiz.1: .TH says pdwiz '$th', VERSION says $V"
if [ -f debian/changelog ]; then
	dv=$(sed -n '1s/^pdwiz (\([^)]*\)).*/\1/p' debian/changelog)
	[ "${dv%-*}" = "$V" ] && ok || bad "debian/changelog: version '$dv', VERSION says $V"
fi
# No other place states a version of its own: a fallback in C must agree.
git ls-files 'src/*.c' 'src/*.h' | xargs grep -n 'define PDWIZ_VERSION "' |
    grep -v "\"$V\"" >"$T/vers"
[ ! -s "$T/vers" ] && ok || bad "a PDWIZ_VERSION other than VERSION: $(cat "$T/vers")"
make -n -s NO_DEPS=1 -W src/cli/main.c build/src/cli/main.o 2>&1 |
    grep -q "PDWIZ_VERSION='\"$V\"'" && ok ||
    bad "the compile of main.o is not given -DPDWIZ_VERSION from VERSION"

# --- warnings are errors in CI only (WERROR=1) ---
# A user's make: none of the variables of the make running the suites
# (make check WERROR=1 in CI). A new warning (here one every file gets).
fresh_make() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make "$@"; }
printf 'static int pdwiz_test_unused(void) { return 0; }\n' >"$T/warn.h"
fresh_make -s NO_DEPS=1 BUILD="$T/b1" CPPFLAGS="-include $T/warn.h" "$T/b1/src/core/util.o" >"$T/out" 2>&1
[ $? = 0 ] && grep -q 'warning:' "$T/out" && ok ||
    bad "a user's build with a new warning: $(tail -3 "$T/out")"
fresh_make -s NO_DEPS=1 WERROR=1 BUILD="$T/b2" CPPFLAGS="-include $T/warn.h" "$T/b2/src/core/util.o" >"$T/out" 2>&1
[ $? != 0 ] && grep -q 'Werror' "$T/out" && ok ||
    bad "WERROR=1 does not make a warning an error: $(tail -3 "$T/out")"
grep -q '^make check WERROR=1' .ci/run && ok || bad ".ci/run does not build with WERROR=1"

echo "pkg: $pass passed, $fail failed"
[ "$fail" = 0 ]
