# Fixture for tests/tools/run.sh, written for pdwiz (not SGLang's code): the
# shapes of a server_args.py of the late 0.5 releases: a flag replaced by a
# DeprecatedAction stub, choices built from module constants, nargs lists,
# BooleanOptionalAction, a primary spelling that changed sides with its
# alias. Flag names, types, defaults and choices are facts of that era.
import argparse
import dataclasses
from typing import List, Optional

from sglang.srt.utils import DeprecatedAction

BACKENDS = ["mooncake", "nixl", "ascend", "fake"]
A2A = ["none", "deepep"]
SPEC_ALGOS = ["EAGLE", "EAGLE3", "NEXTN", "STANDALONE"]


@dataclasses.dataclass
class ServerArgs:
    model_path: str = None
    tp_size: int = 1
    mem_fraction_static: Optional[float] = None
    moe_a2a_backend: str = "none"
    disaggregation_mode: str = "null"
    disaggregation_transfer_backend: str = "mooncake"
    disaggregation_bootstrap_port: int = 8998
    disaggregation_ib_device: Optional[str] = None
    hicache_ratio: float = 2.0
    speculative_algorithm: Optional[str] = None
    enable_double_sparsity: bool = False
    cuda_graph_bs: Optional[List[int]] = None
    enable_metrics: bool = False

    @staticmethod
    def add_cli_args(parser: argparse.ArgumentParser):
        parser.add_argument("--model-path", "--model", type=str,
                            help="Where the weights are.", required=True)
        parser.add_argument(
            "--tensor-parallel-size",
            "--tp-size",
            dest="tp_size",
            type=int,
            default=ServerArgs.tp_size,
            help="Tensor parallel degree.",
        )
        parser.add_argument(
            "--mem-fraction-static",
            type=float,
            default=ServerArgs.mem_fraction_static,
            help="Static memory share.",
        )
        parser.add_argument(
            "--moe-a2a-backend",
            type=str,
            choices=A2A,
            default=ServerArgs.moe_a2a_backend,
            help="All-to-all backend of MoE layers.",
        )
        parser.add_argument(
            "--enable-deepep-moe",
            action=DeprecatedAction,
            help="Replaced by --moe-a2a-backend deepep.",
        )
        parser.add_argument("--disaggregation-mode", type=str, default="null",
                            choices=["null", "prefill", "decode"],
                            help="PD role.")
        parser.add_argument(
            "--disaggregation-transfer-backend",
            type=str,
            default=ServerArgs.disaggregation_transfer_backend,
            choices=BACKENDS,
            help="How KV pages travel.",
        )
        parser.add_argument(
            "--disaggregation-bootstrap-port",
            type=int,
            default=ServerArgs.disaggregation_bootstrap_port,
            help="Bootstrap port of a prefill server.",
        )
        parser.add_argument("--disaggregation-ib-device", type=str,
                            default=None, help="RDMA devices.")
        parser.add_argument("--hicache-ratio", type=float,
                            default=ServerArgs.hicache_ratio,
                            help="Host cache size over device cache size.")
        parser.add_argument(
            "--speculative-algorithm",
            type=str,
            choices=SPEC_ALGOS + ["NGRAM"],
            help="Speculative decoding algorithm.",
        )
        parser.add_argument("--enable-double-sparsity", action="store_true",
                            help="Double sparsity attention.")
        parser.add_argument(
            "--cuda-graph-bs",
            type=int,
            nargs="+",
            help="Batch sizes to capture.",
        )
        parser.add_argument(
            "--enable-metrics",
            action=argparse.BooleanOptionalAction,
            default=ServerArgs.enable_metrics,
            help="Prometheus metrics.",
        )
