# Case written for pdwiz after shun8686/sglang test/manual/ascend/deepseekr1_router.sh at 106427bf7e11fa58e4d4091142faefed8bf575a7 (the shapes and facts of that script, not its text).
# Exercises: a PD router alone, started under nohup on a line of its own; a bootstrap port glued to its backslash (8995\) and continued by an indented line; a redirect to an exported log name; "& \" on the last line.
export router_out="./pd_router_$(date +'%Y%m%d-%H%M').log"

nohup \
python -u -m sglang_router.launch_router \
    --pd-disaggregation \
    --host 127.0.0.1 \
    --port 6688 \
    --prefill http://192.168.0.184:8000 8995\
    --decode http://192.168.0.60:8000 \
> $router_out 2>&1 & \
