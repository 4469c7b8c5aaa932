#!/bin/sh
# run.sh - end-to-end tests of the wizard: the real ./pdwiz in tmux, keys
# sent with send-keys, the screen polled with capture-pane until the
# expected text appears (no fixed sleeps). Prints "N passed, M failed".
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PDWIZ=${PDWIZ:-$ROOT/pdwiz}
. "$ROOT/tests/tmux/lib.sh"

if ! command -v tmux >/dev/null 2>&1; then
	echo "tmux not found; install it (make deps)" >&2
	exit 1
fi
if [ ! -x "$PDWIZ" ]; then
	echo "no program $PDWIZ to test" >&2
	exit 1
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/pdwiz-tmux.XXXXXX") || exit 1
trap 't kill-server 2>/dev/null; rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$TMUX_SOCK"
    umount "$WORK/mnt" 2>/dev/null; rm -rf "$WORK"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
tmux_up || exit 1

pass=0
fail=0
skip=0
run() {
	_name=$1
	shift
	# ONLY=TEXT runs the scenarios whose name contains TEXT;
	# SCENARIOS="fn ..." only those whose function is listed.
	case "$_name" in
	*"${ONLY:-}"*) ;;
	*) return 0 ;;
	esac
	if [ -n "${SCENARIOS:-}" ]; then
		case " $SCENARIOS " in
		*" $1 "*) ;;
		*) return 0 ;;
		esac
	fi
	"$@"
	case $? in
	0)	pass=$((pass + 1)); echo "PASS $_name" ;;
	2)	skip=$((skip + 1)); echo "SKIP $_name" ;;
	*)	fail=$((fail + 1)); echo "FAIL $_name" ;;
	esac
	t kill-session -t w 2>/dev/null
}

set_model() {
	goto_page "Model & hardware" && focus "model path" && keys Enter &&
	    wait_for "(empty = default)" && keys C-u && text "$1" &&
	    keys Enter && wait_for "$2"
}

# ---- scenarios ----

walk_pages() {
	start -- || return 1
	wait_for "1/11  Model & hardware" || return 1
	for p in "Topology" "Parallelism (prefill)" \
	    "Parallelism (decode)" "KV transfer" "KV cache (prefill)" \
	    "KV cache (decode)" "Advanced (prefill)" "Advanced (decode)" \
	    "Router" "11/11  Review" "1/11  Model & hardware"; do
		keys Tab
		wait_for "$p" || return 1
	done
	# Shift-Tab and PgUp go back.
	keys BTab && wait_for "Review" && keys PPage &&
	    wait_for "Router" && keys NPage && wait_for "Review"
}

hicache_decode_fix() {
	start -- || return 1
	goto_page "KV cache (decode)" && focus "hierarchical cache" &&
	    focused | grep -q "on unavailable" &&
	    wait_for "enable-hierarchical-cache and disable-radix-cache are" &&
	    wait_for "forced: KV cache is forced as chunk cache" &&
	    keys Space && wait_for "refused: on unavailable on decode" &&
	    keys f && wait_for "Apply all of it?" && keys y && wait_for "applied:" &&
	    keys Space && wait_for "hierarchical cache (HiCache)       [x] on"
}

dsa_split_nixl() {
	start -- || return 1
	set_model "deepseek-ai/DeepSeek-V3.2" "DeepseekV32ForCausalLM" &&
	    goto_page "Advanced (prefill)" && focus "DSA cache-layer split" &&
	    keys f && wait_for "Apply all of it?" && keys y && wait_for "applied: enable interleave prefill CP" &&
	    keys Space && wait_for "DSA cache-layer split              [x] on" &&
	    goto_page "KV transfer" && focus "transfer backend" &&
	    focused | grep -q "unavailable" &&
	    keys Enter && wait_for "Enter choose" && keys Down &&
	    wait_for "> ( ) nixl" &&
	    wait_for "nixl unavailable on prefill: --enable-dsa-cache-layer-split currently" &&
	    wait_for "only supports the mooncake" &&
	    keys Enter && wait_for "refused: nixl unavailable" &&
	    keys Escape && wait_for "<mooncake>"
}

staging_mori() {
	start -- || return 1
	goto_page "KV transfer" && focus "transfer backend" && keys Enter &&
	    wait_for "Enter choose" && keys Down Down Down Down &&
	    wait_for "> ( ) mori" && keys Enter && wait_for "<mori>" &&
	    focus "staging buffer" && focused | grep -q "on unavailable" &&
	    wait_for "on unavailable on prefill: SGLANG_DISAGG_STAGING_BUFFER requires" &&
	    wait_for "got 'mori'" &&
	    keys f && wait_for "Apply all of it?" && keys y && wait_for "applied: use the mooncake transfer backend" &&
	    keys Space && wait_for "[x] on" && wait_for "<mooncake>"
}

search_jump() {
	start -- || return 1
	keys / && wait_for "type to search" && text "retraction" &&
	    wait_for "retraction backup" && keys Enter &&
	    wait_for "found:" && wait_focused "retraction backup" &&
	    screen | sed -n 2p | grep -q "KV cache" &&
	    keys / && wait_for "type to search" && text "--tp-size" &&
	    wait_for "tensor parallel" && keys Enter &&
	    wait_focused "tensor parallel"
}

undo_redo() {
	start -- || return 1
	goto_page "Parallelism (prefill)" && focus "tensor parallel" &&
	    keys Enter && wait_for "(empty = default)" && keys C-u &&
	    text "4" && keys Enter && wait_for "tensor parallel (TP)               4" &&
	    wait_for "[modified]" &&
	    keys u && wait_for "undone" &&
	    wait_for "tensor parallel (TP)               1 (default)" &&
	    wait_gone "[modified]" &&
	    keys C-r && wait_for "redone" &&
	    wait_for "tensor parallel (TP)               4"
}

save_check() {
	start -- || return 1
	goto_page "KV cache (decode)" && focus "hierarchical cache" &&
	    keys f && wait_for "Apply all of it?" && keys y && wait_for "applied:" && keys Space &&
	    wait_for "[x] on" &&
	    goto_page "Parallelism (prefill)" && focus "tensor parallel" &&
	    keys Enter && wait_for "(empty = default)" && keys C-u &&
	    text "3" && keys Enter && wait_for "TP)               3" &&
	    keys s && wait_for "save deployment to:" && keys C-u &&
	    text "$WORK/dep.yaml" && keys Enter && wait_for "saved" &&
	    wait_gone "[modified]" || return 1
	goto_page Review || return 1
	_hdr=$(screen | sed -n 1p | grep -o '[0-9]* errors\? [0-9]* warnings\?')
	# The summary line (a note may follow it when a server has errors).
	_chk=$(cd "$WORK" && PDWIZ_DATADIR=$ROOT $PDWIZ check dep.yaml |
	    grep -o '^[0-9]* errors\?, [0-9]* warnings\?' | tr -d ,)
	echo "  review: $_hdr; pdwiz check: $_chk"
	[ -n "$_hdr" ] && [ "$_hdr" = "$_chk" ] || return 1
	# Every error on the review page is in pdwiz check's output.
	screen | grep -E '^[> ] (prefill|decode|router) +ERROR' |
	    sed 's/^.\{27\}//' | cut -c1-40 |
	while read -r m; do
		(cd "$WORK" && PDWIZ_DATADIR=$ROOT $PDWIZ check dep.yaml) |
		    grep -qF -- "$m" || { echo "  missing in check: $m"; exit 1; }
	done || return 1
	# Saving again over the file it saved just saves; another file that
	# exists is asked about first.
	cp "$WORK/dep.yaml" "$WORK/dep2.yaml"
	keys s && wait_for "save deployment to:" && keys Enter &&
	    wait_for "saved" && ! screen | grep -q "Overwrite it" &&
	    keys s && wait_for "save deployment to:" && keys C-u &&
	    text "$WORK/dep2.yaml" && keys Enter &&
	    wait_for "exists. Overwrite it? (y/n)" && keys n &&
	    wait_for "not saved"
}

export_same_bytes() {
	start -- || return 1
	for n in 1 2 4; do
		case $n in 1) f=shell ;; 2) f=runbook ;; 4) f=k8s ;; esac
		keys e && wait_for "export:" && keys $n &&
		    wait_for "to:" && keys C-u && text "$WORK/out.$f" &&
		    keys Enter && wait_for "exported $f" || return 1
	done
	keys s && wait_for "save deployment to:" && keys C-u &&
	    text "$WORK/exp.yaml" && keys Enter && wait_for "saved" || return 1
	for f in shell runbook k8s; do
		(cd "$WORK" && PDWIZ_DATADIR=$ROOT $PDWIZ emit --format $f \
		    exp.yaml > "emit.$f") || return 1
		cmp -s "$WORK/out.$f" "$WORK/emit.$f" ||
		    { echo "  $f differs from pdwiz emit"; return 1; }
	done
	# Per-role --config YAML: several files, into a directory.
	mkdir -p "$WORK/cfg" "$WORK/cfg-emit" || return 1
	keys e && wait_for "export:" && keys 3 && wait_for "to:" &&
	    keys C-u && text "$WORK/cfg/" && keys Enter &&
	    wait_for "exported config" || return 1
	(cd "$WORK" && PDWIZ_DATADIR=$ROOT $PDWIZ emit --format config \
	    -o cfg-emit exp.yaml >/dev/null) || return 1
	diff -r "$WORK/cfg" "$WORK/cfg-emit" >/dev/null ||
	    { echo "  config export differs from pdwiz emit"; return 1; }
	# ... into a directory not there yet, named without a slash: made,
	# not the name dropped for the current directory.
	keys e && wait_for "export:" && keys 3 && wait_for "to:" &&
	    keys C-u && text "$WORK/newcfg" && keys Enter &&
	    wait_for "files in $WORK/newcfg" || return 1
	diff -r "$WORK/newcfg" "$WORK/cfg-emit" >/dev/null ||
	    { echo "  config export into a new directory differs"; return 1; }
	# An existing file is not overwritten without asking.
	keys e && wait_for "export:" && keys 1 && wait_for "to:" &&
	    keys C-u && text "$WORK/out.shell" && keys Enter &&
	    wait_for "Overwrite? (y/n)" && keys n && wait_for "cancelled"
}

resize() {
	start -- || return 1
	goto_page "Parallelism (prefill)" && focus "pipeline parallel" &&
	    t resize-window -t w -x 60 -y 15 &&
	    wait_for "Parallelism (prefill)" &&
	    wait_focused "pipeline parallel" &&
	    t resize-window -t w -x 40 -y 10 && wait_for "pdwiz needs at least" &&
	    t resize-window -t w -x 100 -y 30 &&
	    wait_for "Parallelism (prefill)" && wait_gone "needs at least" &&
	    wait_focused "pipeline parallel"
}

# The footer and the key help come from the key table: redo is in the
# footer at 100 and at 80 columns, and ? lists every key.
footer_and_keys() {
	start -- || return 1
	wait_for "^R redo" && wait_for "? help f fix" &&
	    t resize-window -t w -x 80 -y 24 && wait_for "Tab / search ? f fix" &&
	    wait_for "^R redo" && wait_for "e export q quit" &&
	    t resize-window -t w -x 100 -y 30 && wait_for "? help f fix" &&
	    goto_page "Topology" && focus "PD disaggregation" &&
	    keys F1 && wait_for "Moving around:" && wait_for "Ctrl-R" &&
	    keys End && wait_for "Ctrl-W" && keys PPage &&
	    wait_for "Esc Esc" && keys q && wait_for "^R redo"
}

quit_dirty_asks() {
	start -- || return 1
	goto_page "Parallelism (decode)" && focus "DP attention" &&
	    keys Space && wait_for "[modified]" &&
	    keys q && wait_for "Unsaved changes" &&
	    wait_for "decode: enable_dp_attention: set to true" &&
	    keys c && wait_for "quit cancelled" &&
	    keys Escape Escape && wait_for "Unsaved changes" &&
	    keys n && wait_for "[exit 0]"
}

# Conventions of menuconfig, nconf, k9s, htop: type-ahead in a list popup
# (with Home/End and a scroll hint when it is clipped), F10 quits through
# the unsaved-changes dialog, r jumps to the review and back, digits to a
# page, the export format by its first letter, Esc then another key is
# that key (no quit, no Alt-key), Esc Esc quits.
conventions() {
	start -- || return 1
	t resize-window -t w -x 80 -y 24 && wait_for "q quit" || return 1
	focus "accelerator (GPU model)" && keys Enter && wait_for "Enter choose" &&
	    wait_re '[0-9]+ more below' && text "mi" &&
	    wait_re '^ +> \( \) MI250X' && wait_for "type-ahead: mi" &&
	    wait_re '[0-9]+ above, [0-9]+ below' &&
	    keys End && wait_re '> \( \) Ascend-910C' && wait_re '[0-9]+ more above' &&
	    keys Home && wait_re '> \(\*\) unknown' &&
	    text "zz" && wait_for "no value begins with 'zz'" &&
	    keys Escape && wait_gone "type-ahead:" && wait_for "Enter choose" &&
	    text "b2" && wait_re '> \( \) B200-180GB' && keys Enter &&
	    wait_re '^> accelerator \(GPU model\) +<B200-180GB>' &&
	    keys r && wait_for "11/11  Review" && wait_for "r again goes back to Model" &&
	    keys r && wait_for "1/11  Model & hardware" &&
	    keys 4 && wait_for "4/11  Parallelism (decode)" &&
	    keys 1 && wait_for "1/11  Model & hardware" &&
	    keys e && wait_for "export:" && keys r &&
	    wait_for "export runbook to: [RUNBOOK.md]" && keys Escape &&
	    wait_for "export cancelled" &&
	    keys g && wait_focused "model path" &&
	    keys Escape j && wait_focused "model architecture" &&
	    ! screen | grep -q "Unsaved changes" &&
	    keys F10 && wait_for "Unsaved changes" && keys c &&
	    wait_for "quit cancelled" &&
	    keys Escape && wait_for "press Esc again to quit" &&
	    keys Escape && wait_for "Unsaved changes" && keys n &&
	    wait_for "[exit 0]"
}

# Text is never cut without saying so: a row that does not fit ends with
# "…" ("~" in the C locale), the focused one is shown whole on the lines
# under it (80x24, the decode's KV cache page); the preview expands tabs
# to 4 and marks continued lines.
cut_marked() {
	start -- "$ROOT/share/examples/llama-1p1d-mooncake.yaml" || return 1
	t resize-window -t w -x 80 -y 24 && wait_for "q quit" || return 1
	keys 7 && wait_for "7/11  KV cache (decode)" &&
	    wait_re '^  radix cache +\[ \] off \(forced: KV cache is forced as chu…$' &&
	    focus "radix cache" &&
	    wait_re '^> radix cache +\[ \] off \(forced: KV cache is forced as$' &&
	    wait_re '^ +chunk cache for decode server\) *$' &&
	    keys Down && wait_focused "decode radix cache" &&
	    wait_re '^  radix cache +.*chu…$' || return 1
	# The preview: tabs as 4 columns, a line longer than the screen
	# continued under a mark.
	keys p && wait_for "Preview:" &&
	    wait_re '^     exec python3 -m sglang\.launch_server \\$' &&
	    wait_re '^         --model-path meta-llama/Llama-3\.1-8B-Instruct \\$' &&
	    wait_re '^ ↪ ost does not name$' && keys q && wait_gone "Preview:" ||
	    return 1
	start LANG=C LC_ALL=C -- "$ROOT/share/examples/llama-1p1d-mooncake.yaml" || return 1
	t resize-window -t w -x 80 -y 24 && wait_for "q quit" || return 1
	keys 7 && wait_for "7/11  KV cache (decode)" &&
	    wait_re '^  radix cache +\[ \] off \(forced: KV cache is forced as chu~$'
}

# A memory error: f offers more TP on the same node first (before more
# nodes or another accelerator), verified; from the review, the status then
# offers r to go back to it. Llama-3.1-70B at TP 1 on L40S machines of 8
# GPUs, one host each (issue 25: TP 4 first, and the wizard applies it).
fit_fix_tp() {
	cat >"$WORK/fit.yaml" <<'EOF'
pdwiz: 1
name: fit
gpus_per_host: 8
model:
  path: meta-llama/Llama-3.1-70B-Instruct
  facts: {gpu: L40S}
shared:
  options: {disaggregation_transfer_backend: mooncake, disaggregation_ib_device: mlx5_0}
roles:
  prefill: {instances: 1, hosts: [10.0.0.1]}
  decode: {instances: 1, hosts: [10.0.0.2]}
  router: {}
EOF
	start -- fit.yaml || return 1
	t resize-window -t w -x 80 -y 24 && wait_for "q quit" || return 1
	wait_for " 2 errors" && keys r && wait_for "11/11  Review" &&
	    wait_re '^> prefill +ERROR +→ The weights need about 131\.5 GiB' &&
	    keys f && wait_for "3/11  Parallelism (prefill)" &&
	    wait_for "fix: more tensor parallelism on the same node: TP 4 (of its 8 GPUs) on both" &&
	    wait_for "shared: tp_size: set to 4" && keys y &&
	    wait_for "applied: more tensor parallelism on the same node" &&
	    wait_for "[r: back to the review]" && wait_for " 0 errors" &&
	    wait_re '^> tensor parallel \(TP\) +4' &&
	    keys r && wait_for "11/11  Review" &&
	    keys u && wait_for " 2 errors"
}

# The wizard's help lists the verified fixes only, on the deployment's
# machines: on the review (whose ? listed every fix of the rule, TP 2 at
# TP 2 among them) and on the field, Llama-3.1-70B at TP 2 on L40S hosts
# of 4 GPUs is offered TP 4 and 2 nodes of 4, never 8 GPUs on one node,
# nodes of 8, or the TP it has.
fit_help_verified() {
	cp "$ROOT/tests/fit/l40s-70b-tp2-hosts4.yaml" "$WORK/fit4.yaml"
	start -- fit4.yaml || return 1
	wait_for " 2 errors" && keys r && wait_for "11/11  Review" &&
	    wait_re '^> prefill +ERROR +→ The weights need about 65\.8 GiB' &&
	    keys '?' && wait_for "fix: split the weights over 8 GPUs (2 nodes of 4)" &&
	    wait_for "fix: split the weights over 4 GPUs (--tp-size 4)" &&
	    ! screen | grep -q "over 2 GPUs\|one node\|nodes of 8" &&
	    keys q && wait_for "11/11  Review" && keys 3 &&
	    wait_for "3/11  Parallelism (prefill)" && focus "tensor parallel" &&
	    keys '?' && wait_for "fix: split the weights over 8 GPUs (2 nodes of 4)" &&
	    ! screen | grep -q "over 2 GPUs\|one node\|nodes of 8"
}

# A shared field whose roles differ (an imported prefill on nixl, decode
# on mooncake): f lists the alternatives to choose one for both, and
# choosing a value with Enter sets it for both (it used to do nothing: the
# roles' own values hid it).
shared_split() {
	cat >"$WORK/mixed.sh" <<'EOF'
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-transfer-backend nixl --host 10.0.0.1 --port 30000
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-transfer-backend mooncake --disaggregation-ib-device mlx5_0 --host 10.0.0.2 --port 30000
python -m sglang_router.launch_router --pd-disaggregation --prefill http://10.0.0.1:30000 --decode http://10.0.0.2:30000 --host 10.0.0.1 --port 8000
EOF
	start -- mixed.sh || return 1
	t resize-window -t w -x 80 -y 24 && wait_for "q quit" || return 1
	keys 5 && wait_for "5/11  KV transfer" &&
	    wait_re '^> transfer backend +<nixl> \(prefill; decode: mooncake; Enter' &&
	    keys f && wait_for "The roles differ (prefill nixl, decode mooncake): one value for both." &&
	    wait_for "1  use mooncake on both" && wait_for "2  use nixl on both" &&
	    keys 2 && wait_for "fix: use nixl on both. It changes:" &&
	    wait_for "decode: disaggregation_transfer_backend: mooncake -> nixl" &&
	    keys y && wait_for "applied: use nixl on both" && wait_for " 0 errors" &&
	    wait_re '^> transfer backend +<nixl> ' &&
	    keys u && wait_for " 1 error" && wait_for "decode: mooncake; Enter" &&
	    keys Enter && wait_for "Enter choose" && keys Home Enter &&
	    wait_for "transfer backend: mooncake on both roles" &&
	    wait_re '^> transfer backend +<mooncake>' && wait_for " 0 errors"
}

# Edit prompts read "label: [value]" with the value in effect pre-filled
# (a derived one too; given back unchanged it stays derived), and what an
# empty answer means on the line above, never run into the value (it was
# "(empty = derive127.0.0.1" at 80 columns).
prompt_layout() {
	start -- || return 1
	t resize-window -t w -x 80 -y 24 && wait_for "q quit" || return 1
	goto_page "Router" && focus "router host" && keys Enter &&
	    wait_re '^router host \(advertised\): \[127\.0\.0\.1\] *$' &&
	    wait_re '^\(empty = derived 127\.0\.0\.1\)  Enter sets it, Esc cancels' &&
	    ! screen | grep -q 'derive127' &&
	    keys Enter && wait_for "router host (advertised) unchanged" &&
	    wait_re '^> router host \(advertised\) +127\.0\.0\.1 \(derived\)' &&
	    keys 1 && keys G && wait_focused "GPUs per node" && keys Enter &&
	    wait_re '^GPUs per node: \[1\] *$' && keys Escape &&
	    wait_for "cancelled"
}

# The decode's parallelism "same as prefill": on while they agree, off
# once the prefill's TP is its own; Space copies the prefill's (one
# undoable change).
decode_same_as_prefill() {
	start -- || return 1
	keys 3 && wait_for "3/11  Parallelism (prefill)" &&
	    wait_focused "tensor parallel" && ! screen | grep -q "same as prefill" &&
	    set_row 2 && wait_re '^> tensor parallel \(TP\) +2' &&
	    keys 4 && wait_for "4/11  Parallelism (decode)" &&
	    wait_re '^  same as prefill +\[ \] off' &&
	    focus "same as prefill" && keys Space &&
	    wait_for "decode parallelism set to the prefill's" &&
	    wait_re '^> same as prefill +\[x\] on' &&
	    wait_re '^  tensor parallel \(TP\) +2' &&
	    keys u && wait_re '^. tensor parallel \(TP\) +1 ' && wait_re '^. same as prefill +\[ \] off'
}

quit_clean_no_question() {
	start -- || return 1
	keys q && wait_for "[exit 0]" && ! screen | grep -q "Unsaved"
}

no_color() {
	start NO_COLOR=1 -- || return 1
	goto_page "KV transfer" && focus "staging buffer" &&
	    wait_for "✗ 1 unavailable" || return 1
	# No colour escapes at all; reverse video and bold stay.
	if t capture-pane -e -p -t w | grep -q "$(printf '\033')\[[0-9;]*3[0-7]m"; then
		echo "  colour escapes with NO_COLOR"
		return 1
	fi
	t capture-pane -e -p -t w | grep -q "$(printf '\033')\[7m"
}

sigint_restores() {
	start -- || return 1
	keys C-c && wait_for "[exit 130]" && restored
}

open_file_with_errors() {
	cat > "$WORK/bad.yaml" <<'YAML'
pdwiz: 1
name: bad
model:
  path: deepseek-ai/DeepSeek-V3
roles:
  prefill:
    instances: 1
    gpus_per_node: 1
    hosts: ["127.0.0.1"]
    port: 30000
    options:
      disaggregation_transfer_backend: mori
    env:
      SGLANG_DISAGG_STAGING_BUFFER: true
  decode:
    instances: 1
    gpus_per_node: 1
    hosts: ["127.0.0.1"]
    port: 30001
  router:
    hosts: ["127.0.0.1"]
    port: 8000
YAML
	start -- bad.yaml || return 1
	wait_for "bad.yaml" && goto_page Review &&
	    wait_for "SGLANG_DISAGG_STAGING_BUFFER requires" &&
	    focus "SGLANG_DISAGG_STAGING_BUFFER requires" && keys Enter &&
	    wait_for "KV transfer" || return 1
	# A file that does not load opens with its failures in a pane at the
	# top; the pages behind count it as an error.
	printf 'pdwiz: 1\nroles: [\n' > "$WORK/broken.yaml"
	start -- broken.yaml || return 1
	wait_for "broken.yaml could not be opened" && keys q &&
	    wait_for "broken.yaml (not loaded" && wait_for " 1 error" &&
	    goto_page Review && wait_for "load"
}

import_script() {
	cat > "$WORK/launch.sh" <<'SH'
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --tp 2 --port 30000
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --tp 2 --port 30001
python -m sglang_router.launch_router --pd-disaggregation --prefill http://127.0.0.1:30000 --decode http://127.0.0.1:30001
SH
	start -- --import launch.sh || return 1
	goto_page "Parallelism (prefill)" &&
	    wait_for "tensor parallel (TP)               2"
}

# A failed launch's logs, one file: the deployment they describe (each
# server_args as the command that states it, the router's command), with
# the page sizes that failed it.
import_log() {
	cat "$ROOT/tests/logs/cases/mine-page-size-prefill.log" \
	    "$ROOT/tests/logs/cases/mine-page-size-decode.log" \
	    "$ROOT/tests/logs/cases/mine-page-size-router.log" > "$WORK/pd.log"
	start -- --import pd.log || return 1
	wait_for "pd.yaml (from pd.log" && wait_for " 1 error" &&
	    goto_page "KV cache (decode)" && wait_for "page size                          1 !! ERROR"
}

# A prefill node's script alone: the decode and router start from the
# defaults (the status line says so) and what is saved reads back.
import_partial_saves() {
	cat > "$WORK/prefill.sh" <<'SH'
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --tp 2 --port 30000
SH
	start -- --import prefill.sh || return 1
	wait_for "Imported prefill.sh with these gaps" &&
	    wait_for "no decode command in the script: the decode starts from" &&
	    keys q && wait_for "prefill.yaml (from prefill.sh" &&
	    goto_page Review && keys G &&
	    wait_re "deployment note +no decode command in the script" &&
	    wait_re "deployment note +no router command in the script" &&
	    goto_page "Parallelism (prefill)" &&
	    wait_for "tensor parallel (TP)               2" &&
	    keys s && wait_for "save deployment to:" && keys C-u &&
	    text "$WORK/partial.yaml" && keys Enter && wait_for "saved" ||
	    return 1
	(cd "$WORK" && PDWIZ_DATADIR=$ROOT $PDWIZ check partial.yaml \
	    >/dev/null 2>&1)
	[ $? -lt 2 ] || { echo "  saved file does not read back"; return 1; }
}

# One node of a two-node instance: imported with what is there, as pdwiz
# import does; the note says which nodes the script lacks.
import_one_node_partial() {
	cat > "$WORK/node0.sh" <<'SH'
python -m sglang.launch_server --model-path m --disaggregation-mode prefill --nnodes 2 --node-rank 0 --dist-init-addr 10.0.0.1:5000 --tp 16
python -m sglang.launch_server --model-path m --disaggregation-mode decode
python -m sglang_router.launch_router --pd-disaggregation --prefill http://10.0.0.1:30000 --decode http://127.0.0.1:30000
SH
	start -- --import node0.sh || return 1
	wait_for "Imported node0.sh with these gaps" &&
	    wait_for "but the script has 1 of the 2 node commands" &&
	    keys q && wait_for "node0.yaml (from node0.sh" &&
	    goto_page "Parallelism (prefill)" &&
	    wait_for "tensor parallel (TP)               16"
}

# p shows the launch script as emitted, after each change.
preview_live() {
	start -- || return 1
	keys p && wait_for "Preview: [1 launch script]" &&
	    wait_for "sglang.launch_server" && keys q &&
	    wait_gone "Preview: [1" &&
	    goto_page "Parallelism (decode)" && focus "tensor parallel" &&
	    keys Enter && wait_for "(empty = default)" && keys C-u &&
	    text "2" && keys Enter && wait_for "TP)               2" &&
	    keys p && wait_for "Preview: [1 launch script]" && keys / &&
	    wait_for "find:" && text "tp-size" && keys Enter &&
	    wait_re '^>.*--tp-size 2' && keys q && wait_gone "Preview: [1"
}

help_explains() {
	start -- || return 1
	goto_page "KV cache (decode)" && focus "hierarchical cache" &&
	    keys '?' && wait_for "on is unavailable on decode:" &&
	    wait_for "fails because: enable_hierarchical_cache and disable_radix_cache" &&
	    wait_for "disable_radix_cache = True" && wait_for "fix [f]:" &&
	    keys q && wait_for "KV cache (decode)"
}

sigterm_restores() {
	start -- || return 1
	_pp=$(t display -p -t w '#{pane_pid}')
	_pid=$(pgrep -P "$_pp" | head -1)
	[ -n "$_pid" ] && kill -TERM "$_pid" && wait_for "[exit 143]" &&
	    wait_for "pdwiz: interrupted" && restored
}

# restored: after pdwiz exits, the pane is out of the alternate screen and
# the cursor is visible again (what endwin must give back).
restored() {
	[ "$(t display -p -t w '#{alternate_on}')" = 0 ] &&
	    [ "$(t display -p -t w '#{cursor_flag}')" = 1 ]
}

sighup_restores() {
	start -- || return 1
	_pp=$(t display -p -t w '#{pane_pid}')
	_pid=$(pgrep -P "$_pp" | head -1)
	[ -n "$_pid" ] && kill -HUP "$_pid" && wait_for "[exit 129]" &&
	    restored
}

# A small tmpfs of our own for failing writes: full, or read-only.
MNT=""
mount_small() {
	MNT="$WORK/mnt"
	mkdir -p "$MNT"
	mount -t tmpfs -o size=64k tmpfs "$MNT" 2>/dev/null || { MNT=""; return 1; }
}
umount_small() {
	[ -n "$MNT" ] && umount "$MNT" 2>/dev/null
	MNT=""
}

# save_fails_keeps_state FULL|RO: saving over a file on a full or
# read-only file system reports the error, leaves the old file intact and
# no temporary file behind, and keeps the unsaved changes in the wizard.
save_fails_keeps_state() {
	mount_small || { echo "  SKIP: cannot mount a tmpfs here (needs root)"; return 2; }
	cp "$ROOT/share/examples/llama-1p1d-mooncake.yaml" "$MNT/dep.yaml"
	cp "$MNT/dep.yaml" "$WORK/orig.yaml"
	if [ "$1" = FULL ]; then
		dd if=/dev/zero of="$MNT/fill" bs=1k 2>/dev/null
		_want="No space left on device"
	else
		mount -o remount,ro "$MNT"
		_want="Read-only file system"
	fi
	start -- "$MNT/dep.yaml" || { umount_small; return 1; }
	_ok=0
	goto_page "Parallelism (prefill)" && focus "tensor parallel" &&
	    keys Enter && wait_for "(empty = default)" && keys C-u &&
	    text "2" && keys Enter && wait_for "[modified]" &&
	    keys s && wait_for "save deployment to:" && keys Enter &&
	    wait_for "$_want" &&
	    wait_for "[modified]" && cmp -s "$MNT/dep.yaml" "$WORK/orig.yaml" &&
	    [ -z "$(ls "$MNT" | grep -v '^dep.yaml$' | grep -v '^fill$')" ] &&
	    keys q && wait_for "Unsaved changes" && _ok=1
	t kill-session -t w 2>/dev/null
	umount_small
	[ $_ok = 1 ]
}
save_full() { save_fails_keeps_state FULL; }
save_ro() { save_fails_keeps_state RO; }

# ---- layout: derived GPUs and ports, the placement picture, pin ----

# set_row VALUE: edit the focused field to VALUE (the prompt's text
# replaced).
set_row() {
	keys Enter && wait_for "(empty = " && keys C-u &&
	    text "$1" && keys Enter
}

# exported_roundtrip: the exported launch.sh in $WORK checks with 0 errors,
# imports, and the imported deployment checks with 0 errors too.
exported_roundtrip() {
	_chk=$(cd "$WORK" && PDWIZ_DATADIR=$ROOT $PDWIZ check launch.sh | tail -1)
	echo "  pdwiz check launch.sh: $_chk"
	case "$_chk" in "0 errors"*|"") ;; *) return 1 ;; esac
	(cd "$WORK" && PDWIZ_DATADIR=$ROOT $PDWIZ import -o imported.yaml \
	    launch.sh >/dev/null 2>&1) || { echo "  import refused"; return 1; }
	_chk=$(cd "$WORK" && PDWIZ_DATADIR=$ROOT $PDWIZ check imported.yaml | \
	    tail -1)
	echo "  pdwiz check of the import: ${_chk:-clean}"
	case "$_chk" in "0 errors"*|"") ;; *) return 1 ;; esac
}

# pd_tp N: from a new deployment at 80x24, one 8-GPU node: GPUs per node 8,
# TP N on the prefill and on the decode, mooncake; ends on the review.
pd_tp() {
	start -- || return 1
	t resize-window -t w -x 80 -y 24 && wait_for "1/11  Model & hardware" &&
	    wait_for "q quit" || return 1
	KS=0
	keys G && wait_focused "GPUs per node" && set_row 8 &&
	    wait_re '^> GPUs per node +8' &&
	    keys Tab && wait_for "2/11  Topology" &&
	    wait_re 'GPUs per host \(machine\) +8 \(derived\)' &&
	    keys Tab && wait_for "Parallelism (prefill)" &&
	    wait_focused "tensor parallel" && set_row "$1" &&
	    wait_re "^> tensor parallel \(TP\) +$1" &&
	    keys Tab && wait_for "Parallelism (decode)" &&
	    wait_focused "tensor parallel" && set_row "$1" &&
	    wait_re "^> tensor parallel \(TP\) +$1" &&
	    keys Tab && wait_for "KV transfer" && wait_for "<mooncake>" &&
	    keys BTab BTab BTab BTab BTab && wait_for "11/11  Review" &&
	    _KS_REVIEW=$KS
}

# 1P1D Llama-3.1-8B-Instruct, TP 2 each, one 8-GPU node: the layout puts
# the prefill on GPUs 0-1 and the decode on 2-3 (shown derived), the
# review has 0 errors, the exported script checks with 0 errors.
layout_1p1d_tp2() {
	rm -f "$WORK/launch.sh"
	pd_tp 2 || return 1
	wait_for "0 errors" &&
	    wait_for "Placement: 1 host of 8 GPUs" &&
	    wait_re '^ +P0 prefill 0: 127\.0\.0\.1 GPUs 0-1, port 30000, bootstrap 8998' &&
	    wait_re '^ +D0 decode 0: 127\.0\.0\.1 GPUs 2-3, port 30001' &&
	    wait_re '^ 127\.0\.0\.1 +P0 P0 D0 D0  ·  ·  ·  ·$' || return 1
	! screen | grep -q "ERROR" || return 1
	keys e && wait_for "export:" && keys 1 && wait_for "to: [launch.sh]" &&
	    keys Enter && wait_for "exported shell" || return 1
	echo "  keystrokes: $KS (to the review: $_KS_REVIEW)"
	exported_roundtrip || return 1
	[ -x "$WORK/launch.sh" ] || { echo "  launch.sh not executable"; return 1; }
	grep -q -- "--base-gpu-id 2" "$WORK/launch.sh" || return 1
	# The pages show the same values, marked derived.
	keys Tab Tab Tab && wait_for "Parallelism (prefill)" &&
	    focus "base GPU" && wait_re '^> base GPU \(--base-gpu-id\) +0 \(derived\)' &&
	    keys Tab && wait_for "Parallelism (decode)" &&
	    focus "base GPU" && wait_re '^> base GPU \(--base-gpu-id\) +2 \(derived\)' &&
	    wait_re 'HTTP port +30001 \(derived\)'
}

# The same with TP 8 on both: 16 GPUs on an 8-GPU host. The review shows
# the GPU error, and the picture the decode's GPUs past the host's 8.
layout_1p1d_tp8_overflow() {
	pd_tp 8 || return 1
	wait_for "1 error" &&
	    wait_re '^[> ] deployment +ERROR +→ GPUs run out: decode 0' &&
	    wait_re '^ +D0 decode 0: 127\.0\.0\.1 GPUs 8-15, port 30001' &&
	    wait_re '! decode 0 on 127\.0\.0\.1: GPUs 8-15, past the host.s 8 GPUs' &&
	    wait_re '^ 127\.0\.0\.1 +P0 P0 P0 P0 P0 P0 P0 P0│!D0!D0!D0' || return 1
	echo "  keystrokes: $KS"
	# Enter on the error goes to the decode's base GPU, marked.
	focus "GPUs run out" && keys Enter && wait_for "Parallelism (decode)" &&
	    wait_re '^> base GPU \(--base-gpu-id\) +8 \(derived\) !! ERROR'
}

# Setting a derived value keeps it, Delete returns it to derived; pin
# writes every derived value in one change that u undoes.
layout_set_clear_pin() {
	start -- || return 1
	t resize-window -t w -x 80 -y 24 && wait_for "q quit" || return 1
	goto_page "Parallelism (decode)" && focus "HTTP port" &&
	    wait_re '^> HTTP port +30001 \(derived\)' && keys Enter &&
	    wait_for "(empty = derived 30001)" && wait_for "HTTP port: [30001]" && keys Escape &&
	    wait_gone "(empty = " && set_row 31000 &&
	    wait_re '^> HTTP port +31000 *$' && wait_for "[modified]" &&
	    keys DC && wait_for "back to derived (30001)" &&
	    wait_re '^> HTTP port +30001 \(derived\)' &&
	    wait_gone "[modified]" &&
	    keys P && wait_for "pinned:" && wait_for "[modified]" &&
	    wait_re '^> HTTP port +30001 *$' &&
	    keys u && wait_for "undone: pin the layout" &&
	    wait_re '^> HTTP port +30001 \(derived\)' &&
	    wait_gone "[modified]"
}

# A 2-node prefill: its rendezvous port is derived (and on its page), the
# picture shows both nodes and the rendezvous address.
layout_two_node_rendezvous() {
	start -- || return 1
	t resize-window -t w -x 80 -y 24 && wait_for "q quit" || return 1
	KS=0
	keys G && wait_focused "GPUs per node" && set_row 8 &&
	    wait_re '^> GPUs per node +8' &&
	    keys Tab && wait_for "2/11  Topology" &&
	    focus "prefill nodes per instance" && set_row 2 &&
	    wait_re '^> prefill nodes per instance +2' &&
	    focus "prefill hosts" && set_row "10.0.0.1,10.0.0.2" &&
	    wait_re '^> prefill hosts \(a,b,\.\.\.\) +10\.0\.0\.1,10\.0\.0\.2' &&
	    keys Tab && wait_for "Parallelism (prefill)" &&
	    wait_focused "tensor parallel" && set_row 16 &&
	    wait_re '^> tensor parallel \(TP\) +16' &&
	    focus "rendezvous port" &&
	    wait_re '^> rendezvous port \(dist-init\) +5000 \(derived\)' &&
	    keys BTab && wait_for "2/11  Topology" &&
	    focus "decode hosts" && set_row "10.0.0.3" &&
	    wait_re '^> decode hosts \(a,b,\.\.\.\) +10\.0\.0\.3' &&
	    wait_re '^ 10\.0\.0\.1 +P0 P0 P0 P0 P0 P0 P0 P0' &&
	    wait_re '^ 10\.0\.0\.2 +P0 P0 P0 P0 P0 P0 P0 P0' &&
	    wait_re '^ 10\.0\.0\.3 +D0  ·  ·' &&
	    wait_for "P0 prefill 0, 2 nodes: 10.0.0.1,10.0.0.2 GPUs 0-7 each" &&
	    wait_for " 0 errors" || return 1
	# The router's host left to the layout: where the first prefill runs.
	keys BTab BTab BTab && wait_for "10/11  Router" &&
	    focus "router host" && keys DC &&
	    wait_re '^> router host \(advertised\) +10\.0\.0\.1 \(derived\)' &&
	    wait_for " 0 errors" || return 1
	echo "  keystrokes: $KS"
	# Exported, checked, imported: the rendezvous stays the instance's
	# first host and the derived port.
	rm -f "$WORK/launch.sh"
	keys e && wait_for "export:" && keys 1 && wait_for "to: [launch.sh]" &&
	    keys Enter && wait_for "exported shell" || return 1
	grep -q -- "--dist-init-addr 10.0.0.1:5000" "$WORK/launch.sh" ||
	    { echo "  no --dist-init-addr 10.0.0.1:5000 in launch.sh"; return 1; }
	exported_roundtrip || return 1
	# The picture is cut at 80x24; v shows it whole.
	keys v && wait_for "↑↓ PgUp PgDn Home End" &&
	    wait_re '10\.0\.0\.1:5000' && wait_for "router: 10.0.0.1:8000" &&
	    keys q && wait_gone "PgUp PgDn Home End" || return 1
	# Taller, the whole picture: the rendezvous address (the prefill's
	# line wraps before it at 100 columns), the router.
	t resize-window -t w -x 100 -y 40 && goto_page "Topology" &&
	    wait_re 'bootstrap 8998, rendezvous$' &&
	    wait_re '^ +10\.0\.0\.1:5000$' &&
	    wait_for "router: 10.0.0.1:8000"
}

# An imported router that gives the prefill a wrong bootstrap port: Enter
# on the review's error goes to the router's lists, Delete derives them
# from the instances, and the error is gone.
# f on a review row fixes that problem from its field: the router's port
# on the prefill's bootstrap port, the side effects listed, y applies them.
review_row_fix() {
	cat > "$WORK/pc.yaml" <<'YAML'
pdwiz: 1
model: {path: meta-llama/Llama-3.1-8B-Instruct}
roles:
  prefill: {instances: 1, hosts: [10.0.0.1], bootstrap_port: 8998}
  decode: {instances: 1, hosts: [10.0.0.1]}
  router: {hosts: [10.0.0.1], port: 8998}
YAML
	start -- pc.yaml || return 1
	t resize-window -t w -x 80 -y 24 && wait_for "q quit" || return 1
	goto_page Review && wait_for "1 error" &&
	    wait_re '^> deployment ERROR' && keys f &&
	    wait_for "fix: leave every port out, the router's too" &&
	    wait_for "router: port: 8998 -> (unset)" &&
	    wait_for "Apply all of it?" && keys y &&
	    wait_for "0 errors" && wait_re '^> router port +8000 \(derived\)'
}

# f on a review row whose problem belongs to no field (a deployment-level
# one): the rule's verified fix, its change listed and asked first (no field
# shows it), y applies it on the review; a rule with no fix says so and
# what to do instead, never "nothing to fix here".
review_deploy_fix() {
	cat > "$WORK/portrange.yaml" <<'YAML'
pdwiz: 1
model: {path: meta-llama/Llama-3.1-8B-Instruct}
shared: {options: {disaggregation_transfer_backend: mooncake, disaggregation_ib_device: mlx5_0}}
roles:
  prefill: {instances: 2, hosts: [10.0.0.1], bootstrap_port: 65535}
  decode: {instances: 1, hosts: [10.0.0.2]}
  router: {}
YAML
	cat > "$WORK/loopback.sh" <<'SH'
PDWIZ_NODE_HOST=10.0.0.1 python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --host 10.0.0.2
SH
	start -- portrange.yaml || return 1
	t resize-window -t w -x 80 -y 24 && wait_for "q quit" || return 1
	goto_page Review && wait_for "1 error" &&
	    wait_re '^> deployment ERROR +bind\(\): port must be' && keys f &&
	    wait_for "fix: leave the ports out so pdwiz counts them" &&
	    wait_for "prefill: bootstrap_port: 65535 -> (unset)" &&
	    wait_for "Apply all of it?" && keys y &&
	    wait_for "applied: leave the ports out" && wait_for "0 errors" &&
	    wait_for "11/11  Review" && wait_for "bootstrap 8999" &&
	    keys u && wait_for "1 error" || return 1
	start -- --import loopback.sh || return 1
	t resize-window -t w -x 80 -y 24 && wait_for "q close" &&
	    keys q && wait_for "q quit" || return 1
	goto_page Review &&
	    wait_re '^> deployment ERROR +Bootstrap server unreachable' &&
	    keys f &&
	    wait_for "no one-key fix for this problem (rule xs-bootstrap-loopback)" &&
	    ! on_screen "nothing to fix here" &&
	    wait_for "11/11  Review" && keys '?' &&
	    wait_for "error on the deployment (across roles)"
}

# An unsaved deployment shows [modified] at any width: at 60 and at 56
# columns (the narrowest the wizard draws) the title is cut short, then
# "pdwiz" goes, then the counts take short words; the marker stays whole.
header_modified_narrow() {
	cat > "$WORK/a-rather-long-deployment-name-1p1d.yaml" <<'YAML'
pdwiz: 1
model: {path: meta-llama/Llama-3.1-8B-Instruct}
roles:
  prefill: {instances: 1}
  decode: {instances: 1}
  router: {}
YAML
	cat > "$WORK/gap-with-a-long-name.sh" <<'SH'
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --host 0.0.0.0 --port $PREFILL_PORT --disaggregation-ib-device mlx5_0
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --host 127.0.0.1 --port 30001 --base-gpu-id 1 --disaggregation-ib-device mlx5_0
python -m sglang_router.launch_router --pd-disaggregation --prefill http://127.0.0.1:30000 8998 --decode http://127.0.0.1:30001 --port 8000
SH
	start -- a-rather-long-deployment-name-1p1d.yaml || return 1
	t resize-window -t w -x 60 -y 24 && wait_for "q quit" &&
	    wait_re '^ pdwiz  a-rather-long-deployment-name-… 0 errors 2 warnings$' &&
	    keys G && wait_focused "GPUs per node" && keys Enter &&
	    wait_for "GPUs per node: [" && keys C-u && text 4 && keys Enter &&
	    wait_re '^ pdwiz  a-rather-long-deplo… \[modified\] 0 errors 2 warnings$' &&
	    t resize-window -t w -x 56 -y 24 &&
	    wait_re '^ pdwiz  a-rather-long-d… \[modified\] 0 errors 2 warnings$' &&
	    keys s && wait_for "save deployment to:" && keys Enter &&
	    wait_for "saved" && wait_re '^ pdwiz  a-rather-long-deployment-n… 0 errors 2 warnings$' ||
	    return 1
	# An import (unsaved until s) with checks not run: the longest counts.
	start -- --import gap-with-a-long-name.sh || return 1
	t resize-window -t w -x 56 -y 24 && wait_for "q close" && keys q &&
	    wait_for "q quit" &&
	    wait_re '^ gap-with-a-long-n… \[modified\] 0 err 0 warn 3 unchecked$' &&
	    t resize-window -t w -x 60 -y 24 &&
	    wait_re '^ gap-with-a-long-name\.… \[modified\] 0 err 0 warn 3 unchecked$'
}

# The export's default paths: beside the deployment file opened (from
# another directory), named after it, one per format (the per-role config
# in a directory of its own); an export never replaces the deployment file
# itself, and the several files of the config never go into the directory
# of something not a file (a FIFO's, /dev for /dev/null); /dev/null is
# never replaced.
export_default_paths() {
	mkdir -p "$WORK/deploys" "$WORK/elsewhere" || return 1
	rm -rf "$WORK/deploys/"* "$WORK/fifo" "$WORK/prefill.yaml"
	cp "$ROOT/share/examples/minimal-1p1d.yaml" "$WORK/deploys/mini.yaml" &&
	    mkfifo "$WORK/fifo" || return 1
	_d=../deploys/mini
	# Started as start does, from another directory than the file's.
	t kill-session -t w 2>/dev/null
	t new-session -d -s w -x 100 -y 30 "cd $WORK/elsewhere && env \
	    TERM=screen LANG=C.UTF-8 LC_ALL=C.UTF-8 ESCDELAY=25 \
	    PDWIZ_DATADIR=$ROOT PDWIZ_VM_VERIFY=1 $PDWIZ ../deploys/mini.yaml; \
	    sleep 600"
	wait_re ' error' || return 1
	for n in 1 2 3 4; do
		case $n in
		1) _p=$_d-launch.sh _w="exported shell to $_d-launch.sh" ;;
		2) _p=$_d-RUNBOOK.md _w="exported runbook to $_d-RUNBOOK.md" ;;
		3) _p=$_d-config/ _w="exported config: 3 files in $_d-config" ;;
		4) _p=$_d-k8s.yaml _w="exported k8s to $_d-k8s.yaml" ;;
		esac
		keys e && wait_for "export:" && keys $n &&
		    wait_for " to: [$_p]" && keys Enter && wait_for "$_w" ||
		    return 1
	done
	[ -x "$WORK/deploys/mini-launch.sh" ] &&
	    [ -f "$WORK/deploys/mini-config/prefill.yaml" ] &&
	    [ -f "$WORK/deploys/mini-k8s.yaml" ] || return 1
	cp "$WORK/deploys/mini.yaml" "$WORK/mini.orig" &&
	    keys e && wait_for "export:" && keys 1 && wait_for "to: [" &&
	    keys C-u && text ../deploys/mini.yaml && keys Enter &&
	    wait_for "is the deployment file itself" && keys e &&
	    wait_for "export:" && keys 4 && wait_for "to: [" && keys C-u &&
	    text "$WORK/deploys/./mini.yaml" && keys Enter &&
	    wait_for "is the deployment file itself" &&
	    cmp -s "$WORK/deploys/mini.yaml" "$WORK/mini.orig" || return 1
	keys e && wait_for "export:" && keys 3 && wait_for "to: [" &&
	    keys C-u && text "$WORK/fifo" && keys Enter &&
	    wait_for "is not a directory (a FIFO)" &&
	    keys e && wait_for "export:" && keys 1 && wait_for "to: [" &&
	    keys C-u && text /dev/null && keys Enter &&
	    wait_for "pdwiz will not replace it" || return 1
	[ ! -e "$WORK/prefill.yaml" ] && [ -c /dev/null ] && [ -p "$WORK/fifo" ]
}

layout_router_lists_fix() {
	cat > "$WORK/wrongboot.sh" <<'SH'
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --port 30000 --disaggregation-bootstrap-port 8998
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --port 30001 --base-gpu-id 1
python -m sglang_router.launch_router --pd-disaggregation --prefill http://127.0.0.1:30000 9000 --decode http://127.0.0.1:30001 --port 8000
SH
	start -- --import wrongboot.sh || return 1
	t resize-window -t w -x 80 -y 24 && wait_for "q quit" || return 1
	KS=0
	goto_page Review && wait_for "1 error" &&
	    focus "Bootstrap port mismatch" && keys Enter &&
	    wait_for "10/11  Router" && wait_focused "router lists" &&
	    wait_re '^> router lists \(prefill; decode\) +http://127\.0\.0\.1:30000 9000' &&
	    keys DC && wait_for "back to derived (http://127.0.0.1:30000 8998;" &&
	    wait_for " 0 errors" || return 1
	echo "  keystrokes: $KS"
	# Saved, the file checks clean.
	keys s && wait_for "save deployment to:" && keys C-u &&
	    text "$WORK/fixedboot.yaml" && keys Enter && wait_for "saved" ||
	    return 1
	_chk=$(cd "$WORK" && PDWIZ_DATADIR=$ROOT $PDWIZ check fixedboot.yaml |
	    tail -1)
	echo "  pdwiz check of the saved file: ${_chk:-clean}"
	case "$_chk" in "0 errors"*|"") ;; *) return 1 ;; esac
}

# LANG=C: the picture is plain ASCII.
layout_ascii() {
	start LANG=C LC_ALL=C -- || return 1
	goto_page "Topology" && wait_for "Placement: 1 host" &&
	    wait_re '^ 127\.0\.0\.1 +P0 D0  \.  \.  \.' || return 1
	! screen | grep -q '·'
}

# ---- the line editor, at 80x24 ----

# Typing over a pre-filled number replaces it; Left/Home/End, Backspace and
# Delete by whole UTF-8 characters, Ctrl-W and Ctrl-U; a long paste is kept
# whole (the saved file has all of it).
line_editor() {
	start -- || return 1
	t resize-window -t w -x 80 -y 24 && wait_for "q quit" || return 1
	KS=0
	# 612 bytes: past the 511 at which prompts once cut a paste.
	_long="/models/$(printf 'abcdefghij%.0s' $(seq 60))/end"
	keys G && wait_focused "GPUs per node" && keys Enter &&
	    wait_for "GPUs per node: [1]" && text "8" && keys Enter &&
	    wait_re '^> GPUs per node +8 *$' &&
	    keys g && wait_focused "model path" && keys Enter &&
	    wait_for "model path or HF id: [meta-llama/" &&
	    keys End Left Left Left Left Left Left Left Left Left &&
	    keys BSpace BSpace && text "70B" &&
	    wait_for "Llama-3.1-70B-Instruct" &&
	    keys C-a && text "é" && keys BSpace && keys Delete && text "M" && keys C-e && keys Enter &&
	    wait_re '^> model path or HF id +Meta-llama/Llama-3\.1-70B-Instruct' &&
	    keys Enter && wait_for "model path or HF id: [Meta" &&
	    keys Home Right Right Right Right Right Right Right Right Right Right &&
	    keys Right && keys C-u && wait_for "model path or HF id: [Llama-3.1-70B" &&
	    keys End C-w && text "$_long" && wait_for "<" &&
	    wait_for "abcdefghij/end" && keys Enter &&
	    wait_re '^> model path or HF id +/models/abcdefghij' || return 1
	echo "  keystrokes: $KS"
	keys s && wait_for "save deployment to:" && keys C-u &&
	    text "$WORK/long.yaml" && keys Enter && wait_for "saved" &&
	    grep -qF -- "$_long" "$WORK/long.yaml"
}

# wait_cursor X: poll until the terminal's cursor is in column X.
wait_cursor() {
	_poll_start
	until [ "$(t display -p -t w '#{cursor_x}')" = "$1" ]; do
		if ! _poll_nap; then
			echo "  timeout waiting for the cursor in column $1" \
			    "(it is in $(t display -p -t w '#{cursor_x}'))" >&2
			screen | sed 's/^/  | /' >&2
			return 1
		fi
	done
}

# Wide characters (CJK, emoji: two columns each) typed into a text field:
# the cursor sits on its character and the closing "]" after the text,
# never over it, at 80 and at 60 columns, scrolled sideways by whole
# characters; the field's row shows the text whole, the saved file has
# it (the launch script emitted from it names that path).
line_editor_wide() {
	start -- || return 1
	t resize-window -t w -x 80 -y 24 && wait_for "q quit" || return 1
	_wide="/models/模型-测试/权重文件夹/第一个版本/😀😀😀/最终的模型目录名称很长很长"
	# "model path or HF id: [" is 22 columns, "/models/模型-" 13 more.
	keys g && wait_focused "model path" && keys Enter &&
	    wait_for "model path or HF id: [meta-llama/" && keys C-u &&
	    text "/models/模型-测试" && keys Left Left &&
	    wait_for "model path or HF id: [/models/模型-测试]" &&
	    wait_cursor 35 || return 1
	# Scrolled: "<" at 22, the text from 23 to its "]" at 76.
	keys End && text "${_wide#/models/模型-测试}" &&
	    wait_for "[<重文件夹/第一个版本/😀😀😀/最终的模型目录名称很长很长]" &&
	    wait_cursor 76 || return 1
	t resize-window -t w -x 60 -y 24 && keys Left &&
	    wait_for "[</😀😀😀/最终的模型目录名称很长很长]" &&
	    wait_cursor 55 && keys Home &&
	    wait_for "[/models/模型-测试/权重文件夹/第一个>" &&
	    wait_cursor 22 && keys Enter &&
	    wait_re '^> model path or HF id +/models/模型-测试/权重文件夹/第一$' &&
	    wait_re '^ +个版本/😀😀😀/最终的模型目录名称$' &&
	    wait_re '^ +很长很长$' || return 1
	keys s && wait_for "save deployment to:" && keys C-u &&
	    text "$WORK/wide.yaml" && keys Enter && wait_for "saved" &&
	    (cd "$WORK" && PDWIZ_DATADIR=$ROOT $PDWIZ emit --format shell \
	    wide.yaml) | grep -qF -- "--model-path '$_wide'"
}

# / matches choice values and help, and each hit says why: at 80x24 with
# DeepSeek-V3, /deepep finds the MoE all-to-all backend by its value
# deepep, /mooncake the transfer backend, /hicache the hierarchical cache.
search_values() {
	start -- || return 1
	t resize-window -t w -x 80 -y 24 && wait_for "q quit" || return 1
	KS=0
	keys Enter && wait_for "model path or HF id: [meta-llama/" &&
	    text "deepseek-ai/DeepSeek-V3" && keys Enter &&
	    wait_for "DeepseekV3ForCausalLM" &&
	    keys / && wait_for "type to search" && text "deepep" &&
	    wait_re '^ MoE all-to-all backend  value: deepep  \[Parallelism \(prefill\)\]' &&
	    keys Down Enter && wait_for "Parallelism (decode)" &&
	    wait_focused "MoE all-to-all backend" &&
	    wait_for "found: MoE all-to-all backend  value: deepep" &&
	    keys / && wait_for "type to search" && text "mooncake" &&
	    wait_re '^ transfer backend  value: mooncake  \[KV transfer\]' &&
	    keys Escape && wait_gone "matches (Enter jumps)" &&
	    keys / && wait_for "type to search" && text "hicache" &&
	    wait_re '^ hierarchical cache \(HiCache\)  \[KV cache' &&
	    keys Enter && wait_focused "hierarchical cache" || return 1
	echo "  keystrokes: $KS"
}

# Undo tells the truth, at 80x24: GPUs per node set and undone from another
# page goes back to its page and leaves no [modified] and no quit question;
# redo goes back there too; from a saved file, undo back to it is clean.
undo_clean() {
	start -- || return 1
	t resize-window -t w -x 80 -y 24 && wait_for "q quit" || return 1
	KS=0
	keys G && wait_focused "GPUs per node" && set_row 8 &&
	    wait_re '^> GPUs per node +8' && wait_for "[modified]" &&
	    keys Tab Tab && wait_for "3/11  Parallelism (prefill)" &&
	    keys u && wait_for "undone: GPUs per node" &&
	    wait_for "1/11  Model & hardware" &&
	    wait_focused "GPUs per node" && wait_gone "[modified]" &&
	    keys Tab && wait_for "2/11  Topology" &&
	    keys C-r && wait_for "redone: GPUs per node" &&
	    wait_for "1/11  Model & hardware" && wait_re '^> GPUs per node +8' &&
	    wait_for "[modified]" &&
	    keys s && wait_for "save deployment to:" && keys C-u &&
	    text "$WORK/undo.yaml" && keys Enter && wait_for "saved" &&
	    wait_gone "[modified]" &&
	    keys Tab Tab && wait_for "3/11  Parallelism (prefill)" &&
	    wait_focused "tensor parallel" && set_row 2 &&
	    wait_for "[modified]" && keys Tab && wait_for "Parallelism (decode)" &&
	    focus "DP attention" && keys Space &&
	    keys Tab Tab && wait_for "KV cache (prefill)" &&
	    keys u && wait_for "undone: DP attention" &&
	    wait_for "4/11  Parallelism (decode)" && wait_focused "DP attention" &&
	    keys u && wait_for "undone: tensor parallel" &&
	    wait_for "3/11  Parallelism (prefill)" &&
	    wait_focused "tensor parallel" && wait_gone "[modified]" || return 1
	echo "  keystrokes: $KS"
	keys q && wait_for "[exit 0]" && ! screen | grep -q "Unsaved"
}

# ascii_screen WHERE: the screen is plain ASCII with no ncurses "~F"-style
# renderings of stray UTF-8 bytes.
ascii_screen() {
	if screen | LC_ALL=C grep -qE "$(printf '[\200-\377]')|~[@-_]~[@-_]"; then
		echo "  not ASCII on $1:" >&2
		screen | LC_ALL=C grep -nE "$(printf '[\200-\377]')|~[@-_]~[@-_]" |
		    sed 's/^/  | /' >&2
		return 1
	fi
}

# LANG=C at 80x24: every page, the review, a choice box, a prompt, search,
# field help, the key list and the preview show only ASCII (arrows as ^ v
# ->, the unavailable mark as x, rules as -).
ascii_fallbacks() {
	start LANG=C LC_ALL=C -- || return 1
	t resize-window -t w -x 80 -y 24 && wait_for "q quit" || return 1
	KS=0
	wait_for "^v Enter" && ascii_screen "Model & hardware" || return 1
	for _p in "Topology" "Parallelism (prefill)" "Parallelism (decode)" \
	    "KV transfer" "KV cache (prefill)" "KV cache (decode)" \
	    "Advanced (prefill)" "Advanced (decode)" "Router" "Review"; do
		keys Tab && wait_for "$_p" && ascii_screen "$_p" || return 1
	done
	focus "override" && keys Enter && wait_for " Problem" &&
	    ascii_screen "review entry" && keys q && wait_gone " Problem" &&
	    goto_page "KV cache (decode)" && focus "hierarchical cache" &&
	    wait_for "x on unavailable" && ascii_screen "unavailable mark" &&
	    keys '?' && wait_for "q close" && ascii_screen "field help" &&
	    keys Escape && wait_gone "q close" &&
	    keys F1 && wait_for "Moving around:" && ascii_screen "key list" &&
	    keys Escape && wait_gone "Moving around:" &&
	    goto_page "KV transfer" && focus "transfer backend" && keys Enter &&
	    wait_for "Enter choose" && ascii_screen "choice box" &&
	    keys Escape && wait_gone "Enter choose" &&
	    keys / && wait_for "type to search" && text "mooncake" &&
	    wait_for "value: mooncake" && ascii_screen "search" &&
	    keys Escape && wait_gone "matches (Enter jumps)" &&
	    goto_page "Model & hardware" && keys g Enter &&
	    wait_for "(empty = default)" &&
	    ascii_screen "prompt" && keys Escape && wait_for "cancelled" &&
	    keys p && wait_for "python" && ascii_screen "preview" || return 1
	echo "  keystrokes: $KS"
}

# ---- quick start, guided inputs, imports, fix side effects (80x24) ----

# start_quick [ARGS]: ./pdwiz with no file at 80x24: the quick start.
start_quick() {
	t kill-session -t w 2>/dev/null
	t new-session -d -s w -x 80 -y 24 \
	    "cd $WORK && env TERM=screen LANG=C.UTF-8 LC_ALL=C.UTF-8 ESCDELAY=25 PDWIZ_DATADIR=$ROOT $PDWIZ $* ; echo \"[exit \$?]\"; sleep 600"
	wait_for "quick start: a new PD deployment" || return 1
	KS=0
}

# check_clean FILE: pdwiz check FILE (in $WORK) reports 0 errors.
check_clean() {
	_chk=$(cd "$WORK" && PDWIZ_DATADIR=$ROOT $PDWIZ check -v "$1" 2>&1)
	_rc=$?
	_chk=$(printf '%s\n' "$_chk" | tail -1)
	echo "  pdwiz check $1: exit $_rc, $_chk"
	[ "$_rc" = 0 ] || return 1
	case "$_chk" in "0 errors"*) ;; *) return 1 ;; esac
}

# Done when (d): the quick start reaches an exportable 1P1D in at most 15
# keystrokes after the model id; the exported script is executable and
# checks with 0 errors.
quick_1p1d() {
	rm -f "$WORK/launch.sh"
	start_quick || return 1
	text "meta-llama/Llama-3.1-8B-Instruct" && KS=0 &&
	    wait_for "1P1D: each instance TP 4 on 4 GPUs" &&
	    keys Enter Enter Enter Enter Enter Enter && wait_for "11/11  Review" &&
	    wait_for " 0 errors" &&
	    wait_re '^ 127\.0\.0\.1 +P0 P0 P0 P0 D0 D0 D0 D0' &&
	    keys e && wait_for "export:" && keys 1 && wait_for "to: [launch.sh]" &&
	    keys Enter && wait_for "exported shell" || return 1
	echo "  keystrokes after the model id: $KS"
	[ "$KS" -le 15 ] && [ -x "$WORK/launch.sh" ] && exported_roundtrip
}

# The quick start refuses a shape that does not fit the GPUs, with the
# reason; Esc skips to the full pages.
quick_refuses_skip() {
	start_quick || return 1
	keys Down Down && text "81" && keys Enter &&
	    wait_for "GPUs per node: a number from 1 to 16 (got '81')" &&
	    keys C-u && text "8" && keys Enter Enter Enter && text "5P4D" &&
	    wait_for "9 instances do not fit 1 node of 8 GPUs" &&
	    keys Enter && wait_for "shape (xPyD)" && ! screen | grep -q Review &&
	    keys Escape && wait_for "1/11  Model & hardware" &&
	    wait_for "quick start skipped"
}

# Back on an answer given before, typing replaces it (as a pre-filled
# default is replaced), so 4, Down, Up, 2 is 2, not 42.
quick_retype() {
	start_quick || return 1
	keys Down Down && text "4" && wait_re '^> GPUs per node \(1-16\) +4 *$' &&
	    keys Down && wait_re '^> number of nodes' && keys Up &&
	    text "2" && wait_re '^> GPUs per node \(1-16\) +2 *$' &&
	    wait_for "each instance TP 1 on 1 GPU"
}

# The quick start asks the accelerator: a list with type-ahead (b2 is
# B200, h100 an alias of H100-SXM-80GB); GPUs per node is the machine
# size of the placement and the export (1 GPU per node: hosts of 1 GPU,
# PDWIZ_GPUS_PER_HOST=1); the accelerator is the fact gpu, so the memory
# estimate runs (a 70B model on one A100-40GB each: the fit error, which
# the line under the questions says before the deployment is made). The
# router runs on the first prefill host (node1), not 127.0.0.1.
quick_accelerator() {
	rm -f "$WORK/launch.sh" "$WORK/qa.yaml"
	start_quick || return 1
	keys Down && wait_re '^> accelerator +. H100-SXM-80GB' &&
	    text "b2" && wait_re '^> accelerator +. B200-180GB .*\(typed: b2\)' &&
	    keys BSpace BSpace && text "h100" &&
	    wait_re '^> accelerator +. H100-SXM-80GB .*\(typed: h100\)' &&
	    text "q" && wait_for "none of rules/hardware.yaml's names begins with 'h100q'" &&
	    keys Enter && text "1" && keys Enter && text "2" && keys Enter &&
	    wait_for "each instance TP 1 on 1 GPU of H100-SXM-80GB" &&
	    keys Enter && wait_re '^> transfer backend' && text "ni" &&
	    wait_re '^> transfer backend +. nixl . +\(typed: ni\)' &&
	    keys BSpace BSpace && text "moo" &&
	    wait_re '^> transfer backend +. mooncake . +\(typed: moo\)' &&
	    keys Enter Enter && wait_for "11/11  Review" &&
	    wait_for "Placement: 2 hosts of 1 GPUs" && wait_for " 0 errors" &&
	    wait_for "router: node1:8000" &&
	    keys e && wait_for "export:" && keys 1 && wait_for "to: [launch.sh]" &&
	    keys Enter && wait_for "exported shell" &&
	    keys s && wait_for "save deployment to:" && keys C-u &&
	    text "$WORK/qa.yaml" && keys Enter && wait_for "saved" || return 1
	# The router on a host of the deployment: the first prefill's.
	(cd "$WORK" && bash launch.sh list) | grep -qx 'router on node1' ||
	    { echo "  launch.sh list: $(cd "$WORK" && bash launch.sh list | tr '\n' ';')"; return 1; }
	grep -q '^PDWIZ_GPUS_PER_HOST=1$' "$WORK/launch.sh" &&
	    grep -q '^PDWIZ_FACT_gpu=H100-SXM-80GB$' "$WORK/launch.sh" &&
	    grep -q 'gpu: "H100-SXM-80GB"' "$WORK/qa.yaml" &&
	    grep -q '^gpus_per_host: 1$' "$WORK/qa.yaml" ||
	    { echo "  the export or the file lacks the machine"; return 1; }
	check_clean qa.yaml && check_clean launch.sh || return 1
	start_quick || return 1
	keys C-u && text "meta-llama/Llama-3.1-70B-Instruct" && keys Enter &&
	    text "a100-40" && wait_re '^> accelerator +. A100-40GB' &&
	    keys Enter && text "1" && keys Enter && text "2" &&
	    wait_for "as it stands: 2 errors, the" && wait_for "first: The weights need about 131.5 GiB" &&
	    keys Enter Enter Enter Enter && wait_for "11/11  Review" &&
	    wait_for " 2 errors" && wait_for "The weights need about" || return 1
	# F10 quits from the quick start too (nothing made yet).
	start_quick || return 1
	keys F10 && wait_for "[exit 0]"
}

# ? and F1 show the quick start's help on every row, and change no answer:
# ? on the accelerator used to choose A100-40GB ("typed: ?": punctuation
# matched every name), on the backend the first backend, on the model row
# it was typed into the model; F1 did nothing. Punctuation alone is
# refused like a letter that begins no name.
quick_help() {
	start_quick || return 1
	keys Down && wait_re '^> accelerator +. H100-SXM-80GB' &&
	    keys '?' && wait_for "Quick start help" &&
	    wait_for "accelerator: the GPU model of every node" &&
	    keys q && wait_gone "Quick start help" &&
	    wait_re '^> accelerator +. H100-SXM-80GB' &&
	    ! screen | grep -q "typed:" &&
	    keys F1 && wait_for "Quick start help" &&
	    wait_for "?, F1              this help" && keys Escape &&
	    wait_gone "Quick start help" &&
	    wait_re '^> accelerator +. H100-SXM-80GB' &&
	    text "!" && wait_for "none of rules/hardware.yaml's names begins with '!'" &&
	    wait_re '^> accelerator +. H100-SXM-80GB' &&
	    keys Down Down Down && wait_re '^> transfer backend +. mooncake' &&
	    keys '?' && wait_for "transfer backend: the KV transfer backend" &&
	    keys q && wait_gone "Quick start help" &&
	    wait_re '^> transfer backend +. mooncake . *$' &&
	    keys Up Up Up Up && wait_re '^> model path' && keys F1 &&
	    wait_for "model path or HF id: the model to serve" && keys q &&
	    wait_gone "Quick start help" && text '?' &&
	    wait_for "Quick start help" && keys q &&
	    wait_gone "Quick start help" &&
	    wait_re '^> model path or HF id +meta-llama/Llama-3\.1-8B-Instruct *$' &&
	    keys Enter Enter Enter Enter Enter Enter && wait_for "11/11  Review" &&
	    wait_for " 0 errors"
}

# Done when (a): 1P1D Llama-3.1-8B-Instruct, TP 2 each, one 8-GPU node,
# mooncake: from the quick start, TP refined on the two pages; the exported
# script is executable and checks with 0 errors.
done_a_llama_tp2() {
	rm -f "$WORK/launch.sh"
	start_quick || return 1
	KS=0
	keys Enter Enter Enter Enter Enter Enter && wait_for "11/11  Review" &&
	    keys Tab Tab Tab && wait_for "3/11  Parallelism (prefill)" &&
	    wait_focused "tensor parallel" && set_row 2 &&
	    wait_re '^> tensor parallel \(TP\) +2' &&
	    keys Tab && wait_for "Parallelism (decode)" &&
	    wait_focused "tensor parallel" && set_row 2 &&
	    wait_re '^> tensor parallel \(TP\) +2' && wait_for " 0 errors" &&
	    keys e && wait_for "export:" && keys 1 && wait_for "to: [launch.sh]" &&
	    keys Enter && wait_for "exported shell" || return 1
	echo "  keystrokes: $KS"
	[ -x "$WORK/launch.sh" ] || { echo "  launch.sh not executable"; return 1; }
	grep -q -- "--tp-size 2" "$WORK/launch.sh" && exported_roundtrip
}

# Done when (b): DeepSeek-V3, 2 prefill + 2 decode nodes of 8 GPUs, DP
# attention and DeepEP on decode, nixl: saved, Kubernetes exported; the
# saved file, the exported script and the exported manifests check with 0
# errors, and the manifests are pdwiz emit's bytes for the saved file.
# The accelerator is B200: on H100 the memory estimate finds no room for
# the KV cache of DP attention's decode (fit-kv-none).
done_b_deepseek() {
	rm -f "$WORK/ds.yaml" "$WORK/ds-k8s.yaml" "$WORK/ds-launch.sh"
	start_quick || return 1
	text "deepseek-ai/DeepSeek-V3" && keys Enter && text b2 &&
	    wait_re '^> accelerator +. B200' && keys Enter Enter && text 4 &&
	    keys Enter && wait_for "node1,node2,node3,node4" && keys Enter &&
	    keys Right && wait_for "nixl" && keys Enter &&
	    wait_for "TP 16 over 2 nodes of 8 GPUs" && keys Enter &&
	    wait_for "11/11  Review" && wait_for " 0 errors" &&
	    keys Tab Tab Tab Tab && wait_for "4/11  Parallelism (decode)" &&
	    focus "data parallel" && set_row 16 &&
	    wait_re '^> data parallel \(DP\) +16' &&
	    focus "DP attention" && keys Space && wait_re '^> DP attention +\[x\] on' &&
	    focus "MoE all-to-all backend" && keys Enter &&
	    wait_for "Enter choose" && keys Down && keys Enter &&
	    wait_re '^> MoE all-to-all backend +<deepep>' &&
	    wait_for "DeepEP mode" && wait_for " 0 errors" &&
	    keys s && wait_for "save deployment to:" && keys C-u &&
	    text "$WORK/ds.yaml" && keys Enter && wait_for "saved" &&
	    keys e && wait_for "export:" && keys 4 && wait_for "to: [$WORK/ds-k8s.yaml]" &&
	    keys Enter && wait_for "exported k8s" &&
	    keys e && wait_for "export:" && keys 1 && wait_for "to: [$WORK/ds-launch.sh]" &&
	    keys Enter && wait_for "exported shell" || return 1
	echo "  keystrokes: $KS"
	grep -q "enable_dp_attention: true" "$WORK/ds.yaml" &&
	    grep -q 'moe_a2a_backend: "deepep"' "$WORK/ds.yaml" &&
	    grep -q "nixl" "$WORK/ds.yaml" || { echo "  ds.yaml lacks a setting"; return 1; }
	check_clean ds.yaml && check_clean ds-launch.sh &&
	    check_clean ds-k8s.yaml || return 1
	(cd "$WORK" && PDWIZ_DATADIR=$ROOT $PDWIZ emit --format k8s ds.yaml |
	    cmp -s - ds-k8s.yaml) || { echo "  k8s differs from pdwiz emit"; return 1; }
}

# Done when (c): an imported script whose prefill uses --page-size 64 and
# whose router gives the wrong bootstrap port; both fixed with f (Enter on
# the review's errors to reach them); saved; the saved file checks clean.
done_c_import_fix() {
	cat > "$WORK/pagesize.sh" <<'SH'
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --port 30000 --disaggregation-bootstrap-port 8998 --page-size 64
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --port 30001 --base-gpu-id 1
python -m sglang_router.launch_router --pd-disaggregation --prefill http://127.0.0.1:30000 9000 --decode http://127.0.0.1:30001 --port 8000
SH
	rm -f "$WORK/pagesize.yaml"
	start -- pagesize.sh || return 1
	t resize-window -t w -x 80 -y 24 && wait_for "q quit" || return 1
	KS=0
	wait_for "pagesize.yaml (from pagesize.sh)" &&
	    goto_page Review && wait_for "2 errors" &&
	    focus "Page size mismatch" && keys Enter &&
	    wait_for "KV cache (prefill)" && keys f &&
	    wait_for "decode: page_size: set to 64" && keys y &&
	    wait_for "applied: use the same page size on both" &&
	    wait_for " 1 error" && goto_page Review &&
	    focus "Bootstrap port mismatch" && keys Enter &&
	    wait_for "10/11  Router" && keys f && wait_for "applied:" &&
	    wait_for " 0 errors" &&
	    keys s && wait_for "save deployment to: [pagesize.yaml]" &&
	    keys Enter && wait_for "saved" || return 1
	echo "  keystrokes: $KS"
	check_clean pagesize.yaml
}

# A script that cannot be imported is refused with the reason and exit 2,
# never a default deployment; a good one given as FILE is imported.
import_failed_refused() {
	# A script pdwiz cannot read at all (check refuses it too): import
	# refuses it. (One it reads is imported with what it lacks.)
	printf 'python -m sglang.launch_server --model-path "m --disaggregation-mode prefill\n' > "$WORK/half.sh"
	start -- half.sh || return 1
	wait_for "half.sh: cannot import:" && wait_for "[exit 2]" &&
	    ! screen | grep -q "0 errors" || return 1
	cat > "$WORK/good.sh" <<'SH'
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --port 30000
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --port 30001 --base-gpu-id 1
python -m sglang_router.launch_router --pd-disaggregation --prefill http://127.0.0.1:30000 --decode http://127.0.0.1:30001
SH
	start -- good.sh || return 1
	wait_for "good.yaml (from good.sh)" &&
	    keys s && wait_for "save deployment to: [good.yaml]"
}

# Guided inputs: the GPU generation is a list of named values, a NIXL
# backend of 9000 and 81 GPUs per node are refused with the reason.
guided_inputs() {
	start -- || return 1
	t resize-window -t w -x 80 -y 24 && wait_for "q quit" || return 1
	focus "GPU generation" && keys Enter && wait_for "Enter choose" &&
	    wait_for "90  Hopper: H100, H200" && keys Down Down Down Enter &&
	    wait_re '^> GPU generation \(SM\) +<90> \(Hopper' &&
	    focus "GPUs per node" && set_row 81 &&
	    wait_for "GPUs per node: '81' is out of range: from 1 to 16" &&
	    goto_page "KV transfer" && focus "transfer backend" && keys Enter &&
	    wait_for "Enter choose" && keys Down && keys Enter &&
	    wait_for "<nixl>" && focus "NIXL backend" && keys Enter &&
	    wait_for "LIBFABRIC): [" && keys C-u && text 9000 && keys Enter &&
	    wait_for "'9000' is not a name (a name starts with a" &&
	    wait_for "UCX or LIBFABRIC" && keys Enter &&
	    wait_for "LIBFABRIC): [" && keys C-u && text LIBFABRIC &&
	    keys Enter &&
	    wait_re '^> NIXL backend.*LIBFABRIC'
}

# A fix that changes more than its field lists the changes and asks; a
# later fix that drops the split takes the first fix's prefill CP back;
# one u undoes the second fix whole.
fix_side_effects() {
	start -- || return 1
	t resize-window -t w -x 80 -y 24 && wait_for "q quit" || return 1
	set_model "deepseek-ai/DeepSeek-V3.2" "DeepseekV32ForCausalLM" &&
	    goto_page "Advanced (prefill)" && focus "DSA cache-layer split" &&
	    keys f && wait_for "fix: enable interleave prefill CP. It changes:" &&
	    wait_for "prefill: enable_prefill_cp: set to true" &&
	    wait_for "prefill: cp_strategy: set to interleave" &&
	    wait_for "Apply all of it? (y/n" && keys n && wait_for "fix not applied" &&
	    keys f && wait_for "Apply all of it?" && keys y &&
	    wait_for "applied: enable interleave prefill CP" && keys Space &&
	    wait_re '^> DSA cache-layer split +\[x\] on' &&
	    goto_page "KV transfer" && focus "transfer backend" && keys Enter &&
	    wait_for "Enter choose" && keys Down && wait_for "> ( ) nixl" &&
	    keys f && wait_for "without the layer split. It changes:" &&
	    wait_for "prefill: enable_prefill_cp: removed (was true)" &&
	    wait_for "prefill: enable_dsa_cache_layer_split: removed" &&
	    keys y && wait_for "applied: stay on this backend" &&
	    goto_page "Parallelism (prefill)" &&
	    wait_re 'prefill context parallel +\[ \] off' &&
	    keys u && wait_for "undone: fix: stay on this backend" &&
	    goto_page "Parallelism (prefill)" &&
	    wait_re 'prefill context parallel +\[x\] on'
}

run "done (d): quick start to an exportable 1P1D, <= 15 keys (80x24)" quick_1p1d
run "quick start refuses bad answers with the reason, Esc skips" quick_refuses_skip
run "quick start: typing over an earlier answer replaces it" quick_retype
run "quick start asks the accelerator (type-ahead); GPUs per node is the machine" quick_accelerator
run "quick start: ? and F1 show its help on every row, change no answer" quick_help
run "done (a): 1P1D Llama TP 2 each, mooncake, export checks (80x24)" done_a_llama_tp2
run "done (b): DeepSeek-V3 2+2 nodes, DP attention + DeepEP, nixl, k8s (80x24)" done_b_deepseek
run "done (c): import page-size 64 + wrong bootstrap port, f fixes both (80x24)" done_c_import_fix
run "import: a failed script is refused (exit 2); a good one names the file" import_failed_refused
run "guided inputs: named GPU generation, bounds, NIXL backend refused" guided_inputs
run "fix side effects listed, taken back by a later fix, undone whole" fix_side_effects

run walk_pages walk_pages
run "live preview (p)" preview_live
run "? help: failing condition, terms, fix" help_explains
run "decode + hierarchical cache: conflict shown, f fixes" hicache_decode_fix
run "DSA cache-layer split makes nixl unavailable" dsa_split_nixl
run "staging buffer with mori" staging_mori
run "/ search jumps" search_jump
run "undo/redo" undo_redo
run "save; pdwiz check agrees with review" save_check
run "export = pdwiz emit bytes" export_same_bytes
run "resize 60x15, too small, back" resize
run "footer and ? key help from the key table" footer_and_keys
run "quit with changes asks" quit_dirty_asks
run "quit without changes does not ask" quit_clean_no_question
run "conventions: popup type-ahead, Home/End, scroll hint, F10, r, digits, Esc" conventions
run "text never cut without saying so: … (~ in C), the focused row whole (80x24)" cut_marked
run "f on a memory error: more TP on the same node first; r back to the review (80x24)" fit_fix_tp
run "fit help: only verified fixes, on the hosts' GPUs (review and field)" fit_help_verified
run "a shared field whose roles differ: f lists one-for-both fixes, Enter sets both (80x24)" shared_split
run "prompts: label: [value] pre-filled, the hint above it (80x24)" prompt_layout
run "decode parallelism: same as prefill, offered and copied" decode_same_as_prefill
run "NO_COLOR" no_color
run "SIGINT restores and exits" sigint_restores
run "SIGTERM restores and exits" sigterm_restores
run "open a file with errors" open_file_with_errors
run "import a launch script" import_script
run "import a failed launch's log: the deployment it describes" import_log
run "import a prefill-only script, save, it reads back" import_partial_saves
run "import one node of a two-node instance: imported, says what is missing" import_one_node_partial
run "SIGHUP restores the terminal" sighup_restores
run "save on a full disk: error, old file intact, changes kept" save_full
run "save on a read-only file system: same" save_ro

run "layout: 1P1D TP 2 on one node, 0 errors, picture, export checks" layout_1p1d_tp2
run "layout: 1P1D TP 8 on one 8-GPU node: GPU error in review and picture" layout_1p1d_tp8_overflow
run "layout: derived values, set, Delete back to derived, pin and undo" layout_set_clear_pin
run "layout: ASCII picture without UTF-8" layout_ascii
run "search by choice value and help, says why (80x24)" search_values
run "undo back to the saved state is clean, undo/redo show the page (80x24)" undo_clean
run "LANG=C: every screen is plain ASCII (80x24)" ascii_fallbacks
run "line editor: cursor, kills, UTF-8, type over, long paste (80x24)" line_editor
run "line editor: wide characters (CJK, emoji): cursor and text right (80x24, 60x24)" line_editor_wide
run "layout: 2-node prefill, rendezvous port derived and pictured" layout_two_node_rendezvous
run "layout: wrong router bootstrap port, Enter from review, Delete fixes" layout_router_lists_fix
run "review: f on a row applies that problem's fix, side effects listed" review_row_fix
run "review: f on a deployment-level problem fixes it, or says why not (80x24)" review_deploy_fix
run "header: [modified] shown whole at 60 and 56 columns" header_modified_narrow
run "export: default paths beside the deployment file, named after it; never over it" export_default_paths
. "$ROOT/tests/tmux/ops.sh"

# ---- help that teaches, messages never cut, keys, preview (80x24) ----

# words N: "part1 part2 ... partN END", a long text with spaces.
words() {
	_i=1
	_w=""
	while [ $_i -le "$1" ]; do
		_w="$_w part$_i"
		_i=$((_i + 1))
	done
	echo "${_w# } END"
}

# A refusal longer than a line wraps whole onto the lines above the keys;
# one longer than a third of the screen ends in "? shows the whole
# message", and ? shows it whole, scrolled to its end.
long_message_wraps() {
	start -- || return 1
	t resize-window -t w -x 80 -y 24 && wait_for "q quit" || return 1
	KS=0
	goto_page "Parallelism (prefill)" && focus "tensor parallel" &&
	    keys Enter && wait_for "(empty = default)" &&
	    text "$(words 40)" && keys Enter &&
	    wait_for "'part1 part2" && wait_for "part40 END' is not a valid integer" &&
	    keys Enter && wait_for "(empty = default)" &&
	    text "$(words 150)" && keys Enter &&
	    wait_for "... (? shows the whole message)" &&
	    keys '?' && wait_for " Message" &&
	    wait_for "part150 END' is not a valid integer" &&
	    wait_for "tensor parallel (TP)  (--tp-size, prefill)" &&
	    keys q && wait_gone " Message" || return 1
	echo "  keystrokes: $KS"
}

# The review lists each problem on one line; the focused one's message is
# whole in the status, and ? (or Enter where no field sets it) opens its
# full text: SGLang's message, what it means, where Enter goes.
review_full_text() {
	start -- || return 1
	t resize-window -t w -x 80 -y 24 && wait_for "q quit" || return 1
	KS=0
	goto_page "Review" && keys g &&
	    wait_for "Mooncake backend, falling back" &&
	    wait_re "^(> )? ?prefill +warning" &&
	    keys '?' && wait_for "warning on prefill" &&
	    wait_for "SGLang: No IB devices specified for Mooncake backend" &&
	    wait_for "What it means:" && keys End &&
	    wait_for "Enter goes to:" &&
	    keys q && wait_gone "warning on prefill" &&
	    keys Down Down && wait_for "[Enter or ? full text]" &&
	    keys Enter && wait_for " Problem" && wait_for "override on prefill" &&
	    wait_for "No field of the wizard sets this directly." &&
	    keys q && wait_gone " Problem" || return 1
	echo "  keystrokes: $KS"
}

# no_paths: the screen shows no machine path (a rule file, /work/...).
no_paths() {
	if screen | grep -qE '/work/|/tmp/|rules/|\.yaml:[0-9]'; then
		echo "  a machine path on screen:" >&2
		screen | sed 's/^/  | /' >&2
		return 1
	fi
}

# ? teaches: the rule's explanation, each term with its value and where
# it came from (the decode role's override, a value set by you), the fix.
help_origins() {
	start -- || return 1
	t resize-window -t w -x 80 -y 24 && wait_for "q quit" || return 1
	KS=0
	goto_page "KV cache (decode)" && focus "hierarchical cache" &&
	    keys '?' && wait_for "on is unavailable on decode:" &&
	    wait_for "What it means: HiCache is a host-memory" &&
	    keys / && wait_for "find:" && text "disable_radix_cache =" &&
	    keys Enter && wait_re '^>.*disable_radix_cache = True  \(forced by the decode role' &&
	    keys / && text "(the value you are choosing)" && keys Enter &&
	    wait_re '^>.*enable_hierarchical_cache = True' &&
	    keys / && text "fix [f]" && keys Enter &&
	    wait_re '^>.*fix \[f\]: keep the radix cache on' &&
	    no_paths && keys Home && no_paths &&
	    keys q && wait_gone "on is unavailable" &&
	    goto_page "Parallelism (prefill)" && focus "tensor parallel" &&
	    keys Enter && wait_for "(empty = default)" && text "2" &&
	    keys Enter && wait_for "TP)           2" &&
	    keys '?' && wait_for "origin:    set by you" && keys q &&
	    focus "HTTP port" && keys '?' && wait_for "origin:  derived (layout)" &&
	    keys q && wait_gone "origin:" &&
	    goto_page "KV transfer" && focus "transfer backend" && keys Enter &&
	    wait_for "? help  Esc back" && keys '?' && wait_for " Help" &&
	    wait_for "origin:    default" && keys q &&
	    wait_for "? help  Esc back" && keys F1 &&
	    wait_for "Moving around:" && keys q &&
	    wait_for "? help  Esc back" && keys Escape || return 1
	echo "  keystrokes: $KS"
}

# F1 anywhere lists every key by purpose, redo included; the footer keeps
# redo at 80 and at 100 columns.
key_screen() {
	start -- || return 1
	t resize-window -t w -x 80 -y 24 && wait_for "^R redo" || return 1
	KS=0
	keys F1 && wait_for " Keys" && wait_for "Moving around:" &&
	    wait_for "Changing values:" && wait_re 'Ctrl-R +redo' &&
	    keys End && wait_for "Ctrl-W" && wait_for "(end)" &&
	    keys q && wait_for "^R redo" &&
	    goto_page "KV transfer" && keys F1 && wait_for "Moving around:" &&
	    keys Escape && wait_gone "Moving around:" &&
	    t resize-window -t w -x 100 -y 30 && wait_for "^R redo" &&
	    wait_for "? help" || return 1
	echo "  keystrokes: $KS"
}

# The preview is full screen and scrolls: the runbook to its end, then
# Kubernetes; Tab goes round the four views.
preview_scroll() {
	start -- || return 1
	t resize-window -t w -x 80 -y 24 && wait_for "q quit" || return 1
	KS=0
	keys p && wait_for "Preview: [1 launch script]" &&
	    wait_for "#!/usr/bin/env bash" && wait_re ' 1-22/[0-9]+$' &&
	    keys 2 && wait_for "[2 runbook]" && keys End &&
	    wait_re '[0-9]+-([0-9]+)/\1 \(end\)' && keys PPage &&
	    wait_gone "(end)" && keys End && wait_for "(end)" &&
	    keys 4 && wait_for "[4 Kubernetes]" &&
	    wait_for "LeaderWorkerSet" && keys Tab &&
	    wait_for "[1 launch script]" && keys Tab Tab Tab &&
	    wait_for "[4 Kubernetes]" && keys Home && wait_re ' 1-22/' &&
	    keys q && wait_gone "Preview:" || return 1
	echo "  keystrokes: $KS"
}

# / finds text in the preview and n goes to the next match.
preview_find() {
	start -- || return 1
	t resize-window -t w -x 80 -y 24 && wait_for "q quit" || return 1
	KS=0
	keys p && wait_for "Preview: [1 launch script]" &&
	    keys / && wait_for "find:" && text "disaggregation-mode" &&
	    keys Enter && wait_re '^>.*--disaggregation-mode prefill' &&
	    keys n && wait_re '^>.*--disaggregation-mode decode' &&
	    keys n && wait_for "(from the top)" &&
	    wait_re '^>.*--disaggregation-mode prefill' &&
	    keys / && text "no such text here" && keys Enter &&
	    wait_for "not found: no such text here" && keys q || return 1
	echo "  keystrokes: $KS"
}

# #26 point 2, "All options": / finds --quantization (on the model page,
# shared), fp8 is chosen from its list and reaches the launch script for
# both roles; a opens the All options page of the role (off the page
# count), where a per-role flag no page shows is set for the prefill only;
# a again goes back (80x24).
all_options() {
	start -- || return 1
	t resize-window -t w -x 80 -y 24 && wait_for "q quit" || return 1
	keys / && wait_for "type to search" && text "quantization" &&
	    wait_for "quantization  [Model & hardware]" && keys Enter &&
	    wait_focused "quantization" && keys Enter &&
	    wait_for "Enter choose" && text "fp8" &&
	    wait_for "type-ahead: fp8" && wait_re '> \( \) fp8' && keys Enter &&
	    wait_re '^> quantization +<fp8>' || return 1
	keys p && wait_for "Preview: [1 launch script]" &&
	    keys / && wait_for "find:" && text "--quantization" &&
	    keys Enter && wait_re '^>.*--quantization fp8' && keys q &&
	    wait_gone "Preview:" || return 1
	goto_page "Parallelism (prefill)" &&
	    keys a && wait_for "all  All options (prefill)" &&
	    wait_for "a goes back to Parallelism (prefill)" || return 1
	keys / && wait_for "type to search" && text "fp32 lm head" &&
	    wait_for "--enable-fp32-lm-head  [All options (prefill)]" &&
	    keys Enter && wait_focused "--enable-fp32-lm-head" &&
	    keys Enter && wait_re '^> --enable-fp32-lm-head +\[x\] on' &&
	    keys a && wait_for "Parallelism (prefill)" &&
	    keys e && wait_for "export:" && keys 1 && wait_for "to:" &&
	    keys C-u && text "$WORK/allopts.sh" && keys Enter &&
	    wait_for "exported shell" || return 1
	[ "$(grep -c -- '--quantization fp8' "$WORK/allopts.sh")" -eq 2 ] ||
	    { echo "  --quantization fp8 not on both servers"; return 1; }
	[ "$(grep -c -- '--enable-fp32-lm-head' "$WORK/allopts.sh")" -eq 1 ] ||
	    { echo "  --enable-fp32-lm-head not on the prefill alone"; return 1; }
}

# All options is built when first wanted: here by / alone (no a before),
# which finds a flag no page shows; its row is greyed like any field's
# (--enable-eplb on needs expert parallelism) and Enter on it is refused;
# Tab leaves the page for the first of the page count (80x24).
all_options_search() {
	start -- || return 1
	t resize-window -t w -x 80 -y 24 && wait_for "q quit" || return 1
	keys / && wait_for "type to search" && text "enable eplb" &&
	    wait_for "--enable-eplb  [All options (prefill)]" && keys Enter &&
	    wait_for "all  All options (prefill)" &&
	    wait_re '^> --enable-eplb +\[ \] off.* on unavailable' || return 1
	keys Enter && wait_for "refused:" &&
	    wait_re '^> --enable-eplb +\[ \] off' || return 1
	keys Tab && wait_re '^ 1/11  Model & hardware' || return 1
}

# #26 point 2, All options by SGLang's own groups: a heading per group of
# server_args.py (not a row: Up from a group's first row goes to the last
# row of the group above), in SGLang's order, the group of the top row
# kept at the top when it scrolls; / finds the options by help text, value
# and flag, and Enter puts the focus under its group (80x24).
all_options_groups() {
	start -- || return 1
	t resize-window -t w -x 80 -y 24 && wait_for "q quit" || return 1
	keys a && wait_for "all  All options (prefill)" &&
	    wait_for "── Model and tokenizer ──" || return 1
	screen | grep -A1 -F -- "── Model and tokenizer ──" |
	    grep -qE '^> --tokenizer-path ' ||
	    { echo "  the first group's heading is not above its first row"; return 1; }
	keys / && wait_for "type to search" && text "lm head in fp32" &&
	    wait_for "--enable-fp32-lm-head  help: ...in FP32.  [All options (prefill)]" &&
	    keys Enter && wait_focused "--enable-fp32-lm-head" &&
	    wait_for "── Quantization and data type ──" || return 1
	screen | grep -A1 -F -- "── Quantization and data type ──" |
	    grep -qE '^  --dtype ' ||
	    { echo "  no Quantization and data type heading above --dtype"; return 1; }
	keys Up Up && wait_focused "--dtype" && keys Up &&
	    wait_focused "--json-model-override-args" || return 1
	keys / && wait_for "type to search" && text "--enable-tf32-matmul" &&
	    wait_for "--enable-tf32-matmul  [All options (prefill)]" &&
	    keys Enter && wait_focused "--enable-tf32-matmul" &&
	    keys Enter && wait_re '^> --enable-tf32-matmul +\[x\] on' || return 1
	keys / && wait_for "type to search" && text "fastokens" &&
	    wait_for "--tokenizer-backend  value: fastokens  [All options (prefill)]" &&
	    keys Enter && wait_focused "--tokenizer-backend" &&
	    wait_for "── Model and tokenizer ──" || return 1
	# The last group, and the top row's group kept above it.
	keys G && wait_focused "CUDA_VISIBLE_DEVICES" || return 1
	screen | sed -n 5p | grep -qF -- "── Other ──" ||
	    { echo "  the top row's group is not shown above it"; screen | sed 's/^/  | /'; return 1; }
}

# At 80 columns the box of choices is as wide as its widest choice: the
# Hopper and Blackwell Ultra lines keep their last names. The platform an
# accelerator settles says where it comes from. A label longer than the
# label column widens it (up to half the screen).
choices_fit_80() {
	start -- || return 1
	t resize-window -t w -x 80 -y 24 && wait_for "q quit" || return 1
	focus "GPU generation (SM)" && keys Enter &&
	    wait_for "Hopper: H100, H200, H20, H800" &&
	    wait_for "Blackwell Ultra: B300, GB300" && keys Escape &&
	    wait_gone "Blackwell Ultra" &&
	    focus "accelerator (GPU model)" && keys Enter &&
	    wait_for "H100-SXM-80GB  cuda, sm90, 80 GB" &&
	    keys Down Down Down Down Down && wait_re '> \( \) H100-SXM-80GB' &&
	    keys Enter && wait_re '^>.*H100-SXM-80GB' &&
	    wait_re 'platform +<cuda> \(from accelerator\)' &&
	    goto_page "KV transfer" &&
	    wait_for "staging buffer (heterogeneous TP)  [ ] off" ||
	    return 1
}

run "long message wraps; longer opens whole with ? (80x24)" long_message_wraps
run "choices and labels fit at 80 columns; platform from the accelerator (80x24)" choices_fit_80
run "review: status shows the whole message, ? and Enter the full text (80x24)" review_full_text
run "? teaches: explanation, terms with origins, fix (80x24)" help_origins
run "F1 key screen by purpose, redo in it and in the footer (80x24)" key_screen
run "preview full screen: runbook to the end, Kubernetes, Tab (80x24)" preview_scroll
run "preview: / find and n next (80x24)" preview_find
run "all options: /quantization to fp8 in the launch script, a to every flag (80x24)" all_options
run "all options: / alone finds a flag no page shows, greyed and refused there (80x24)" all_options_search
run "all options: under SGLang's groups, headings not rows, / by help, flag, value (80x24)" all_options_groups

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
