# Case written for pdwiz after ai-dynamo/dynamo examples/backends/sglang/launch/disagg_same_gpu.sh at 15b8edd781a6b13a8ce7fbd0c4ac19d193004969 (the shapes and facts of that script, not its text).
# Exercises: a dynamo.sglang prefill and decode on one GPU by design (--mem-fraction-static ${GPU_MEM_FRACTION} each, unquoted, overridable by $1), env-prefixed workers, a cleanup function on a trap, an optional tracing export block, a free-memory check through python3 -c, the prefill in the background and the decode in the foreground.

GPU_MEM_FRACTION="0.45"
tracing=false

while [[ $# -gt 0 ]]; do
    case $1 in
        -h|--help)
            echo "$0 [--enable-otel] [FRACTION]"
            echo "FRACTION is the part of the GPU's memory each of the two workers may take (now $GPU_MEM_FRACTION);"
            echo "--enable-otel sends OpenTelemetry traces. Metrics: frontend 8080, prefill 8081, decode 8082."
            exit 0
            ;;
        --enable-otel)
            tracing=true
            shift
            ;;
        *)
            # anything else is the memory share
            GPU_MEM_FRACTION="$1"
            shift
            ;;
    esac
done

# Both workers live on this GPU: refuse to start without enough free memory.
need_gib=16
free_gib=$(python3 -c "import torch; print(torch.cuda.mem_get_info()[0] / 2**30)" 2>/dev/null)
if [ $? -ne 0 ]; then
  echo "cannot read free GPU memory (is CUDA-enabled PyTorch installed?)" >&2
  exit 1
fi
if ! python3 -c "import sys; sys.exit(float('$free_gib') < $need_gib)"; then
  echo "only ${free_gib} GiB free on the GPU, ${need_gib} GiB wanted for two workers" >&2
  exit 1
fi
echo "free GPU memory: ${free_gib} GiB"

stop_all() {
    echo "stopping frontend and prefill"
    kill $fe_pid $pre_pid 2>/dev/null || true
    wait $fe_pid $pre_pid 2>/dev/null || true
}
trap stop_all EXIT INT TERM

if [ "$tracing" = true ]; then
    export DYN_LOGGING_JSONL=true
    export OTEL_EXPORT_ENABLED=1
    export OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=${OTEL_EXPORTER_OTLP_TRACES_ENDPOINT:-http://localhost:4317}
fi

# Frontend with the KV router, serving on 8000.
OTEL_SERVICE_NAME=dynamo-frontend DYN_SYSTEM_PORT=8080 \
python3 -m dynamo.frontend --router-mode kv --http-port=8000 &
fe_pid=$!

# Prefill worker (metrics on 8081), in the background.
OTEL_SERVICE_NAME=dynamo-worker-prefill DYN_SYSTEM_PORT=8081 \
python3 -m dynamo.sglang \
  --model-path Qwen/Qwen3-0.6B \
  --served-model-name Qwen/Qwen3-0.6B \
  --disaggregation-mode prefill \
  --disaggregation-transfer-backend nixl \
  --disaggregation-bootstrap-port 12345 \
  --host 0.0.0.0 \
  --tp 1 \
  --page-size 16 \
  --trust-remote-code \
  --mem-fraction-static ${GPU_MEM_FRACTION} \
  --enable-memory-saver \
  --delete-ckpt-after-loading \
  --chunked-prefill-size 4096 \
  --max-prefill-tokens 4096 \
  --max-running-requests 2 \
  --enable-metrics &
pre_pid=$!

# Give the prefill a head start so the two do not allocate at the same moment.
sleep 5

# Decode worker (metrics on 8082), in the foreground.
OTEL_SERVICE_NAME=dynamo-worker-decode DYN_SYSTEM_PORT=8082 \
python3 -m dynamo.sglang \
  --model-path Qwen/Qwen3-0.6B \
  --served-model-name Qwen/Qwen3-0.6B \
  --disaggregation-mode decode \
  --disaggregation-transfer-backend nixl \
  --disaggregation-bootstrap-port 12345 \
  --host 0.0.0.0 \
  --tp 1 \
  --page-size 16 \
  --trust-remote-code \
  --mem-fraction-static ${GPU_MEM_FRACTION} \
  --enable-memory-saver \
  --delete-ckpt-after-loading \
  --chunked-prefill-size 4096 \
  --max-prefill-tokens 4096 \
  --max-running-requests 2 \
  --enable-metrics
