#!/bin/sh
# deps.sh [build|all] - the Debian packages pdwiz needs, installed where
# missing. build: what make needs for ./pdwiz (make run); all (default):
# also what the test suites need (make test, make check). Says what it
# checks and what it installs; as root it runs apt-get, otherwise it prints
# the apt-get command and fails. make NO_DEPS=1 ... skips this step.
what=${1:-all}
case $what in
build|all) ;;
*) echo "usage: deps.sh [build|all]" >&2; exit 2 ;;
esac
need=""
add() { need="$need $*"; }
command -v pkg-config >/dev/null 2>&1 || add pkg-config
command -v cc >/dev/null 2>&1 || add gcc
command -v make >/dev/null 2>&1 || add make
pkg-config --exists ncursesw 2>/dev/null || add libncurses-dev
pkg-config --exists yaml-0.1 2>/dev/null || add libyaml-dev
if [ "$what" = all ]; then
	pkg-config --exists cmocka 2>/dev/null || add libcmocka-dev
	command -v tmux >/dev/null 2>&1 || add tmux
	command -v valgrind >/dev/null 2>&1 || add valgrind
	command -v shellcheck >/dev/null 2>&1 || add shellcheck
	command -v python3 >/dev/null 2>&1 || add python3
	# The suites use /usr/bin/python3 where it exists (tests/suite.sh).
	py=python3; [ -x /usr/bin/python3 ] && py=/usr/bin/python3
	$py -c 'import yaml' >/dev/null 2>&1 || add python3-yaml
	$py -c "import jsonschema" >/dev/null 2>&1 || add python3-jsonschema
	command -v man >/dev/null 2>&1 || add man-db
	command -v bash >/dev/null 2>&1 || add bash
	command -v script >/dev/null 2>&1 || add bsdutils
	# make fuzz, fuzz-smoke and the ASan+UBSan build (the same one): clang
	# with the libFuzzer runtime
	if ! command -v clang >/dev/null 2>&1; then
		add clang libclang-rt-dev
	elif [ ! -e "$(clang --print-runtime-dir)/libclang_rt.fuzzer-$(uname -m).a" ]; then
		add "libclang-rt-$(clang -dumpversion | cut -d. -f1)-dev"
	fi
	locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$' || add locales
	# tests/pkg: the shells the completions are for; tests/precommit:
	# pre-commit and git; tests/deb: the Debian package tools.
	[ -f /usr/share/bash-completion/bash_completion ] || add bash-completion
	command -v zsh >/dev/null 2>&1 || add zsh
	command -v fish >/dev/null 2>&1 || add fish
	command -v git >/dev/null 2>&1 || add git
	command -v pre-commit >/dev/null 2>&1 || add pre-commit
	command -v dh >/dev/null 2>&1 || add debhelper
	command -v dpkg-buildpackage >/dev/null 2>&1 || add dpkg-dev
	command -v fakeroot >/dev/null 2>&1 || add fakeroot
fi
if [ -z "$need" ]; then
	echo "deps: the packages for $what are installed (NO_DEPS=1 skips this check)"
	exit 0
fi
need=${need# }
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "deps: installing: $need"
	echo "deps: apt-get update && apt-get install -y $need"
	export DEBIAN_FRONTEND=noninteractive
	# shellcheck disable=SC2086
	if ! { apt-get update -qq && apt-get install -y -qq $need >/dev/null; }
	then
		echo "deps: apt-get install failed; run: apt-get install -y $need" >&2
		exit 1
	fi
	echo "deps: installed: $need"
else
	echo "deps: missing packages: $need" >&2
	echo "deps: as root, run: apt-get update && apt-get install -y $need" >&2
	echo "deps: or, to go on without them, add NO_DEPS=1 to the make command" >&2
	exit 1
fi
