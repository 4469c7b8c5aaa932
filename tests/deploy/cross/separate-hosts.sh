# separate machines stated by PDWIZ_NODE_HOST, both binding 0.0.0.0:30000
PDWIZ_NODE_HOST=10.0.0.1 python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0 --disaggregation-mode prefill --host 0.0.0.0 --port 30000
PDWIZ_NODE_HOST=10.0.0.2 python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0 --disaggregation-mode decode --host 0.0.0.0 --port 30000
python -m sglang_router.launch_router --pd-disaggregation --prefill http://10.0.0.1:30000 --decode http://10.0.0.2:30000 --host 10.0.0.1 --port 8000
