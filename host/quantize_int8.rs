//! int8 quantization `q = clamp(round_half_even(x / scale + zero_point), -128, 127)`,
//! per tensor or per row, from f32, f16 or bf16 input.
//!
//! **Exact arithmetic**, identical on GPU and CPU: an f16 or bf16 input is
//! first widened to f32 (exactly: every f16 and bf16 value is an f32 value),
//! then `x / scale` is one correctly rounded f32 division (`div.rn.f32`, not
//! a multiply by a precomputed `1 / scale`, which can differ in the last bit
//! and so move a result across a rounding tie), `+ zero_point` one f32
//! addition (never fused into an FMA), then round half to even. The output
//! matches [`reference::quantize_int8`](crate::reference::quantize_int8) on
//! the widened input bit for bit, for every input: tested on every f16 and
//! every bf16 bit pattern, and on f32 ties, subnormals and huge values.
//! Scales and zero points are f32 whatever the input type.
//!
//! **Special values.** NaN quantizes to 0; +inf to 127 and -inf to -128
//! (so do finite values beyond the range). `scale` must be finite and > 0,
//! `zero_point` finite: anything else is [`Error::InvalidScale`] /
//! [`Error::InvalidZeroPoint`].
//!
//! **Against PyTorch.** The formula is PyTorch's
//! `torch.clamp(torch.round(x / s + zp), -128, 127).to(torch.int8)` in f32
//! (`torch.round` also rounds half to even). Measured on the H100 with
//! PyTorch 2.11 (`scripts/torch_quantize_semantics.py`, 2026-11-21, 10M
//! inputs, s = 0.05): with `s` a 0-d CUDA tensor, eager PyTorch matched true
//! division on every input; with `s` a Python float, eager and `torch.compile`
//! differed on 11 inputs (they multiply by `1 / s`, which moves values near a
//! tie by one step). PyTorch turned NaN into 0 there too, but that is an
//! undefined C++ float-to-int conversion; this kernel defines it. For an f16
//! or bf16 tensor `x`, eager PyTorch rounds `x / s` and `+ zp` to the
//! tensor's type (not measured here); this kernel keeps them in f32, as
//! `x.float()` would, so near ties the two can differ by one step.

use crate::elementwise::{self, ElementwiseKernels, ElementwiseLaunch};
use crate::launch::{self, DeviceInfo, Launch};
use crate::{Error, Float, PerFloat};
use quant_kernels_abi::elementwise::v2::QUANTIZE_VECTORS;

/// The per-tensor kernel's entry points in the PTX, by version and input type.
pub const KERNELS: ElementwiseKernels = ElementwiseKernels {
    v1: PerFloat { f32: "quantize_int8_f32", f16: "quantize_int8_f16", bf16: "quantize_int8_bf16" },
    v2: PerFloat { f32: "quantize_int8_v2_f32", f16: "quantize_int8_v2_f16", bf16: "quantize_int8_v2_bf16" },
    v3: PerFloat { f32: "quantize_int8_v3_f32", f16: "quantize_int8_v3_f16", bf16: "quantize_int8_v3_bf16" },
};
/// The per-row kernel's entry points in the PTX, by version and input type.
pub const ROWS_KERNELS: ElementwiseKernels = ElementwiseKernels {
    v1: PerFloat { f32: "quantize_int8_rows_f32", f16: "quantize_int8_rows_f16", bf16: "quantize_int8_rows_bf16" },
    v2: PerFloat {
        f32: "quantize_int8_rows_v2_f32",
        f16: "quantize_int8_rows_v2_f16",
        bf16: "quantize_int8_rows_v2_bf16",
    },
    v3: PerFloat {
        f32: "quantize_int8_rows_v3_f32",
        f16: "quantize_int8_rows_v3_f16",
        bf16: "quantize_int8_rows_v3_bf16",
    },
};

// The kernels' arithmetic, compiled for the CPU: the host prepares the
// per-tensor kernels' division with the very code the per-row kernels run.
#[path = "../kernels-gpu/src/math.rs"]
#[allow(dead_code)] // only scale_inverse is used here
mod device_math;

/// A validated per-tensor scale and zero point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Int8Params {
    scale: f32,
    zero_point: f32,
}

impl Int8Params {
    /// Errors unless `scale` is finite and > 0 and `zero_point` finite.
    pub fn new(scale: f32, zero_point: f32) -> Result<Self, Error> {
        check_params(None, scale, zero_point)?;
        Ok(Self { scale, zero_point })
    }

    pub fn scale(&self) -> f32 {
        self.scale
    }

    pub fn zero_point(&self) -> f32 {
        self.zero_point
    }

    /// The per-tensor kernels' last two arguments: `[RN(1 / scale),
    /// RN((1 - scale RN(1 / scale)) RN(1 / scale))]`, the preparation of
    /// their division (`kernels-gpu/src/math.rs`, `scale_inverse`), done
    /// once here rather than by every GPU thread before its first load.
    pub fn scale_inverse(&self) -> [f32; 2] {
        device_math::scale_inverse(self.scale)
    }
}

fn check_params(row: Option<usize>, scale: f32, zero_point: f32) -> Result<(), Error> {
    if !(scale.is_finite() && scale > 0.0) {
        return Err(Error::InvalidScale { row, scale });
    }
    if !zero_point.is_finite() {
        return Err(Error::InvalidZeroPoint { row, zero_point });
    }
    Ok(())
}

/// Checks per-row parameters: equal lengths, every scale finite and > 0,
/// every zero point finite.
pub fn check_row_params(scales: &[f32], zero_points: &[f32]) -> Result<(), Error> {
    launch::expect_len("zero_points", scales.len(), zero_points.len())?;
    for (row, (&scale, &zero_point)) in scales.iter().zip(zero_points).enumerate() {
        check_params(Some(row), scale, zero_point)?;
    }
    Ok(())
}

/// Checks the lengths of the per-tensor quantization of `x` (elements of
/// type `T`) and returns its launch, or `None` for empty input.
///
/// Kernel arguments, in order: `x: CUdeviceptr` (`T`), `out: CUdeviceptr`
/// (i8), `n: u64`, `scale: f32`, `zero_point: f32`, `inverse_hi: f32`,
/// `inverse_lo: f32` (from [`Int8Params`]; the last two are
/// [`Int8Params::scale_inverse`], and any other values give wrong codes).
/// Any alignment works; `x` 16-byte and `out` 4-byte (f32) or 8-byte
/// (f16/bf16) aligned take the vector path (v2, v3: at the same offset from such
/// boundaries). `out` must not overlap `x`.
pub fn plan<T: Float>(
    x_len: usize,
    out_len: usize,
    launch: ElementwiseLaunch,
    device: &DeviceInfo,
) -> Result<Option<Launch>, Error> {
    launch::expect_len("out", x_len, out_len)?;
    Ok((x_len > 0).then(|| elementwise::per_tensor::<T>(&KERNELS, x_len, QUANTIZE_VECTORS, launch, device)))
}

/// Checks the shapes of the per-row quantization of `x[rows][cols]`, where
/// `rows` is the number of scales, and returns its launch, or `None` for
/// empty input.
///
/// Kernel arguments, in order: `x: CUdeviceptr` (`T`), `scales: CUdeviceptr`
/// (f32, `rows`), `zero_points: CUdeviceptr` (f32, `rows`), `out: CUdeviceptr`
/// (i8), `rows: u64`, `cols: u64`. The scales and zero points must have passed
/// [`check_row_params`]. `out` must not overlap the other buffers. Every
/// version takes any grid (the kernels loop over what it leaves); v3's is
/// 2-D, the others' 1-D.
pub fn plan_rows<T: Float>(
    rows: usize,
    cols: usize,
    x_len: usize,
    out_len: usize,
    launch: ElementwiseLaunch,
    device: &DeviceInfo,
) -> Result<Option<Launch>, Error> {
    let elements = launch::checked_product("rows * cols", rows, cols)?;
    launch::expect_len("x", elements, x_len)?;
    launch::expect_len("out", elements, out_len)?;
    if elements == 0 {
        return Ok(None);
    }
    Ok(Some(elementwise::per_row::<T>(&ROWS_KERNELS, rows, cols, launch, device)))
}

#[cfg(feature = "cuda")]
mod cuda {
    use super::{Int8Params, check_row_params, plan, plan_rows};
    use crate::elementwise::ElementwiseLaunch;
    use crate::kernels::{address, arg};
    use crate::{Error, Float, Kernels};
    use cust::memory::{DeviceBuffer, DeviceCopy, DeviceSlice};
    use cust::stream::Stream;

    /// Per-row scales and zero points, validated and on the device.
    pub struct DeviceRowParams {
        scales: DeviceBuffer<f32>,
        zero_points: DeviceBuffer<f32>,
    }

    impl DeviceRowParams {
        /// The number of rows.
        pub fn rows(&self) -> usize {
            self.scales.len()
        }
    }

    impl std::fmt::Debug for DeviceRowParams {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("DeviceRowParams").field("rows", &self.rows()).finish()
        }
    }

    impl Kernels {
        /// Enqueues the per-tensor quantization of `x` into `out` on `stream`,
        /// for `T` one of f32, [`half::f16`], [`half::bf16`].
        pub fn quantize_int8<T: Float + DeviceCopy>(
            &self,
            x: &DeviceSlice<T>,
            params: Int8Params,
            out: &mut DeviceSlice<i8>,
            stream: &Stream,
        ) -> Result<(), Error> {
            self.quantize_int8_with(ElementwiseLaunch::default(), x, params, out, stream)
        }

        /// As [`quantize_int8`](Self::quantize_int8), with a given version and
        /// block size (every choice computes the same).
        pub fn quantize_int8_with<T: Float + DeviceCopy>(
            &self,
            launch: ElementwiseLaunch,
            x: &DeviceSlice<T>,
            params: Int8Params,
            out: &mut DeviceSlice<i8>,
            stream: &Stream,
        ) -> Result<(), Error> {
            let Some(launch) = plan::<T>(x.len(), out.len(), launch, self.device())? else { return Ok(()) };
            let (x, out, n) = (address(x), address(out), x.len() as u64);
            let (scale, zero_point, [inverse_hi, inverse_lo]) =
                (params.scale(), params.zero_point(), params.scale_inverse());
            let args = [arg(&x), arg(&out), arg(&n), arg(&scale), arg(&zero_point), arg(&inverse_hi), arg(&inverse_lo)];
            // SAFETY: the argument list matches every quantize_int8 entry point; the lengths were checked.
            unsafe { self.launch(&launch, stream, &args) }
        }

        /// Validates per-row scales and zero points and copies them to the device.
        pub fn upload_row_params(&self, scales: &[f32], zero_points: &[f32]) -> Result<DeviceRowParams, Error> {
            check_row_params(scales, zero_points)?;
            Ok(DeviceRowParams { scales: self.upload(scales)?, zero_points: self.upload(zero_points)? })
        }

        /// Enqueues the per-row quantization of the row-major `x[rows][cols]`
        /// (`rows = params.rows()`) into `out` on `stream`, for `T` one of
        /// f32, [`half::f16`], [`half::bf16`].
        pub fn quantize_int8_rows<T: Float + DeviceCopy>(
            &self,
            x: &DeviceSlice<T>,
            cols: usize,
            params: &DeviceRowParams,
            out: &mut DeviceSlice<i8>,
            stream: &Stream,
        ) -> Result<(), Error> {
            self.quantize_int8_rows_with(ElementwiseLaunch::default(), x, cols, params, out, stream)
        }

        /// As [`quantize_int8_rows`](Self::quantize_int8_rows), with a given
        /// version and block size (every choice computes the same).
        pub fn quantize_int8_rows_with<T: Float + DeviceCopy>(
            &self,
            launch: ElementwiseLaunch,
            x: &DeviceSlice<T>,
            cols: usize,
            params: &DeviceRowParams,
            out: &mut DeviceSlice<i8>,
            stream: &Stream,
        ) -> Result<(), Error> {
            let rows = params.rows();
            let Some(launch) = plan_rows::<T>(rows, cols, x.len(), out.len(), launch, self.device())? else {
                return Ok(());
            };
            let (x, out) = (address(x), address(out));
            let (scales, zero_points) = (address(&params.scales), address(&params.zero_points));
            let (rows, cols) = (rows as u64, cols as u64);
            let args = [arg(&x), arg(&scales), arg(&zero_points), arg(&out), arg(&rows), arg(&cols)];
            // SAFETY: the argument list matches every quantize_int8_rows entry point; shapes and
            // parameters were checked.
            unsafe { self.launch(&launch, stream, &args) }
        }
    }
}

#[cfg(feature = "cuda")]
pub use cuda::DeviceRowParams;
