//! `out = exp((x + y) * 2)`, elementwise over f32.
//!
//! **Error bound.** Relative error below 2.5e-7 (about 2 ulp) against the
//! exact value wherever the result is a normal f32, enforced at 1e-5 by the
//! tests; `x + y` is carried exactly into the exponential (TwoSum), so large
//! arguments lose nothing to the rounding of the sum. Results that overflow
//! are +inf; results below the smallest subnormal are +0; NaN in either input
//! gives NaN. Near the overflow threshold (within the 2.5e-7 bound of
//! `f32::MAX`) a result may round to either `f32::MAX` or +inf.

use crate::Error;
use crate::launch::{self, DeviceInfo, Launch};

/// The kernel's name in the PTX.
pub const KERNEL: &str = "add_mul_exp_f32";

/// Checks the lengths of `out = add_mul_exp(x, y)` and returns its launch, or
/// `None` when there is nothing to do (`n == 0`).
///
/// Kernel arguments, in order: `x: CUdeviceptr`, `y: CUdeviceptr`,
/// `out: CUdeviceptr`, `n: u64`. Any alignment works; 16-byte aligned
/// buffers take the vectorized path.
pub fn plan(x_len: usize, y_len: usize, out_len: usize, device: &DeviceInfo) -> Result<Option<Launch>, Error> {
    launch::expect_len("y", x_len, y_len)?;
    launch::expect_len("out", x_len, out_len)?;
    Ok((x_len > 0).then(|| launch::grid_stride(KERNEL, x_len, device)))
}

#[cfg(feature = "cuda")]
mod cuda {
    use super::plan;
    use crate::kernels::{address, arg};
    use crate::{Error, Kernels};
    use cust::memory::DeviceSlice;
    use cust::stream::Stream;

    impl Kernels {
        /// Enqueues `out[i] = exp((x[i] + y[i]) * 2)` on `stream`.
        pub fn add_mul_exp(
            &self,
            x: &DeviceSlice<f32>,
            y: &DeviceSlice<f32>,
            out: &mut DeviceSlice<f32>,
            stream: &Stream,
        ) -> Result<(), Error> {
            let Some(launch) = plan(x.len(), y.len(), out.len(), self.device())? else { return Ok(()) };
            let (x, y, out, n) = (address(x), address(y), address(out), x.len() as u64);
            // SAFETY: the argument list matches `add_mul_exp_f32`; the lengths were checked.
            unsafe { self.launch(&launch, stream, &[arg(&x), arg(&y), arg(&out), arg(&n)]) }
        }
    }
}
