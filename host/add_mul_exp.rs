//! `out = exp((x + y) * 2)`, elementwise, in f32, f16 or bf16 (`x`, `y` and
//! `out` of one type). The inputs widen exactly to f32, the kernel computes
//! in f32 and rounds the result once to the storage type.
//!
//! **Error bounds**, against the exact value of `exp((x + y) * 2)` for the
//! (widened) inputs:
//!
//! | type | the f32 value | normal results: relative error | unit roundoff `u` |
//! |---|---|---|---|
//! | f32 | `2.5e-7` (about 2 ulp; tested at the 1e-5 on the GPU) | `2.5e-7` | `2^-24` |
//! | f16 | `2^-16` | `u + 2^-16 (1 + u)`, about `5.0e-4` | `2^-11` |
//! | bf16 | `2^-16` | `u + 2^-16 (1 + u)`, about `3.9e-3` | `2^-8` |
//!
//! f32 results come from a Cody-Waite reduction and a degree-7 polynomial,
//! with `x + y` carried exactly into the exponential (TwoSum), bit for bit
//! the same on the CPU, where CI checks the bound. f16 and bf16 results,
//! which keep 11 and 8 bits, are the f32 `2^((x + y) * 2 log2 e)` of the
//! GPU's `ex2.approx.f32` (within `2^-16`, see `kernels-gpu/src/add_mul_exp.rs`)
//! rounded once to nearest even, which adds at most `u`: a fifth of the f32
//! path's instructions. Their bound is checked on the GPU, for every 16-bit
//! `x`; on the CPU, CI checks the same formula with an exact power of two.
//!
//! **Outside the normal range**, for every type `T` (its largest finite
//! value `MAX`, smallest normal `MIN_POSITIVE` and smallest subnormal `s`,
//! from [`Float`]), with `e` the f32 value's bound above:
//! - below `MIN_POSITIVE` (subnormal results and underflow), the absolute
//!   error is at most `s + e * exact`: results below about `s / 2` are +0;
//! - results that overflow are +inf: in f16 every exact value above
//!   `65520 * (1 + e)` (65520 is where rounding to f16 goes past 65504), for
//!   example `exp(2 * (x + y)) > 65520` with `x + y >= 5.55`; in bf16 above
//!   `(2 - 2^-8) 2^127 (1 + e)`; in f32 above `f32::MAX (1 + e)`. Within `e`
//!   of the threshold the result may be either `MAX` or +inf;
//! - NaN in either input gives NaN (the canonical NaN of the type).

use crate::elementwise::{self, ElementwiseKernels, ElementwiseLaunch};
use crate::launch::{self, DeviceInfo, Launch};
use crate::{Error, Float, PerFloat};
use quant_kernels_abi::elementwise::v2::ADD_MUL_EXP_CHUNKS;

/// The kernel's entry points in the PTX, by version and type.
pub const KERNELS: ElementwiseKernels = ElementwiseKernels {
    v1: PerFloat { f32: "add_mul_exp_f32", f16: "add_mul_exp_f16", bf16: "add_mul_exp_bf16" },
    v2: PerFloat { f32: "add_mul_exp_v2_f32", f16: "add_mul_exp_v2_f16", bf16: "add_mul_exp_v2_bf16" },
    v3: PerFloat { f32: "add_mul_exp_v3_f32", f16: "add_mul_exp_v3_f16", bf16: "add_mul_exp_v3_bf16" },
};

/// Checks the lengths of `out = add_mul_exp(x, y)` for elements of type `T`
/// and returns its launch, or `None` when there is nothing to do (`n == 0`).
///
/// Kernel arguments, in order: `x: CUdeviceptr`, `y: CUdeviceptr`,
/// `out: CUdeviceptr` (each `n` elements of `T`), `n: u64`. Any alignment
/// works; where the three buffers are 16-byte aligned (v1), or share their
/// offset from a 16-byte boundary (v2, v3), they take the vector path. `out`
/// may be identical to an input, not otherwise overlap one.
pub fn plan<T: Float>(
    x_len: usize,
    y_len: usize,
    out_len: usize,
    launch: ElementwiseLaunch,
    device: &DeviceInfo,
) -> Result<Option<Launch>, Error> {
    launch::expect_len("y", x_len, y_len)?;
    launch::expect_len("out", x_len, out_len)?;
    Ok((x_len > 0).then(|| elementwise::per_tensor::<T>(&KERNELS, x_len, ADD_MUL_EXP_CHUNKS, launch, device)))
}

#[cfg(feature = "cuda")]
mod cuda {
    use super::plan;
    use crate::elementwise::ElementwiseLaunch;
    use crate::kernels::{address, arg};
    use crate::{Error, Float, Kernels};
    use cust::memory::{DeviceCopy, DeviceSlice};
    use cust::stream::Stream;

    impl Kernels {
        /// Enqueues `out[i] = exp((x[i] + y[i]) * 2)` on `stream`, for `T` one
        /// of f32, [`half::f16`], [`half::bf16`].
        pub fn add_mul_exp<T: Float + DeviceCopy>(
            &self,
            x: &DeviceSlice<T>,
            y: &DeviceSlice<T>,
            out: &mut DeviceSlice<T>,
            stream: &Stream,
        ) -> Result<(), Error> {
            self.add_mul_exp_with(ElementwiseLaunch::default(), x, y, out, stream)
        }

        /// As [`add_mul_exp`](Self::add_mul_exp), with a given version and
        /// block size (every choice computes the same).
        pub fn add_mul_exp_with<T: Float + DeviceCopy>(
            &self,
            launch: ElementwiseLaunch,
            x: &DeviceSlice<T>,
            y: &DeviceSlice<T>,
            out: &mut DeviceSlice<T>,
            stream: &Stream,
        ) -> Result<(), Error> {
            let Some(launch) = plan::<T>(x.len(), y.len(), out.len(), launch, self.device())? else { return Ok(()) };
            let (x, y, out, n) = (address(x), address(y), address(out), x.len() as u64);
            // SAFETY: the argument list matches every add_mul_exp entry point; the lengths were checked.
            unsafe { self.launch(&launch, stream, &[arg(&x), arg(&y), arg(&out), arg(&n)]) }
        }
    }
}
