# Case written for pdwiz after ai-dynamo/dynamo examples/backends/sglang/launch/disagg_router.sh at 8a061a123bed6b7c9a2b6a6709f2c9d0ca03b267 (the shapes and facts of that script, not its text).
# Exercises: four dynamo.sglang workers (2 prefill, 2 decode) behind the KV-routing frontend, each with a single-quoted JSON --kv-events-config, a CUDA_VISIBLE_DEVICES prefix on the python line, an optional-options array spread with "${TRACE_ARGS[@]}", no --disaggregation-bootstrap-port, a cleanup trap.

tracing=false
while [[ $# -gt 0 ]]; do
    case $1 in
        --enable-otel)
            tracing=true
            shift
            ;;
        -h|--help)
            echo "$0 [--enable-otel]"
            echo "metrics: prefill workers 8081 and 8082, decode workers 8083 and 8084"
            exit 0
            ;;
        *)
            echo "not an option of this script: $1 (see --help)" >&2
            exit 1
            ;;
    esac
done

# On exit or a signal, take the background processes down too.
stop_all() {
    echo "stopping the frontend and the four workers"
    kill $fe_pid $p1_pid $p2_pid $d1_pid $d2_pid 2>/dev/null || true
    wait $fe_pid $p1_pid $p2_pid $d1_pid $d2_pid 2>/dev/null || true
}
trap stop_all EXIT INT TERM

TRACE_ARGS=()
if [ "$tracing" = true ]; then
    export DYN_LOGGING_JSONL=true
    export OTEL_EXPORT_ENABLED=1
    export OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=${OTEL_EXPORTER_OTLP_TRACES_ENDPOINT:-http://localhost:4317}
    TRACE_ARGS+=(--enable-trace --otlp-traces-endpoint localhost:4317)
fi

# The KV-routing frontend finds the prefill workers itself and routes to them;
# it listens on 8000 unless DYN_HTTP_PORT or --http-port says otherwise.
OTEL_SERVICE_NAME=dynamo-frontend \
python3 -m dynamo.frontend \
    --router-mode kv \
    --router-reset-states &
fe_pid=$!

# Prefill 1, GPU 0 (no CUDA_VISIBLE_DEVICES); KV events on 5557.
OTEL_SERVICE_NAME=dynamo-worker-prefill-1 DYN_SYSTEM_PORT=${DYN_SYSTEM_PORT1:-8081} \
python3 -m dynamo.sglang \
  --model-path deepseek-ai/DeepSeek-R1-Distill-Llama-8B \
  --served-model-name deepseek-ai/DeepSeek-R1-Distill-Llama-8B \
  --disaggregation-mode prefill \
  --disaggregation-transfer-backend nixl \
  --host 0.0.0.0 \
  --tp 1 \
  --page-size 64 \
  --trust-remote-code \
  --kv-events-config '{"publisher":"zmq","topic":"kv-events","endpoint":"tcp://*:5557"}' \
  --enable-metrics \
  "${TRACE_ARGS[@]}" &
p1_pid=$!

# Prefill 2, GPU 1; KV events on 5558.
OTEL_SERVICE_NAME=dynamo-worker-prefill-2 DYN_SYSTEM_PORT=${DYN_SYSTEM_PORT2:-8082} \
CUDA_VISIBLE_DEVICES=1 python3 -m dynamo.sglang \
  --model-path deepseek-ai/DeepSeek-R1-Distill-Llama-8B \
  --served-model-name deepseek-ai/DeepSeek-R1-Distill-Llama-8B \
  --disaggregation-mode prefill \
  --disaggregation-transfer-backend nixl \
  --host 0.0.0.0 \
  --tp 1 \
  --page-size 64 \
  --trust-remote-code \
  --kv-events-config '{"publisher":"zmq","topic":"kv-events","endpoint":"tcp://*:5558"}' \
  --enable-metrics \
  "${TRACE_ARGS[@]}" &
p2_pid=$!

# Decode 1, GPU 3; KV events on 5560.
OTEL_SERVICE_NAME=dynamo-worker-decode-1 DYN_SYSTEM_PORT=${DYN_SYSTEM_PORT3:-8083} \
CUDA_VISIBLE_DEVICES=3 python3 -m dynamo.sglang \
  --model-path deepseek-ai/DeepSeek-R1-Distill-Llama-8B \
  --served-model-name deepseek-ai/DeepSeek-R1-Distill-Llama-8B \
  --disaggregation-mode decode \
  --disaggregation-transfer-backend nixl \
  --host 0.0.0.0 \
  --tp 1 \
  --page-size 64 \
  --trust-remote-code \
  --kv-events-config '{"publisher":"zmq","topic":"kv-events","endpoint":"tcp://*:5560"}' \
  --enable-metrics \
  "${TRACE_ARGS[@]}" &
d1_pid=$!

# Decode 2, GPU 2, in the foreground; KV events on 5559.
OTEL_SERVICE_NAME=dynamo-worker-decode-2 DYN_SYSTEM_PORT=${DYN_SYSTEM_PORT4:-8084} \
CUDA_VISIBLE_DEVICES=2 python3 -m dynamo.sglang \
  --model-path deepseek-ai/DeepSeek-R1-Distill-Llama-8B \
  --served-model-name deepseek-ai/DeepSeek-R1-Distill-Llama-8B \
  --disaggregation-mode decode \
  --disaggregation-transfer-backend nixl \
  --host 0.0.0.0 \
  --tp 1 \
  --page-size 64 \
  --trust-remote-code \
  --kv-events-config '{"publisher":"zmq","topic":"kv-events","endpoint":"tcp://*:5559"}' \
  --enable-metrics \
  "${TRACE_ARGS[@]}"
