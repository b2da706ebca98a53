//! The fused 4-bit linear layer: `y = x * dequant(W)^T + bias`, unpacking,
//! scaling and accumulating in one pass, without writing dequantized weights.
//!
//! Work split (shapes from `quant_kernels_abi::int4_linear`): block
//! `(bx, by)` computes outputs `n` in `bx * ROWS_PER_BLOCK ..` for the
//! activation-row tiles `by, by + gridDim.y, ...` of `M_TILE` rows
//! (`M_TILE` is 1 in the decode entry point, 4 in the batch one). For one
//! tile, thread `t` of the block walks the words `t, t + BLOCK_THREADS, ...`
//! of each of its rows: a warp reads 32 consecutive words (128 bytes) of a
//! row per step, and the 8 activations of a word with two 16-byte loads that
//! are consecutive across the warp. Each thread keeps `ROWS_PER_BLOCK x
//! M_TILE` f32 sums; the warp adds them with shuffles, and the warps add
//! theirs through shared memory.
//!
//! Arithmetic per word: the 8 codes become the exact small integers
//! `u - z` (as f32), their dot product with the 8 activations is one FMA
//! chain, and the group scale multiplies that partial sum once
//! (`acc = fma(scale, dot, acc)`). Everything is f32.

use crate::device::{
    block_idx_x, block_idx_y, dynamic_shared_memory, grid_dim_y, lane_id, load4, sync_threads, thread_idx_x, warp_id,
    warp_sum,
};
use core::array::from_fn;
use core::f32::math::mul_add as fma;
use quant_kernels_abi::int4::{CODES_PER_WORD, NIBBLE_ORDER, SYMMETRIC_ZERO_POINT, zero_bytes_per_row};
use quant_kernels_abi::int4_linear::{BATCH_M_TILE, BLOCK_THREADS, DECODE_M_TILE, ROWS_PER_BLOCK, WARPS};

/// `y[m][n] = sum_k x[m][k] * (u[n][k] - z[n][g]) * s[n][g] (+ bias[n])`, `g = k / group_size`,
/// one activation row per block: the decode (`M = 1`) entry point.
///
/// Arguments (layouts in `quant_kernels_abi::int4`):
/// - `x`: activations `[m][k]` f32, row-major, 16-byte aligned;
/// - `qweight`: codes `[n][k / 8]` u32;
/// - `scales`: `[n][k / group_size]` f16 bits;
/// - `zeros`: `[n][ceil(k / group_size / 2)]` packed 4-bit zero points, or null
///   for symmetric weights (zero point 8);
/// - `bias`: `[n]` f32, or null;
/// - `y`: output `[m][n]` f32, row-major.
///
/// Launch: grid `(ceil(n / ROWS_PER_BLOCK), min(ceil(m / M_TILE), MAX_GRID_Y))`,
/// `BLOCK_THREADS` threads, `shared_bytes(M_TILE)` of dynamic shared memory.
///
/// # Safety
/// `m >= 1`, `n >= 1`, `k % group_size == 0`, `group_size` in {32, 64, 128},
/// and every buffer holds the elements listed above.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn int4_linear_m1_f32(
    x: *const f32,
    qweight: *const u32,
    scales: *const u16,
    zeros: *const u8,
    bias: *const f32,
    y: *mut f32,
    m: u32,
    n: u32,
    k: u32,
    group_size: u32,
) {
    // SAFETY: forwarded from the caller.
    unsafe { int4_linear::<DECODE_M_TILE>(x, qweight, scales, zeros, bias, y, m, n, k, group_size) }
}

/// As [`int4_linear_m1_f32`], with `BATCH_M_TILE` activation rows per block.
///
/// # Safety
/// As for [`int4_linear_m1_f32`].
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn int4_linear_m4_f32(
    x: *const f32,
    qweight: *const u32,
    scales: *const u16,
    zeros: *const u8,
    bias: *const f32,
    y: *mut f32,
    m: u32,
    n: u32,
    k: u32,
    group_size: u32,
) {
    // SAFETY: forwarded from the caller.
    unsafe { int4_linear::<BATCH_M_TILE>(x, qweight, scales, zeros, bias, y, m, n, k, group_size) }
}

/// The body of both entry points.
///
/// # Safety
/// As for [`int4_linear_m1_f32`].
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn int4_linear<const M_TILE: usize>(
    x: *const f32,
    qweight: *const u32,
    scales: *const u16,
    zeros: *const u8,
    bias: *const f32,
    y: *mut f32,
    m: u32,
    n: u32,
    k: u32,
    group_size: u32,
) {
    let (m, n, k) = (m as usize, n as usize, k as usize);
    // group_size is a power of two (32, 64 or 128): a shift, not a division.
    let group_shift = group_size.trailing_zeros();
    let words_per_row = k / CODES_PER_WORD;
    let groups_per_row = k >> group_shift;
    let zero_bytes = zero_bytes_per_row(groups_per_row);
    let first_row = block_idx_x() as usize * ROWS_PER_BLOCK;
    // Rows past `n` load row n - 1 and are never stored: no branch in the loop.
    let rows: [usize; ROWS_PER_BLOCK] = from_fn(|r| (first_row + r).min(n - 1));
    // [WARPS][ROWS_PER_BLOCK][M_TILE] partial sums.
    let partials = dynamic_shared_memory::<f32>();
    let (warp, lane) = (warp_id() as usize, lane_id() as usize);

    let m_tiles = m.div_ceil(M_TILE);
    let mut tile = block_idx_y() as usize;
    while tile < m_tiles {
        let first_m = tile * M_TILE;
        // SAFETY: every row index is clamped below m.
        let x_rows: [*const f32; M_TILE] = from_fn(|i| unsafe { x.add((first_m + i).min(m - 1) * k) });
        let mut sums = [[0.0f32; M_TILE]; ROWS_PER_BLOCK];

        let mut word = warp * 32 + lane;
        while word < words_per_row {
            let k0 = word * CODES_PER_WORD;
            let group = k0 >> group_shift;
            // The word's 8 activations of each row, in nibble order.
            let mut activations = [[0.0f32; CODES_PER_WORD]; M_TILE];
            for i in 0..M_TILE {
                // SAFETY: k0 + 8 <= k, and rows of x start 16-byte aligned (k % 32 == 0).
                let (lo, hi) = unsafe { (load4(x_rows[i].add(k0)), load4(x_rows[i].add(k0 + 4))) };
                let natural = [lo[0], lo[1], lo[2], lo[3], hi[0], hi[1], hi[2], hi[3]];
                for nibble in 0..CODES_PER_WORD {
                    activations[i][nibble] = natural[NIBBLE_ORDER[nibble]];
                }
            }
            for r in 0..ROWS_PER_BLOCK {
                // SAFETY: rows[r] < n, word < k / 8, group < k / group_size.
                let (codes, scale, zero) = unsafe {
                    let codes = *qweight.add(rows[r] * words_per_row + word);
                    let scale = f16::from_bits(*scales.add(rows[r] * groups_per_row + group)) as f32;
                    let zero = if zeros.is_null() {
                        SYMMETRIC_ZERO_POINT
                    } else {
                        (*zeros.add(rows[r] * zero_bytes + group / 2) as u32 >> (4 * (group % 2))) & 0xF
                    };
                    (codes, scale, zero)
                };
                let mut weights = [0.0f32; CODES_PER_WORD];
                for nibble in 0..CODES_PER_WORD {
                    weights[nibble] = (((codes >> (4 * nibble)) & 0xF) as i32 - zero as i32) as f32;
                }
                for i in 0..M_TILE {
                    let mut dot = 0.0;
                    for nibble in 0..CODES_PER_WORD {
                        dot = fma(activations[i][nibble], weights[nibble], dot);
                    }
                    sums[r][i] = fma(scale, dot, sums[r][i]);
                }
            }
            word += BLOCK_THREADS as usize;
        }

        for (r, row_sums) in sums.iter().enumerate() {
            for (i, sum) in row_sums.iter().enumerate() {
                let total = warp_sum(*sum);
                if lane == 0 {
                    // SAFETY: index < WARPS * ROWS_PER_BLOCK * M_TILE = shared_bytes(M_TILE) / 4.
                    unsafe { *partials.add((warp * ROWS_PER_BLOCK + r) * M_TILE + i) = total };
                }
            }
        }
        sync_threads();
        let t = thread_idx_x() as usize;
        if t < ROWS_PER_BLOCK * M_TILE {
            let (r, i) = (t / M_TILE, t % M_TILE);
            let (out_n, out_m) = (first_row + r, first_m + i);
            if out_n < n && out_m < m {
                let mut total = 0.0;
                for w in 0..WARPS as usize {
                    // SAFETY: in bounds as above; written before the barrier.
                    total += unsafe { *partials.add((w * ROWS_PER_BLOCK + r) * M_TILE + i) };
                }
                if !bias.is_null() {
                    // SAFETY: out_n < n.
                    total += unsafe { *bias.add(out_n) };
                }
                // SAFETY: out_m < m and out_n < n.
                unsafe { *y.add(out_m * n + out_n) = total };
            }
        }
        // The next tile overwrites `partials`.
        sync_threads();
        tile += grid_dim_y() as usize;
    }
}
