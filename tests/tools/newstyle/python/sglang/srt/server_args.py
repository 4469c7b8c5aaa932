# A fixture in the declaration style of SGLang's arg_groups (written for
# pdwiz's tests, not copied): ServerArgs with A[...] fields and one flag
# still registered by hand.
from typing import List, Literal, Optional

from sglang.srt.arg_groups.arg_utils import A, Arg

ROUTER_CHOICES = ["round_robin", "random"]


class ServerArgs:
    model_path: A[str, Arg(help="Model weights.", aliases=["--model"])]
    tp_size: A[int, Arg(help="Tensor parallelism.", cli_name="--tensor-parallel-size",
                        aliases=["--tp-size"])] = 1
    internal_only: A[int, Arg(help="never on the command line", no_cli=True)] = 3
    plain: int = 4

    @staticmethod
    def add_cli_args(parser):
        parser.add_argument("--legacy-flag", type=float, default=0.5,
                            help="still hand-written")
        parser.add_argument("--policy", choices=ROUTER_CHOICES + ["cache_aware"],
                            default="random")
