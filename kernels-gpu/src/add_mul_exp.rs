//! `out = exp((x + y) * 2)`, elementwise over f32.

use crate::device::{Strided, for_each_element, is_aligned, load4, store4};
use crate::math;

/// `out[i] = exp((x[i] + y[i]) * 2)` for `i < n`.
///
/// Launch: 1-D grid of any size, `BLOCK_THREADS` threads
/// (`quant_kernels_abi::elementwise`); the grid-stride loop covers all `n`.
/// When all three pointers are 16-byte aligned each thread moves 4 elements
/// per step with 16-byte loads and stores; otherwise one at a time.
///
/// # Safety
/// `x`, `y` and `out` point to `n` elements each; `out` overlaps neither input
/// unless it is identical to it.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn add_mul_exp_f32(x: *const f32, y: *const f32, out: *mut f32, n: usize) {
    let vectorized = is_aligned(x, 16) && is_aligned(y, 16) && is_aligned(out, 16);
    for_each_element(
        Strided::grid(),
        n,
        vectorized,
        // SAFETY: i + 4 <= n and the pointers are 16-byte aligned (checked above).
        |i| unsafe {
            let (a, b) = (load4(x.add(i)), load4(y.add(i)));
            store4(out.add(i), core::array::from_fn(|j| math::add_mul_exp(a[j], b[j])));
        },
        // SAFETY: i < n.
        |i| unsafe { *out.add(i) = math::add_mul_exp(*x.add(i), *y.add(i)) },
    );
}
