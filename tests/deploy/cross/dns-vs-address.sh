# the router names DNS names, the servers bind addresses of their own
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0 --disaggregation-mode prefill --host 10.0.0.1 --port 30000
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0 --disaggregation-mode decode --host 10.0.0.2 --port 30000
python -m sglang_router.launch_router --pd-disaggregation --prefill http://prefill-0.svc:30000 --decode http://decode-0.svc:30000 --host 10.0.0.9
