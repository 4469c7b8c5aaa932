# Case written for pdwiz after ai-dynamo/dynamo examples/backends/sglang/launch/disagg_dp_attn.sh at 4a79620306ac7d57c09e548e75cc2686f8d6e476 (the shapes and facts of that script, not its text).
# Exercises: two dynamo.sglang workers (no SGLang HTTP port) with DP attention deliberately sharing one GPU pair, rendezvous and bootstrap values with ${VAR:-default} fallbacks, memory options from a sourced helper ($GPU_MEM_ARGS, unquoted), case patterns that look like options, a trap, & backgrounding.
# GPUs needed: 2 (both workers use the same two).

set -e

here="$(dirname "$(readlink -f "$0")")"
# Helpers shared by the Dynamo launch examples: memory options, banner, readiness waits.
source "$here/../../../common/gpu_utils.sh"
source "$here/../../../common/launch_utils.sh"

served="silence09/DeepSeek-R1-Small-2layers"
while [[ $# -gt 0 ]]; do
    case $1 in
        -h|--help)
            echo "$0 [--model NAME]   P/D pair, DP attention, one shared GPU pair (model: $served)"
            exit 0
            ;;
        --model)
            if [[ $# -lt 2 || "$2" == -* ]]; then
                echo "--model needs a model name" >&2
                exit 1
            fi
            served="$2"
            shift 2
            ;;
        *)
            echo "not an option of this script: $1 (see --help)" >&2
            exit 1
            ;;
    esac
done

# Stop every process of the group when the script exits.
trap 'echo stopping workers; kill 0' EXIT

frontend_port="${DYN_HTTP_PORT:-8000}"
bootstrap="${DYN_DISAGG_BOOTSTRAP_PORT:-12345}"
# Each --dist-init-addr claims its port and the six above it; ten apart keeps
# the prefill's block clear of the decode's. A test harness may pass its own.
p_rendezvous="${SGLANG_PREFILL_DIST_INIT_ADDR:-127.0.0.1:29500}"
d_rendezvous="${SGLANG_DECODE_DIST_INIT_ADDR:-127.0.0.1:29510}"
GPU_MEM_ARGS=$(build_sglang_gpu_mem_args)

print_launch_banner "P/D with DP attention on 2 shared GPUs" "$served" "$frontend_port"

python3 -m dynamo.frontend &

# Prefill: tp 2 = dp 2, the attention replicas spread over the pair.
DYN_SYSTEM_PORT=${DYN_SYSTEM_PORT1:-8081} \
python3 -m dynamo.sglang \
  --model-path "$served" \
  --served-model-name "$served" \
  --disaggregation-mode prefill \
  --disaggregation-transfer-backend nixl \
  --disaggregation-bootstrap-port "$bootstrap" \
  --load-balance-method round_robin \
  --tp 2 \
  --dp-size 2 \
  --enable-dp-attention \
  --dist-init-addr "$p_rendezvous" \
  --nccl-port "${DYN_SYSTEM_PORT3:-8083}" \
  --page-size 64 \
  --context-length 1024 \
  --trust-remote-code \
  --disable-cuda-graph \
  --disable-piecewise-cuda-graph \
  --enable-metrics \
  $GPU_MEM_ARGS &

# One worker loads at a time on the shared GPUs; a slow start is left to the
# deployment's own readiness checks, hence "|| true".
wait_for_ready "http://localhost:${DYN_SYSTEM_PORT1:-8081}/health" 120 || true

# Decode: the same shape on the same pair, its own rendezvous block and NCCL port.
DYN_SYSTEM_PORT=${DYN_SYSTEM_PORT2:-8082} \
python3 -m dynamo.sglang \
  --model-path "$served" \
  --served-model-name "$served" \
  --disaggregation-mode decode \
  --disaggregation-transfer-backend nixl \
  --disaggregation-bootstrap-port "$bootstrap" \
  --prefill-round-robin-balance \
  --tp 2 \
  --dp-size 2 \
  --enable-dp-attention \
  --dist-init-addr "$d_rendezvous" \
  --nccl-port "${DYN_SYSTEM_PORT4:-8084}" \
  --page-size 64 \
  --context-length 1024 \
  --trust-remote-code \
  --disable-cuda-graph \
  --disable-piecewise-cuda-graph \
  --enable-metrics \
  $GPU_MEM_ARGS &

wait_any_exit
