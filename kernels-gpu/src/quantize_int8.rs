//! `q = clamp(round_half_even(x / scale + zero_point), -128, 127)` as `i8`,
//! with one scale and zero point for the whole tensor or one per row.

use crate::device::{I8x4, Strided, block_idx_x, for_each_element, grid_dim_x, is_aligned, load4};
use crate::math;

/// Quantizes `x[..n]` into `out[..n]` with one `scale` and `zero_point`.
///
/// Launch: 1-D grid of any size, `BLOCK_THREADS` threads
/// (`quant_kernels_abi::elementwise`). With `x` 16-byte and `out` 4-byte
/// aligned, each thread quantizes 4 elements per step (one 16-byte load,
/// one 4-byte store).
///
/// # Safety
/// `x` points to `n` f32 and `out` to `n` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn quantize_int8_f32(
    x: *const f32,
    out: *mut i8,
    n: usize,
    scale: f32,
    zero_point: f32,
) {
    // SAFETY: forwarded from the caller.
    unsafe { quantize_span(Strided::grid(), x, out, n, scale, zero_point) }
}

/// Quantizes the row-major `x[rows][cols]` into `out[rows][cols]`, row `r`
/// with `scales[r]` and `zero_points[r]`.
///
/// Launch: 1-D grid of any size, `BLOCK_THREADS` threads; each block takes
/// rows `blockIdx.x, blockIdx.x + gridDim.x, ...` and its threads share a row.
///
/// # Safety
/// `x` and `out` hold `rows * cols` elements, `scales` and `zero_points` `rows`.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn quantize_int8_rows_f32(
    x: *const f32,
    scales: *const f32,
    zero_points: *const f32,
    out: *mut i8,
    rows: usize,
    cols: usize,
) {
    for row in (block_idx_x() as usize..rows).step_by(grid_dim_x() as usize) {
        // SAFETY: row < rows, so the row's offsets and parameters are in bounds.
        unsafe {
            let (x_row, out_row) = (x.add(row * cols), out.add(row * cols));
            quantize_span(Strided::block(), x_row, out_row, cols, *scales.add(row), *zero_points.add(row));
        }
    }
}

/// Quantizes `x[..n]` into `out[..n]`, shared among `threads`.
///
/// # Safety
/// As for [`quantize_int8_f32`].
#[inline(always)]
unsafe fn quantize_span(threads: Strided, x: *const f32, out: *mut i8, n: usize, scale: f32, zero_point: f32) {
    let quantize = |v: f32| math::quantize_int8(v, scale, zero_point);
    for_each_element(
        threads,
        n,
        is_aligned(x, 16) && is_aligned(out, 4),
        // SAFETY: i + 4 <= n; x is 16-byte and out 4-byte aligned.
        |i| unsafe {
            let v = load4(x.add(i));
            *out.add(i).cast::<I8x4>() = I8x4(v.map(quantize));
        },
        // SAFETY: i < n.
        |i| unsafe { *out.add(i) = quantize(*x.add(i)) },
    );
}
