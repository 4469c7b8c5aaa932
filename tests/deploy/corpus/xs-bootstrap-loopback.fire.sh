# cross-role corpus case: the prefill gives no --host (SGLang binds 127.0.0.1) on 10.0.0.1
PDWIZ_NODE_HOST=10.0.0.1 python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0 --disaggregation-transfer-backend mooncake --disaggregation-mode prefill --port 30000
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0 --disaggregation-transfer-backend mooncake --disaggregation-mode decode --host 10.0.0.2 --port 30000
