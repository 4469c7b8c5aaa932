# the prefill on 10.0.0.1 gives no --host, so SGLang serves 127.0.0.1 only: the router's 10.0.0.1 URL reaches nothing
PDWIZ_NODE_HOST=10.0.0.1 python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0 --disaggregation-mode prefill --port 30000
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0 --disaggregation-mode decode --host 10.0.0.2 --port 30000
python -m sglang_router.launch_router --pd-disaggregation --prefill http://10.0.0.1:30000 --decode http://10.0.0.2:30000 --host 10.0.0.9
