# cross-role corpus case: a 2-node prefill meeting at 10.0.0.1:5000
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-ib-device mlx5_0 --tp 2 --nnodes 2 --node-rank 0 --dist-init-addr 10.0.0.1:5000 --host 10.0.0.1
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-ib-device mlx5_0 --tp 2 --nnodes 2 --node-rank 1 --dist-init-addr 10.0.0.1:5000 --host 10.0.0.2
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-ib-device mlx5_0 --tp 2 --host 10.0.0.3
python -m sglang_router.launch_router --pd-disaggregation --prefill http://10.0.0.1:30000 --decode http://10.0.0.3:30000 --host 0.0.0.0
