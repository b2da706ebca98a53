#!/usr/bin/env python3
"""PyTorch peers of the quant-kernels operations, timed the way the Rust
report (`cargo run --release`) times ours, so the two can be compared
(scripts/compare.py merges the JSON files).

Usage (on a CUDA machine; PyTorch 2.11, no network needed):

    python3 scripts/torch_peers.py --json torch.json          # everything, a few minutes on an H100
    python3 scripts/torch_peers.py --quick                    # a few sizes and shapes: smoke test
    python3 scripts/torch_peers.py --only linear              # one section (the copy always runs)
    python3 scripts/torch_peers.py --compile-dynamic          # one dynamic-shape compile per op and dtype
    python3 scripts/torch_peers.py --device cpu --quick       # no GPU: checks the script's logic only

What it times:
- add_mul_exp: `exp((x + y) * 2)`, f32/f16/bf16, eager and torch.compile,
  100K to 50M elements;
- quantize_int8: `clamp(round(x / s + zp), -128, 127).to(int8)` with
  s = 0.05 and zp = -1.5 passed as Python floats, same dtypes and sizes;
- linear: `F.linear(x, W)` without bias through cuBLAS in f16, bf16 and f32
  (TF32 off), and torch's int4 kernel `_weight_int4pack_mm` (tinygemm,
  asymmetric groups of 128, bf16 activations), for (N, K) from Llama layers
  and M = 1, 16, 32, 64, 128, 256, 1024, 8192 (torch's int4 kernel and f32 up to
  M = 1024, where a call already takes milliseconds: past it they would
  take most of a 10-minute device call). The int4 result is checked against a matmul with the
  dequantized weights, so a wrong packing cannot go unnoticed;
- copy: a 1 GiB device-to-device `copy_`, the bandwidth ceiling, counting
  bytes read and written.

Method. Each figure replays a captured CUDA graph (so Python dispatch and
launch latency are not counted) between two CUDA events, SAMPLES times; a
replay holds at least LAUNCHES consecutive calls and the per-call time is
the replay's time over its calls; the median, min and max over the replays
are reported in microseconds. Cold: the calls rotate over buffer sets that
together exceed twice the L2, so each call finds its inputs evicted (the
graph covers every set, a whole number of rounds). Hot: one set, again and
again; it is left out (null) where one set alone exceeds twice the L2, since
it would equal cold. This is the Rust report's method, except that it
launches back to back from the host rather than from a graph. As there,
each figure starts after the GPU idled for as long as the previous figure
kept it busy, up to REST_MAX_S, so that a long figure's power-capped clocks
do not carry into the next.

torch.compile: by default `torch.compile(fn, dynamic=False)` in the default
mode, so each (op, dtype, size) gets its own static-shape Triton kernel, as
a user with fixed shapes would; the first size of each op and dtype is
profiled to confirm that one fused Triton kernel runs. `--compile-dynamic`
compiles once per op and dtype instead: faster to compile, but the kernel no
longer knows the size (a multiple of 16 or not), which may cost speed. In
both modes the scale and zero point are compiled in as constants.

`bytes` in each row is the minimum traffic: inputs read once, output written
once (int4 weights: N*K/2 bytes of codes plus the bf16 scales and zeros).
`flops` is 2*M*N*K for linear and, for the elementwise ops, one per
arithmetic operation in the expression.
"""

import argparse
import datetime
import json
import math
import platform
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import torch
import torch.nn.functional as F

SAMPLES = 15  # timed graph replays per figure
REST_MAX_S = 0.25  # the longest rest before a figure (the Rust report's)
REST_MIN_S = 0.02  # shorter busy times leave no rest (the Rust report's)
LAUNCHES = 20  # at least this many calls per replay
ELEMENTS = (100_000, 300_000, 500_000, 1_000_000, 5_000_000, 10_000_000, 20_000_000, 50_000_000)
LINEAR_SHAPES = ((4096, 4096), (11008, 4096), (4096, 11008), (28672, 8192), (8192, 28672))  # (N, K)
BATCHES = (1, 16, 32, 64, 128, 256, 1024, 8192)  # M (the report's LINEAR_MS)
SLOW_PEERS_MAX_M = 1024  # torch's int4 kernel and f32 F.linear stop here
DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
QUICK = {"elements": (1_000_000, 50_000_000), "dtypes": ("f32", "bf16"), "shapes": ((4096, 4096),), "batches": (1, 16)}

SCALE, ZERO_POINT = 0.05, -1.5
INT4_GROUP = 128
# 8 inner k-tiles: 16-byte loads of packed weights (2 and 4 give 4- and
# 8-byte loads); what gpt-fast and torchao use.
INT4_INNER_K_TILES = 8
INT4_ERROR_LIMIT = 1e-2  # bf16 dequantization and output rounding give ~3e-3
INT4_IMPL = f"_weight_int4pack_mm g{INT4_GROUP}"
COPY_BYTES = 1 << 30

# --device cpu: a nominal cache size (there is no L2 attribute) and fewer
# calls, since the point there is to run the code paths, not to time them.
CPU_L2_BYTES = 32 << 20
CPU_SAMPLES, CPU_LAUNCHES = 3, 2


def log(message: str) -> None:
    print(message, flush=True)  # PYTHONUNBUFFERED may not be set


def add_mul_exp(x, y):
    return torch.exp((x + y) * 2)


def quantize_int8(x, scale, zero_point):
    return torch.clamp(torch.round(x / scale + zero_point), -128, 127).to(torch.int8)


@dataclass(frozen=True)
class Elementwise:
    fn: Callable
    tensor_inputs: int  # inputs of the tested dtype, each read once
    scalars: tuple  # Python floats passed after the tensors
    out_bytes: int | None  # bytes per output element; None: the input dtype's size
    flops: int  # per element, one per arithmetic operation
    input_std: float  # standard deviation of the random inputs

    def args(self, n, dtype, device):
        tensors = tuple(torch.randn(n, device=device, dtype=dtype) * self.input_std for _ in range(self.tensor_inputs))
        return tensors + self.scalars

    def bytes(self, n, dtype):
        size = dtype.itemsize
        return n * (self.tensor_inputs * size + (self.out_bytes or size))


ELEMENTWISE = {
    "add_mul_exp": Elementwise(add_mul_exp, tensor_inputs=2, scalars=(), out_bytes=None, flops=3, input_std=1.0),
    "quantize_int8": Elementwise(
        quantize_int8, tensor_inputs=1, scalars=(SCALE, ZERO_POINT), out_bytes=1, flops=4, input_std=3.0
    ),
}


def stats(samples_us):
    return {"median": statistics.median(samples_us), "min": min(samples_us), "max": max(samples_us)}


class Timer:
    """Microseconds per call of `fn(*args)`, rotating over argument sets."""

    def __init__(self, l2_bytes, samples, launches):
        self.l2_bytes = l2_bytes
        self.samples = samples
        self.launches = launches

    def cold_sets(self, bytes_per_call):
        """Buffer sets that together exceed twice the L2 (the Rust report's rule)."""
        return max(1, math.ceil(2 * self.l2_bytes / max(bytes_per_call, 1)))

    def calls(self, sets):
        """Calls per sample: whole rounds over the sets, at least `launches`."""
        return sets * math.ceil(self.launches / sets)

    def cold_and_hot(self, fn, arg_sets):
        cold = self.per_call_us(fn, arg_sets)
        hot = self.per_call_us(fn, arg_sets[:1]) if len(arg_sets) > 1 else None
        return cold, hot

    def per_call_us(self, fn, arg_sets):
        raise NotImplementedError


class CudaGraphTimer(Timer):
    """Replays of one captured CUDA graph between CUDA events."""

    def __init__(self, device):
        super().__init__(torch.cuda.get_device_properties(device).L2_cache_size, SAMPLES, LAUNCHES)
        self.method = f"median (min-max) over {SAMPLES} replays of a CUDA graph of >= {LAUNCHES} calls"
        # Warm-up and capture on one side stream, as torch.cuda.graph asks,
        # so that cuBLAS workspaces and Triton autotuning happen before capture.
        self.stream = torch.cuda.Stream(device)
        self.busy_s = 0.0  # GPU seconds of the last figure's replays

    def per_call_us(self, fn, arg_sets):
        sets = len(arg_sets)
        calls = self.calls(sets)
        rest = min(self.busy_s, REST_MAX_S)
        if rest >= REST_MIN_S:
            time.sleep(rest)
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            for args in arg_sets[:3]:
                fn(*args)
        self.stream.synchronize()

        graph = torch.cuda.CUDAGraph()
        # One live output per set, as a caller that keeps its results would
        # have; replacing one frees its memory for the next call's output.
        outputs = [None] * sets
        with torch.cuda.graph(graph, stream=self.stream):
            for i in range(calls):
                outputs[i % sets] = fn(*arg_sets[i % sets])
        graph.replay()  # the first replay uploads the graph
        events = [
            (torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(self.samples)
        ]
        for start, stop in events:
            start.record()
            graph.replay()
            stop.record()
        torch.cuda.synchronize()
        figure = stats([start.elapsed_time(stop) * 1e3 / calls for start, stop in events])
        self.busy_s = (self.samples + 1) * calls * figure["median"] * 1e-6
        return figure


class WallClockTimer(Timer):
    """--device cpu: the same call sequences under the wall clock."""

    def __init__(self):
        super().__init__(CPU_L2_BYTES, CPU_SAMPLES, CPU_LAUNCHES)
        self.method = f"wall clock, median over {CPU_SAMPLES} samples of >= {CPU_LAUNCHES} calls (logic check only)"

    def per_call_us(self, fn, arg_sets):
        sets = len(arg_sets)
        calls = self.calls(sets)
        fn(*arg_sets[0])
        samples = []
        for _ in range(self.samples):
            start = time.perf_counter()
            for i in range(calls):
                fn(*arg_sets[i % sets])
            samples.append((time.perf_counter() - start) * 1e6 / calls)
        return stats(samples)


def rotation(base_args, sets):
    """`sets` argument tuples: `base_args` and clones of its tensors (same
    values, separate memory, so that checking set 0 checks them all)."""
    copies = [tuple(a.clone() if isinstance(a, torch.Tensor) else a for a in base_args) for _ in range(sets - 1)]
    return [base_args] + copies


class Report:
    """The rows so far, printed as they come, and the failures."""

    def __init__(self, device_kind):
        self.device_kind = device_kind
        self.rows = []
        self.failures = []
        self.copy_gbs = None

    def add(self, label, row):
        self.rows.append(row)
        cold, hot = row["cold_us"], row["hot_us"]
        gbs = row["bytes"] / cold["median"] / 1e3
        share = f"{100 * gbs / self.copy_gbs:4.0f}% copy" if self.copy_gbs else ""
        hot_text = f"{hot['median']:9.2f}" if hot else f"{'-':>9}"
        error = f"  rel err {row['error']:.1e}" if row["error"] is not None else ""
        log(
            f"  {label:<62} cold {cold['median']:9.2f} us ({cold['min']:.2f}-{cold['max']:.2f})"
            f"  hot {hot_text}  {gbs:7.0f} GB/s {share}{error}"
        )

    def attempt(self, label, case):
        """Runs `case()`; a failure is reported and the sweep goes on, so one
        unsupported case does not cost the whole run."""
        try:
            case()
        except Exception as e:  # noqa: BLE001 - compile, CUDA and shape errors alike
            log(f"  !!! FAILED {label}: {type(e).__name__}: {e}")
            self.failures.append({"case": label, "error": f"{type(e).__name__}: {e}"})
        finally:
            if self.device_kind == "cuda":
                torch.cuda.empty_cache()  # graph pools and large buffers, before the next size


def row(op, impl, dtype, bytes_, flops, cold, hot, elements=None, m=None, n=None, k=None, error=None):
    return {
        "op": op,
        "impl": impl,
        "dtype": dtype,
        "elements": elements,
        "m": m,
        "n": n,
        "k": k,
        "bytes": bytes_,
        "flops": flops,
        "cold_us": cold,
        "hot_us": hot,
        "error": error,
    }


def bench_copy(report, timer, device):
    n = COPY_BYTES // 4
    src = torch.zeros(n, device=device)
    dst = torch.empty_like(src)
    cold = timer.per_call_us(lambda s, d: d.copy_(s), [(src, dst)])
    report.copy_gbs = 2 * COPY_BYTES / cold["median"] / 1e3
    report.add(
        "copy 1 GiB (read + written)", row("copy", "Tensor.copy_", "f32", 2 * COPY_BYTES, 0, cold, None, elements=n)
    )


def cuda_kernel_names(fn, args):
    """Names of the GPU kernels one call of `fn` launches."""
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        fn(*args)
        torch.cuda.synchronize()
    return [e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]


def check_fused(label, fn, args):
    try:
        names = cuda_kernel_names(fn, args)
    except Exception as e:  # noqa: BLE001 - the profiler is a check, not the measurement
        log(f"  WARNING: could not profile {label} ({type(e).__name__}: {e}); fusion unchecked")
        return
    if len(names) == 1 and "triton" in names[0]:
        log(f"  {label}: one fused Triton kernel, {names[0]}")
    else:
        log(f"  WARNING: {label} launches {len(names)} kernels, not one fused Triton kernel: {names}")


def bench_elementwise(report, timer, device, elements, dtypes, compile_dynamic):
    for op, spec in ELEMENTWISE.items():
        compiled = torch.compile(spec.fn, dynamic=compile_dynamic)
        for dtype_name in dtypes:
            for index, n in enumerate(elements):
                report.attempt(
                    f"{op} {dtype_name} n={n:_}",
                    partial(elementwise_case, report, timer, device, op, spec, compiled, dtype_name, n, index == 0),
                )


def elementwise_case(report, timer, device, op, spec, compiled, dtype_name, n, check_fusion):
    """Eager and compiled, on the same buffer sets."""
    dtype = DTYPES[dtype_name]
    bytes_ = spec.bytes(n, dtype)
    arg_sets = rotation(spec.args(n, dtype, device), timer.cold_sets(bytes_))
    start = time.perf_counter()
    compiled(*arg_sets[0])
    compile_s = time.perf_counter() - start
    if check_fusion and device.type == "cuda":
        check_fused(f"torch.compile {op} {dtype_name}", compiled, arg_sets[0])
    for impl, fn in (("eager", spec.fn), ("torch.compile", compiled)):
        cold, hot = timer.cold_and_hot(fn, arg_sets)
        label = f"{op} {impl} {dtype_name} n={n:_}"
        if impl == "torch.compile":
            label += f" (compile {compile_s:.1f} s)"
        report.add(label, row(op, impl, dtype_name, bytes_, spec.flops * n, cold, hot, elements=n))


def quantize_int4(w):
    """Asymmetric int4 groups of INT4_GROUP along K, in tinygemm's format,
    which dequantizes as (code - 8) * scale + zero with bf16 scale and zero
    (as torch's test__int4_mm and torchao quantize).

    Returns codes uint8 [N][K] in 0..15, scales_and_zeros bf16 [K/G][N][2]
    and the dequantized weights f32 [N][K] (from the bf16 scale and zero)."""
    n, k = w.shape
    groups = w.float().reshape(n, k // INT4_GROUP, INT4_GROUP)
    low = groups.amin(dim=-1, keepdim=True)
    scale = (groups.amax(dim=-1, keepdim=True) - low).clamp(min=1e-6) / 15
    codes = ((groups - low) / scale).round().clamp(0, 15)
    zero = low + 8 * scale
    scale, zero = scale.to(torch.bfloat16), zero.to(torch.bfloat16)
    dequantized = ((codes - 8) * scale.float() + zero.float()).reshape(n, k)
    scales_and_zeros = torch.stack([scale.squeeze(-1), zero.squeeze(-1)], dim=-1).transpose(0, 1).contiguous()
    return codes.to(torch.uint8).reshape(n, k), scales_and_zeros, dequantized


def pack_int4(codes, device_kind):
    """torch 2.11's packing of codes uint8 [N][K] (0..15) for its int4 mm.

    CUDA: `_convert_weight_to_int4pack` takes uint8 [N][K/2], two codes a
    byte, the even k in the high nibble (aten/src/ATen/native/cuda/int4mm.cu,
    test/test_linalg.py `_group_quantize_tensor`), and returns int32
    [N/8][K/(inner_k_tiles*16)][32][inner_k_tiles/2].
    CPU (--device cpu only): `_convert_weight_to_int4pack_for_cpu` takes the
    codes as int32 [N][K]."""
    if device_kind == "cuda":
        two_a_byte = (codes[:, ::2] << 4) | codes[:, 1::2]
        return torch.ops.aten._convert_weight_to_int4pack(two_a_byte.contiguous(), INT4_INNER_K_TILES)
    return torch.ops.aten._convert_weight_to_int4pack_for_cpu(codes.to(torch.int32), INT4_INNER_K_TILES)


def int4_mm_for(device_kind):
    op = torch.ops.aten._weight_int4pack_mm if device_kind == "cuda" else torch.ops.aten._weight_int4pack_mm_for_cpu
    return lambda x, packed, scales_and_zeros: op(x, packed, INT4_GROUP, scales_and_zeros)


def relative_error(got, reference):
    return (torch.linalg.vector_norm(got.float() - reference) / torch.linalg.vector_norm(reference)).item()


def bench_linear(report, timer, device, shapes, batches):
    for n, k in shapes:
        for dtype_name in ("f16", "bf16", "f32"):
            report.attempt(
                f"linear F.linear {dtype_name} n={n} k={k}",
                partial(dense_linear_case, report, timer, device, dtype_name, n, k, batches),
            )
        report.attempt(
            f"linear {INT4_IMPL} n={n} k={k}", partial(int4_linear_case, report, timer, device, n, k, batches)
        )


def dense_linear_case(report, timer, device, dtype_name, n, k, batches):
    dtype = DTYPES[dtype_name]
    w = torch.randn(n, k, device=device, dtype=dtype)
    for m in batches:
        if dtype_name == "f32" and m > SLOW_PEERS_MAX_M:
            continue
        bytes_ = (m * k + n * k + m * n) * dtype.itemsize
        x = torch.randn(m, k, device=device, dtype=dtype)
        cold, hot = timer.cold_and_hot(F.linear, rotation((x, w), timer.cold_sets(bytes_)))
        label = f"linear F.linear {dtype_name} m={m} n={n} k={k}"
        report.add(label, row("linear", "F.linear", dtype_name, bytes_, 2 * m * n * k, cold, hot, m=m, n=n, k=k))


def int4_linear_case(report, timer, device, n, k, batches):
    """torch's int4 kernel, each M checked against the dequantized weights first."""
    int4_mm = int4_mm_for(device.type)
    codes, scales_and_zeros, dequantized = quantize_int4(torch.randn(n, k, device=device))
    packed = pack_int4(codes, device.type)
    del codes
    weight_bytes = n * k // 2 + scales_and_zeros.numel() * scales_and_zeros.itemsize
    for m in (m for m in batches if m <= SLOW_PEERS_MAX_M):
        bytes_ = weight_bytes + 2 * (m * k + m * n)
        x = torch.randn(m, k, device=device, dtype=torch.bfloat16)
        error = relative_error(int4_mm(x, packed, scales_and_zeros), x.float() @ dequantized.T)
        label = f"linear {INT4_IMPL} bf16 m={m} n={n} k={k}"
        if not error <= INT4_ERROR_LIMIT:  # NaN included
            warning = f"relative error {error:.2e} > {INT4_ERROR_LIMIT:.0e}: wrong int4 packing?"
            log(f"  !!! WARNING: {label}: {warning}")
            report.failures.append({"case": label, "error": warning})
        cold, hot = timer.cold_and_hot(int4_mm, rotation((x, packed, scales_and_zeros), timer.cold_sets(bytes_)))
        report.add(
            label, row("linear", INT4_IMPL, "bf16", bytes_, 2 * m * n * k, cold, hot, m=m, n=n, k=k, error=error)
        )


def configure_dynamo():
    """Static compiles recompile each function once per (dtype, size), past
    Dynamo's default limit of 8 (beyond which it would run eager). Python
    float arguments are compiled in as constants in both modes (dynamic=True
    would otherwise pass them as 0-d CPU tensors), so that the modes differ
    only in how they treat sizes."""
    config = torch._dynamo.config
    setattr(config, "recompile_limit" if hasattr(config, "recompile_limit") else "cache_size_limit", 64)
    config.specialize_float = True


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", metavar="PATH", help="write the results here")
    parser.add_argument("--quick", action="store_true", help="a few sizes and shapes only (smoke test)")
    parser.add_argument("--only", choices=("elementwise", "linear", "copy"), help="one section; the copy always runs")
    parser.add_argument(
        "--compile-dynamic", action="store_true", help="torch.compile(dynamic=True): one compile per op and dtype"
    )
    parser.add_argument(
        "--device", choices=("cuda", "cpu"), default="cuda", help="cpu: wall-clock logic check, no graphs"
    )
    args = parser.parse_args()

    device = torch.device(args.device)
    if device.type == "cuda":
        if not torch.cuda.is_available():
            parser.error("no CUDA device (use --device cpu to check the logic)")
        timer = CudaGraphTimer(device)
        device_name = torch.cuda.get_device_name(device)
    else:
        timer = WallClockTimer()
        device_name = f"CPU {platform.processor() or platform.machine()}"
    # Full-precision f32 matmuls: cuBLAS would otherwise be free to use TF32.
    torch.backends.cuda.matmul.allow_tf32 = False
    configure_dynamo()

    elements = QUICK["elements"] if args.quick else ELEMENTS
    dtypes = QUICK["dtypes"] if args.quick else tuple(DTYPES)
    shapes = QUICK["shapes"] if args.quick else LINEAR_SHAPES
    batches = QUICK["batches"] if args.quick else BATCHES
    compile_mode = (
        "torch.compile(fn, dynamic=True), default mode: one compile per op and dtype"
        if args.compile_dynamic
        else "torch.compile(fn, dynamic=False), default mode: one static-shape compile per op, dtype and size"
    )
    log(f"torch {torch.__version__} on {device_name}, L2 {timer.l2_bytes / 2**20:.0f} MiB")
    log(f"per call: {timer.method}")
    log("cold: rotating over buffer sets > 2x L2; hot: one set (- where one set alone exceeds 2x L2)")
    log(f"torch.compile: {compile_mode}")
    log(f"F.linear f32: TF32 off (torch.backends.cuda.matmul.allow_tf32 = {torch.backends.cuda.matmul.allow_tf32})")

    report = Report(device.type)
    started = time.perf_counter()
    log("\ncopy")
    report.attempt("copy", partial(bench_copy, report, timer, device))
    if args.only in (None, "elementwise"):
        log("\nelementwise")
        bench_elementwise(report, timer, device, elements, dtypes, args.compile_dynamic)
    if args.only in (None, "linear"):
        log("\nlinear")
        bench_linear(report, timer, device, shapes, batches)
    log(f"\n{len(report.rows)} rows, {len(report.failures)} failures, {time.perf_counter() - started:.0f} s")
    for failure in report.failures:
        log(f"  FAILED {failure['case']}: {failure['error']}")

    if args.json:
        result = {
            "source": "torch",
            "device": device_name,
            "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "torch_version": torch.__version__,
            "l2_bytes": timer.l2_bytes,
            "copy_bandwidth_gbs": report.copy_gbs,
            "compile": compile_mode,
            "tf32": torch.backends.cuda.matmul.allow_tf32,
            "samples": timer.samples,
            "launches": timer.launches,
            "rows": report.rows,
            "failures": report.failures,
        }
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
        log(f"wrote {args.json}")


if __name__ == "__main__":
    main()
