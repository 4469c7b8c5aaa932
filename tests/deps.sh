#!/bin/sh
# Install the packages pdwiz needs to build and test, where missing.
# Debian package names; runs apt-get as root, else prints the command.
need=""
pkg-config --exists ncursesw 2>/dev/null || need="$need libncurses-dev"
pkg-config --exists yaml-0.1 2>/dev/null || need="$need libyaml-dev"
pkg-config --exists cmocka 2>/dev/null || need="$need libcmocka-dev"
command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
command -v cc >/dev/null 2>&1 || need="$need gcc"
command -v make >/dev/null 2>&1 || need="$need make"
command -v tmux >/dev/null 2>&1 || need="$need tmux"
command -v valgrind >/dev/null 2>&1 || need="$need valgrind"
command -v shellcheck >/dev/null 2>&1 || need="$need shellcheck"
command -v python3 >/dev/null 2>&1 || need="$need python3"
python3 -c 'import yaml' >/dev/null 2>&1 || need="$need python3-yaml"
command -v man >/dev/null 2>&1 || need="$need man-db"
command -v bash >/dev/null 2>&1 || need="$need bash"
# make fuzz, fuzz-smoke: clang with the libFuzzer runtime
command -v clang >/dev/null 2>&1 || need="$need clang libclang-rt-dev"
command -v clang >/dev/null 2>&1 &&
	[ ! -e "$(clang --print-runtime-dir)/libclang_rt.fuzzer-$(uname -m).a" ] &&
	need="$need libclang-rt-$(clang -dumpversion | cut -d. -f1)-dev"
locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$' || need="$need locales"
[ -z "$need" ] && exit 0
echo "pdwiz: missing packages:$need"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq && apt-get install -y -qq $need >/dev/null || {
		echo "pdwiz: apt-get install failed; run: apt-get install$need" >&2
		exit 1
	}
else
	echo "pdwiz: run as root: apt-get update && apt-get install$need" >&2
	exit 1
fi
