# Case written for pdwiz after sgl-project/sglang scripts/ci/ci_start_disaggregation_servers.sh at cfe15c590ca972832839d26331a7d88168cc09bf (the shapes and facts of that script, not its text).
# Exercises: four prefills and four decodes started in two for loops over {0..3} and {4..7}, hosts 127.0.0.$((i + 1)), ports $((30001 + i)) and bootstrap ports $((9001 + i)) worked out at run time, an IB device picked by a shell function at run time, env prefixes on a continued line, & inside the loop, a polling loop and a final wait; no router.

MODEL_PATH="/raid/models/meta-llama/Llama-3.1-8B-Instruct"

# Print the first mlx5 device whose port is up.
pick_ib_nic() {
    local nic
    for nic in mlx5_{0..11}; do
        ibv_devinfo "$nic" >/dev/null 2>&1 || continue
        if ibv_devinfo "$nic" | grep -q "PORT_ACTIVE"; then
            printf '%s\n' "$nic"
            return 0
        fi
    done
    echo "none of mlx5_0..mlx5_11 has an active port" >&2
    return 1
}

ib_nic=$(pick_ib_nic)
echo "IB device for the KV transfer: $ib_nic"

# Prefill servers: GPUs 0-3, one loopback address each.
for i in {0..3}; do
  http_port=$((30001 + i))
  boot_port=$((9001 + i))
  addr="127.0.0.$((i + 1))"
  echo "prefill $i -> $addr:$http_port, bootstrap $boot_port"
  CUDA_VISIBLE_DEVICES=$i SGLANG_HOST_IP=$addr \
  python3 -m sglang.launch_server \
    --model-path "$MODEL_PATH" \
    --disaggregation-mode prefill \
    --disaggregation-ib-device "$ib_nic" \
    --disaggregation-bootstrap-port "$boot_port" \
    --host "$addr" \
    --port "$http_port" &
done

# Decode servers: GPUs 4-7, each sees only its own GPU (hence base GPU 0).
for i in {4..7}; do
  http_port=$((30001 + i))
  addr="127.0.0.$((i + 1))"
  echo "decode $i -> $addr:$http_port"
  CUDA_VISIBLE_DEVICES=$i SGLANG_HOST_IP=$addr \
  python3 -m sglang.launch_server \
    --model-path "$MODEL_PATH" \
    --disaggregation-mode decode \
    --disaggregation-ib-device "$ib_nic" \
    --host "$addr" \
    --port "$http_port" \
    --base-gpu-id 0 &
done

# Poll /health of all eight (127.0.0.N:3000N) every 10 s, for at most 300 s.
limit=300
began=$(date +%s)
while :; do
    waited=$(( $(date +%s) - began ))
    if [ "$waited" -ge "$limit" ]; then
        echo "servers still not healthy after ${limit}s" >&2
        exit 1
    fi
    up=0
    for n in {1..8}; do
        curl -s -f "http://127.0.0.$n:$((30000 + n))/health" >/dev/null 2>&1 && up=$((up + 1))
    done
    echo "$up of 8 healthy after ${waited}s"
    [ "$up" -eq 8 ] && break
    sleep 10
done

# A router is started elsewhere; keep the servers in the foreground.
echo "all eight PD servers are up"
wait
