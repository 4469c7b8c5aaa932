# Case written for pdwiz after kvcache-ai/Mooncake scripts/tone_tests/scripts/test_epd_sglang.sh at 1dfb6942fef80d381866991d0559bff307c2c28e (the shapes and facts of that script, not its text).
# Exercises: an encoder/prefill/decode test whose SGLang commands are built by helpers of a sourced common.sh (launch_sglang_server, launch_sglang_router), so the file itself holds no SGLang command; per-role options in strings, a model array, a case dispatch, an unquoted here-document, curl continued inside $( ), ssh to the decode host.

case_id="test_epd_sglang"
TEST_TYPE="double"
SUPPORT_MODELS=("Qwen/Qwen2.5-VL-7B-Instruct")

BASE_DIR=${BASE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && cd .. && pwd)}
# launch_sglang_server, launch_sglang_router and the other helpers used below.
. ${BASE_DIR}/scripts/common.sh

detect_remote_mode

pid_dir=${BASE_DIR}/run/pids/${case_id}
mkdir -p "$pid_dir"

# Start one part of the E/P/D chain: encoder and prefill here (LOCAL_IP), decode on REMOTE_IP.
start_part()
{
    local part=$1 model=$2 model_dir=$3
    local host port opts log_file
    local logs="/test_run/run/logs/$case_id/$model_dir"
    local ready="The server is fired up and ready to roll!"

    case $part in
        "encoder")
            host=$LOCAL_IP; port=30000
            log_file="$logs/encoder.log"
            opts="--encoder-only --encoder-transfer-backend mooncake --tp-size 2"
            ready="Application startup complete."
            ;;
        "prefill")
            host=$LOCAL_IP; port=30002
            log_file="$logs/sglang_server_prefill.log"
            opts="--disaggregation-mode prefill --language-only --encoder-urls http://${LOCAL_IP}:30000 --tp-size 2 --encoder-transfer-backend mooncake --base-gpu-id=4"
            ;;
        "decode")
            host=$REMOTE_IP; port=30003
            log_file="$logs/sglang_server_decode.log"
            opts="--disaggregation-mode decode --tp-size 2 --base-gpu-id=6"
            ;;
        *)
            echo "no such part: $part" >&2
            return 1
            ;;
    esac

    echo "starting the $part on $host:$port"
    # common.sh assembles and runs the server command from these pieces（model, address, options）.
    launch_sglang_server "$model" "$host" "$port" "$log_file" "$part" "$opts" "$ready" \
        || { echo "the $part did not start" >&2; return 1; }
}

start_router()
{
    local out="/test_run/run/logs/$case_id/$1/load_balancer.log"
    # prefill URL, decode URL, bind address, port, log
    launch_sglang_router "http://${LOCAL_IP}:30002" "http://${REMOTE_IP}:30003" "0.0.0.0" "8000" "$out" \
        || { echo "the router did not start" >&2; return 1; }
}

# Ask the router what is in a picture; a reply naming a cat passes.
ask()
{
    local model_dir=$1
    local picture=${2:-"${BASE_DIR}/assets/test_cat.jpg"}
    local body reply code
    [ -f "$picture" ] || { echo "missing picture: $picture" >&2; return 1; }
    body=$(mktemp)

    python3 << EOF
import base64, json
with open('$picture', 'rb') as fh:
    b64 = base64.b64encode(fh.read()).decode()
question = {'type': 'text', 'text': 'Which animal does this picture show?'}
picture = {'type': 'image_url', 'image_url': {'url': f'data:image/jpeg;base64,{b64}'}}
json.dump({'model': 'default', 'temperature': 0, 'max_tokens': 64,
           'messages': [{'role': 'user', 'content': [question, picture]}]},
          open('$body', 'w'))
print("request written ✓")
EOF
    if [ $? -ne 0 ]; then
        rm -f "$body"
        return 1
    fi

    reply=$(curl -s -w "\n%{http_code}" --max-time 60 \
      -X POST http://127.0.0.1:8000/v1/chat/completions \
      -H "Content-Type: application/json" \
      -d @$body)
    rm -f "$body"

    code=$(echo "$reply" | tail -n 1)
    reply=$(echo "$reply" | head -n -1)
    echo "HTTP $code: $reply"
    echo "$reply" > $BASE_DIR/run/logs/$case_id/$model_dir/curl_response.log
    validate_api_response "$reply" "$code" ".choices[0].message.content" "cat|kitten|feline"
}

stop_parts() {
    cleanup_model_processes "$pid_dir" "$case_id"
}

one_model()
{
    local model=$1 model_dir rc=1 part
    model_dir=$(sanitize_model_name "$model")
    setup_log_directory_dual "$case_id" "$model_dir"

    # order: encoder → prefill (here), decode (remote), router, request
    local here_parts=("encoder" "prefill")
    for part in "${here_parts[@]}"; do
        start_part "$part" "$model" "$model_dir" || break
    done && \
    ${SSH_CMD} $REMOTE_IP "source $REMOTE_TEST_DIR/run/.shrc; cd \$BASE_DIR/scripts && ./$case_id.sh start_component decode $model $model_dir" && \
    start_router "$model_dir" && \
    { sleep 5; ask "$model_dir"; rc=$?; }

    stop_parts
    sleep 2
    return $rc
}

run_all()
{
    [ -n "$LOCAL_IP" ] && [ -n "$REMOTE_IP" ] || { echo "LOCAL_IP and REMOTE_IP must be set" >&2; return 1; }
    local m failed=0
    for m in "${SUPPORT_MODELS[@]}"; do
        one_model "$m" || { echo "$case_id failed for $m" >&2; failed=1; }
    done
    return $failed
}

report()
{
    local verdict=Fail
    collect_and_validate_model_results "SUPPORT_MODELS" "sglang_server_decode.log" "$case_id" "cat|kitten|feline" && verdict=Pass
    save_test_result "$case_id" "$verdict" "${BASE_DIR}/${TEST_CASE_RESULT_PATH}"
    [ "$verdict" = Pass ]
}

case "$1" in
    "start_component")
        shift
        start_part "$@"
        exit $?
        ;;
    "stop_server")
        stop_parts
        exit 0
        ;;
    *)
        if [ "${BASH_SOURCE[0]}" == "${0}" ]; then
            run_all && report || report
        fi
        ;;
esac
