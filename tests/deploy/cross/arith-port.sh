# ports computed by shell arithmetic in a loop
BASE_PORT=30000
for i in 0 1; do
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0 --disaggregation-mode prefill --port $((BASE_PORT + i)) --base-gpu-id 0
done
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0 --disaggregation-mode decode --port 30000 --base-gpu-id 4
