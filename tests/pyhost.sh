# pyhost.sh - sourced by a suite: pyhost_start DIR ROOT starts one python3
# for the suite (ROOT/tests/pyhost.py, talking through fifos in DIR); from then on the shell function python3
# runs `python3 -c CODE ARGS` and `python3 - ARGS` (the script on stdin)
# in it, with the same arguments, standard input (for -c, only when the
# code reads sys.stdin), output, exit status and working directory; any
# other use of python3 is the real one. One start instead of hundreds
# (~35 ms of CPU each). PDWIZ_PYHOST=0: the real python3 every time.
# The host python3 is /usr/bin/python3 where there is one.

pyhost_start() {
	[ "${PDWIZ_PYHOST:-1}" = 0 ] && return 0
	_ph_dir=$1 _ph_root=$2
	_ph_py=/usr/bin/python3
	[ -x "$_ph_py" ] || _ph_py=$(command -v python3) || return 0
	mkdir -p "$_ph_dir" && mkfifo "$_ph_dir/req" "$_ph_dir/rep" || return 0
	"$_ph_py" "$_ph_root/tests/pyhost.py" "$_ph_dir" </dev/null &
	# The same order as pyhost.py opens them, so neither waits forever.
	exec 8>"$_ph_dir/req" 9<"$_ph_dir/rep"
	_ph_n=0
	_ph_on=1
}

python3() {
	if [ "${_ph_on:-0}" != 1 ]; then
		command python3 "$@"
		return
	fi
	_ph_n=$((_ph_n + 1))
	_ph_b=$_ph_dir/$_ph_n
	case ${1:-} in
	-c)
		[ $# -ge 2 ] || { command python3 "$@"; return; }
		printf '%s' "$2" >"$_ph_b.src"
		_ph_m=-c
		# Standard input only for code that reads it: a loop's input
		# stays with the loop.
		case $2 in
		*stdin*) if [ -t 0 ]; then : >"$_ph_b.in"; else cat >"$_ph_b.in"; fi ;;
		*) : >"$_ph_b.in" ;;
		esac
		shift 2 ;;
	-)
		cat >"$_ph_b.src"
		: >"$_ph_b.in"
		_ph_m=-
		shift ;;
	*)
		command python3 "$@"
		return ;;
	esac
	if [ $# -gt 0 ]; then
		printf '%s\0' "$@" >"$_ph_b.args"
	else
		: >"$_ph_b.args"
	fi
	printf '%s %s %s\n' "$_ph_b" "$_ph_m" "$PWD" >&8
	read -r _ph_rc <&9 || _ph_rc=125
	[ -s "$_ph_b.out" ] && cat "$_ph_b.out"
	[ -s "$_ph_b.err" ] && cat "$_ph_b.err" >&2
	return "$_ph_rc"
}
