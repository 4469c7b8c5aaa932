# cross-role corpus case: none (any case) is no port
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0 --disaggregation-transfer-backend mooncake --disaggregation-mode prefill --host 10.0.0.1 --port 30000
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0 --disaggregation-transfer-backend mooncake --disaggregation-mode decode --host 10.0.0.2 --port 30000
python -m sglang_router.launch_router --pd-disaggregation --prefill http://10.0.0.1:30000 None --decode http://10.0.0.2:30000 --host 0.0.0.0 --port 8000
