# cross-role corpus case: both on one machine, the prefill on SGLang's default 127.0.0.1
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0 --disaggregation-transfer-backend mooncake --disaggregation-mode prefill --port 30000
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0 --disaggregation-transfer-backend mooncake --disaggregation-mode decode --port 30001 --base-gpu-id 1
python -m sglang_router.launch_router --pd-disaggregation --prefill http://127.0.0.1:30000 --decode http://127.0.0.1:30001 --port 8000
