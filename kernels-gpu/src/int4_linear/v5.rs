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
//!
//! Each warp takes `STEPS_IN_FLIGHT` consecutive steps at a time, issues all
//! their loads, then their MMAs; the L2 fetches its codes `PREFETCH_BATCHES`
//! batches ahead. The body takes the number of 16-row tiles a warp
//! multiplies as a parameter: 1 here, 2 in version 6. It also runs version
//! 17's 2-D blocks of `blockDim.y` groups of warps, each on its own rows
//! (`LanePosition` and `Epilogue::store` place each group).

use super::GroupParams;
use super::mma_tile::{Epilogue, LanePosition, activation_tiles, entry_points};
use crate::device::{Vec4, lane_id, prefetch_l2};
use crate::float::Bf16;
use crate::grid_dependency::{PROGRAMMATIC_LAUNCH, begin_after_previous_grid};
use crate::mma::{MmaHalf, magic_plus_codes, splat2};
use core::array::from_fn;
use core::f32::math::mul_add as fma;
use quant_kernels_abi::int4::{BAND_ROWS, STEP_WORDS, row_start};
use quant_kernels_abi::int4_linear::v3::{M_PER_TILE, ROWS_PER_BLOCK as ROWS_PER_TILE, STEP_K, STEPS_IN_FLIGHT};
use quant_kernels_abi::int4_linear::v5::{PREFETCH_BATCHES, PREFETCH_ONCE_A_LINE};

entry_points! {
    linear_v5, waits itself:
    int4_linear_v5_m8_g32_f16: f16, 1, 32, 1, 0;
    int4_linear_v5_m8_g64_f16: f16, 1, 64, 1, 0;
    int4_linear_v5_m8_g128_f16: f16, 1, 128, 1, 0;
    int4_linear_v5_m16_g32_f16: f16, 2, 32, 1, 0;
    int4_linear_v5_m16_g64_f16: f16, 2, 64, 1, 0;
    int4_linear_v5_m16_g128_f16: f16, 2, 128, 1, 0;
    int4_linear_v5_m8_g32_bf16: Bf16, 1, 32, 1, 0;
    int4_linear_v5_m8_g64_bf16: Bf16, 1, 64, 1, 0;
    int4_linear_v5_m8_g128_bf16: Bf16, 1, 128, 1, 0;
    int4_linear_v5_m16_g32_bf16: Bf16, 2, 32, 1, 0;
    int4_linear_v5_m16_g64_bf16: Bf16, 2, 64, 1, 0;
    int4_linear_v5_m16_g128_bf16: Bf16, 2, 128, 1, 0;
}

/// One step of a lane, loaded: in each of its `R` tiles of 16 weight rows,
/// its 4 code words of rows `g` and `g + 8`, and per row the f16 scales
/// (group `q` of the step in bits `16q ..`) and zero points (bits `4q ..`)
/// of the step's groups, kept packed until used (at most 4 groups); and the
/// 16 activation pairs of each MMA tile of activation rows.
struct Step<const N_TILES: usize, const R: usize> {
    codes: [[[u32; 4]; 2]; R],
    scales: [[u64; 2]; R],
    zeros: [[u32; 2]; R],
    activations: [[u32; 16]; N_TILES],
}

/// What a lane reads and multiplies, step by step, for one tile of
/// activation rows: groups of `G` columns (a constant, so that every loop
/// over a step's groups and words unrolls into registers, and each group
/// size gets the registers it needs), `R` tiles of 16 weight rows.
struct GroupedLane<T, const N_TILES: usize, const G: usize, const R: usize> {
    groups: GroupParams,
    /// The lane's two weight rows in each row tile.
    rows: [[usize; 2]; R],
    /// In each row tile, word 0 of the lane's row `g` in step 0; row `g + 8`
    /// is 128 words on, and each step 256 (the tile is a band of `qweight`).
    codes: [*const u32; R],
    /// The lane's place in its quad of the MMA fragments.
    t: usize,
    /// The activation row of this lane's B column in each MMA tile, or the
    /// last row `m - 1` past it: a B column only reaches its own column of
    /// outputs, which the epilogue does not store past `m`, so such a lane
    /// may load any row, and loading one always spares the loop a test and
    /// zeroed registers.
    x_rows: [*const T; N_TILES],
    /// Whether every row's scales of a full step may be read as one
    /// naturally aligned vector (`k % STEP_K == 0`).
    vector_scales: bool,
}

impl<T: MmaHalf, const N_TILES: usize, const G: usize, const R: usize> GroupedLane<T, N_TILES, G, R> {
    const GROUPS_PER_STEP: usize = STEP_K / G;
    /// Code words per lane, row and group.
    const WORDS_PER_GROUP: usize = G / 32;

    /// The lane `position` of a group working on activation rows from
    /// `first_m` of `x[m][k]` and `16 R` weight rows from `position.first_row`
    /// of `n`.
    ///
    /// # Safety
    /// As for the entry points; `first_m < m`.
    #[inline(always)]
    unsafe fn new(
        position: &LanePosition,
        x: *const T,
        qweight: *const u32,
        groups: GroupParams,
        (m, n, k, first_m): (usize, usize, usize, usize),
    ) -> Self {
        // SAFETY: a row below m.
        let x_rows = from_fn(|j| unsafe { x.add((first_m + M_PER_TILE * j + position.g).min(m - 1) * k) });
        let rows: [[usize; 2]; R] = from_fn(|tile| position.tile_rows(tile, n));
        // Row g of the tile's band (of the last band for a tile past n, whose
        // rows are clamped): padding rows make it a row of qweight.
        let codes = rows.map(|[row, _]| qweight.wrapping_add(row_start(k, row / BAND_ROWS * BAND_ROWS + position.g)));
        Self { groups, rows, codes, t: position.t, x_rows, vector_scales: k % STEP_K == 0 }
    }

    /// Word `word` (from the start of step `step`, below 16) of the lane's
    /// row `r` (0: row `g`, 1: row `g + 8`) of row tile `tile`.
    #[inline(always)]
    fn code_word(&self, tile: usize, r: usize, step: usize, word: usize) -> *const u32 {
        self.codes[tile].wrapping_add(BAND_ROWS * STEP_WORDS * step + STEP_WORDS * 8 * r + word)
    }

    /// Column of word `j` of the lane, from the start of a step.
    #[inline(always)]
    fn word_column(&self, j: usize) -> usize {
        (j / Self::WORDS_PER_GROUP) * G + self.t * (G / 4) + (j % Self::WORDS_PER_GROUP) * 8
    }

    /// Loads step `step`. Groups past the row's end (a partial last step,
    /// or a step past the end) give zero codes, activations and scales and
    /// read nothing. `WHOLE` says that every group of the step is inside
    /// the row and that `k % STEP_K == 0`: then no group is tested, no
    /// register zeroed first, and every row's scales are one vector.
    #[inline(always)]
    fn load<const WHOLE: bool>(&self, step: usize) -> Step<N_TILES, R> {
        let first_group = step * Self::GROUPS_PER_STEP;
        let groups_per_row = self.groups.groups_per_row;
        let valid = |j: usize| WHOLE || first_group + j / Self::WORDS_PER_GROUP < groups_per_row;
        let column = |j: usize| step * STEP_K + self.word_column(j);
        // The scales and zero points first: loaded after the codes and
        // activations in the source, ptxas issued them after a batch's first
        // MMAs, which wait for those loads, and the batch took two round trips
        // to memory (run 40: 4% slower at 1x4096x11008).
        let full = first_group + Self::GROUPS_PER_STEP <= groups_per_row;
        let scales = from_fn(|tile| {
            from_fn(|r| {
                let row = self.rows[tile][r];
                // SAFETY: rows[r] < n; the groups read are below k / G, and the
                // vector is aligned: its first scale's index is a multiple of
                // GROUPS_PER_STEP when k % STEP_K == 0.
                unsafe {
                    let first = self.groups.scales.add(row * groups_per_row + first_group);
                    match Self::GROUPS_PER_STEP {
                        _ if !WHOLE && !(full && self.vector_scales) => {
                            let mut bits = 0u64;
                            for q in 0..Self::GROUPS_PER_STEP {
                                if first_group + q < groups_per_row {
                                    bits |= (*first.add(q) as u64) << (16 * q);
                                }
                            }
                            bits
                        }
                        4 => *first.cast::<u64>(),
                        2 => *first.cast::<u32>() as u64,
                        _ => *first as u64,
                    }
                }
            })
        });
        let zeros = from_fn(|tile| {
            from_fn(|r| {
                let mut nibbles = 0u32;
                for q in 0..Self::GROUPS_PER_STEP {
                    if WHOLE || first_group + q < groups_per_row {
                        // SAFETY: the row is below n and the group below k / G.
                        nibbles |= unsafe { self.groups.zero_point(self.rows[tile][r], first_group + q) } << (4 * q);
                    }
                }
                nibbles
            })
        });
        let codes = from_fn(|tile| {
            from_fn(|r| {
                // SAFETY: each load below is of valid words (columns below
                // k) of a row of a band of qweight, at their natural alignment.
                unsafe {
                    let mut words = [0u32; 4];
                    // One load per group: 16 bytes, 8 or 4.
                    for j in (0..4).step_by(Self::WORDS_PER_GROUP) {
                        if !valid(j) {
                            continue;
                        }
                        let first = self.code_word(tile, r, step, self.word_column(j) / 8);
                        match Self::WORDS_PER_GROUP {
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
            })
        });
        let activations = from_fn(|tile| {
            let mut pairs = [0u32; 16];
            for j in 0..4 {
                if valid(j) {
                    // SAFETY: 8 activations (16 bytes, aligned: k % 32 == 0) inside a row of x.
                    let quad = unsafe { (*self.x_rows[tile].add(column(j)).cast::<Vec4<u32>>()).0 };
                    pairs[4 * j..4 * j + 4].copy_from_slice(&quad);
                }
            }
            pairs
        });
        Step { codes, scales, zeros, activations }
    }

    /// Asks the L2 for the codes of steps `first_step ..` (`F` of them) of
    /// the lane's rows, if inside the rows: lane `t` takes, in every row
    /// tile, row `g` or `g + 8` (`t % 2`) of step `first_step + t / 2`. A
    /// 128-byte line holds rows `g` and `g + 1` (`g` even); with
    /// `PREFETCH_ONCE_A_LINE` only the lanes of even `g` ask for it.
    #[inline(always)]
    fn prefetch(&self, first_step: usize) {
        let steps = self.groups.groups_per_row.div_ceil(Self::GROUPS_PER_STEP);
        let step = first_step + self.t / 2;
        let once_a_line = PREFETCH_ONCE_A_LINE[N_TILES - 1];
        // A quad's 4 lanes: the 2 rows of each of a batch's 2 steps.
        const { assert!(STEPS_IN_FLIGHT == 2) };
        if step < steps && (!once_a_line || (lane_id() / 4) % 2 == 0) {
            for tile in 0..R {
                // SAFETY: the step's first column is below k, in a row of a band of qweight.
                unsafe { prefetch_l2(self.code_word(tile, self.t % 2, step, 0)) };
            }
        }
    }

    /// Adds the products of a loaded step to `acc` (per row tile): per
    /// group, the MMAs of its columns into fresh tiles, then the scale and
    /// zero point. The activation sums serve every row tile.
    #[inline(always)]
    fn accumulate(acc: &mut [[[f32; 4]; N_TILES]; R], loaded: &Step<N_TILES, R>) {
        let ones = splat2(T::ONE_BITS);
        for q in 0..Self::GROUPS_PER_STEP {
            let mut products = [[[0.0f32; 4]; N_TILES]; R];
            let mut sums = [[0.0f32; 4]; N_TILES];
            for j in q * Self::WORDS_PER_GROUP..(q + 1) * Self::WORDS_PER_GROUP {
                for half in 0..2u32 {
                    let slot = 4 * j + 2 * half as usize;
                    for tile in 0..N_TILES {
                        let b = [loaded.activations[tile][slot], loaded.activations[tile][slot + 1]];
                        T::mma(&mut sums[tile], [ones; 4], b);
                    }
                    for (codes, products) in loaded.codes.iter().zip(&mut products) {
                        let pair = |r: usize, p: u32| magic_plus_codes::<T>(codes[r][j] >> (4 * p));
                        let a = [pair(0, 2 * half), pair(1, 2 * half), pair(0, 2 * half + 1), pair(1, 2 * half + 1)];
                        for tile in 0..N_TILES {
                            let b = [loaded.activations[tile][slot], loaded.activations[tile][slot + 1]];
                            T::mma(&mut products[tile], a, b);
                        }
                    }
                }
            }
            for row_tile in 0..R {
                let scale: [f32; 2] =
                    from_fn(|r| f16::from_bits((loaded.scales[row_tile][r] >> (16 * q)) as u16) as f32);
                let offset: [f32; 2] = from_fn(|r| T::MAGIC + ((loaded.zeros[row_tile][r] >> (4 * q)) & 0xF) as f32);
                for tile in 0..N_TILES {
                    for c in 0..4 {
                        let r = c / 2; // registers 0, 1: row g; 2, 3: row g + 8
                        let centered = fma(-offset[r], sums[tile][c], products[row_tile][tile][c]);
                        acc[row_tile][tile][c] = fma(scale[r], centered, acc[row_tile][tile][c]);
                    }
                }
            }
        }
    }
}

/// The body of every version 5, 6 and 17 entry point: `N_TILES` MMA tiles
/// of activation rows, groups of `G` columns, `R` tiles of 16 weight rows per
/// warp (a group of warps takes `16 R` rows), `WARPS` warps a group, or
/// `blockDim.x / 32` if 0. With `WARPS` known, each warp's loop over `K` has
/// a constant stride; a group of one warp takes all of `K` and stores its
/// tile from registers, with no shared memory and no barrier.
///
/// # Safety
/// As for the entry points, with `group_size == G` (and `blockDim.x == 32
/// WARPS` unless 0).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn linear_v5<T: MmaHalf, const N_TILES: usize, const G: usize, const R: usize, const WARPS: usize>(
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
    let prefetch_batches = PREFETCH_BATCHES[N_TILES - 1];
    let (m, n, k) = (m as usize, n as usize, k as usize);
    let position = LanePosition::new(n, ROWS_PER_TILE * R);
    let (warp, warps) = match WARPS {
        0 => (position.warp, position.warps),
        1 => (0, 1),
        _ => (position.warp, WARPS),
    };
    let steps = k.div_ceil(STEP_K);
    // Steps the loop may load as `WHOLE`: all, or none where the scales of
    // a step are not aligned vectors (`k % STEP_K != 0`, rare; the test
    // and the scalar loads of the scales in the loop would cost registers).
    let whole_steps = if k % STEP_K == 0 { k / STEP_K } else { 0 };
    let groups = GroupParams::new(scales, zeros, k, G as u32);

    // Launched as a programmatic dependent of the kernel before it (see
    // `grid_dependency`), this may start while that kernel runs: it asks
    // the L2 for the codes of the warp's first batches, which the loop
    // below does not prefetch, then waits for that kernel before its first
    // load, and lets the next kernel launch. (Not on `sm_80`, which has no
    // such launch: there the prefetch would only delay the first loads.)
    // At most half the warp's batches: a warp of two that asked for both
    // got its first later, behind the grid's flood of requests (run 43: 1 x
    // 4096 x 4096 7-9% faster asking for one; with 5 or more batches a
    // warp, asking for one instead of two was 1-3% slower). Where the loop
    // prefetches one batch ahead (run 50) that is the first batch alone.
    if PROGRAMMATIC_LAUNCH {
        // SAFETY: forwarded from the caller; 0 < m.
        let first_lane = unsafe { GroupedLane::<T, N_TILES, G, R>::new(&position, x, qweight, groups, (m, n, k, 0)) };
        let batches_per_warp = steps.div_ceil(warps * F);
        for batch in 0..prefetch_batches.min(batches_per_warp / 2).max(1) {
            first_lane.prefetch((warp + batch * warps) * F);
        }
    }
    begin_after_previous_grid();

    for first_m in activation_tiles(m, M_PER_TILE * N_TILES) {
        // SAFETY: forwarded from the caller; first_m < m.
        let lane = unsafe { GroupedLane::<T, N_TILES, G, R>::new(&position, x, qweight, groups, (m, n, k, first_m)) };
        let mut acc = [[[0.0f32; 4]; N_TILES]; R];
        // As in version 3: F consecutive steps a time per warp. Issue every
        // load of the F steps before using any. The L2 fetches this warp's
        // codes `prefetch_batches` batches ahead: the DRAM reads start early
        // without holding registers, and the loads of that batch then wait
        // on the L2 (without the prefetch the loads alone ran 5% faster on
        // the H200's large shapes, the whole kernel 3-4% slower: run 50).
        // First the batches of whole steps, with no bounds tests.
        let mut step = warp * F;
        while step + F <= whole_steps {
            lane.prefetch(step + prefetch_batches * warps * F);
            let batch: [Step<N_TILES, R>; F] = from_fn(|u| lane.load::<true>(step + u));
            for loaded in &batch {
                GroupedLane::<T, N_TILES, G, R>::accumulate(&mut acc, loaded);
            }
            step += warps * F;
        }
        // Then the rest: the batch holding the row's end, or every batch
        // where `whole_steps` is 0. A step past the end loads nothing
        // (zeros) and is skipped by the whole warp.
        while step < steps {
            lane.prefetch(step + prefetch_batches * warps * F);
            let batch: [Step<N_TILES, R>; F] = from_fn(|u| lane.load::<false>(step + u));
            for (u, loaded) in batch.iter().enumerate() {
                if step + u < steps {
                    GroupedLane::<T, N_TILES, G, R>::accumulate(&mut acc, loaded);
                }
            }
            step += warps * F;
        }

        let epilogue = Epilogue { bias, y, m, n };
        for (row_tile, acc) in acc.iter().enumerate() {
            let first_row = position.first_row + ROWS_PER_TILE * row_tile;
            // SAFETY: y holds m x n elements and bias n (or is null).
            unsafe {
                if WARPS == 1 {
                    epilogue.store_fragments(first_row, first_m, acc, position.g, position.t)
                } else {
                    epilogue.store::<N_TILES>(first_row, first_m, acc, warp, position.lane, warps)
                }
            };
        }
    }
}
