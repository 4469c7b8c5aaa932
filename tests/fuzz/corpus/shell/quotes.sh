export A='x y' B="$A z"
FOO=1 python3 -m sglang.launch_server --model-path "$A" --tp 2 \
  --host 0.0.0.0 # comment
