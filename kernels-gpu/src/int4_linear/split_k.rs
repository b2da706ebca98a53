//! The second kernel of the tiled GEMMs' split-K (versions 7 and 10 to 13,
//! `v7.rs`, `v10.rs` to `v13.rs`): adds the f32 partial sums of the `splits` slices
//! of `K`, `partials[splits][m][n]`, adds the bias and rounds into `y[m][n]`.
//!
//! Block `(bx, by)` takes columns `bx * REDUCE_THREADS ..` of activation
//! rows `by, by + gridDim.y, ...` (shapes from
//! `quant_kernels_abi::int4_linear::v7`), one column a thread: a warp reads
//! 128 contiguous bytes of each slice and writes 64 of `y`. The slices are
//! added in order from 0.0, then the bias, as the unsplit kernel adds the
//! bias to its sum, so a launch gives the same bits every time. It moves
//! `4 * splits + 2` bytes an output and computes nothing worth counting:
//! the workspace the GEMM has just written is mostly still in L2.
//!
//! Launch: grid `(ceil(n / REDUCE_THREADS), min(m, MAX_GRID_Y))`,
//! `REDUCE_THREADS` threads (any block size works), no shared memory.

use crate::device::{block_dim_x, block_idx_x, block_idx_y, grid_dim_y, thread_idx_x};
use crate::float::{Bf16, Float};

export_per_float!(
    reduce_split_k (partials: *const f32, bias: *const f32, y: *mut T, m: u32, n: u32, splits: u32)
        as int4_linear_split_k_reduce_f16 for f16, int4_linear_split_k_reduce_bf16 for Bf16
);

/// `y[r][c] = T(sum_s partials[s][r][c] + bias[c])`.
///
/// # Safety
/// `partials` holds `splits * m * n` f32, `bias` is null or holds `n`, and
/// `y` holds `m * n` elements.
#[inline(always)]
unsafe fn reduce_split_k<T: Float>(partials: *const f32, bias: *const f32, y: *mut T, m: u32, n: u32, splits: u32) {
    let (m, n) = (m as usize, n as usize);
    let column = block_idx_x() as usize * block_dim_x() as usize + thread_idx_x() as usize;
    if column >= n {
        return;
    }
    // SAFETY: column < n.
    let bias = if bias.is_null() { 0.0 } else { unsafe { *bias.add(column) } };
    let slice = m * n;
    let mut row = block_idx_y() as usize;
    while row < m {
        let output = row * n + column;
        let mut sum = 0.0f32;
        for s in 0..splits as usize {
            // SAFETY: s < splits and output < m * n.
            sum += unsafe { *partials.add(s * slice + output) };
        }
        // SAFETY: output < m * n.
        unsafe { *y.add(output) = T::from_f32(sum + bias) };
        row += grid_dim_y() as usize;
    }
}
