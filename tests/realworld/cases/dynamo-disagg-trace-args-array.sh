# Case written for pdwiz after ai-dynamo/dynamo examples/backends/sglang/launch/disagg.sh at 8a150cc3084b371acdf7d75f634d8eea7e51a42d (the shapes and facts of that script, not its text).
# Exercises: a bash array of optional SGLang options (empty, or filled with += under --enable-otel) spread with "${TRACE_ARGS[@]}" into two dynamo.sglang workers; a comment quoting options between backquotes; the decode's GPUs set by a CUDA_VISIBLE_DEVICES prefix after a continued env line.

tracing=false
while [[ $# -gt 0 ]]; do
    case $1 in
        --enable-otel)
            tracing=true
            shift
            ;;
        -h|--help)
            echo "$0 [--enable-otel]   (metrics: prefill 8081, decode 8082)"
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
    echo "stopping frontend and prefill"
    kill $fe_pid $pre_pid 2>/dev/null || true
    wait $fe_pid $pre_pid 2>/dev/null || true
}
trap stop_all EXIT INT TERM

# Tracing options for both workers; none unless asked for.
TRACE_ARGS=()
if [ "$tracing" = true ]; then
    export DYN_LOGGING_JSONL=true
    export OTEL_EXPORT_ENABLED=1
    export OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=${OTEL_EXPORTER_OTLP_TRACES_ENDPOINT:-http://localhost:4317}
    TRACE_ARGS+=(--enable-trace --otlp-traces-endpoint localhost:4317)
fi

# Frontend on its default HTTP port (8000, or DYN_HTTP_PORT).
OTEL_SERVICE_NAME=dynamo-frontend \
python3 -m dynamo.frontend &
fe_pid=$!

#note: SGLang asserts for dp size > 1 that the prefill has `--load-balance-method round_robin` and the decode `--prefill-round-robin-balance`; both run dp 1 here.

# Prefill worker; the metrics port comes from DYN_SYSTEM_PORT1 when a harness sets it.
OTEL_SERVICE_NAME=dynamo-worker-prefill DYN_SYSTEM_PORT=${DYN_SYSTEM_PORT1:-8081} \
python3 -m dynamo.sglang \
  --model-path Qwen/Qwen3-0.6B \
  --served-model-name Qwen/Qwen3-0.6B \
  --disaggregation-mode prefill \
  --disaggregation-transfer-backend nixl \
  --disaggregation-bootstrap-port 12345 \
  --host 0.0.0.0 \
  --port 40000 \
  --tp 1 \
  --page-size 16 \
  --trust-remote-code \
  --enable-metrics \
  "${TRACE_ARGS[@]}" &
pre_pid=$!

# Decode worker on GPUs 2 and 3, in the foreground.
OTEL_SERVICE_NAME=dynamo-worker-decode DYN_SYSTEM_PORT=${DYN_SYSTEM_PORT2:-8082} \
CUDA_VISIBLE_DEVICES=2,3 python3 -m dynamo.sglang \
  --model-path Qwen/Qwen3-0.6B \
  --served-model-name Qwen/Qwen3-0.6B \
  --disaggregation-mode decode \
  --disaggregation-transfer-backend nixl \
  --disaggregation-bootstrap-port 12345 \
  --host 0.0.0.0 \
  --tp 1 \
  --page-size 16 \
  --trust-remote-code \
  --enable-metrics \
  "${TRACE_ARGS[@]}"
