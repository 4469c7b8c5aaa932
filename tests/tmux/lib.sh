# lib.sh - drive the real ./pdwiz inside tmux: start, send keys, poll the
# screen until text appears (never fixed sleeps). Sourced by run.sh.

TMUX_SOCK="pdwiz-test-$$"
POLL_TIMEOUT=${POLL_TIMEOUT:-10}

t() { tmux -L "$TMUX_SOCK" -f /dev/null "$@"; }

# tmux_up: start this suite's tmux server and keep it up with no session,
# so that start's kill-session never leaves the next new-session talking
# to a server that is on its way out ("no server running").
tmux_up() { t start-server \; set-option -s exit-empty off; }

# start [ENV=VAL ...] -- ARGS...   (runs ./pdwiz ARGS in a 100x30 pane;
# no ARGS: --pages)
start() {
	_env="TERM=screen LANG=C.UTF-8 LC_ALL=C.UTF-8 ESCDELAY=25 PDWIZ_DATADIR=$ROOT PDWIZ_VM_VERIFY=1"
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do
		_env="$_env $1"
		shift
	done
	[ "$1" = "--" ] && shift
	# A new deployment opens on the pages (the quick start has its own
	# scenarios, started with start_quick).
	[ $# -eq 0 ] && set -- --pages
	t kill-session -t w 2>/dev/null
	t new-session -d -s w -x 100 -y 30 \
	    "cd $WORK && env $_env $PDWIZ $* ; echo \"[exit \$?]\"; sleep 600"
	# "0 errors", "1 error" in the header; a dialog or a text pane over
	# it (q/Esc close, q close), which on a slow run may be up before the
	# header was ever seen; or pdwiz refused to start.
	wait_re ' error|q/Esc close| q close|\[exit [0-9]+\]'
	KS=0
}

# The screen is polled with a growing pause: at once, then 10 ms, doubling
# up to 160 ms, so that a quick redraw is seen in a few milliseconds and a
# slow one (valgrind) costs a handful of captures, not one every 50 ms.
# The deadline is counted in the pauses themselves (no date process per
# poll): POLL_TIMEOUT seconds of waiting, at least.
_poll_start() { _nap=0; _waited=0; }
# _poll_nap: 1 when POLL_TIMEOUT has run out, else pause and 0.
_poll_nap() {
	[ "$_waited" -ge $((POLL_TIMEOUT * 1000)) ] && return 1
	case $_nap in
	0) _nap=10 ;;
	160) ;;
	*) _nap=$((_nap * 2)) ;;
	esac
	_waited=$((_waited + _nap))
	sleep "$(printf '0.%03d' "$_nap")"
}

# Every key sent is counted in KS (a typed text counts one per character),
# so a scenario can print what it cost the user; start resets it.
KS=0
keys() { KS=$((KS + $#)); t send-keys -t w "$@"; }
text() { KS=$((KS + ${#1})); t send-keys -t w -l -- "$1"; }
screen() { t capture-pane -p -t w; }

# on_screen TEXT: TEXT (a fixed string, no newline) is on the screen. The
# capture is matched by the shell (what grep -F would find in one of its
# lines): a poll is one tmux client, no pipeline and no grep.
on_screen() {
	case $(screen) in
	*"$1"*) return 0 ;;
	esac
	return 1
}

# wait_for TEXT: poll the screen until TEXT (fixed string) appears.
wait_for() {
	_poll_start
	until on_screen "$1"; do
		if ! _poll_nap; then
			echo "  timeout waiting for: $1" >&2
			echo "  ---- screen ----" >&2
			screen | sed 's/^/  | /' >&2
			return 1
		fi
	done
}

# wait_re REGEX: poll the screen until a line matches the extended regex.
wait_re() {
	_poll_start
	until screen | grep -qE -- "$1"; do
		if ! _poll_nap; then
			echo "  timeout waiting for: $1" >&2
			screen | sed 's/^/  | /' >&2
			return 1
		fi
	done
}

# wait_gone TEXT: poll until TEXT is no longer on screen.
wait_gone() {
	_poll_start
	while on_screen "$1"; do
		if ! _poll_nap; then
			echo "  timeout waiting for text to go: $1" >&2
			screen | sed 's/^/  | /' >&2
			return 1
		fi
	done
}

# goto_page TITLE: Tab until the page title line shows TITLE.
goto_page() {
	_i=0
	while ! screen | sed -n 2p | grep -qF -- "$1"; do
		_before=$(screen | sed -n 2p)
		keys Tab
		_poll_start
		while [ "$(screen | sed -n 2p)" = "$_before" ]; do
			_poll_nap || break
		done
		_i=$((_i + 1))
		if [ $_i -gt 20 ]; then
			echo "  no page $1" >&2
			return 1
		fi
	done
}

# focus LABEL: move down (from the top) until the focused row has LABEL;
# a row already focused stays.
focus() {
	# Already there: no g, whose redraw the check below could run ahead
	# of (the stale screen still showing the row, f then went to the
	# first row's field).
	screen | grep -E '^>' | grep -qF -- "$1" && return 0
	keys g
	_i=0
	while ! screen | grep -E '^>' | grep -qF -- "$1"; do
		_before=$(screen | grep -E '^>')
		keys Down
		_poll_start
		while [ "$(screen | grep -E '^>')" = "$_before" ]; do
			_poll_nap || break
		done
		_i=$((_i + 1))
		if [ $_i -gt 30 ]; then
			echo "  no field $1" >&2
			screen | sed 's/^/  | /' >&2
			return 1
		fi
	done
}

# focused: the focused row's text.
focused() { screen | grep -E '^>'; }

# wait_focused TEXT: poll until the focused row has TEXT (a key that moves
# the focus may not have been drawn yet).
wait_focused() {
	_poll_start
	until focused | grep -qF -- "$1"; do
		if ! _poll_nap; then
			echo "  timeout waiting for focus on: $1" >&2
			screen | sed 's/^/  | /' >&2
			return 1
		fi
	done
}
