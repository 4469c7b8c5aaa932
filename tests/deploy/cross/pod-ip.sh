# Kubernetes downward API: the servers bind $(POD_IP)
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0 --disaggregation-mode prefill --host $(POD_IP) --port 30000
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0 --disaggregation-mode decode --host $(POD_IP) --port 30000
python -m sglang_router.launch_router --pd-disaggregation --prefill http://prefill-0.svc:30000 --decode http://decode-0.svc:30000
