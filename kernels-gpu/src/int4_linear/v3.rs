//! Version 3: tensor cores, f16 and bf16 activations and outputs (shapes
//! from `quant_kernels_abi::int4_linear::v3`).
//!
//! Each warp multiplies a 16-row tile of the weights by up to `8 * N_TILES`
//! activation rows with `mma.sync.m16n8k16`: the weights are the A operand
//! (rows `n`), the activations the B operand (columns `m`), so one
//! instruction serves 1 to 8 activation rows and decode wastes only tensor
//! core cycles, which are plentiful, not memory traffic.
//!
//! **Reading the packed format as it is.** A warp step covers 128 columns
//! (`k`) of its 16 rows: lane `(g, t) = (lane / 4, lane % 4)` loads the 16
//! bytes of columns `32t .. 32t + 32` of rows `g` and `g + 8` (a warp reads
//! 64 contiguous bytes of each row) and the 32 activations of those columns
//! (64 bytes) for the activation row of its B column `g`. The MMA sums over
//! its 16 `k` slots in any order, so slot `2t + i` of lane `(g, t)` can stand
//! for any column that lane holds, provided A and B agree: the 8 MMAs of a
//! step each take 4 columns per row from every lane (word `w`, half `h`:
//! columns `32t + 8w + 4h .. + 4`), which in the nibble order of
//! `quant_kernels_abi::int4` are the pairs `(word >> 8h) & 0x000F000F` and
//! `(word >> (8h + 4)) & 0x000F000F`, and the activations at the same columns
//! are two consecutive 32-bit pairs. No shuffle, no shared memory.
//!
//! **Dequantization, 3 instructions per two weights.** OR-ing a pair of
//! codes into the exponent bits of `MAGIC` (1024 in f16, 128 in bf16) gives
//! `MAGIC + u` exactly; one packed FMA subtracts `MAGIC + z` (exact: a small
//! integer), one more multiplies by the group scale (one rounding to the
//! activation type: a relative error of at most 2^-11 (f16) or 2^-8 (bf16)
//! per weight). A lane's 32 columns lie in one group (groups are 32, 64 or
//! 128 columns, aligned), so each lane needs one scale and zero point per
//! row and step. Products and sums are f32 in the tensor cores.
//!
//! The block's warps split the steps of `K` (warp `w` takes the
//! `STEPS_IN_FLIGHT` consecutive steps from `STEPS_IN_FLIGHT * w`, then from
//! `STEPS_IN_FLIGHT * (w + warps)`, ..., every load issued before the first
//! MMA) and add their partial tiles through shared memory. Any number
//! of warps from 1 to 16 works (the block size is a launch choice).

use super::GroupParams;
use super::mma_tile::{Epilogue, LanePosition, RowParams, activation_tiles, entry_points, mma_step};
use crate::device::Vec4;
use crate::float::Bf16;
use crate::mma::MmaHalf;
use core::array::from_fn;
use quant_kernels_abi::int4::{row_start, word_offset};
use quant_kernels_abi::int4_linear::v3::{M_PER_TILE, ROWS_PER_BLOCK, STEP_K, STEPS_IN_FLIGHT};

entry_points! {
    linear_v3:
    int4_linear_v3_m8_f16: f16, 1;
    int4_linear_v3_m16_f16: f16, 2;
    int4_linear_v3_m8_bf16: Bf16, 1;
    int4_linear_v3_m16_bf16: Bf16, 2;
}

/// The body of every version 3 entry point.
///
/// # Safety
/// As for the entry points.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn linear_v3<T: MmaHalf, const N_TILES: usize>(
    x: *const T,
    qweight: *const u32,
    scales: *const u16,
    zeros: *const u8,
    bias: *const f32,
    y: *mut T,
    m: u32,
    n: u32,
    k: u32,
    group_size: u32,
) {
    const F: usize = STEPS_IN_FLIGHT;
    let (m, n, k) = (m as usize, n as usize, k as usize);
    let groups = GroupParams::new(scales, zeros, k, group_size);
    let LanePosition { warp, lane, warps, g, t, first_row, rows } = LanePosition::new(n, ROWS_PER_BLOCK);
    let chunks_per_row = k / 32; // 16-byte chunks of codes, 32 columns each
    let steps = k.div_ceil(STEP_K);
    // SAFETY: word 0 of each row, inside qweight.
    let row_words: [*const u32; 2] = rows.map(|row| unsafe { qweight.add(row_start(k, row)) });
    let m_tile = M_PER_TILE * N_TILES;

    for first_m in activation_tiles(m, m_tile) {
        // The activation row of this lane's B column in each MMA tile, if below m.
        let x_rows: [Option<*const Vec4<u32>>; N_TILES] = from_fn(|j| {
            let row = first_m + M_PER_TILE * j + g;
            // SAFETY: row < m.
            (row < m).then(|| unsafe { x.add(row * k).cast::<Vec4<u32>>() })
        });
        let mut acc = [[0.0f32; 4]; N_TILES];

        // Warp w takes the F consecutive steps from F w, then from F (w +
        // warps), ...: its loads of a row cover 64 F contiguous bytes.
        let mut step = warp * F;
        while step < steps {
            // Lane t's chunk of each step in flight, if inside the row (the
            // last step of a row may be partial; steps past the end are
            // skipped below, by the whole warp at once).
            let chunk: [Option<usize>; F] = from_fn(|u| {
                let c = (step + u) * 4 + t;
                (c < chunks_per_row).then_some(c)
            });
            let codes: [[[u32; 4]; 2]; F] = from_fn(|u| {
                // SAFETY: rows[r] < n and c < k / 32.
                from_fn(|r| {
                    chunk[u]
                        .map_or([0; 4], |c| unsafe { (*row_words[r].add(word_offset(4 * c)).cast::<Vec4<u32>>()).0 })
                })
            });
            // Zero activations where there is no chunk: the products of
            // that lane's slots vanish whatever A holds there.
            let activations: [[[u32; 16]; N_TILES]; F] = from_fn(|u| {
                from_fn(|j| match (chunk[u], x_rows[j]) {
                    // SAFETY: the chunk's 32 activations (4 x 16 bytes) lie in row `x_rows[j]`.
                    (Some(c), Some(row)) => unsafe {
                        let quads: [[u32; 4]; 4] = from_fn(|q| (*row.add(4 * c + q)).0);
                        from_fn(|i| quads[i / 4][i % 4])
                    },
                    _ => [0; 16],
                })
            });
            let params: [[RowParams; 2]; F] = from_fn(|u| {
                // SAFETY: rows[r] < n, and the column is below k (or 0).
                unsafe { RowParams::of_rows::<T>(&groups, rows, chunk[u].unwrap_or(0) * 32) }
            });
            for u in 0..F {
                if step + u >= steps {
                    break;
                }
                mma_step::<T, N_TILES>(&mut acc, &codes[u], &activations[u], &params[u]);
            }
            step += warps * F;
        }

        let epilogue = Epilogue { bias, y, m, n };
        // SAFETY: y holds m x n elements and bias n (or is null).
        unsafe { epilogue.store::<N_TILES>(first_row, first_m, &acc, warp, lane, warps) };
    }
}
