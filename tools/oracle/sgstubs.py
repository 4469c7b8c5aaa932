"""sgstubs.py - stand-ins for what SGLang's argument code imports but this
machine lacks: torch, transformers, the kernels and the device probes.

Nothing here is SGLang's. Three kinds of stand-in:

  * a permissive stub module (StubModule): any attribute is a stub class,
    any call returns a stub (or, given one callable, that callable: the
    decorators of kernel definitions stay the functions they wrap);
  * a small fake torch (make_torch) that reports one machine: CUDA 12.8 or
    ROCm, a device capability, N GPUs of M GiB, the real finfo limits of
    the FP8 types;
  * a small fake transformers (make_transformers) whose PretrainedConfig
    holds the fields of a local config.json and whose
    AutoConfig.from_pretrained reads one.

StubFinder, placed last on sys.meta_path, answers only imports that no
other finder could and whose top-level package is one of HEAVY, so that
an optional package SGLang probes for (try: import x) stays missing unless
it is named here.
"""
import abc
import importlib.abc
import importlib.machinery
import json
import os
import sys
import types

# Top-level packages that SGLang's argument code imports at module level
# (or inside the hooks) and that are not installed here. torch and
# transformers get their own fakes; everything else a permissive stub.
HEAVY = {
    "aiohttp", "blobfile", "compressed_tensors", "cuda", "cutlass",
    "deep_ep", "deep_gemm", "einops", "fastapi", "filelock",
    "flashinfer", "gguf", "huggingface_hub", "interegular", "llguidance",
    "modelscope", "msgspec", "numpy", "nvtx", "openai", "outlines",
    "partial_json_parser", "PIL", "prometheus_client", "psutil",
    "pybase64", "pynvml", "safetensors", "sentencepiece", "setproctitle",
    "sgl_kernel", "starlette", "tiktoken", "tokenizers", "torchao",
    "torchvision", "torchaudio", "tqdm", "triton", "uvicorn", "uvloop",
    "xgrammar", "zmq", "hf_transfer", "decord", "av", "soundfile",
    "librosa", "scipy", "pydantic_core_stub", "sgl_kernel_npu",
    "mooncake", "nixl", "pandas", "mistral_common", "timm", "accelerate",
    "peft", "xxhash", "cv2", "datasets", "numba", "quack", "tilelang",
    "apache_tvm_ffi", "tvm_ffi", "grpc", "google", "openai_harmony",
    "kernels", "flash_attn", "sglang_router", "nvidia", "cupy",
    "fused_moe_triton", "vllm", "aiter", "mori", "torch_memory_saver",
    "sgl_fa4", "flash_mla", "hip", "amdsmi", "pyzmq", "h5py", "smg_grpc_proto",
    "smg_grpc_servicer", "anthropic", "jsonschema_rs", "ninja", "IPython",
    "matplotlib", "wandb", "ray", "kt_kernel", "mlx", "pydantic_settings",
    "watchfiles", "websockets", "httpx", "multipart", "python_multipart",
    "orjson_stub", "py_spy", "nvidia_ml_py", "opentelemetry", "pytest",
    "sentence_transformers", "lmcache", "hf_xet", "jiter", "json_repair",
    "pybase64_stub", "xformers", "decord2", "torchcodec", "imageio",
}


def _decorated(x):
    """Is x what a decorator is given (a function or method)?"""
    return isinstance(x, (types.FunctionType, types.MethodType,
                          staticmethod, classmethod, property))


class _StubMeta(abc.ABCMeta):
    """The type of every stub class: attributes are stubs, [] and | give
    the class back, and an auto-made class called with one callable
    returns it (a decorator); subclasses made by SGLang's code construct
    normally."""

    def __getattr__(cls, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return stub_class("%s.%s" % (cls.__qualname__, name))

    def __call__(cls, *a, **k):
        if cls.__dict__.get("_stub_auto"):
            if len(a) == 1 and not k and _decorated(a[0]):
                return a[0]
            return type.__call__(_Stub)
        return type.__call__(cls, *a, **k)

    def __getitem__(cls, k):
        return cls

    def register(cls, *a, **k):
        if cls.__dict__.get("_stub_auto"):
            return None
        return abc.ABCMeta.register(cls, *a)

    def __or__(cls, other):
        return cls

    def __ror__(cls, other):
        return cls

    def __iter__(cls):
        return iter(())

    def __len__(cls):
        return 0

    def __bool__(cls):
        return True

    def __int__(cls):
        return 0

    __index__ = __int__

    def __float__(cls):
        return 0.0

    def __mro_entries__(cls, bases):
        return (cls,)


class _Stub(metaclass=_StubMeta):
    """An instance of a stub: anything asked of it is a stub."""

    def __init_subclass__(cls, **kwargs):
        pass

    @classmethod
    def __get_pydantic_core_schema__(cls, source, handler):
        from pydantic_core import core_schema
        return core_schema.any_schema()

    def __init__(self, *a, **k):
        for key, v in k.items():
            try:
                object.__setattr__(self, key, v)
            except (AttributeError, TypeError):
                pass

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return stub_class(name)

    def __call__(self, *a, **k):
        if len(a) == 1 and not k and _decorated(a[0]):
            return a[0]
        return _Stub()

    def __getitem__(self, k):
        return _Stub()

    def __setitem__(self, k, v):
        pass

    def __iter__(self):
        return iter(())

    def __len__(self):
        return 0

    def __bool__(self):
        return False

    def __int__(self):
        return 0

    def __index__(self):
        return 0

    def __float__(self):
        return 0.0

    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False

    def __or__(self, other):
        return self

    __ror__ = __or__


def stub_class(qualname):
    name = qualname.rsplit(".", 1)[-1]
    return _StubMeta(name, (_Stub,), {"_stub_auto": True,
                                      "__qualname__": qualname,
                                      "__module__": "sgstubs"})


class StubModule(types.ModuleType):
    """A module any attribute of which is a stub class (a submodule when
    one was imported)."""

    def __init__(self, name):
        super().__init__(name)
        self.__path__ = []
        self.__file__ = "<stub %s>" % name
        self.__spec__ = importlib.machinery.ModuleSpec(name, None,
                                                       is_package=True)
        self.__version__ = "0.0.0"

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        full = "%s.%s" % (self.__name__, name)
        if full in sys.modules:
            return sys.modules[full]
        c = None
        if CONFIG_BASE and self.__name__.split(".")[0] == "transformers" and \
                name.endswith("Config") and name[:1].isupper():
            # transformers' model configs: subclasses of the fake
            # PretrainedConfig (SGLang subclasses some of them).
            c = type(name, (CONFIG_BASE[0],), {"__module__": self.__name__})
        if c is None:
            c = stub_class(full)
        setattr(self, name, c)
        return c


CONFIG_BASE = []    # the fake transformers' PretrainedConfig, once made


class _StubLoader(importlib.abc.Loader):
    def create_module(self, spec):
        return StubModule(spec.name)

    def exec_module(self, module):
        pass


class StubFinder(importlib.abc.MetaPathFinder):
    """Last on sys.meta_path: a stub for a missing package of HEAVY (and
    for submodules of a stub or fake module)."""

    def __init__(self, heavy):
        self.heavy = set(heavy)

    def find_spec(self, name, path=None, target=None):
        top = name.split(".")[0]
        if top not in self.heavy:
            return None
        return importlib.machinery.ModuleSpec(name, _StubLoader(),
                                              is_package=True)


# ---------------------------------------------------------------- torch
class _DType:
    def __init__(self, name, bits, fp=True):
        self.name, self.itemsize = name, bits // 8
        self.is_floating_point = fp
        self.is_complex = False

    def __repr__(self):
        return "torch." + self.name

    def to_real(self):
        return self


class _FInfo:
    def __init__(self, bits, mx, mn, eps, tiny):
        self.bits, self.max, self.min, self.eps = bits, mx, mn, eps
        self.tiny = self.smallest_normal = tiny
        self.resolution = eps


# The real limits (IEEE and the OCP/FNUZ FP8 formats).
_FINFO = {
    "float64": (64, 1.7976931348623157e308, 2.220446049250313e-16, 2.2250738585072014e-308),
    "float32": (32, 3.4028234663852886e38, 1.1920928955078125e-07, 1.1754943508222875e-38),
    "float16": (16, 65504.0, 0.0009765625, 6.103515625e-05),
    "bfloat16": (16, 3.3895313892515355e38, 0.0078125, 1.1754943508222875e-38),
    "float8_e4m3fn": (8, 448.0, 0.125, 0.015625),
    "float8_e4m3fnuz": (8, 240.0, 0.125, 0.0078125),
    "float8_e5m2": (8, 57344.0, 0.25, 6.103515625e-05),
    "float8_e5m2fnuz": (8, 57344.0, 0.125, 3.0517578125e-05),
    "float8_e8m0fnu": (8, 1.7014118346046923e38, 1.0, 5.877471754111438e-39),
    "float4_e2m1fn_x2": (8, 6.0, 0.5, 1.0),
}
_INTS = {"int8": 8, "uint8": 8, "int16": 16, "int32": 32, "int64": 64,
         "uint16": 16, "uint32": 32, "uint64": 64, "bool": 8}
_ALIASES = {"half": "float16", "float": "float32", "double": "float64",
            "long": "int64", "int": "int32", "short": "int16"}


class _Props:
    def __init__(self, name, total, major, minor, arch):
        self.name, self.total_memory = name, total
        self.major, self.minor = major, minor
        self.multi_processor_count = 132
        self.gcnArchName = arch
        self.L2_cache_size = 50 << 20
        self.uuid = "GPU-00000000"


def make_torch(machine):
    """A fake torch for machine = {platform, sm, gpu_gib, gpus, name}."""
    hip = machine["platform"] == "hip"
    sm = int(machine["sm"])
    major, minor = sm // 10, sm % 10
    total = int(machine["gpu_gib"] * (1 << 30))
    n = int(machine["gpus"])
    name = machine.get("name") or ("AMD Instinct MI300X" if hip else "NVIDIA H100 80GB HBM3")
    arch = machine.get("arch") or ("gfx942" if hip else "")

    t = StubModule("torch")
    t.__version__ = "2.9.1+cu128" if not hip else "2.9.1+rocm6.4"
    dts = {}
    for k, v in _FINFO.items():
        dts[k] = _DType(k, v[0])
    for k, b in _INTS.items():
        dts[k] = _DType(k, b, fp=False)
    for k, v in _ALIASES.items():
        dts[k] = dts[v]
    for k, v in dts.items():
        setattr(t, k, v)
    t.dtype = _DType

    def finfo(dt=None):
        dt = dt or dts["float32"]
        b, mx, eps, tiny = _FINFO[dt.name]
        return _FInfo(b, mx, -mx, eps, tiny)

    class _IInfo:
        def __init__(self, dt):
            b = dt.itemsize * 8
            signed = not dt.name.startswith("uint") and dt.name != "bool"
            self.bits = b
            self.max = (1 << (b - 1)) - 1 if signed else (1 << b) - 1
            self.min = -(1 << (b - 1)) if signed else 0

    t.finfo, t.iinfo = finfo, _IInfo

    class device:
        def __init__(self, type_="cuda", index=None):
            if isinstance(type_, device):
                type_, index = type_.type, type_.index
            s = str(type_)
            if ":" in s:
                s, i = s.split(":", 1)
                index = int(i)
            self.type, self.index = s, index

        def __repr__(self):
            return "device(type=%r)" % self.type

        def __str__(self):
            return self.type if self.index is None else "%s:%d" % (self.type, self.index)

        def __eq__(self, o):
            return str(self) == str(o)

        def __hash__(self):
            return hash(str(self))

    t.device = device
    t.Tensor = stub_class("torch.Tensor")
    t.Size = tuple
    t.get_default_dtype = lambda: dts["float32"]
    t.set_default_dtype = lambda d: None
    t.get_num_threads = lambda: 8
    t.set_num_threads = lambda k: None
    t.is_grad_enabled = lambda: False
    t.manual_seed = lambda s: None
    t.get_device_module = lambda d=None: t.cuda

    cuda = StubModule("torch.cuda")
    cuda.is_available = lambda: True
    cuda.device_count = lambda: n
    cuda.current_device = lambda: 0
    cuda.get_device_capability = lambda d=None: (major, minor)
    cuda.get_device_name = lambda d=None: name
    cuda.get_device_properties = lambda d=None: _Props(name, total, major, minor, arch)
    cuda.mem_get_info = lambda d=None: (total - (1 << 30), total)
    cuda.is_initialized = lambda: False
    cuda.is_bf16_supported = lambda *a, **k: True
    cuda.set_device = lambda d: None
    cuda.synchronize = lambda *a: None
    cuda.empty_cache = lambda: None
    cuda.memory_allocated = lambda *a: 0
    cuda.memory_reserved = lambda *a: 0
    cuda.get_arch_list = lambda: ["sm_%d" % sm]
    t.cuda = cuda

    version = types.ModuleType("torch.version")
    version.cuda = None if hip else "12.8"
    version.hip = "6.4.43482" if hip else None
    version.git_version = "0" * 40
    version.__version__ = t.__version__
    t.version = version

    # Devices this machine does not have: absent (hasattr is SGLang's probe).
    class _Absent:
        @staticmethod
        def is_available():
            return False

        @staticmethod
        def device_count():
            return 0

    t.xpu = _Absent
    t.mps = _Absent
    t.cpu = StubModule("torch.cpu")
    t.cpu.is_available = lambda: True
    backends = StubModule("torch.backends")
    mps = StubModule("torch.backends.mps")
    mps.is_available = lambda: False
    mps.is_built = lambda: False
    backends.mps = mps
    # cuDNN 9.15 (91500), what the images of torch 2.9.1 ship; SGLang
    # refuses older ones for multimodal models on 2.9.1.
    cudnn = StubModule("torch.backends.cudnn")
    cudnn.version = lambda: None if hip else 91500
    cudnn.is_available = lambda: not hip
    backends.cudnn = cudnn
    t.backends = backends
    mods = {"torch": t, "torch.cuda": cuda, "torch.version": version,
            "torch.cpu": t.cpu, "torch.backends": backends,
            "torch.backends.mps": mps, "torch.backends.cudnn": cudnn}
    return mods


def _torch_delattr(t):
    for k in ("hpu", "npu", "musa", "mlu"):
        try:
            object.__delattr__(t, k)
        except AttributeError:
            pass


class _TorchModule(StubModule):
    """torch: stubs for anything, except the devices it does not have."""
    ABSENT = frozenset(("hpu", "npu", "musa", "mlu", "_dynamo_config_absent"))

    def __getattr__(self, name):
        if name in self.ABSENT:
            raise AttributeError(name)
        return StubModule.__getattr__(self, name)


# ---------------------------------------------------------------- transformers
# The fields of a config.json that transformers reads as configs of their
# own (the rest, quantization_config among them, stay dicts).
SUB_CONFIGS = {"text_config", "vision_config", "audio_config", "llm_config",
               "language_config", "thinker_config", "talker_config",
               "speech_config", "vision_tower_config"}


def make_transformers():
    tr = StubModule("transformers")
    tr.__version__ = "4.57.1"

    class PretrainedConfig:
        model_type = ""
        sub_configs = {}
        attribute_map = {}
        is_composition = False

        def __init__(self, **kwargs):
            kwargs.pop("transformers_version", None)
            for k, v in kwargs.items():
                if isinstance(v, dict) and k in SUB_CONFIGS:
                    v = PretrainedConfig.from_dict(v)
                try:
                    setattr(self, k, v)
                except AttributeError:
                    pass
            if not hasattr(self, "architectures"):
                self.architectures = None
            if not hasattr(self, "torch_dtype"):
                self.torch_dtype = kwargs.get("dtype")
            if not hasattr(self, "dtype"):
                self.dtype = self.torch_dtype
            if not hasattr(self, "name_or_path"):
                self.name_or_path = kwargs.get("_name_or_path", "")
            for k, v in (("tie_word_embeddings", True), ("is_encoder_decoder", False),
                         ("output_hidden_states", False), ("use_return_dict", True),
                         ("torchscript", False)):
                if not hasattr(self, k):
                    setattr(self, k, v)

        def __getattr__(self, name):
            am = type(self).__dict__.get("attribute_map") or {}
            if name in am:
                return getattr(self, am[name])
            raise AttributeError(name)

        @classmethod
        def from_dict(cls, d, **kwargs):
            d = dict(d)
            d.update(kwargs)
            return cls(**d)

        @classmethod
        def from_pretrained(cls, path, **kwargs):
            return cls.from_dict(_read_config(path))

        @classmethod
        def get_config_dict(cls, path, **kwargs):
            return _read_config(path), kwargs

        def update(self, d):
            for k, v in d.items():
                setattr(self, k, v)

        def to_dict(self):
            out = {}
            for k, v in self.__dict__.items():
                out[k] = v.to_dict() if isinstance(v, PretrainedConfig) else v
            out["model_type"] = getattr(self, "model_type", "")
            return out

        def to_diff_dict(self):
            return self.to_dict()

        def get_text_config(self, decoder=None, **kwargs):
            for k in ("text_config", "llm_config", "language_config",
                      "thinker_config"):
                sub = self.__dict__.get(k)
                if isinstance(sub, PretrainedConfig):
                    return sub
            return self

        def __contains__(self, k):
            return k in self.__dict__

        def __repr__(self):
            return "PretrainedConfig(%s)" % getattr(self, "model_type", "")

    def _read_config(path):
        p = os.path.join(str(path), "config.json")
        if not os.path.isfile(p):
            raise OSError("%s does not appear to have a file named "
                          "config.json" % path)
        with open(p, encoding="utf-8") as f:
            return json.load(f)

    class AutoConfig:
        @staticmethod
        def from_pretrained(path, *a, **kwargs):
            d = _read_config(path)
            d["_name_or_path"] = str(path)
            c = PretrainedConfig.from_dict(d)
            return c

        @staticmethod
        def register(*a, **k):
            pass

        @staticmethod
        def for_model(model_type, **kwargs):
            return PretrainedConfig(model_type=model_type, **kwargs)

    class _AutoRegistry:
        def __init__(self, *a, **k):
            pass

        @staticmethod
        def register(*a, **k):
            pass

        @staticmethod
        def from_pretrained(*a, **k):
            return _Stub()

    CONFIG_BASE[:] = [PretrainedConfig]
    tr.PretrainedConfig = PretrainedConfig
    tr.PreTrainedConfig = PretrainedConfig
    tr.AutoConfig = AutoConfig
    for k in ("AutoTokenizer", "AutoProcessor", "AutoImageProcessor",
              "AutoModel", "AutoModelForCausalLM", "AutoFeatureExtractor",
              "AutoVideoProcessor"):
        setattr(tr, k, _AutoRegistry)
    cfg_utils = StubModule("transformers.configuration_utils")
    cfg_utils.PretrainedConfig = PretrainedConfig
    cfg_utils.PreTrainedConfig = PretrainedConfig
    mods = {"transformers": tr, "transformers.configuration_utils": cfg_utils}
    # transformers.models.auto.* : the mapping names SGLang reads.
    for m in ("transformers.models", "transformers.models.auto",
              "transformers.models.auto.modeling_auto",
              "transformers.models.auto.configuration_auto"):
        mods[m] = StubModule(m)
    ma = mods["transformers.models.auto.modeling_auto"]
    ma.MODEL_FOR_CAUSAL_LM_MAPPING_NAMES = {"llama": "LlamaForCausalLM",
                                            "qwen2": "Qwen2ForCausalLM"}
    ma.MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES = {}
    ma.MODEL_FOR_VISION_2_SEQ_MAPPING_NAMES = {}
    ca = mods["transformers.models.auto.configuration_auto"]
    class _Mapping(dict):
        def __init__(self):
            super().__init__()
            self._extra_content = {}

        def register(self, key, value, exist_ok=False):
            self._extra_content[key] = value

    ca.CONFIG_MAPPING = _Mapping()
    tr.CONFIG_MAPPING = mods["transformers.models.auto"].CONFIG_MAPPING = \
        ca.CONFIG_MAPPING
    mods["transformers.models.auto"].AutoConfig = AutoConfig
    ca.CONFIG_MAPPING_NAMES = {}
    ca.AutoConfig = AutoConfig
    return mods


def install(machine, heavy=HEAVY):
    """Put the fakes into sys.modules and the stub finder last on
    sys.meta_path."""
    tm = make_torch(machine)
    t = tm["torch"]
    t.__class__ = _TorchModule
    for k, v in tm.items():
        sys.modules[k] = v
    for k, v in make_transformers().items():
        sys.modules[k] = v
    sys.modules.update(make_triton(machine))
    import pickle
    sys.modules.setdefault("dill", pickle)   # dill.dumps of a class: pickle's
    try:
        import packaging.version  # noqa: F401  (a real one wins)
    except ImportError:
        for k, v in make_packaging().items():
            sys.modules[k] = v
    sys.meta_path.append(StubFinder(set(heavy) | {"torch", "transformers"}))
    sys.meta_path.insert(0, PatchFinder(machine_patches(machine)))


# ---------------------------------------------------------------- triton
def make_triton(machine):
    """triton: stubs, but the active driver's target names the machine's
    backend (cuda or hip), which some modules read at import."""
    hip = machine["platform"] == "hip"
    tr = StubModule("triton")
    tr.__version__ = "3.4.0"

    class _Target:
        backend = "hip" if hip else "cuda"
        arch = machine.get("arch") or int(machine["sm"])
        warp_size = 64 if hip else 32

    class _Active:
        @staticmethod
        def get_current_target():
            return _Target()

        @staticmethod
        def get_current_device():
            return 0

    rt = StubModule("triton.runtime")
    drv = StubModule("triton.runtime.driver")
    drv.active = _Active()
    rt.driver = drv
    tr.runtime = rt
    return {"triton": tr, "triton.runtime": rt, "triton.runtime.driver": drv}


# ---------------------------------------------------------------- packaging
def make_packaging():
    """packaging.version.parse/Version: PEP 440 enough for comparisons of
    release numbers (N[.N...][{a|b|rc}N][.postN][.devN][+local])."""
    import re

    pk = types.ModuleType("packaging")
    pk.__path__ = []
    ver = types.ModuleType("packaging.version")
    rx = re.compile(r"^v?(\d+(?:\.\d+)*)(?:[-_.]?(a|b|rc|alpha|beta|c)[-_.]?(\d*))?"
                    r"(?:[-_.]?post[-_.]?(\d*))?(?:[-_.]?dev[-_.]?(\d*))?(?:\+(.*))?$",
                    re.I)

    class InvalidVersion(ValueError):
        pass

    class Version:
        def __init__(self, s):
            m = rx.match(str(s).strip())
            if not m:
                raise InvalidVersion("Invalid version: %r" % s)
            self._s = str(s)
            self.release = tuple(int(x) for x in m.group(1).split("."))
            pre = m.group(2)
            if pre:
                pre = {"alpha": "a", "beta": "b", "c": "rc"}.get(pre.lower(), pre.lower())
                self.pre = (pre, int(m.group(3) or 0))
            else:
                self.pre = None
            self.post = int(m.group(4) or 0) if m.group(4) is not None else None
            self.dev = int(m.group(5) or 0) if m.group(5) is not None else None
            self.local = m.group(6)
            self.epoch = 0

        def _key(self):
            r = self.release
            while len(r) > 1 and r[-1] == 0:
                r = r[:-1]
            if self.pre is None and self.post is None and self.dev is not None:
                pre = ("", -1)
            elif self.pre is None:
                pre = ("z", 0)
            else:
                pre = self.pre
            post = -1 if self.post is None else self.post
            dev = float("inf") if self.dev is None else self.dev
            return (r, pre, post, dev)

        major = property(lambda s: s.release[0])
        minor = property(lambda s: s.release[1] if len(s.release) > 1 else 0)
        micro = property(lambda s: s.release[2] if len(s.release) > 2 else 0)
        base_version = property(lambda s: ".".join(map(str, s.release)))
        public = property(lambda s: s._s.split("+")[0])
        is_prerelease = property(lambda s: s.pre is not None or s.dev is not None)
        is_devrelease = property(lambda s: s.dev is not None)
        is_postrelease = property(lambda s: s.post is not None)

        def __str__(self):
            return self._s

        def __repr__(self):
            return "<Version(%r)>" % self._s

        def __hash__(self):
            return hash(self._key())

        def __eq__(self, o):
            return self._key() == _v(o)._key()

        def __lt__(self, o):
            return self._key() < _v(o)._key()

        def __le__(self, o):
            return self._key() <= _v(o)._key()

        def __gt__(self, o):
            return self._key() > _v(o)._key()

        def __ge__(self, o):
            return self._key() >= _v(o)._key()

    def _v(o):
        return o if isinstance(o, Version) else Version(o)

    ver.Version, ver.parse, ver.InvalidVersion = Version, Version, InvalidVersion
    pk.version = ver
    spec = types.ModuleType("packaging.specifiers")

    class SpecifierSet:
        def __init__(self, s=""):
            self.parts = [p.strip() for p in s.split(",") if p.strip()]

        def contains(self, v, prereleases=None):
            v = _v(v)
            for p in self.parts:
                m = re.match(r"(==|!=|>=|<=|>|<|~=)\s*(.+)", p)
                if not m:
                    continue
                op, w = m.group(1), Version(m.group(2).replace(".*", ""))
                ok = {"==": v == w, "!=": v != w, ">=": v >= w, "<=": v <= w,
                      ">": v > w, "<": v < w, "~=": v >= w}[op]
                if not ok:
                    return False
            return True

        __contains__ = contains

    spec.SpecifierSet = SpecifierSet
    pk.specifiers = spec
    return {"packaging": pk, "packaging.version": ver,
            "packaging.specifiers": spec}


# ---------------------------------------------------------------- patches
class _PatchLoader(importlib.abc.Loader):
    def __init__(self, inner, after):
        self.inner, self.after = inner, after

    def create_module(self, spec):
        return self.inner.create_module(spec)

    def exec_module(self, module):
        self.inner.exec_module(module)
        self.after(module)


class PatchFinder(importlib.abc.MetaPathFinder):
    """First on sys.meta_path: when a module of PATCHES has been executed,
    its function replaces the module's probes (before any other module can
    import them by name)."""

    def __init__(self, patches):
        self.patches = patches
        self.busy = set()

    def find_spec(self, name, path=None, target=None):
        if name not in self.patches or name in self.busy:
            return None
        self.busy.add(name)
        try:
            import importlib.util
            spec = importlib.util.find_spec(name)
        finally:
            self.busy.discard(name)
        if spec is None or spec.loader is None:
            return spec
        spec.loader = _PatchLoader(spec.loader, self.patches[name])
        return spec


def machine_patches(machine):
    """The device probes of sglang.srt.utils.common answer for machine;
    custom-op registration is a no-op."""
    mib = float(machine["gpu_gib"]) * 1024

    def common(m):
        m.direct_register_custom_op = lambda *a, **k: None
        m.get_nvgpu_memory_capacity = lambda: mib
        m.get_amdgpu_memory_capacity = lambda: mib
        orig = m.get_device_memory_capacity

        def get_device_memory_capacity(device=None):
            if device in (None, "cuda"):
                return mib
            return orig(device)
        m.get_device_memory_capacity = get_device_memory_capacity
    return {"sglang.srt.utils.common": common}
