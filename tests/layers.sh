#!/bin/sh
# layers.sh - every #include in src/ points down the layer order:
#
#   core (0) <- io (1) <- deploy (2) <- emit (3) <- cli (4), tui (4)
#
# A file may include headers of its own folder and of lower layers. Two
# folders of one layer (cli, tui) may not include each other. A private
# header (*_int.h) is included only from its own folder.
#
# usage: sh tests/layers.sh [ROOT]     check ROOT/src (default: this tree),
#                                      after a self-test on a scratch tree
#        sh tests/layers.sh --check ROOT
#                                      only check ROOT/src (the self-test
#                                      runs the script this way)
# Prints one line per bad include and "layers: N passed, N failed" (one
# check per include); exits 1 when one fails, 2 on a usage error.

set -u

LAYERS='core 0
io 1
deploy 2
emit 3
cli 4
tui 4'

# Includes allowed against the order, "FILE HEADER" per line (paths as
# written: FILE from the tree's root, HEADER as in the #include).
EXCEPTIONS='
'

check_tree() {
	root=$1
	if [ ! -d "$root/src" ]; then
		echo "layers: no src/ under $root" >&2
		return 2
	fi
	files=$(cd "$root" && ls src/*/*.c src/*/*.h 2>/dev/null)
	if [ -z "$files" ]; then
		echo "layers: no sources under $root/src" >&2
		return 2
	fi
	# One awk over every file: the layer table and the exceptions come in
	# as variables, each include is one check.
	(cd "$root" && awk -v layers="$LAYERS" -v exceptions="$EXCEPTIONS" '
	BEGIN {
		n = split(layers, l, "\n")
		for (i = 1; i <= n; i++) {
			split(l[i], f, " ")
			rank[f[1]] = f[2]
		}
		n = split(exceptions, l, "\n")
		for (i = 1; i <= n; i++)
			if (l[i] !~ /^#/ && l[i] ~ /[^ ]/) {
				split(l[i], f, " ")
				allow[f[1] " " f[2]] = 1
			}
		pass = fail = 0
	}
	function bad(msg) {
		printf "%s:%d: %s\n", FILENAME, FNR, msg
		fail++
	}
	/^[ \t]*#[ \t]*include[ \t]*"/ {
		hdr = $0
		sub(/^[^"]*"/, "", hdr)
		sub(/".*$/, "", hdr)
		split(FILENAME, p, "/")
		from = p[2]
		to = hdr ~ /\// ? substr(hdr, 1, index(hdr, "/") - 1) : from
		base = hdr
		sub(/^.*\//, "", base)
		if (!(from in rank)) {
			bad("folder src/" from " has no layer (add it to tests/layers.sh)")
			next
		}
		if (!(to in rank)) {
			bad("includes " hdr ": folder " to " has no layer")
			next
		}
		if ((FILENAME " " hdr) in allow) {
			pass++
			next
		}
		if (base ~ /_int\.h$/ && to != from) {
			bad("includes " hdr ": a private header of src/" to)
			next
		}
		if (to != from && rank[to] >= rank[from]) {
			bad("includes " hdr ": " from " (layer " rank[from] \
			    ") may not include " to " (layer " rank[to] ")")
			next
		}
		pass++
	}
	END {
		printf "layers: %d passed, %d failed\n", pass, fail
		exit (fail > 0)
	}' $files)
}

# A scratch tree with one include of each kind; the good one must pass and
# each bad one must fail on its own.
self_test() {
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/layers.XXXXXX") || return 2
	ok=0
	for case in good up_io_deploy up_deploy_emit private cli_tui \
	    tui_cli unknown; do
		t=$tmp/$case
		mkdir -p "$t/src/core" "$t/src/io" "$t/src/deploy" "$t/src/emit" \
		    "$t/src/cli" "$t/src/tui"
		printf '#include "core/util.h"\n#include "util.h"\n' \
		    >"$t/src/core/a.c"
		printf '#include "deploy/deploy_int.h"\n#include "io/x.h"\n' \
		    >"$t/src/deploy/a.c"
		printf '#include "deploy/deploy.h"\n#include "core/util.h"\n' \
		    >"$t/src/emit/a.c"
		printf '#include <stdio.h>\n#include "emit/emit.h"\n' \
		    >"$t/src/tui/a.c"
		case $case in
		up_io_deploy)
			printf '#include "deploy/deploy.h"\n' >"$t/src/io/b.c" ;;
		up_deploy_emit)
			printf '  #  include "emit/emit.h"\n' >"$t/src/deploy/b.h" ;;
		private)
			printf '#include "deploy/deploy_int.h"\n' \
			    >"$t/src/emit/b.c" ;;
		cli_tui)
			printf '#include "tui/vm.h"\n' >"$t/src/cli/b.c" ;;
		tui_cli)
			printf '#include "cli/cli.h"\n' >"$t/src/tui/wizard.c" ;;
		unknown)
			mkdir -p "$t/src/extra"
			printf '#include "core/util.h"\n' >"$t/src/extra/b.c" ;;
		esac
		sh "$0" --check "$t" >"$t.out" 2>&1
		rc=$?
		if [ "$case" = good ]; then
			want=0
		else
			want=1
		fi
		if [ $rc -ne $want ]; then
			echo "layers: self-test '$case': exit $rc, expected $want:"
			sed 's/^/  /' "$t.out"
			ok=1
		elif [ $want -eq 1 ] && ! grep -q '^src/.*: ' "$t.out"; then
			echo "layers: self-test '$case' failed without naming the include"
			ok=1
		fi
	done
	rm -rf "$tmp"
	return $ok
}

case ${1:-} in
--check)
	[ $# -eq 2 ] || { echo "usage: sh tests/layers.sh [--check] ROOT" >&2; exit 2; }
	check_tree "$2"
	exit $?
	;;
-*)
	echo "usage: sh tests/layers.sh [--check] [ROOT]" >&2
	exit 2
	;;
esac

root=${1:-$(dirname "$0")/..}
if ! self_test; then
	echo "layers: the self-test failed: the check would not catch a bad include"
	exit 1
fi
check_tree "$root"
