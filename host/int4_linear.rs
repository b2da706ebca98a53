//! The fused 4-bit linear layer `y[M][N] = x[M][K] * dequant(W)^T (+ bias)`,
//! for decode (`M = 1`) and batches (`M > 1`) alike.
//!
//! **Error bound.** f32 products and sums (the codes become exact small
//! integers, each word's 8 products form one FMA chain, scaled once per
//! word): `||y - ref|| / ||ref|| <= 1e-5` against the f64 reference computed
//! from the same packed weights, tested on random inputs up to `K = 8192`.
//! The quantization error itself (against the unquantized weights) is much
//! larger and is reported by `cargo run --release` and in the README.

use crate::Error;
use crate::int4_weights::Int4Shape;
use crate::launch::{Launch, LaunchConfig, checked_product, expect_len};
use quant_kernels_abi::int4_linear::{
    BATCH_M_TILE, BLOCK_THREADS, DECODE_M_TILE, MAX_GRID_Y, ROWS_PER_BLOCK, shared_bytes,
};

/// The decode entry point (one activation row per block), used for `m == 1`.
pub const DECODE_KERNEL: &str = "int4_linear_m1_f32";
/// The batch entry point (4 activation rows per block), used for `m > 1`.
pub const BATCH_KERNEL: &str = "int4_linear_m4_f32";

/// The buffers of one call, by length (and the activations' address, whose
/// alignment the kernel relies on).
#[derive(Debug, Clone, Copy)]
pub struct Int4LinearBuffers {
    /// Activation rows `M`.
    pub m: usize,
    /// Length of `x` (must be `m * k`).
    pub x_len: usize,
    /// Device address of `x` (must be 16-byte aligned).
    pub x_address: u64,
    /// Length of the bias, if there is one (must be `n`).
    pub bias_len: Option<usize>,
    /// Length of `y` (must be `m * n`).
    pub y_len: usize,
}

/// Checks one call against the weights' shape and returns its launch, or
/// `None` when there is nothing to compute (`m == 0` or `n == 0`). The
/// kernel is [`DECODE_KERNEL`] for `m == 1` and [`BATCH_KERNEL`] otherwise;
/// both take the same arguments.
///
/// Kernel arguments, in order: `x: CUdeviceptr` (f32 `[m][k]`), `qweight:
/// CUdeviceptr`, `scales: CUdeviceptr`, `zeros: CUdeviceptr` (0 for
/// symmetric weights), `bias: CUdeviceptr` (0 for none), `y: CUdeviceptr`
/// (f32 `[m][n]`), `m: u32`, `n: u32`, `k: u32`, `group_size: u32`; the
/// weight arrays as in [`quant_kernels_abi::int4`].
pub fn plan(shape: &Int4Shape, buffers: &Int4LinearBuffers) -> Result<Option<Launch>, Error> {
    let Int4LinearBuffers { m, x_len, x_address, bias_len, y_len } = *buffers;
    for (what, value) in [("m", m), ("n", shape.n), ("k", shape.k)] {
        if value > u32::MAX as usize {
            return Err(Error::TooLarge { what, value: value as u128, limit: u32::MAX as u128 });
        }
    }
    expect_len("x", checked_product("m * k", m, shape.k)?, x_len)?;
    expect_len("y", checked_product("m * n", m, shape.n)?, y_len)?;
    if let Some(bias_len) = bias_len {
        expect_len("bias", shape.n, bias_len)?;
    }
    if x_address % 16 != 0 {
        return Err(Error::Misaligned { argument: "x", align: 16 });
    }
    if m == 0 || shape.n == 0 {
        return Ok(None);
    }
    let (kernel, m_tile) = if m == 1 { (DECODE_KERNEL, DECODE_M_TILE) } else { (BATCH_KERNEL, BATCH_M_TILE) };
    let m_tiles = m.div_ceil(m_tile).min(MAX_GRID_Y as usize);
    Ok(Some(Launch {
        kernel,
        config: LaunchConfig {
            grid: [shape.n.div_ceil(ROWS_PER_BLOCK) as u32, m_tiles as u32, 1],
            block: [BLOCK_THREADS, 1, 1],
            shared_mem_bytes: shared_bytes(m_tile),
        },
    }))
}

#[cfg(feature = "cuda")]
mod cuda {
    use super::{Int4LinearBuffers, plan};
    use crate::int4_weights::{Int4Mode, Int4Shape, Int4Weights};
    use crate::kernels::{address, arg};
    use crate::{Error, Kernels};
    use cust::memory::{DeviceBuffer, DeviceSlice};
    use cust::stream::Stream;

    /// Packed 4-bit weights on the device, with an optional bias: one linear layer.
    pub struct DeviceInt4Linear {
        shape: Int4Shape,
        qweight: DeviceBuffer<u32>,
        scales: DeviceBuffer<u16>,
        zeros: Option<DeviceBuffer<u8>>,
        bias: Option<DeviceBuffer<f32>>,
    }

    impl DeviceInt4Linear {
        pub fn shape(&self) -> Int4Shape {
            self.shape
        }

        pub fn has_bias(&self) -> bool {
            self.bias.is_some()
        }
    }

    impl std::fmt::Debug for DeviceInt4Linear {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("DeviceInt4Linear").field("shape", &self.shape).field("bias", &self.has_bias()).finish()
        }
    }

    impl Kernels {
        /// Copies packed weights (and a bias of `n` elements, if given) to the device.
        pub fn upload_int4_linear(
            &self,
            weights: &Int4Weights,
            bias: Option<&[f32]>,
        ) -> Result<DeviceInt4Linear, Error> {
            let shape = weights.shape();
            if let Some(bias) = bias {
                crate::launch::expect_len("bias", shape.n, bias.len())?;
            }
            let scales: Vec<u16> = weights.scales().iter().map(|s| s.to_bits()).collect();
            Ok(DeviceInt4Linear {
                shape,
                qweight: self.upload(weights.qweight())?,
                scales: self.upload(&scales)?,
                zeros: match shape.mode {
                    Int4Mode::Symmetric => None,
                    Int4Mode::Asymmetric => Some(self.upload(weights.zeros())?),
                },
                bias: bias.map(|b| self.upload(b)).transpose()?,
            })
        }

        /// Enqueues `y = x * dequant(W)^T + bias` on `stream`, for `m` rows
        /// of activations `x[m][k]` (16-byte aligned) into `y[m][n]`.
        pub fn int4_linear(
            &self,
            x: &DeviceSlice<f32>,
            m: usize,
            layer: &DeviceInt4Linear,
            y: &mut DeviceSlice<f32>,
            stream: &Stream,
        ) -> Result<(), Error> {
            let shape = layer.shape;
            let buffers = Int4LinearBuffers {
                m,
                x_len: x.len(),
                x_address: address(x),
                bias_len: layer.bias.as_ref().map(|b| b.len()),
                y_len: y.len(),
            };
            let Some(launch) = plan(&shape, &buffers)? else { return Ok(()) };
            let (x, y) = (address(x), address(y));
            let (qweight, scales) = (address(&layer.qweight), address(&layer.scales));
            let zeros = layer.zeros.as_ref().map_or(0, |z| address(z));
            let bias = layer.bias.as_ref().map_or(0, |b| address(b));
            let dims = [m as u32, shape.n as u32, shape.k as u32, shape.group_size as u32];
            let args = [
                arg(&x),
                arg(&qweight),
                arg(&scales),
                arg(&zeros),
                arg(&bias),
                arg(&y),
                arg(&dims[0]),
                arg(&dims[1]),
                arg(&dims[2]),
                arg(&dims[3]),
            ];
            // SAFETY: the argument list matches both int4 entry points; the shapes
            // were checked, and the weight arrays match their shape by construction.
            unsafe { self.launch(&launch, stream, &args) }
        }
    }
}

#[cfg(feature = "cuda")]
pub use cuda::DeviceInt4Linear;
