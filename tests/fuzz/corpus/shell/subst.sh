M=${MODEL:-llama}
python -m sglang.launch_server --model-path $(echo m) `date` ${M} $HOME
