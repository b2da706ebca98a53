//! Version 14: the decode GEMV (`M = 1`) on a persistent grid, with each
//! warp's weight loads kept in flight (shapes and the shared-memory layout
//! in `quant_kernels_abi::int4_linear::v14`).
//!
//! Version 5 reached 74% and 81% of the bandwidth roofline on the large
//! shapes; `ncu` (run 18) read DRAM 64-70% busy, 114 registers and 21-23%
//! occupancy. Each of its warps issues two steps of loads, waits, and
//! multiplies them: while it multiplies it has nothing in flight, and its
//! registers hold as many bytes of activations (16 a step, read by one lane
//! in eight at `M = 1`) as of codes. Its grid of 1792 or 512 blocks ran in
//! 1.1-1.7 waves of equal blocks, so the last wave ran part-empty. Here:
//!
//! - **One block a multiprocessor, an even share of rows each.** The `n`
//!   rows form tiles of 16, block `b` takes tiles `block_tiles(tiles, b,
//!   B)` (the shares differ by one tile at most), and its 16 warps take
//!   the (tile, step) items of those tiles in turn, tile-major: warp `w`
//!   items `w, w + 16, ...`. Consecutive warps read consecutive 64-byte
//!   pieces of the same 16 rows.
//! - **Loads always in flight.** A warp holds `STEPS_IN_FLIGHT` items'
//!   weights in a ring of registers: before it multiplies the oldest it
//!   issues the loads of the item that takes its slot. An item's weights
//!   are a lane's 16 bytes of each of its two rows (`g`, `g + 8`), their
//!   scales and zero points: version 5's loads ([`LaneColumns::load`]).
//! - **The activations once a block, in shared memory.** The block stages
//!   the activation row in the order the lanes read it (16 contiguous
//!   bytes a lane for each of its words, conflict-free, and the same for
//!   every `g`: broadcast), with the sum of each group's activations.
//!   Those sums replace version 5's second MMA (A = 1) per MMA: `sum_k
//!   (u_k - z) x_k = sum_k (MAGIC + u_k) x_k - (MAGIC + z) S`.
//! - **Rows summed in shared memory.** A warp accumulates one tile at a
//!   time and stores its two rows' sums in its own partial outputs when its
//!   items move on to the next tile (a warp's items of a tile are
//!   consecutive); after a barrier the block adds the warps' partials and
//!   the bias and stores its rows.
//!
//! At `M = 1` every column of B holds the same activations (all lanes read
//! them whatever their `g`), so every column of the MMA's D holds the same
//! sums: lane `(g, 0)` stores rows `g` and `g + 8` from its registers 0 and
//! 2. **Error:** as version 5 (no weight is rounded; the products are exact
//! and only their f32 sums round); the group sums are f32 sums of at most
//! 128 activations, rounded like the tensor cores' own.

use super::mma_tile::{entry_points, raw_a_fragment};
use crate::async_copy::{dynamic_shared_address, load_shared16};
use crate::device::{
    Strided, Vec4, block_dim_x, block_idx_x, block_idx_y, dynamic_shared_memory, grid_dim_x, grid_dim_y, lane_id,
    load_u8_if, load_u16_if, load_words_if, shuffle_xor, sync_threads, thread_idx_x, warp_id,
};
use crate::float::Bf16;
use crate::mma::MmaHalf;
use core::array::from_fn;
use core::f32::math::mul_add as fma;
use quant_kernels_abi::int4::{SYMMETRIC_ZERO_POINT, zero_bytes_per_row};
use quant_kernels_abi::int4_linear::v14::{
    ACTIVATION_BYTES_PER_STEP, ROWS_PER_TILE, STEP_K, STEPS_IN_FLIGHT, SUM_BYTES_PER_STEP, block_tiles,
    partials_offset, steps, sums_offset,
};

entry_points! {
    linear_v14:
    int4_linear_v14_g32_f16: f16, 32;
    int4_linear_v14_g64_f16: f16, 64;
    int4_linear_v14_g128_f16: f16, 128;
    int4_linear_v14_g32_bf16: Bf16, 32;
    int4_linear_v14_g64_bf16: Bf16, 64;
    int4_linear_v14_g128_bf16: Bf16, 128;
}

/// A warp's place in its block's (tile, step) items: items `w, w + warps,
/// ...` of `tiles x steps`, tile-major.
struct Cursor {
    tile: u32,
    step: u32,
    steps: u32,
    /// The stride of `warps` items, in whole tiles and steps.
    stride: (u32, u32),
}

impl Cursor {
    #[inline(always)]
    fn new(first_tile: u32, warp: u32, warps: u32, steps: u32) -> Self {
        // (At least one step: also keeps a division-by-zero panic path out of the PTX.)
        let steps = steps.max(1);
        Self { tile: first_tile + warp / steps, step: warp % steps, steps, stride: (warps / steps, warps % steps) }
    }

    /// The current item, then moves to the warp's next one.
    #[inline(always)]
    fn advance(&mut self) -> (u32, u32) {
        let item = (self.tile, self.step);
        self.tile += self.stride.0;
        self.step += self.stride.1;
        if self.step >= self.steps {
            self.step -= self.steps;
            self.tile += 1;
        }
        item
    }
}

/// One item's weights for a lane: the 4 code words of each of its rows
/// (`g`, `g + 8`), and per group `q` of the step the two rows' f16 scales
/// (`scales[q]`, row `g` in the low half) and zero points (`zeros` bits
/// `8q ..`: row `g`, then row `g + 8`).
#[derive(Clone, Copy)]
struct ItemWeights {
    codes: [[u32; 4]; 2],
    scales: [u32; 4],
    zeros: u32,
}

impl ItemWeights {
    /// Row `r`'s (0: `g`, 1: `g + 8`) scale of the step's group `q`.
    #[inline(always)]
    fn scale(&self, r: usize, q: usize) -> f32 {
        f16::from_bits((self.scales[q] >> (16 * r)) as u16) as f32
    }

    /// Row `r`'s `MAGIC + z` for the step's group `q`.
    #[inline(always)]
    fn offset<T: MmaHalf>(&self, r: usize, q: usize) -> f32 {
        T::MAGIC + ((self.zeros >> (8 * q + 4 * r)) & 0xF) as f32
    }
}

/// Where a lane's weights are (layouts in `quant_kernels_abi::int4`), with
/// 32-bit indices (the host checks `n * k / 8` fits), for groups of `G`:
/// in each group of a step, lane `t` holds the `G / 4` columns from `t G /
/// 4` (version 5's columns).
struct Weights<const G: usize> {
    qweight: *const u32,
    scales: *const u16,
    /// Null for symmetric weights.
    zeros: *const u8,
    n: u32,
    groups_per_row: u32,
    zero_bytes_per_row: u32,
    g: u32,
    t: u32,
}

impl<const G: usize> Weights<G> {
    const GROUPS_PER_STEP: usize = STEP_K / G;
    /// Code words per lane, row and group.
    const WORDS_PER_GROUP: usize = G / 32;

    /// Item `(tile, step)`'s weights if `live`, else zeros. Groups past the
    /// row's end (a partial last step) are zeros too; nothing outside the
    /// arrays is read. No branches: every load is predicated.
    ///
    /// # Safety
    /// `live` only for `tile < ceil(n / 16)` and `step < ceil(k / 128)`.
    #[inline(always)]
    unsafe fn load(&self, (tile, step): (u32, u32), live: bool) -> ItemWeights {
        let first = tile * ROWS_PER_TILE as u32 + self.g;
        let rows = [first.min(self.n - 1), (first + 8).min(self.n - 1)];
        let first_group = step * Self::GROUPS_PER_STEP as u32;
        let words_per_row = self.groups_per_row * (G / 8) as u32;
        let valid = |q: usize| live && first_group + (q as u32) < self.groups_per_row;
        let mut item = ItemWeights { codes: [[0; 4]; 2], scales: [0; 4], zeros: 0 };
        for (r, &row) in rows.iter().enumerate() {
            for q in 0..Self::GROUPS_PER_STEP {
                let word = row * words_per_row
                    + (first_group + q as u32) * (G / 8) as u32
                    + self.t * Self::WORDS_PER_GROUP as u32;
                let group = row * self.groups_per_row + first_group + q as u32;
                // SAFETY: when valid, the word, scale and zero byte are those
                // of group first_group + q < groups_per_row of row < n, at
                // their natural alignment (WORDS_PER_GROUP words from a
                // multiple of WORDS_PER_GROUP).
                unsafe {
                    let words = match Self::WORDS_PER_GROUP {
                        4 => load_words_if::<4>(self.qweight.add(word as usize), valid(q)),
                        2 => {
                            let [w0, w1] = load_words_if::<2>(self.qweight.add(word as usize), valid(q));
                            [w0, w1, 0, 0]
                        }
                        _ => [load_words_if::<1>(self.qweight.add(word as usize), valid(q))[0], 0, 0, 0],
                    };
                    for w in 0..Self::WORDS_PER_GROUP {
                        item.codes[r][q * Self::WORDS_PER_GROUP + w] = words[w];
                    }
                    item.scales[q] |= load_u16_if(self.scales.add(group as usize), valid(q)) << (16 * r);
                    let zero = if self.zeros.is_null() {
                        SYMMETRIC_ZERO_POINT
                    } else {
                        let byte = row * self.zero_bytes_per_row + (first_group + q as u32) / 2;
                        load_u8_if(self.zeros.add(byte as usize), valid(q)) >> (4 * ((first_group + q as u32) % 2))
                            & 0xF
                    };
                    item.zeros |= zero << (8 * q + 4 * r);
                }
            }
        }
        item
    }
}

/// Chunks of 8 activations a thread loads at a time while staging.
const STAGING_PASSES: usize = 4;

/// Stages activation row `x_row` (`k` of them) in shared memory at
/// `activations` (a generic address) in the lanes' order, zeros past `k` up
/// to the last step's end (`steps(k)` steps), and at `sums` the f32 sum of each group. Every
/// thread of the block calls it (`blockDim.x` a multiple of 32).
///
/// # Safety
/// `x_row` holds `k` elements, 16-byte aligned; the shared memory holds
/// `steps(k)` steps of both.
#[inline(always)]
unsafe fn stage<T: MmaHalf, const G: usize>(x_row: *const T, k: usize, activations: *mut Vec4<u32>, sums: *mut f32) {
    let chunks = steps(k) * (STEP_K / 8); // of 8 activations
    let chunks_per_group = G / 8;
    let (lane, threads) = (lane_id() as usize, block_dim_x() as usize);
    let mut first = thread_idx_x() as usize;
    // Each round loads STAGING_PASSES chunks a thread before storing any
    // (one wait on memory, not one a pass); the whole warp runs each pass
    // (its shuffles need every lane), and a group's chunks are consecutive
    // lanes of one pass.
    while first - lane < chunks {
        let quads: [Vec4<u32>; STAGING_PASSES] = from_fn(|pass| {
            let chunk = first + pass * threads;
            if chunk < chunks && 8 * chunk < k {
                // SAFETY: columns 8 chunk .. + 8 are below k (a multiple of 32); 16-byte aligned.
                unsafe { *x_row.add(8 * chunk).cast::<Vec4<u32>>() }
            } else {
                Vec4([0; 4])
            }
        });
        for (pass, quad) in quads.iter().enumerate() {
            let chunk = first + pass * threads;
            // SAFETY: 16 bytes read as the 8 activations they hold.
            let values: [T; 8] = unsafe { core::ptr::read((quad as *const Vec4<u32>).cast::<[T; 8]>()) };
            let mut sum = values.iter().fold(0.0f32, |sum, value| sum + value.to_f32());
            let mut mask = 1;
            while mask < chunks_per_group {
                sum += shuffle_xor(sum, mask as u32);
                mask *= 2;
            }
            if chunk < chunks {
                // The lane and word whose columns these are (version 5's
                // `LaneColumns::word_column`, inverted).
                let (step, column) = (chunk / (STEP_K / 8), 8 * (chunk % (STEP_K / 8)));
                let (group, within) = (column / G, column % G);
                let (t, word) = (within / (G / 4), group * (G / 32) + within % (G / 4) / 8);
                // SAFETY: inside the staged steps.
                unsafe {
                    *activations.add(step * (ACTIVATION_BYTES_PER_STEP / 16) + 4 * word + t) = *quad;
                    if chunk % chunks_per_group == 0 {
                        *sums.add(step * (SUM_BYTES_PER_STEP / 4) + group) = sum;
                    }
                }
            }
        }
        first += STAGING_PASSES * threads;
    }
}

/// Adds one item's products to `acc` (rows `g` and `g + 8`): per group of
/// the step, its MMAs into a fresh tile, then `s (D - (MAGIC + z) S)`.
/// `activations` and `sums` are shared-window addresses of the staged row.
#[inline(always)]
fn accumulate<T: MmaHalf, const G: usize>(
    acc: &mut [f32; 2],
    weights: &ItemWeights,
    step: u32,
    (activations, sums): (u32, u32),
    t: u32,
) {
    let step_activations = activations + step * ACTIVATION_BYTES_PER_STEP as u32 + 16 * t;
    // SAFETY: the staged step's sums, 16-byte aligned.
    let group_sums = unsafe { load_shared16(sums + step * SUM_BYTES_PER_STEP as u32) };
    let words = Weights::<G>::WORDS_PER_GROUP;
    for q in 0..Weights::<G>::GROUPS_PER_STEP {
        let mut products = [0.0f32; 4];
        for j in q * words..(q + 1) * words {
            // SAFETY: word j of lane t in the staged step.
            let pairs = unsafe { load_shared16(step_activations + 64 * j as u32) };
            for half in 0..2u32 {
                let b = [pairs[2 * half as usize], pairs[2 * half as usize + 1]];
                T::mma(&mut products, raw_a_fragment::<T>(&weights.codes, j, half), b);
            }
        }
        let sum = f32::from_bits(group_sums[q]);
        for (r, acc) in acc.iter_mut().enumerate() {
            // Register 0 is row g, register 2 row g + 8 (column 2t; every column holds the same).
            let centered = fma(-weights.offset::<T>(r, q), sum, products[2 * r]);
            *acc = fma(weights.scale(r, q), centered, *acc);
        }
    }
}

/// The body of every version 14 entry point, groups of `G` columns.
///
/// # Safety
/// As for the entry points, with `group_size == G` and `n * k / 8 <
/// 2^32`, launched as `quant_kernels_abi::int4_linear::v14` documents.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn linear_v14<T: MmaHalf, const G: usize>(
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
    let steps = steps(k as usize) as u32;
    let tiles = n.div_ceil(ROWS_PER_TILE as u32) as usize;
    let (first_tile, end_tile) = block_tiles(tiles, block_idx_x() as usize, grid_dim_x() as usize);
    let (first_tile, end_tile) = (first_tile as u32, end_tile as u32);
    // (The same for the whole block, so before any barrier.)
    if first_tile == end_tile {
        return;
    }
    let (warp, warps, lane) = (warp_id(), (block_dim_x() / 32).max(1), lane_id());
    let (g, t) = (lane / 4, lane % 4);
    let groups_per_row = k / G as u32;
    let zero_bytes_per_row = zero_bytes_per_row(groups_per_row as usize) as u32;
    let weights = Weights::<G> { qweight, scales, zeros, n, groups_per_row, zero_bytes_per_row, g, t };
    let shared = dynamic_shared_address();
    let staged = (shared, shared + sums_offset(steps as usize) as u32);
    let shared_bytes = dynamic_shared_memory::<u8>();
    // SAFETY: the offsets are inside the launch's shared memory.
    let (activations, sums, partials) = unsafe {
        (
            shared_bytes.cast::<Vec4<u32>>(),
            shared_bytes.add(sums_offset(steps as usize)).cast::<f32>(),
            shared_bytes.add(partials_offset(steps as usize)).cast::<f32>(),
        )
    };
    let rows_here = ((end_tile - first_tile) * ROWS_PER_TILE as u32) as usize;
    let (n, k) = (n as usize, k as usize);

    // Item (tile, step)'s weights for this lane; nothing past the block's tiles.
    // SAFETY: live only for the block's tiles (below ceil(n / 16)); steps below ceil(k / 128).
    let load = |item: (u32, u32)| unsafe { weights.load(item, item.0 < end_tile) };
    // Lanes (g, 0) store rows g and g + 8 of `tile` in the warp's partial
    // outputs (a warp's items of a tile are consecutive: one store each).
    let warp_partials = warp as usize * rows_here;
    let flush = |acc: [f32; 2], tile: u32| {
        if t == 0 {
            let row = warp_partials + ((tile - first_tile) * ROWS_PER_TILE as u32 + g) as usize;
            // SAFETY: row + 8 < (warp + 1) * rows_here: inside the warp's partial outputs.
            unsafe {
                *partials.add(row) = acc[0];
                *partials.add(row + 8) = acc[1];
            }
        }
    };

    let mut activation_row = block_idx_y() as usize;
    while activation_row < m as usize {
        // The first loads go out before the staging, which they do not need.
        let mut loading = Cursor::new(first_tile, warp, warps, steps);
        let mut ring: [ItemWeights; STEPS_IN_FLIGHT] = from_fn(|_| load(loading.advance()));
        // SAFETY: row `activation_row` < m of x; the layout's steps.
        unsafe { stage::<T, G>(x.add(activation_row * k), k, activations, sums) };
        // (A warp leaves the tiles it has no item of as they are.)
        for i in Strided::block().over(warps as usize * rows_here) {
            // SAFETY: inside the partial outputs.
            unsafe { *partials.add(i) = 0.0 };
        }
        sync_threads();

        let mut multiplying = Cursor::new(first_tile, warp, warps, steps);
        let mut acc = [0.0f32; 2];
        let mut acc_tile = multiplying.tile;
        'items: loop {
            for slot in ring.iter_mut() {
                let item_weights = core::mem::replace(slot, load(loading.advance()));
                let (tile, step) = multiplying.advance();
                if tile >= end_tile {
                    break 'items;
                }
                if tile != acc_tile {
                    flush(acc, acc_tile);
                    acc = [0.0; 2];
                    acc_tile = tile;
                }
                accumulate::<T, G>(&mut acc, &item_weights, step, staged, t);
            }
        }
        if acc_tile < end_tile {
            flush(acc, acc_tile);
        }
        sync_threads();

        let first_row = first_tile as usize * ROWS_PER_TILE;
        for i in Strided::block().over(rows_here.min(n - first_row)) {
            let row = first_row + i;
            // SAFETY: row < n, activation_row < m; bias is null or holds n.
            unsafe {
                let mut total = (0..warps as usize).fold(0.0, |total, w| total + *partials.add(w * rows_here + i));
                if !bias.is_null() {
                    total += *bias.add(row);
                }
                *y.add(activation_row * n + row) = T::from_f32(total);
            }
        }
        sync_threads(); // the next row restages shared memory
        activation_row += grid_dim_y() as usize;
    }
}
