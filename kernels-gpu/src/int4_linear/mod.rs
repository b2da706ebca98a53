//! The fused 4-bit linear layer: `y = x * dequant(W)^T + bias`, unpacking,
//! scaling and accumulating in one pass, without writing dequantized weights.
//! Versions side by side, simplest first; all take the same arguments
//! (documented on [`int4_linear_v1_m1_f32`]) and sum in f32. Versions 1 and
//! 2 (this file) take f32 activations and run on the CUDA cores; versions 3
//! to 6 (`v3.rs` to `v6.rs`, GEMVs for small `M`), 7 (`v7.rs`, a tiled
//! GEMM for large `M`), 10 (`v10.rs`, version 7 on the Hopper's
//! warpgroup MMAs, sm_90a only), 11 (`v11.rs`, version 10 with twice the
//! activation rows a block), 12 (`v12.rs`, version 10 fed by producer
//! warpgroups), 13 (`v13.rs`, version 12 in clusters of two blocks that
//! share the activations through TMA multicast), 17 (`v17.rs`,
//! versions 5 and 6 in blocks of several groups of warps, each on its own
//! rows), 18 (`v18.rs`, version 10 with 64 activation rows a block) and
//! 19 (`v19.rs`, version 12 with 64, its activations copied by the TMA
//! unit), 22 (`v22.rs`, version 12 with
//! 16), 23 (`v23.rs`, version 22 with its codes copied by the TMA unit)
//! and 24 (`v24.rs`, version 23 with 32), sharing `mma_tile.rs`, take f16
//! or bf16 and run on the tensor cores. Versions 7, 10 to 13, 18, 19 and 22
//! to 24 also split `K` across
//! blocks into an f32 workspace, which `split_k.rs` reduces into `y`: those
//! entry points take the arguments their files document. Every version
//! finds a row's code words through `quant_kernels_abi::int4::word_index`
//! (rows in bands of 16, each band stored step by step).
//!
//! **Version 1** (shapes from `quant_kernels_abi::int4_linear::v1`): block
//! `(bx, by)` computes outputs `n` in `bx * ROWS_PER_BLOCK ..` for the
//! activation-row tiles `by, by + gridDim.y, ...` of `M_TILE` rows
//! (`M_TILE` is 1 in the decode entry point, 4 in the batch one). For one
//! tile, thread `t` of the block walks the words `t, t + BLOCK_THREADS, ...`
//! of each of its rows: a warp reads 32 consecutive words of a row per
//! step (two 64-byte pieces in the banded `qweight` of
//! `quant_kernels_abi::int4`), and the 8 activations of a word with two
//! 16-byte loads that are consecutive across the warp. Each thread keeps
//! `ROWS_PER_BLOCK x M_TILE` f32 sums; the warp adds them with shuffles, and the warps add
//! theirs through shared memory.
//!
//! Arithmetic per word: the 8 codes become the exact small integers
//! `u - z` (as f32), their dot product with the 8 activations is one FMA
//! chain, and the group scale multiplies that partial sum once
//! (`acc = fma(scale, dot, acc)`).
//!
//! **Version 2** (decode; shapes from `quant_kernels_abi::int4_linear::v2`):
//! each warp owns whole rows, so no cross-warp reduction; each lane loads 16
//! bytes (32 codes, one group's worth at most) a row and step and issues
//! `CHUNKS_IN_FLIGHT` steps before using any, to keep enough bytes in flight
//! to cover DRAM latency; the activations come from shared memory, staged once
//! per block; codes become floats through exponent bits
//! ([`math::int4_levels`]) instead of integer-to-float conversions. Each
//! 32-code chunk's dot product is one FMA chain, scaled once.

use crate::device::{
    Strided, Vec4, block_idx_x, block_idx_y, dynamic_shared_memory, grid_dim_y, lane_id, load4, load8, store4,
    sync_threads, thread_idx_x, warp_id, warp_sum,
};
use crate::math;
use core::array::from_fn;
use core::f32::math::mul_add as fma;
use quant_kernels_abi::int4::{
    CODES_PER_WORD, NIBBLE_ORDER, SYMMETRIC_ZERO_POINT, row_start, word_offset, zero_bytes_per_row,
};
use quant_kernels_abi::int4_linear::v1::{BATCH_M_TILE, BLOCK_THREADS, DECODE_M_TILE, ROWS_PER_BLOCK, WARPS};
use quant_kernels_abi::int4_linear::v2;

mod mma_tile;
mod split_k;
mod v10;
mod v11;
mod v12;
mod v13;
mod v17;
mod v18;
mod v19;
mod v22;
mod v23;
mod v24;
mod v3;
mod v4;
mod v5;
mod v6;
mod v7;
pub use split_k::*;
pub use v3::*;
pub use v4::*;
pub use v5::*;
pub use v6::*;
pub use v7::*;
pub use v10::*;
pub use v11::*;
pub use v12::*;
pub use v17::*;
pub use v18::*;
pub use v19::*;
pub use v22::*;

/// `y[m][n] = sum_k x[m][k] * (u[n][k] - z[n][g]) * s[n][g] (+ bias[n])`, `g = k / group_size`,
/// one activation row per block: the decode (`M = 1`) entry point.
///
/// Arguments (layouts in `quant_kernels_abi::int4`):
/// - `x`: activations `[m][k]` f32, row-major, 16-byte aligned;
/// - `qweight`: codes, u32 in bands of 16 rows (`int4::word_index`, `int4::qweight_words(n, k)` words);
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
pub unsafe extern "ptx-kernel" fn int4_linear_v1_m1_f32(
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
    crate::grid_dependency::begin_after_previous_grid();
    // SAFETY: forwarded from the caller.
    unsafe { linear_v1::<DECODE_M_TILE>(x, qweight, scales, zeros, bias, y, m, n, k, group_size) }
}

/// As [`int4_linear_v1_m1_f32`], with `BATCH_M_TILE` activation rows per block.
///
/// # Safety
/// As for [`int4_linear_v1_m1_f32`].
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn int4_linear_v1_m4_f32(
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
    crate::grid_dependency::begin_after_previous_grid();
    // SAFETY: forwarded from the caller.
    unsafe { linear_v1::<BATCH_M_TILE>(x, qweight, scales, zeros, bias, y, m, n, k, group_size) }
}

/// The body of both version 1 entry points.
///
/// # Safety
/// As for [`int4_linear_v1_m1_f32`].
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn linear_v1<const M_TILE: usize>(
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
    let groups = GroupParams::new(scales, zeros, k, group_size);
    let words_per_row = k / CODES_PER_WORD;
    let first_row = block_idx_x() as usize * ROWS_PER_BLOCK;
    // Rows past `n` load row n - 1 and are never stored: no branch in the loop.
    let rows: [usize; ROWS_PER_BLOCK] = from_fn(|r| (first_row + r).min(n - 1));
    // SAFETY: word 0 of each row, inside qweight.
    let row_words: [*const u32; ROWS_PER_BLOCK] = rows.map(|row| unsafe { qweight.add(row_start(k, row)) });
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
            let group = groups.group_of(k0);
            // The word's 8 activations of each row, in nibble order.
            let mut activations = [[0.0f32; CODES_PER_WORD]; M_TILE];
            for i in 0..M_TILE {
                // SAFETY: k0 + 8 <= k, and rows of x start 16-byte aligned (k % 32 == 0).
                let natural = unsafe { load8(x_rows[i].add(k0)) };
                for nibble in 0..CODES_PER_WORD {
                    activations[i][nibble] = natural[NIBBLE_ORDER[nibble]];
                }
            }
            for r in 0..ROWS_PER_BLOCK {
                // SAFETY: rows[r] < n, word < k / 8, group < k / group_size.
                let (codes, (scale, zero)) =
                    unsafe { (*row_words[r].add(word_offset(word)), groups.get(rows[r], group)) };
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

/// Version 2 (see the module documentation): one activation row per block
/// and pass, any `m`.
///
/// Launch: grid `(ceil(n / v2::ROWS_PER_BLOCK), min(m, MAX_GRID_Y))`,
/// `v2::BLOCK_THREADS` threads, `v2::SHARED_BYTES` of dynamic shared memory.
///
/// # Safety
/// As for [`int4_linear_v1_m1_f32`], and `qweight` 16-byte aligned.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn int4_linear_v2_f32(
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
    const R: usize = v2::ROWS_PER_WARP;
    const F: usize = v2::CHUNKS_IN_FLIGHT;
    crate::grid_dependency::begin_after_previous_grid();
    let (m, n, k) = (m as usize, n as usize, k as usize);
    let groups = GroupParams::new(scales, zeros, k, group_size);
    let (warp, lane) = (warp_id() as usize, lane_id() as usize);
    let first_row = block_idx_x() as usize * v2::ROWS_PER_BLOCK + warp * R;
    // Rows past `n` load row n - 1 and are never stored.
    let rows: [usize; R] = from_fn(|r| (first_row + r).min(n - 1));
    // SAFETY: word 0 of each row, inside qweight.
    let row_words: [*const u32; R] = rows.map(|row| unsafe { qweight.add(row_start(k, row)) });
    // TILE_K activations, chunk c at floats [PADDED_CHUNK * c, PADDED_CHUNK * c + 32).
    let staged = dynamic_shared_memory::<f32>();

    let mut activation_row = block_idx_y() as usize;
    while activation_row < m {
        // SAFETY: activation_row < m.
        let x_row = unsafe { x.add(activation_row * k) };
        let mut sums = [0.0f32; R];
        let mut tile_start = 0;
        while tile_start < k {
            let tile_chunks = (k - tile_start).min(v2::TILE_K) / 32;
            sync_threads(); // every warp is done with the previous tile
            for i in Strided::block().over(tile_chunks * 8) {
                // SAFETY: float 4i of the tile is below k; the padded slot is
                // below SHARED_BYTES / 4; both are 16-byte aligned.
                unsafe { store4(staged.add(4 * i + 4 * (i / 8)), load4(x_row.add(tile_start + 4 * i))) };
            }
            sync_threads();

            let first_chunk = tile_start / 32;
            let mut step = lane;
            while step < tile_chunks {
                // Issue every load of the F steps before using any; steps past
                // the tile load its last chunk again and are skipped below.
                let batch: [usize; F] = from_fn(|u| (step + 32 * u).min(tile_chunks - 1));
                let codes: [[[u32; 4]; R]; F] = from_fn(|u| {
                    // SAFETY: rows[r] < n and the chunk < k / 32.
                    from_fn(|r| unsafe {
                        (*row_words[r].add(word_offset(4 * (first_chunk + batch[u]))).cast::<Vec4<u32>>()).0
                    })
                });
                let params: [[(f32, u32); R]; F] = from_fn(|u| {
                    let group = groups.group_of((first_chunk + batch[u]) * 32);
                    // SAFETY: rows[r] < n and group < k / group_size.
                    from_fn(|r| unsafe { groups.get(rows[r], group) })
                });
                for u in 0..F {
                    if step + 32 * u < tile_chunks {
                        // SAFETY: the chunk's 32 staged floats (16-byte aligned).
                        let xs = unsafe { staged.add(v2::PADDED_CHUNK * batch[u]) };
                        let mut dots = [0.0f32; R];
                        for word in 0..4 {
                            // SAFETY: as above.
                            let natural = unsafe { load8(xs.add(8 * word)) };
                            for r in 0..R {
                                let levels = math::int4_levels(codes[u][r][word], params[u][r].1);
                                for nibble in 0..CODES_PER_WORD {
                                    dots[r] = fma(natural[NIBBLE_ORDER[nibble]], levels[nibble], dots[r]);
                                }
                            }
                        }
                        for r in 0..R {
                            sums[r] = fma(params[u][r].0, dots[r], sums[r]);
                        }
                    }
                }
                step += 32 * F;
            }
            tile_start += v2::TILE_K;
        }

        for (r, sum) in sums.iter().enumerate() {
            let total = warp_sum(*sum);
            let row = first_row + r;
            if lane == 0 && row < n {
                // SAFETY: row < n, activation_row < m.
                unsafe {
                    let bias = if bias.is_null() { 0.0 } else { *bias.add(row) };
                    *y.add(activation_row * n + row) = total + bias;
                }
            }
        }
        activation_row += grid_dim_y() as usize;
    }
}

/// Where the rows' group scales and zero points are, and how to read them
/// (layout in `quant_kernels_abi::int4`); every version reads them this way.
#[derive(Clone, Copy)]
struct GroupParams {
    scales: *const u16,
    /// Null for symmetric weights.
    zeros: *const u8,
    /// `log2(group_size)`: group sizes are powers of two, so a shift, not a division.
    group_shift: u32,
    groups_per_row: usize,
    zero_bytes_per_row: usize,
}

impl GroupParams {
    #[inline(always)]
    fn new(scales: *const u16, zeros: *const u8, k: usize, group_size: u32) -> Self {
        let group_shift = group_size.trailing_zeros();
        let groups_per_row = k >> group_shift;
        Self { scales, zeros, group_shift, groups_per_row, zero_bytes_per_row: zero_bytes_per_row(groups_per_row) }
    }

    /// The group of column `col`.
    #[inline(always)]
    fn group_of(&self, col: usize) -> usize {
        col >> self.group_shift
    }

    /// The scale (as f32) and zero point of group `group` of row `row`.
    ///
    /// # Safety
    /// `row < n` and `group < k / group_size`.
    #[inline(always)]
    unsafe fn get(&self, row: usize, group: usize) -> (f32, u32) {
        // SAFETY: the caller keeps row and group in bounds.
        unsafe { (f16::from_bits(self.scale_bits(row, group)) as f32, self.zero_point(row, group)) }
    }

    /// The f16 bits of the scale of group `group` of row `row`.
    ///
    /// # Safety
    /// As for [`get`](Self::get).
    #[inline(always)]
    unsafe fn scale_bits(&self, row: usize, group: usize) -> u16 {
        // SAFETY: the caller keeps row and group in bounds.
        unsafe { self.row(row).scale_bits(group) }
    }

    /// Row `row`'s scales and zero points, for reading several of its groups.
    ///
    /// # Safety
    /// `row < n`.
    #[inline(always)]
    unsafe fn row(&self, row: usize) -> RowGroups {
        // SAFETY: row < n: the row's first scale and zero byte are inside their arrays.
        unsafe {
            RowGroups {
                scales: self.scales.add(row * self.groups_per_row),
                zeros: if self.zeros.is_null() { self.zeros } else { self.zeros.add(row * self.zero_bytes_per_row) },
            }
        }
    }

    /// The zero point of group `group` of row `row`.
    ///
    /// # Safety
    /// As for [`get`](Self::get).
    #[inline(always)]
    unsafe fn zero_point(&self, row: usize, group: usize) -> u32 {
        // SAFETY: the caller keeps row and group in bounds.
        unsafe { self.row(row).zero_point(group) }
    }
}

/// One row's group scales and zero points (see [`GroupParams`]).
#[derive(Clone, Copy)]
struct RowGroups {
    /// The row's first scale (f16 bits).
    scales: *const u16,
    /// The row's first byte of packed zero points; null for symmetric weights.
    zeros: *const u8,
}

impl RowGroups {
    /// The f16 bits of the scale of group `group`.
    ///
    /// # Safety
    /// `group < k / group_size`.
    #[inline(always)]
    unsafe fn scale_bits(&self, group: usize) -> u16 {
        // SAFETY: the caller keeps group in bounds.
        unsafe { *self.scales.add(group) }
    }

    /// The zero point of group `group`.
    ///
    /// # Safety
    /// `group < k / group_size`.
    #[inline(always)]
    unsafe fn zero_point(&self, group: usize) -> u32 {
        if self.zeros.is_null() {
            return SYMMETRIC_ZERO_POINT;
        }
        // SAFETY: the caller keeps group in bounds.
        unsafe { (*self.zeros.add(group / 2) as u32 >> (4 * (group % 2))) & 0xF }
    }

    /// The 8 groups from `first` as two vector loads: their scales (f16
    /// bits, group `first + i` in bits `16 (i % 2)` of word `i / 2`) and
    /// their zero points (group `first + i` in bits `4 i`; all
    /// `SYMMETRIC_ZERO_POINT` for symmetric weights). The producers' of
    /// versions 13, 22 and 23 (sm_90a, `hopper::ConstantWindows`).
    ///
    /// # Safety
    /// `first % 8 == 0` and `first + 8 <= k / group_size`; the row's scales
    /// start 16-byte aligned and its zero points 4-byte aligned.
    #[cfg(target_feature = "sm_90a")]
    #[inline(always)]
    unsafe fn window8(&self, first: usize) -> ([u32; 4], u32) {
        // SAFETY: the caller's bounds and alignment.
        unsafe {
            let scales = (*self.scales.add(first).cast::<crate::device::Vec4<u32>>()).0;
            let zeros = if self.zeros.is_null() {
                SYMMETRIC_ZERO_POINT * 0x1111_1111
            } else {
                *self.zeros.add(first / 2).cast::<u32>()
            };
            (scales, zeros)
        }
    }

    /// Asks L1 for the scale and zero point of group `group` (a load of
    /// them then waits on L1, not L2). Version 10's (sm_90a).
    ///
    /// # Safety
    /// `group < k / group_size`.
    #[cfg(target_feature = "sm_90a")]
    #[inline(always)]
    unsafe fn prefetch(&self, group: usize) {
        use crate::device::prefetch_l1;
        // SAFETY: the caller keeps group in bounds.
        unsafe {
            prefetch_l1(self.scales.add(group));
            if !self.zeros.is_null() {
                prefetch_l1(self.zeros.add(group / 2));
            }
        }
    }
}
