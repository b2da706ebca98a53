//! Version 5: version 3's tensor-core tiles, with the group scale and zero
//! point applied to the f32 accumulators instead of to every weight (shapes
//! from `quant_kernels_abi::int4_linear::v3`, as version 3).
//!
//! Version 3 spends 3 or 4 instructions on every pair of weights (shift,
//! mask-and-OR into `MAGIC`, subtract `MAGIC + z`, multiply by the scale),
//! about 2 per weight, and ran near the issue limit on the H100. Here the A
//! operand is `MAGIC + u` straight from the mask-and-OR (exact), and since
//! `sum_k (u_k - z) x_k s = s * (sum_k (MAGIC + u_k) x_k - (MAGIC + z) *
//! sum_k x_k)` over one group, each MMA's products accumulate into a fresh
//! per-group tile `D` while a second MMA with A = 1 accumulates the
//! activation sums `S`; at the end of the group each accumulator takes
//! `acc += s * (D - (MAGIC + z) * S)`, two FMAs per output register. That
//! needs every MMA to stay inside one group, so the lanes' columns depend
//! on the group size `G`: in a 128-column step, lane `t` holds, in each of
//! the step's `128 / G` groups, the `G / 4` columns from `G / 4 * t` on (16,
//! 8 or 4 bytes of codes per row and group), and word `j` of its 4 words
//! (8 columns each) belongs to group `j / (G / 32)` of the step.
//!
//! **Error.** No weight is rounded: the products are exact in the tensor
//! cores and only their f32 sums round. The subtraction cancels about
//! `log2(MAGIC)` bits (10 for f16, 7 for bf16) of the f32 sum of a group,
//! which leaves more than 12 bits, well inside the output's own rounding.

use super::GroupParams;
use super::mma_tile::{Epilogue, LanePosition, activation_tiles, entry_points};
use crate::device::{Vec4, prefetch_l2};
use crate::float::Bf16;
use crate::mma::{MmaHalf, splat2};
use core::array::from_fn;
use core::f32::math::mul_add as fma;
use quant_kernels_abi::int4_linear::v3::{M_PER_TILE, STEP_K, STEPS_IN_FLIGHT};
use quant_kernels_abi::int4_linear::v5::PREFETCH_BATCHES;

entry_points! {
    linear_v5:
    int4_linear_v5_m8_g32_f16: f16, 1, 32;
    int4_linear_v5_m8_g64_f16: f16, 1, 64;
    int4_linear_v5_m8_g128_f16: f16, 1, 128;
    int4_linear_v5_m16_g32_f16: f16, 2, 32;
    int4_linear_v5_m16_g64_f16: f16, 2, 64;
    int4_linear_v5_m16_g128_f16: f16, 2, 128;
    int4_linear_v5_m8_g32_bf16: Bf16, 1, 32;
    int4_linear_v5_m8_g64_bf16: Bf16, 1, 64;
    int4_linear_v5_m8_g128_bf16: Bf16, 1, 128;
    int4_linear_v5_m16_g32_bf16: Bf16, 2, 32;
    int4_linear_v5_m16_g64_bf16: Bf16, 2, 64;
    int4_linear_v5_m16_g128_bf16: Bf16, 2, 128;
}

/// One step of a lane, loaded: its 4 code words of rows `g` and `g + 8`,
/// the 16 activation pairs of each MMA tile, and per group of the step
/// (at most 4) the two rows' scales and `MAGIC + z`, as f32.
struct Step<const N_TILES: usize> {
    codes: [[u32; 4]; 2],
    activations: [[u32; 16]; N_TILES],
    scales: [[f32; 2]; 4],
    offsets: [[f32; 2]; 4],
}

/// The body of every version 5 entry point, for groups of `G` columns (a
/// constant, so that every loop over a step's groups and words unrolls into
/// registers, and each group size gets the registers it needs).
///
/// # Safety
/// As for the entry points, with `group_size == G`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn linear_v5<T: MmaHalf, const N_TILES: usize, const G: usize>(
    x: *const T,
    qweight: *const u32,
    scales: *const u16,
    zeros: *const u8,
    bias: *const f32,
    y: *mut T,
    m: u32,
    n: u32,
    k: u32,
    _group_size: u32,
) {
    const F: usize = STEPS_IN_FLIGHT;
    let (m, n, k) = (m as usize, n as usize, k as usize);
    let groups = GroupParams::new(scales, zeros, k, G as u32);
    let LanePosition { warp, lane, warps, g, t, first_row, rows } = LanePosition::new(n);
    let words_per_row = k / 8;
    let steps = k.div_ceil(STEP_K);
    let groups_per_row = k / G;
    let groups_per_step = STEP_K / G;
    let words_per_group = G / 32; // per lane
    // Column of word j of lane t, from the start of a step.
    let word_column = |j: usize| (j / words_per_group) * G + t * (G / 4) + (j % words_per_group) * 8;
    let m_tile = M_PER_TILE * N_TILES;
    let ones = splat2(T::ONE_BITS);

    for first_m in activation_tiles(m, m_tile) {
        // The activation row of this lane's B column in each MMA tile, if below m.
        let x_rows: [Option<*const T>; N_TILES] = from_fn(|j| {
            let row = first_m + M_PER_TILE * j + g;
            // SAFETY: row < m.
            (row < m).then(|| unsafe { x.add(row * k) })
        });
        // Loads step `step`; groups past the row's end (a partial last
        // step, or a step past the end) give zero codes and activations and
        // read nothing.
        let load = |step: usize| -> Step<N_TILES> {
            let first_group = step * groups_per_step;
            let valid = |j: usize| first_group + j / words_per_group < groups_per_row;
            let column = |j: usize| step * STEP_K + word_column(j);
            let codes = from_fn(|r| {
                // SAFETY: row r < n; each load below is of valid words, whose
                // columns are below k, at their natural alignment.
                unsafe {
                    let row = qweight.add(rows[r] * words_per_row);
                    let mut words = [0u32; 4];
                    // One load per group: 16 bytes, 8 or 4.
                    for j in (0..4).step_by(words_per_group) {
                        if !valid(j) {
                            continue;
                        }
                        let first = row.add(column(j) / 8);
                        match words_per_group {
                            4 => words = (*first.cast::<Vec4<u32>>()).0,
                            2 => {
                                let pair = *first.cast::<u64>();
                                words[j] = pair as u32;
                                words[j + 1] = (pair >> 32) as u32;
                            }
                            _ => words[j] = *first,
                        }
                    }
                    words
                }
            });
            let activations = from_fn(|tile| {
                let mut pairs = [0u32; 16];
                if let Some(row) = x_rows[tile] {
                    for j in 0..4 {
                        if valid(j) {
                            // SAFETY: 8 activations (16 bytes, aligned: k % 32 == 0) inside row `row`.
                            let quad = unsafe { (*row.add(column(j)).cast::<Vec4<u32>>()).0 };
                            pairs[4 * j..4 * j + 4].copy_from_slice(&quad);
                        }
                    }
                }
                pairs
            });
            let mut scales = [[0.0f32; 2]; 4];
            let mut offsets = [[0.0f32; 2]; 4];
            for q in 0..groups_per_step {
                let group = first_group + q;
                if group < groups_per_row {
                    for r in 0..2 {
                        // SAFETY: rows[r] < n and group < k / group_size.
                        let (scale, zero) = unsafe { groups.get(rows[r], group) };
                        scales[q][r] = scale;
                        offsets[q][r] = T::MAGIC + zero as f32;
                    }
                }
            }
            Step { codes, activations, scales, offsets }
        };

        let mut acc = [[0.0f32; 4]; N_TILES];
        // As in version 3: F consecutive steps a time per warp.
        let mut step = warp * F;
        while step < steps {
            // Issue every load of the F steps before using any; a step past
            // the end loads nothing (zeros) and is skipped by the whole warp.
            // The L2 fetches this warp's codes PREFETCH_BATCHES batches ahead:
            // the DRAM reads start early without holding registers, and the
            // loads of that batch then wait on the L2. Lanes t = 0, 1 take
            // rows g, g + 8 of its first step, t = 2, 3 of its second.
            let ahead = step + PREFETCH_BATCHES * warps * F + t / 2;
            if ahead < steps {
                let row = if t % 2 == 0 { rows[0] } else { rows[1] };
                // SAFETY: the step's first column is below k, in row `row` < n.
                unsafe { prefetch_l2(qweight.add(row * words_per_row + ahead * STEP_K / 8)) };
            }
            let batch: [Step<N_TILES>; F] = from_fn(|u| load(step + u));
            for u in 0..F {
                // (The whole warp skips a step past the end.)
                if step + u >= steps {
                    continue;
                }
                let loaded = &batch[u];
                for q in 0..groups_per_step {
                    let mut products = [[0.0f32; 4]; N_TILES];
                    let mut sums = [[0.0f32; 4]; N_TILES];
                    for j in q * words_per_group..(q + 1) * words_per_group {
                        for half in 0..2u32 {
                            let pair = |r: usize, p: u32| ((loaded.codes[r][j] >> (4 * p)) & 0x000F_000F) | splat2(T::MAGIC_BITS);
                            let a = [pair(0, 2 * half), pair(1, 2 * half), pair(0, 2 * half + 1), pair(1, 2 * half + 1)];
                            let slot = 4 * j + 2 * half as usize;
                            for tile in 0..N_TILES {
                                let b = [loaded.activations[tile][slot], loaded.activations[tile][slot + 1]];
                                T::mma(&mut products[tile], a, b);
                                T::mma(&mut sums[tile], [ones; 4], b);
                            }
                        }
                    }
                    for tile in 0..N_TILES {
                        for c in 0..4 {
                            let r = c / 2; // registers 0, 1: row g; 2, 3: row g + 8
                            let centered = fma(-loaded.offsets[q][r], sums[tile][c], products[tile][c]);
                            acc[tile][c] = fma(loaded.scales[q][r], centered, acc[tile][c]);
                        }
                    }
                }
            }
            step += warps * F;
        }

        let epilogue = Epilogue { bias, y, m, n, first_row, first_m };
        // SAFETY: y holds m x n elements and bias n (or is null).
        unsafe { epilogue.store::<N_TILES>(&acc, warp, lane, warps) };
    }
}
