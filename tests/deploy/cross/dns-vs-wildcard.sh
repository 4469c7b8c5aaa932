# the router names pods by DNS name, the servers bind 0.0.0.0
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0 --disaggregation-mode prefill --host 0.0.0.0 --port 30000
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0 --disaggregation-mode decode --host 0.0.0.0 --port 30000
python -m sglang_router.launch_router --pd-disaggregation --prefill http://prefill-0.prefill.svc:30000 --decode http://decode-0.decode.svc:30000
