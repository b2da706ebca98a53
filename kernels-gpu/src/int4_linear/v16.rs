//! Version 16: version 5's arithmetic for up to 16 activation rows, with the
//! activations read once a block into shared memory and shared by several
//! tiles of weight rows (shapes and the stage layout in
//! `quant_kernels_abi::int4_linear::v16`).
//!
//! At `M = 16` a warp step of versions 5 and 6 reads 4 KB of activations for
//! 1 or 2 KB of codes, and every block of 16 or 32 weight rows reads the
//! whole activation tile again through L2: run 18's `ncu` found version 6's
//! L2 moving 3.3-3.9 times the bytes the DRAM reads. Here the block's
//! `blockDim.y` row tiles, each split along `K` between `blockDim.x / 32`
//! warps as in version 5, read the activations from a shared-memory ring
//! that the block's threads fill with `cp.async`, so they cross L2 once a
//! block of `16 * blockDim.y` rows.
//!
//! **A stage** holds the activations of the next `STEPS_PER_WARP` steps of
//! every warp of a row tile (the same steps for every row tile), copied
//! by all the block's threads: thread `i` copies chunk `i % 16` (8 columns)
//! of activation row `i / 16 % 16` of the stage's step `i / 256`, and the
//! same chunk of the steps `threads / 256` apart after it. A lane reads
//! its 8 activations of a code word with one 16-byte load from the chunk
//! the abi's layout gives it (the 32 lanes' chunks are consecutive). One
//! block barrier a stage both publishes a stage and frees the one before.
//!
//! **Codes** go straight from global memory to registers as in version 5,
//! a stage ahead: a warp issues the loads of its next stage's steps before
//! multiplying the current one's, and asks the L2 for those of the stage
//! after (`PREFETCH_STAGES`).

use super::GroupParams;
use super::mma_tile::{Epilogue, LanePosition, activation_tiles, entry_points};
use super::v5::{GroupedLane, StepActivations, StepWeights};
use crate::async_copy::{commit, copy16, dynamic_shared_address, load_shared16, wait};
use crate::device::{
    block_dim_x, block_dim_y, block_idx_x, dynamic_shared_memory, sync_threads, thread_idx_x, thread_idx_y,
};
use crate::float::Bf16;
use crate::mma::MmaHalf;
use core::array::from_fn;
use quant_kernels_abi::int4_linear::v3::STEP_K;
use quant_kernels_abi::int4_linear::v16::{
    COPY_UNITS_PER_STEP, M_TILE, N_TILES, PREFETCH_STAGES, ROWS_PER_TILE, STAGES, STEPS_PER_WARP, stage_bytes,
};

entry_points! {
    linear_v16:
    int4_linear_v16_g32_f16: f16, 32;
    int4_linear_v16_g64_f16: f16, 64;
    int4_linear_v16_g128_f16: f16, 128;
    int4_linear_v16_g32_bf16: Bf16, 32;
    int4_linear_v16_g64_bf16: Bf16, 64;
    int4_linear_v16_g128_bf16: Bf16, 128;
}

/// The calling thread's copies into every stage: `chunks` chunks of 16
/// bytes (8 activations) of one activation row, at the same columns of
/// steps `steps_apart` apart.
struct StageCopies<T> {
    /// The first chunk's source in stage 0 (read only when inside `x`).
    source: *const T,
    /// The first chunk's column in stage 0.
    column: usize,
    /// The first chunk's byte offset in a stage.
    slot: u32,
    /// Whether the row is below `m` (if not, the chunks are zero-filled).
    row_inside: bool,
    chunks: usize,
    steps_apart: usize,
    /// Steps a stage.
    stage_steps: usize,
    k: usize,
}

impl<T> StageCopies<T> {
    /// Thread `thread` of `threads` (a multiple of `COPY_UNITS_PER_STEP`)
    /// copying activation rows from `first_m` of `x[m][k]`, groups of `G`
    /// columns, in stages of `stage_steps` steps.
    #[inline(always)]
    fn new<const G: usize>(
        x: *const T,
        (m, k, first_m): (usize, usize, usize),
        (thread, threads): (usize, usize),
        stage_steps: usize,
    ) -> Self {
        let (chunk, row, step) = (thread % 16, thread / 16 % M_TILE, thread / COPY_UNITS_PER_STEP);
        // Which lane's word holds the chunk's 8 columns (version 5's
        // columns: in each group, lane t's G / 4 from G / 4 * t).
        let (chunks_per_group, words_per_group) = (G / 8, G / 32);
        let (group, in_group) = (chunk / chunks_per_group, chunk % chunks_per_group);
        let (t, word) = (in_group / words_per_group, group * words_per_group + in_group % words_per_group);
        let (tile, g) = (row / 8, row % 8);
        let slot = 16 * ((((step * N_TILES + tile) * 4 + word) * 32 + 4 * g + t) as u32);
        let column = STEP_K * step + 8 * chunk;
        // (At least 1: also keeps a division-by-zero panic path out of the PTX.)
        let steps_apart = (threads / COPY_UNITS_PER_STEP).max(1);
        Self {
            source: x.wrapping_add((first_m + row) * k + column),
            column,
            slot,
            row_inside: first_m + row < m,
            chunks: stage_steps / steps_apart,
            steps_apart,
            stage_steps,
            k,
        }
    }

    /// Starts the thread's copies of stage `stage` into the stage at
    /// shared address `at`; chunks past `k` or `m` are zero-filled without
    /// reading.
    ///
    /// # Safety
    /// `x` as [`new`](Self::new) was told, 16-byte aligned (`k % 32 == 0`);
    /// `at` is a stage of the block's ring.
    #[inline(always)]
    unsafe fn copy(&self, stage: usize, at: u32) {
        let first_column = STEP_K * self.stage_steps * stage;
        for p in 0..self.chunks {
            let offset = first_column + STEP_K * self.steps_apart * p;
            let inside = self.row_inside && self.column + offset < self.k;
            let slot = at + self.slot + (16 * COPY_UNITS_PER_STEP * self.steps_apart * p) as u32;
            // SAFETY: when inside, 8 activations of a row < m below k; the
            // slot is a 16-byte chunk of the stage.
            unsafe { copy16(slot, self.source.wrapping_add(offset).cast(), inside) };
        }
    }
}

/// The activations of step `step` of the stage at shared address `at` for
/// lane `lane` (the abi's layout).
///
/// # Safety
/// `at` is a stage of the block's ring whose copies have landed.
#[inline(always)]
unsafe fn stage_activations(at: u32, step: usize, lane: usize) -> StepActivations<N_TILES> {
    from_fn(|tile| {
        let mut pairs = [0u32; 16];
        for word in 0..4 {
            let chunk = ((step * N_TILES + tile) * 4 + word) * 32 + lane;
            // SAFETY: a chunk of the stage, from the caller.
            pairs[4 * word..4 * word + 4].copy_from_slice(&unsafe { load_shared16(at + 16 * chunk as u32) });
        }
        pairs
    })
}

/// The body of every version 16 entry point: groups of `G` columns.
///
/// # Safety
/// As for the entry points, with `group_size == G`, a block of
/// `block_is_valid` shape and `shared_bytes` of dynamic shared memory.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn linear_v16<T: MmaHalf, const G: usize>(
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
    const F: usize = STEPS_PER_WARP;
    let (m, n, k) = (m as usize, n as usize, k as usize);
    let (row_tiles, row_tile) = (block_dim_y() as usize, thread_idx_y() as usize);
    // warp and warps: among the row tile's warps, which split K.
    let position = LanePosition::new(n, ROWS_PER_TILE * row_tiles);
    let (warp, warps) = (position.warp, position.warps);
    let steps = k.div_ceil(STEP_K);
    let stage_steps = warps * F;
    let stages = steps.div_ceil(stage_steps);
    let threads = (block_dim_x() as usize, thread_idx_x() as usize);
    let thread = (row_tile * threads.0 + threads.1, row_tiles * threads.0);
    let ring = dynamic_shared_address();
    let slot = |stage: usize| ring + (stage % STAGES) as u32 * stage_bytes(warps as u32) as u32;
    // Blocks start at different stages (block b at stage b % stages, then
    // round): every block reads the same activations, and blocks in step
    // would all ask the same L2 lines for them at once.
    let rotation = block_idx_x() as usize % stages.max(1);
    // The stage the block takes `i`-th; `i` past the end gives a stage past
    // the end (nothing to load).
    let stage_at = |i: usize| match i + rotation {
        _ if i >= stages => i,
        rotated if rotated >= stages => rotated - stages,
        rotated => rotated,
    };
    let first_step = |i: usize| stage_at(i) * stage_steps + warp * F;

    for first_m in activation_tiles(m, M_TILE) {
        let groups = GroupParams::new(scales, zeros, k, G as u32);
        // SAFETY: forwarded from the caller; first_m < m.
        let lane = unsafe {
            GroupedLane::<T, N_TILES, G, 1>::new(&position, row_tile, x, qweight, groups, (m, n, k, first_m))
        };
        let copies = StageCopies::new::<G>(x, (m, k, first_m), thread, stage_steps);
        for stage in 0..STAGES - 1 {
            if stage < stages {
                // SAFETY: x from the caller; a stage of the ring.
                unsafe { copies.copy(stage_at(stage), slot(stage)) };
            }
            commit();
        }
        // Steps past the end load nothing (zeros).
        let load = |stage: usize| -> [StepWeights<1>; F] { from_fn(|u| lane.load_weights(first_step(stage) + u)) };
        let mut next = load(0);
        let mut acc = [[[0.0f32; 4]; N_TILES]; 1];
        for stage in 0..stages {
            let weights = next;
            // This stage's copies have landed (every thread's: the barrier),
            // and every warp is done with the stage the next copies overwrite.
            wait::<{ STAGES as u32 - 2 }>();
            sync_threads();
            let ahead = stage + STAGES - 1;
            if ahead < stages {
                // SAFETY: as above.
                unsafe { copies.copy(stage_at(ahead), slot(ahead)) };
            }
            commit();
            next = load(stage + 1);
            lane.prefetch(first_step(stage + 1 + PREFETCH_STAGES));
            for (u, weights) in weights.iter().enumerate() {
                if first_step(stage) + u < steps {
                    // SAFETY: the stage's copies have landed (above).
                    let activations = unsafe { stage_activations(slot(stage), warp * F + u, position.lane) };
                    GroupedLane::<T, N_TILES, G, 1>::accumulate(&mut acc, weights, &activations);
                }
            }
        }

        let epilogue = Epilogue { bias, y, m, n };
        // Each row tile's warps add their tiles in their own part of the ring.
        let partials = dynamic_shared_memory::<f32>().wrapping_add(row_tile * warps * N_TILES * 4 * 32);
        let first_row = position.first_row + ROWS_PER_TILE * row_tile;
        // SAFETY: y holds m x n elements and bias n (or is null); the
        // partials are inside the block's shared memory (shared_bytes).
        unsafe { epilogue.store::<N_TILES>(partials, first_row, first_m, &acc[0], warp, position.lane, warps) };
    }
}
