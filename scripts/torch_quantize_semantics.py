"""How PyTorch's int8 quantization expression compares with quantize_int8's
exact arithmetic (f32 true division, f32 addition, round half to even).

The exact result is computed with NumPy on the CPU (IEEE float32 division
and addition, np.round is half to even). Prints, for eager PyTorch and
torch.compile, with the scale as a Python float and as a tensor, how many
of the outputs differ from it, and what NaN becomes.
"""
import numpy as np
import torch

torch.manual_seed(0)
n = 10_000_000
x = torch.randn(n, device="cuda") * 3.0
# Exact ties of x / s + zp for s = 0.05 are rare in random data; add values
# just around them so a reciprocal multiply shows up if PyTorch uses one.
k = torch.arange(-2000, 2000, device="cuda", dtype=torch.float32)
x = torch.cat([x, (k + 0.5 + 1.5) * 0.05, torch.tensor([float("nan")], device="cuda")])
scale, zero_point = 0.05, -1.5

x_np = x.cpu().numpy()
exact = np.clip(np.round(x_np / np.float32(scale) + np.float32(zero_point)), -128, 127)
exact = np.where(np.isnan(exact), 0, exact).astype(np.int8)


def quantize(v, s, zp):
    return torch.clamp(torch.round(v / s + zp), -128, 127).to(torch.int8)


compiled = torch.compile(quantize)
variants = {
    "eager, scale as Python float": lambda: quantize(x, scale, zero_point),
    "eager, scale as 0-d CUDA tensor": lambda: quantize(x, torch.tensor(scale, device="cuda"), zero_point),
    "torch.compile, scale as Python float": lambda: compiled(x, scale, zero_point),
}
print(f"{torch.__version__}, {torch.cuda.get_device_name()}, {x.numel()} inputs, scale {scale}, zero point {zero_point}")
for name, run in variants.items():
    got = run().cpu().numpy()
    differ = int((got[:-1] != exact[:-1]).sum())
    print(f"{name:40s}: {differ} of {x.numel() - 1} finite inputs differ from true division; NaN -> {got[-1]}")
