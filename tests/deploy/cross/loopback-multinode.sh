# a two-node prefill with no --host: its ranks register at 10.0.0.1, the server binds 127.0.0.1
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0 --disaggregation-mode prefill --tp 16 --nnodes 2 --node-rank 0 --dist-init-addr 10.0.0.1:5000
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0 --disaggregation-mode prefill --tp 16 --nnodes 2 --node-rank 1 --dist-init-addr 10.0.0.1:5000
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-ib-device mlx5_0 --disaggregation-mode decode --tp 8 --host 10.0.0.3
