# ops.sh - scenarios for what an operator test found (80x24, LANG=C,
# NO_COLOR=1). Sourced by run.sh, after its helpers.

# start_op [ARGS]: ./pdwiz ARGS at 80x24, LANG=C, NO_COLOR=1 (no ARGS:
# the quick start).
start_op() {
	t kill-session -t w 2>/dev/null
	t new-session -d -s w -x 80 -y 24 \
	    "cd $WORK && env TERM=screen LANG=C LC_ALL=C NO_COLOR=1 ESCDELAY=25 PDWIZ_DATADIR=$ROOT $PDWIZ $* ; echo \"[exit \$?]\"; sleep 600"
	wait_re 'quick start: a new PD deployment| error| q close|\[exit [0-9]+\]' ||
	    return 1
	KS=0
}

# quick_op: the quick start's 1P1D of Llama 8B (TP 4 saved as a shared
# value), on the review.
quick_op() {
	start_op || return 1
	text "meta-llama/Llama-3.1-8B-Instruct" &&
	    wait_for "1P1D: each instance TP 4 on 4 GPUs" &&
	    keys Enter Enter Enter Enter Enter Enter && wait_for "11/11  Review"
}

# B1: a role's TP 1 under the shared TP 4 is the role's own 1, though 1
# is SGLang's default; the other role keeps the shared 4.
op_role_tp1() {
	quick_op || return 1
	goto_page "Parallelism (prefill)" && focus "tensor parallel" &&
	    keys Enter && wait_for "(empty = default)" && keys C-u &&
	    text "1" && keys Enter && wait_for "tensor parallel (TP) set" &&
	    wait_re '^> tensor parallel \(TP\) +1( |$)' &&
	    keys '?' && wait_for "effective: 1" && keys Escape &&
	    wait_gone "effective: 1" &&
	    goto_page "Parallelism (decode)" &&
	    wait_re 'tensor parallel \(TP\) +4( |$)' || return 1
}

run "B1: a role's TP 1 under a shared TP 4 is kept (80x24, LANG=C)" op_role_tp1

# E3: a shared field whose roles differ shows the prefill's value; Enter on
# it pre-filled sets it on both (it was "unchanged", the decode empty).
op_split_enter_both() {
	cat > "$WORK/ib.yaml" <<'YAML'
pdwiz: 1
name: ib
model:
  path: meta-llama/Llama-3.1-8B-Instruct
roles:
  prefill:
    instances: 1
    gpus_per_node: 1
    hosts: ["127.0.0.1"]
    port: 30000
    options:
      disaggregation_ib_device: mlx5_0
  decode:
    instances: 1
    gpus_per_node: 1
    hosts: ["127.0.0.1"]
    port: 30001
  router:
    hosts: ["127.0.0.1"]
    port: 8000
YAML
	start_op ib.yaml || return 1
	goto_page "KV transfer" && focus "IB devices" &&
	    wait_re '^> IB devices \(mooncake\) +mlx5_0 \(prefill; decode: \(none\)' &&
	    keys Enter && wait_for "[mlx5_0]" && keys Enter &&
	    wait_for "mlx5_0 on both roles" &&
	    wait_re '^> IB devices \(mooncake\) +mlx5_0 *$' || return 1
}

run "E3: Enter on a split field's pre-filled value sets it on both (80x24, LANG=C)" op_split_enter_both

# F2: the warning "No IB devices specified" (tb-ib-none, on both roles)
# has the fix pdwiz check offers: f from its review row applies it on both
# (verified: the warning is gone), with r back to the review; from the
# field as well (undone first).
op_fix_ib_warning() {
	cat > "$WORK/noib.sh" <<'SH'
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --port 30000
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --port 30001 --base-gpu-id 1
python -m sglang_router.launch_router --pd-disaggregation --prefill http://127.0.0.1:30000 8998 --decode http://127.0.0.1:30001 --port 8000
SH
	start_op --import noib.sh || return 1
	goto_page Review && wait_for " 2 warnings" &&
	    focus "No IB devices specified" && keys f &&
	    wait_for "applied: pin the RDMA NICs" &&
	    wait_for "[r: back to the" && wait_for " 0 warnings" &&
	    keys r && wait_for "11/11  Review" && ! screen | grep -q "No IB dev" &&
	    keys u && wait_for " 2 warnings" &&
	    goto_page "KV transfer" && focus "IB devices" && keys f &&
	    wait_for "applied: pin the RDMA NICs" && wait_for " 0 warnings" &&
	    wait_re '^> IB devices \(mooncake\) +mlx5_0 *$' || return 1
}

# F1: the router does not list decode instance 0 (xs-router-missing): f
# from its review row lists every instance on the router, as pdwiz check
# offers; from the router lists field as well.
op_fix_router_missing() {
	cat > "$WORK/nodec.sh" <<'SH'
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --port 30000 --disaggregation-ib-device mlx5_0
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --port 30001 --base-gpu-id 1 --disaggregation-ib-device mlx5_0
python -m sglang_router.launch_router --pd-disaggregation --prefill http://127.0.0.1:30000 8998 --port 8000
SH
	start_op --import nodec.sh || return 1
	goto_page Review && wait_for " 1 warning" &&
	    focus "is not listed b" && keys f &&
	    wait_for "applied: list every instance on the router" &&
	    wait_for "[r: back to the" && wait_for " 0 warnings" &&
	    keys r && wait_for "11/11  Review" &&
	    ! screen | grep -q "not listed by the router" &&
	    keys u && wait_for " 1 warning" &&
	    goto_page "Router" && focus "router lists" && keys f &&
	    wait_for "applied: list every instance on the router" &&
	    wait_for " 0 warnings" || return 1
}

run "F2: f fixes the no-IB-device warning from its review row and field (80x24, LANG=C)" op_fix_ib_warning
run "F1: f lists every instance on the router from the review row and field (80x24, LANG=C)" op_fix_router_missing

# S1: s on the file the wizard opened just saves it (no "Overwrite it?");
# a different file that exists is asked about, and n says "not saved" and
# leaves it as it was.
op_save_opened() {
	cat > "$WORK/mine.yaml" <<'YAML'
pdwiz: 1
model: {path: meta-llama/Llama-3.1-8B-Instruct}
roles:
  prefill: {instances: 1, hosts: [127.0.0.1]}
  decode: {instances: 1, hosts: [127.0.0.1]}
  router: {}
YAML
	echo "other" > "$WORK/other.yaml"
	start_op mine.yaml || return 1
	goto_page "Parallelism (prefill)" && focus "tensor parallel" &&
	    keys Enter && wait_for "(empty = default)" && keys C-u &&
	    text "2" && keys Enter && wait_for "[modified]" &&
	    keys s && wait_for "save deployment to: [mine.yaml]" &&
	    keys Enter && wait_for "saved mine.yaml" && wait_gone "[modified]" &&
	    ! screen | grep -q "Overwrite" || return 1
	grep -q "tp_size: 2" "$WORK/mine.yaml" ||
	    { echo "  mine.yaml has no tp_size: 2"; return 1; }
	keys s && wait_for "save deployment to: [mine.yaml]" && keys C-u &&
	    text "other.yaml" && keys Enter &&
	    wait_for "other.yaml exists. Overwrite it? (y/n)" && keys n &&
	    wait_for "not saved" || return 1
	[ "$(cat "$WORK/other.yaml")" = "other" ] ||
	    { echo "  other.yaml was changed"; return 1; }
}

run "S1: s on the opened file just saves; another existing file is asked (80x24, LANG=C)" op_save_opened

# V2: an import gap (prefill binds 0.0.0.0: its machine is not stated)
# leaves the checks that need the machine not checked; the header counts
# them as pdwiz check of the saved file does (a port the script computes
# at run time: the router checks that need it), the review lists them, and
# the gap's own row is a note whose help says how to resolve it.
op_import_gap_counts() {
	cat > "$WORK/gap.sh" <<'SH'
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --host 0.0.0.0 --port $PREFILL_PORT --disaggregation-ib-device mlx5_0
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --host 127.0.0.1 --port 30001 --base-gpu-id 1 --disaggregation-ib-device mlx5_0
python -m sglang_router.launch_router --pd-disaggregation --prefill http://127.0.0.1:30000 8998 --decode http://127.0.0.1:30001 --port 8000
SH
	rm -f "$WORK/gap.yaml"
	start_op --import gap.sh || return 1
	wait_for "Imported gap.sh with these gaps" && keys q &&
	    wait_for "0 errors 0 warnings 3 not checked" &&
	    goto_page Review && keys G &&
	    wait_re '^> deployment note +-> gap\.sh:1: prefill: the machine' &&
	    keys '?' && wait_for "To resolve it" && keys q &&
	    wait_gone "To resolve it" || return 1
	[ "$(screen | grep -c 'deployment not checked')" -eq 3 ] ||
	    { echo "  the review does not list 3 not checked"; return 1; }
	keys s && wait_for "save deployment to: [gap.yaml]" && keys Enter &&
	    wait_for "saved gap.yaml" || return 1
	_chk=$(cd "$WORK" && PDWIZ_DATADIR=$ROOT $PDWIZ check gap.yaml | tail -1)
	echo "  pdwiz check gap.yaml: $_chk"
	case "$_chk" in "0 errors, 0 warnings, 3 not checked,"*) ;;
	*) return 1 ;; esac
	# The import's remarks (no decode, no router command) are notes:
	# the header's warnings are those pdwiz check of the saved file finds.
	printf '%s\n' 'python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --tp 2 --port 30000' \
	    > "$WORK/pf.sh"
	rm -f "$WORK/pf.yaml"
	start_op --import pf.sh || return 1
	keys q && wait_for "pf.yaml (from pf.sh" && goto_page Review &&
	    keys G && wait_re "deployment note +no decode command in the" &&
	    keys s && wait_for "save deployment to: [pf.yaml]" && keys Enter &&
	    wait_for "saved pf.yaml" || return 1
	_hdr=$(screen | sed -n 1p | grep -o '[0-9]* errors\? [0-9]* warnings\?')
	_chk=$(cd "$WORK" && PDWIZ_DATADIR=$ROOT $PDWIZ check pf.yaml |
	    grep -o '^[0-9]* errors\?, [0-9]* warnings\?' | tr -d ,)
	echo "  header: $_hdr; pdwiz check pf.yaml: $_chk"
	[ -n "$_hdr" ] && [ "$_hdr" = "$_chk" ]
}

run "V2: import gaps: header, review and pdwiz check agree on not checked (80x24, LANG=C)" op_import_gap_counts

# Q2: 2P1D on one 8-GPU node fits at TP 2 (6 of the 8 GPUs; the other 2
# idle), though 3 instances do not share 8 GPUs evenly; a refusal goes as
# soon as the answer is edited.
op_quick_2p1d_one_node() {
	rm -f "$WORK/q2.sh"
	start_op || return 1
	text "meta-llama/Llama-3.1-8B-Instruct" &&
	    wait_for "1P1D: each instance TP 4 on 4 GPUs" &&
	    keys Down Down Down Down Down && wait_re '^> shape \(xPyD\)' &&
	    text "9P9D" && keys Enter &&
	    wait_for "18 instances do not fit 1 node of 8 GPUs" &&
	    keys BSpace BSpace BSpace BSpace &&
	    wait_gone "18 instances do not fit" && text "2P1D" &&
	    wait_for "2P1D: each instance TP 2 on 2 GPUs of H100-SXM-80GB (6 of 8 GPUs used)" &&
	    keys Enter && wait_for "11/11  Review" &&
	    wait_for " 0 errors" &&
	    wait_re '^ 127\.0\.0\.1 +P0 P0 P1 P1 D0 D0' || return 1
	keys e && wait_for "export:" && keys 1 && wait_for "to: [" &&
	    keys C-u && text "q2.sh" && keys Enter && wait_for "exported shell" ||
	    return 1
	check_clean q2.sh
}

run "Q2: quick start 2P1D on one 8-GPU node: TP 2, 2 GPUs idle; stale refusal goes (80x24, LANG=C)" op_quick_2p1d_one_node

# C1: a search hit wider than the screen ends with the cut mark (~ in C)
# instead of stopping mid-word; C2: a status wrapped past its lines says so.
op_search_cut() {
	start_op || return 1
	keys Escape && wait_for "q quit" || return 1
	keys / && wait_for "type to search" && text "base-only" &&
	    wait_re '^ SGLANG_ENABLE_CP_V2  help: .*~$' || return 1
	# Every line of the hit list fits or is marked.
	screen | sed -n '5,20p' | awk 'length($0) >= 79 && $0 !~ /~ *$/ { bad = 1 } END { exit bad }' ||
	    { echo "  a hit cut without its mark"; return 1; }
	keys Escape && wait_gone "matches (Enter jumps)"
}

run "C1: a search hit too wide for the screen ends with a cut mark (80x24, LANG=C)" op_search_cut

# F3: the memory error on roles given 2 GPUs per node on 8-GPU machines:
# f still offers more TP on the same node first, with the GPUs per node
# it needs in the same change (it offered another accelerator first).
op_fit_fix_gpus_per_node() {
	cat >"$WORK/fit2.yaml" <<'YML'
pdwiz: 1
name: fit2
gpus_per_host: 8
model:
  path: meta-llama/Llama-3.1-70B-Instruct
  facts: {gpu: H100-SXM-80GB}
shared:
  options: {disaggregation_transfer_backend: mooncake, disaggregation_ib_device: mlx5_0}
roles:
  prefill: {instances: 1, gpus_per_node: 2, hosts: [10.0.0.1]}
  decode: {instances: 1, gpus_per_node: 2, hosts: [10.0.0.2]}
  router: {}
YML
	start_op fit2.yaml || return 1
	wait_for " 2 errors" && keys r && wait_for "11/11  Review" &&
	    wait_re '^> prefill +ERROR' && keys f &&
	    wait_for "TP 4 (of its 8 GPUs) on both" &&
	    wait_for "roles, 4 GPUs per node" &&
	    wait_for "prefill: gpus_per_node: 2 -> 4" &&
	    keys y && wait_for "applied: more tensor parallelism" &&
	    wait_for " 0 errors" || return 1
	keys s && wait_for "save deployment to: [fit2.yaml]" && keys Enter &&
	    wait_for "saved" || return 1
	grep -q 'gpus_per_node: 4' "$WORK/fit2.yaml" && grep -q 'tp_size: 4' "$WORK/fit2.yaml" ||
	    { echo "  the saved file: $(grep -n 'gpus_per_node\|tp_size' "$WORK/fit2.yaml" | tr '\n' ' ')"; return 1; }
}

run "F3: f on a memory error with 2 GPUs per node: TP 4 and 4 GPUs per node first (80x24, LANG=C)" op_fit_fix_gpus_per_node
