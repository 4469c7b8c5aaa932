# two prefills whose router entries give no bootstrap port: the decode uses
# its own, the default 8998, not the prefills' 9000
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0 --disaggregation-mode prefill --host 10.0.0.1 --port 30000 --disaggregation-bootstrap-port 9000
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0 --disaggregation-mode prefill --host 10.0.0.3 --port 30000 --disaggregation-bootstrap-port 9000
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0 --disaggregation-mode decode --host 10.0.0.2 --port 30000
python -m sglang_router.launch_router --pd-disaggregation --prefill http://10.0.0.1:30000 --prefill http://10.0.0.3:30000 --decode http://10.0.0.2:30000 --host 10.0.0.9
