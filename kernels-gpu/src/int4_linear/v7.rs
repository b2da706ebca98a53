//! Version 7: a tiled tensor-core GEMM for large `M` (shapes from
//! `quant_kernels_abi::int4_linear::v7`), reading the packed format as it is.
//!
//! Versions 3 to 5 are GEMVs: a block holds 16 weight rows and at most 16
//! activation rows, so past `M = 16` every weight is read again for every
//! 16 rows. Here a block computes a `BLOCK_N x BLOCK_M` (128 x 128) tile
//! of `y^T` over the whole of `K`, so each weight is read `M / 128` times
//! (from L2, mostly) and each activation `N / 128` times.
//!
//! **Warps.** The 8 warps form a `WARPS_N x WARPS_M` (4 x 2) grid; warp
//! `(wn, wm)` owns weight rows `32 wn .. + 32` and activation rows
//! `64 wm .. + 64` of the tile: 2 MMA A tiles (16 weight rows) by 8 MMA B
//! tiles (8 activation rows), 16 f32 accumulator tiles of `m16n8k16`. (The
//! other way round, 64 x 32, dequantizes twice as often per MMA, and did
//! not fit in 255 registers.)
//! The MMA orientation, lanes and column permutation are version 3's
//! (`v3.rs`): lane `(g, t)` takes columns `32t .. 32t + 32` of a 128-column
//! step, for rows `g` and `g + 8` of an A tile (16 bytes of codes each) and
//! row `g` of a B tile (64 bytes of activations), and the shared
//! `mma_word` (a quarter of versions 3-5's `mma_step`) dequantizes each A
//! fragment (3 to 4 instructions a pair of weights, scale and zero point
//! applied per weight in the activation type) once for the warp's 8 B tiles.
//! A warp holds a step's codes (8 registers an A tile) and a quarter of its
//! activations at a time (4 registers a B tile) beside the 64 of the
//! accumulators.
//!
//! **Pipeline.** A stage holds one 128-column step of the block's tile: its
//! `BLOCK_N` rows x 64 bytes of codes and `BLOCK_M` rows x 256 bytes of
//! activations (40 KB). The block keeps a ring of `STAGES` (3) of them
//! (120 KB), filled by `cp.async` with `STAGES - 1` steps in flight: at step
//! `i` every thread waits for its copies of step `i` (`cp.async.wait_group`),
//! the block meets (`bar.sync`: everyone's copies of step `i` are visible,
//! and everyone is done with step `i - 1`, whose stage the copies of step `i
//! + STAGES - 1` then overwrite), and the warps compute. Each thread copies
//! 2 chunks of 16 bytes of codes and 8 of activations a step, one commit
//! group a step (empty past the last step, so group `i` is step `i`).
//! Copies past `K` (a partial last step), weight rows past `n` and
//! activation rows past `m` are zero-filled without reading: zero
//! activations make those products vanish, and rows past `n` or `m` are
//! never stored. The group scales and zero points of step `i + 1` are loaded
//! into registers while step `i` computes.
//!
//! **Shared memory, per stage** (byte offsets from the stage's start):
//!
//! | bytes | what | layout |
//! |---|---|---|
//! | `0 .. 8192` | codes | row `r` (of the tile's 128) at `64 r`, its 4 chunks of 16 bytes in order |
//! | `8192 .. 40960` | activations | row `r` at `8192 + 256 r`; its 16-byte chunk `c` (columns `8c .. 8c + 8` of the step) at `16 (c ^ swizzle(r, c))` |
//!
//! A 16-byte shared load is served a quarter-warp (8 lanes) at a time, and
//! is conflict-free when those 8 lanes touch 8 distinct 16-byte bank groups
//! (address bits 4..7). Codes: lanes `(g, t)` of a quarter-warp read rows
//! `g, g + 1` at `16 t`: 128 contiguous bytes. Activations unswizzled would
//! conflict 4 ways (rows 256 bytes apart, and lane `t`'s 64-byte runs put
//! `t` and `t + 2` on the same banks); `swizzle(r, c) = ((c >> 3) & 1) |
//! ((r & 1) << 1)` flips chunk bits 0 and 1 by `t >> 1` and by the row's
//! parity, so the 8 lanes' chunks (`4t + q` of rows `g, g + 1`) land on 8
//! distinct bank groups for each quad `q`. The copies write 8 consecutive
//! chunks of one row a quarter-warp, permuted within aligned groups of 4:
//! conflict-free too. (Both checked by enumerating every lane.)
//!
//! **Epilogue.** Each accumulator goes straight to `y[m][n]` with the bias,
//! rounded to `T`, bounds-checked (2-byte stores: 128 a thread and tile,
//! against the K loop's ~700 instructions a step).
//!
//! **Split-K.** Where the `ceil(n / 128) * ceil(m / 128)` tiles leave most
//! multiprocessors idle (32 blocks for the H100's 132 at M <= 128, N =
//! 4096), `int4_linear_v7_split_k_*` runs the same blocks `gridDim.z` times
//! over, each block the pipeline above over its slice of the steps of `K`
//! ([`linear_tiled_split_k`] has the split), storing its f32 sums without
//! the bias in `partials[bz][m][n]`. A slice starts on a step boundary,
//! which is a group boundary (every group size divides `STEP_K`), so the
//! group constants are read as they are without a split. The reduction
//! (`split_k.rs`) then adds the slices in order, the bias, and rounds into
//! `y`. Each partial has exactly one writer and is read by the next kernel
//! on the stream: no atomics, no counters, and the same sums every run.
//!
//! Launch: grid `(ceil(n / BLOCK_N), min(ceil(m / BLOCK_M), MAX_GRID_Y),
//! splits)` (blocks loop over activation tiles past `gridDim.y`; `splits`
//! is 1 for `int4_linear_v7_*`, at most `MAX_GRID_Z` for the split-K
//! entry points), exactly `BLOCK_THREADS` threads, `SHARED_BYTES` of
//! dynamic shared memory.

use super::GroupParams;
use super::mma_tile::{
    RowParams, StepCopies, TileOutput, TiledGemm, activation_tiles, linear_tiled, linear_tiled_split_k, mma_word,
    tiled_entry_points,
};
use crate::async_copy::{commit, dynamic_shared_address, load_shared16, wait};
use crate::device::{block_idx_x, in_place, lane_id, sync_threads, thread_idx_x, warp_id};
use crate::float::Bf16;
use crate::wgmma::WgmmaHalf;
use core::array::from_fn;
use core::ops::Range;
use quant_kernels_abi::int4_linear::v7::{
    BLOCK_M, BLOCK_N, BLOCK_THREADS, CODE_BYTES_PER_STAGE, SHARED_BYTES, STAGE_BYTES, STAGES, WARP_M, WARP_N, WARPS_N,
    swizzle,
};

tiled_entry_points! {
    V7: int4_linear_v7_f16, int4_linear_v7_bf16;
    split_k: int4_linear_v7_split_k_f16, int4_linear_v7_split_k_bf16
}

/// MMA A tiles (16 weight rows) per warp.
const A_TILES: usize = WARP_N / 16;
/// MMA B tiles (8 activation rows) per warp.
const B_TILES: usize = WARP_M / 8;
/// 16-byte chunks of codes in a stage (4 a row), and of activations (16 a row).
const CODE_CHUNKS: usize = BLOCK_N * 4;
const ACTIVATION_CHUNKS: usize = BLOCK_M * 16;
const THREADS: usize = BLOCK_THREADS as usize;
const _: () = assert!(
    CODE_CHUNKS % THREADS == 0
        && ACTIVATION_CHUNKS % THREADS == 0
        && CODE_CHUNKS / THREADS <= 32
        && ACTIVATION_CHUNKS / THREADS <= 32
        && STAGES >= 2
);

/// Version 7's main loop (launch shape above: `blockDim.x ==
/// BLOCK_THREADS`, each thread's share of the copies assumes it).
pub(super) struct V7;

impl TiledGemm for V7 {
    type Activations<T: WgmmaHalf> = *const T;
    type Codes = *const u32;

    #[inline(always)]
    unsafe fn sum_tiles<T: WgmmaHalf>(
        x: Self::Activations<T>,
        qweight: *const u32,
        groups: GroupParams,
        (m, n, k): (usize, usize, usize),
        steps: Range<usize>,
        out: impl TileOutput<T>,
    ) {
        crate::grid_dependency::begin_after_previous_grid();
        let (thread, warp, lane) = (thread_idx_x() as usize, warp_id() as usize, lane_id() as usize);
        let (g, t) = (lane / 4, lane % 4);
        // The warp's rows within the block's tile.
        let (warp_rows, warp_activation_rows) = (WARP_N * (warp % WARPS_N), WARP_M * (warp / WARPS_N));
        let first_row = block_idx_x() as usize * BLOCK_N;
        // Rows g and g + 8 of each A tile, clamped below n for the group
        // constants (rows past n are zero-filled in shared memory and never stored).
        let rows: [[usize; 2]; A_TILES] =
            from_fn(|i| from_fn(|h| (first_row + warp_rows + 16 * i + g + 8 * h).min(n - 1)));
        let chunks_per_row = k / 32; // 16-byte chunks of codes, 32 columns each
        let Range { start: first_step, end: end_step } = steps;
        let ring = dynamic_shared_address();
        // The stage after `stage` in the ring (no division by STAGES).
        let next_stage = |stage: u32| {
            let next = stage + STAGE_BYTES as u32;
            if next == ring + SHARED_BYTES { ring } else { next }
        };
        // Where this thread's copies go in a stage, as one offset plus
        // constants (`+ 4096 p` for its p-th chunk of either kind): code chunk
        // `(r, q) = (thread / 4 + 64 p, thread % 4)` at `64 r + 16 q`, and
        // activation chunk `(r, c) = (thread / 16 + 16 p, thread % 16)` at its
        // swizzled slot (the swizzle depends on r's parity only, the same for every p).
        let (code_row, code_chunk) = (thread / 4, thread % 4);
        let (activation_row, activation_chunk) = (thread / 16, thread % 16);
        let code_slot = (16 * thread) as u32;
        let activation_slot = (CODE_BYTES_PER_STAGE
            + 256 * activation_row
            + 16 * (activation_chunk ^ swizzle(activation_row, activation_chunk))) as u32;
        // Where this lane reads a stage, likewise: its codes of A tile a, row
        // g + 8h at `+ 1024 a + 512 h`; its activations of B tile j, quad q at
        // `+ 2048 j + 16 (q ^ lane_swizzle)` (chunk 4t + q of row 8j + g, whose
        // swizzle is the same for every j and q: t >> 1 and g's parity).
        let lane_codes = (64 * (warp_rows + g) + 16 * t) as u32;
        let lane_activations = (CODE_BYTES_PER_STAGE + 256 * (warp_activation_rows + g) + 64 * t) as u32;
        let lane_swizzle = swizzle(warp_activation_rows + g, 4 * t) as u32;

        for first_m in activation_tiles(m, BLOCK_M) {
            let copies = StepCopies::<_, THREADS>::new(
                (x, qweight),
                (m, n, k),
                (first_row + code_row, code_chunk, code_slot),
                (first_m + activation_row, activation_chunk, activation_slot),
                4096,
                (CODE_CHUNKS / THREADS, ACTIVATION_CHUNKS / THREADS),
            );
            // Copies step `i` into `stage` (none past the slice's last step),
            // then commits a group either way, so that the `j`-th group holds
            // the slice's `j`-th step.
            let issue = |i: usize, stage: u32| {
                if i < end_step {
                    // SAFETY: the stage's slots; x and the weights as the caller's.
                    unsafe { copies.copy(stage, i) };
                }
                commit();
            };
            // Lane t's group constants for step `i`, for each A tile.
            let params_of = |i: usize| -> [[RowParams; 2]; A_TILES] {
                let c = 4 * i + t;
                let col = if c < chunks_per_row { 32 * c } else { 0 };
                // The rows' offsets into scales and zeros are computed here, in
                // the loop: hoisted, they would hold 8 more 64-bit registers.
                // SAFETY: rows[a][h] < n; col < k, or 0 (k > 0: called for steps in 0..ceil(k / 128)).
                from_fn(|a| unsafe { RowParams::of_rows::<T>(&groups, rows[a].map(in_place), col) })
            };

            let mut acc = [[[0.0f32; 4]; B_TILES]; A_TILES];
            // Step i is read from `read_stage`; step i + STAGES - 1 is written to `write_stage`.
            let (mut read_stage, mut write_stage) = (ring, ring);
            for i in 0..STAGES - 1 {
                issue(first_step + i, write_stage);
                write_stage = next_stage(write_stage);
            }
            // Loaded a step ahead: a step's compute covers their latency. (An
            // empty slice, or k == 0, leaves no group to read.)
            let mut next_params =
                if first_step < end_step { params_of(first_step) } else { [[RowParams::default(); 2]; A_TILES] };
            for i in first_step..end_step {
                let params = next_params;
                next_params = params_of((i + 1).min(end_step - 1));
                wait::<{ STAGES as u32 - 2 }>();
                // Every thread's copies of step i are in, and every warp is done
                // with step i - 1, whose stage the next copies overwrite.
                sync_threads();
                issue(i + STAGES - 1, write_stage);
                write_stage = next_stage(write_stage);
                // All of the step's codes (8 registers an A tile), then a
                // quarter of the step's activations at a time (4 registers a B
                // tile): the accumulators (64 registers) leave no room for more.
                let codes: [[[u32; 4]; 2]; A_TILES] = from_fn(|a| {
                    // SAFETY: 16-byte aligned slots inside the stage.
                    from_fn(|h| unsafe { load_shared16(read_stage + lane_codes + (1024 * a + 512 * h) as u32) })
                });
                for word in 0..4u32 {
                    let quad = read_stage + lane_activations + 16 * (word ^ lane_swizzle);
                    // SAFETY: 16-byte aligned slots inside the stage.
                    let quads: [[u32; 4]; B_TILES] = from_fn(|j| unsafe { load_shared16(quad + (2048 * j) as u32) });
                    for (a, acc) in acc.iter_mut().enumerate() {
                        let word = word as usize;
                        mma_word::<T, B_TILES>(acc, [codes[a][0][word], codes[a][1][word]], &quads, &params[a]);
                    }
                }
                read_stage = next_stage(read_stage);
            }
            wait::<0>();
            // The next tile's copies overwrite the stages every warp reads.
            sync_threads();

            for (a, tiles) in acc.iter().enumerate() {
                for (j, tile) in tiles.iter().enumerate() {
                    for (c, &value) in tile.iter().enumerate() {
                        let row = first_row + warp_rows + 16 * a + g + 8 * (c / 2);
                        let activation_row = first_m + warp_activation_rows + 8 * j + 2 * t + c % 2;
                        // SAFETY: from the caller; `write` skips outputs outside m x n.
                        unsafe { out.write(row, activation_row, value) };
                    }
                }
            }
        }
    }
}
