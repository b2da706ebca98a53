//! Version 9 (sm_90 only): version 5's arithmetic, its codes brought into
//! shared memory by the Hopper's bulk copies, two blocks per multiprocessor
//! (layout and work split in `quant_kernels_abi::int4_linear::v9`).
//!
//! Versions 5, 6 and 8 held the codes in flight in registers or in per-lane
//! `cp.async` copies, and `ncu` found them latency-bound: 2-3 steps a warp
//! in flight, occupancy capped by registers, and a grid whose last wave
//! ran a fraction of the GPU (docs/PERF.md, runs 8 and 10). Here one
//! instruction per weight row moves a unit's 512 bytes of that row, with no
//! register held, so a block keeps up to `STAGES - 1` units (147 KB) in
//! flight whatever its registers; and each block owns the same number of
//! whole tiles, so all finish together and none adds to another's outputs.
//! A small layer is asked for at once: 4096 x 4096 is 64 KB a block.
//!
//! Per unit, every warp waits on the stage's barrier, reads its step's codes
//! from the stage (lane `(g, t)`: rows `g` and `g + 8`, version 5's columns),
//! and multiplies them with version 5's MMAs; the scales, zero points and
//! activations of the next unit are loaded (from the L2, where the unit's
//! copies asked for them) before the wait. A block barrier at the end of
//! the unit frees its stage, which warp 0 fills again `STAGES - 1` units
//! later: lanes 0 to 15 copy a row each, and lane 0 announces the bytes.
//! At a tile's last unit the warps add their partial tiles (version 3's
//! epilogue) and store the outputs.
//!
//! **Error.** As version 5: the same products, summed in the same order
//! within a step.

use super::GroupParams;
use super::mma_tile::entry_points;
use crate::float::Bf16;
use crate::mma::MmaHalf;

entry_points! {
    linear_v9:
    int4_linear_v9_m8_g32_f16: f16, 1, 32;
    int4_linear_v9_m8_g64_f16: f16, 1, 64;
    int4_linear_v9_m8_g128_f16: f16, 1, 128;
    int4_linear_v9_m16_g32_f16: f16, 2, 32;
    int4_linear_v9_m16_g64_f16: f16, 2, 64;
    int4_linear_v9_m16_g128_f16: f16, 2, 128;
    int4_linear_v9_m8_g32_bf16: Bf16, 1, 32;
    int4_linear_v9_m8_g64_bf16: Bf16, 1, 64;
    int4_linear_v9_m8_g128_bf16: Bf16, 1, 128;
    int4_linear_v9_m16_g32_bf16: Bf16, 2, 32;
    int4_linear_v9_m16_g64_bf16: Bf16, 2, 64;
    int4_linear_v9_m16_g128_bf16: Bf16, 2, 128;
}

/// The body of every version 9 entry point: `N_TILES` MMA tiles of
/// activation rows, groups of `G` columns. Launch: `gridDim.x` blocks (at
/// most one per multiprocessor is useful), `v9::BLOCK_THREADS` threads,
/// `v9::SHARED_BYTES` of dynamic shared memory. Compiled for sm_90; on an
/// older target the entry points trap (the host never launches them there).
///
/// # Safety
/// As for the entry points, with `group_size == G`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn linear_v9<T: MmaHalf, const N_TILES: usize, const G: usize>(
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
    #[cfg(target_feature = "sm_90")]
    // SAFETY: forwarded from the caller.
    unsafe {
        let groups = GroupParams::new(scales, zeros, k as usize, G as u32);
        streamed::<T, N_TILES, G>(x, qweight, groups, bias, y, (m as usize, n as usize, k as usize))
    };
    #[cfg(not(target_feature = "sm_90"))]
    {
        let _ = (x, qweight, scales, zeros, bias, y, m, n, k);
        // SAFETY: aborts the launch; no preconditions.
        unsafe { core::arch::nvptx::trap() };
    }
}

/// Where a block is in its walk over its units: unit `index`, chunk
/// `chunk` of weight tile `tile` (counted from the block's first) and
/// activation-row tile `m_tile`. Advanced by counting, not by dividing
/// `index` (64-bit divisions would cost more than a unit's MMAs).
#[cfg(target_feature = "sm_90")]
#[derive(Clone, Copy, Default)]
struct Cursor {
    index: usize,
    chunk: usize,
    tile: usize,
    m_tile: usize,
}

#[cfg(target_feature = "sm_90")]
impl Cursor {
    /// The unit after this one, in a walk of `chunks` chunks a tile and
    /// `tiles` tiles a block.
    #[inline(always)]
    fn next(self, chunks: usize, tiles: usize) -> Self {
        let Self { index, mut chunk, mut tile, mut m_tile } = self;
        chunk += 1;
        if chunk == chunks {
            chunk = 0;
            tile += 1;
            if tile == tiles {
                tile = 0;
                m_tile += 1;
            }
        }
        Self { index: index + 1, chunk, tile, m_tile }
    }
}

#[cfg(target_feature = "sm_90")]
#[inline(always)]
unsafe fn streamed<T: MmaHalf, const N_TILES: usize, const G: usize>(
    x: *const T,
    qweight: *const u32,
    groups: GroupParams,
    bias: *const f32,
    y: *mut T,
    (m, n, k): (usize, usize, usize),
) {
    use super::mma_tile::{Epilogue, LanePosition};
    use super::v5::{GroupedLane, Step};
    use crate::async_copy::bulk::{Barrier, copy, fence_barrier_init};
    use crate::async_copy::{dynamic_shared_address, load_shared_words};
    use crate::device::{block_idx_x, grid_dim_x, lane_id, prefetch_l2, sync_threads, thread_idx_x, warp_id};
    use quant_kernels_abi::int4_linear::v3::{M_PER_TILE, ROWS_PER_BLOCK as ROWS_PER_TILE, STEP_K};
    use quant_kernels_abi::int4_linear::v9::{CHUNK_K, PARTIAL_BYTES, ROW_STRIDE, STAGE_BYTES, STAGES, WARPS};

    let tiles = n.div_ceil(ROWS_PER_TILE);
    let tiles_per_block = tiles.div_ceil(grid_dim_x() as usize);
    let first_tile = block_idx_x() as usize * tiles_per_block;
    let block_tiles = tiles.saturating_sub(first_tile).min(tiles_per_block);
    // One empty chunk when k == 0, so that every tile still stores its bias.
    let chunks = k.div_ceil(CHUNK_K).max(1);
    let units = m.div_ceil(M_PER_TILE * N_TILES) * block_tiles * chunks;
    if units == 0 {
        return; // the whole block: no barrier is reached
    }
    let first_row = |c: Cursor| (first_tile + c.tile) * ROWS_PER_TILE;
    let (warp, lane) = (warp_id() as usize, lane_id() as usize);
    let shared = dynamic_shared_address();
    let stage = |c: Cursor| shared + (PARTIAL_BYTES + c.index % STAGES * STAGE_BYTES) as u32;
    let barrier = |c: Cursor| Barrier(shared + (PARTIAL_BYTES + STAGES * STAGE_BYTES + 8 * (c.index % STAGES)) as u32);
    if thread_idx_x() == 0 {
        let mut c = Cursor::default();
        for _ in 0..STAGES {
            // SAFETY: inside SHARED_BYTES, 8-byte aligned.
            unsafe { barrier(c).init(1) };
            c.index += 1;
        }
        fence_barrier_init();
    }
    sync_threads();

    let groups_per_row = groups.groups_per_row;
    // Warp 0 fills unit c's stage (the stage's previous unit was read
    // before a block barrier), and asks the L2 for the unit's scales and
    // zero points.
    let fill = |c: Cursor| {
        if c.index >= units || warp != 0 || lane >= ROWS_PER_TILE {
            return;
        }
        let first_column = c.chunk * CHUNK_K;
        let bytes = ((k - first_column).min(CHUNK_K) / 2) as u32;
        let row = (first_row(c) + lane).min(n - 1);
        // SAFETY: the stage and its barrier are inside SHARED_BYTES; row < n
        // and the chunk's bytes are inside it (k % 32 == 0: 16-byte
        // multiples at 16-byte aligned offsets of a 16-byte aligned array);
        // the prefetched scales and zero points are the chunk's first and
        // last groups in that row.
        unsafe {
            if lane == 0 {
                barrier(c).arrive_expecting(ROWS_PER_TILE as u32 * bytes);
            }
            if bytes == 0 {
                return; // k == 0: the arrival alone completes the phase
            }
            let source = qweight.cast::<u8>().add(row * k / 2 + first_column / 2);
            copy(stage(c) + (lane * ROW_STRIDE) as u32, source, bytes, barrier(c));
            let first_group = first_column / G;
            let last_group = (first_group + CHUNK_K / G).min(groups_per_row) - 1;
            for group in [first_group, last_group] {
                prefetch_l2(groups.scales.add(row * groups_per_row + group));
                if !groups.zeros.is_null() {
                    prefetch_l2(groups.zeros.add(row * groups.zero_bytes_per_row + group / 2));
                }
            }
        }
    };
    // The lane's view of unit c: its rows and activation rows, and its step.
    let lane_in = |c: Cursor| {
        let position = LanePosition::at(n, first_row(c));
        let first_m = c.m_tile * M_PER_TILE * N_TILES;
        // SAFETY: first_m < m; the pointers and shapes are the caller's.
        let lane = unsafe { GroupedLane::<T, N_TILES, G, 1>::new(&position, x, qweight, groups, (m, n, k, first_m)) };
        (lane, c.chunk * WARPS + warp)
    };

    let mut filled = Cursor::default();
    for _ in 0..STAGES - 1 {
        fill(filled);
        filled = filled.next(chunks, block_tiles);
    }
    let steps = k.div_ceil(STEP_K);
    let mut acc = [[[0.0f32; 4]; N_TILES]; 1];
    let mut current = Cursor::default();
    let (first_lane, first_step) = lane_in(current);
    let mut next_params = first_lane.load_params(first_step);
    while current.index < units {
        fill(filled);
        filled = filled.next(chunks, block_tiles);
        let next = current.next(chunks, block_tiles);
        let (this_lane, step) = lane_in(current);
        let params = next_params;
        if next.index < units {
            let (next_lane, next_step) = lane_in(next);
            next_params = next_lane.load_params(next_step);
        }
        barrier(current).wait((current.index / STAGES % 2) as u32);
        if step < steps {
            let g = lane / 4;
            let codes = [core::array::from_fn(|r| {
                let row = stage(current) + ((g + 8 * r) * ROW_STRIDE + warp * STEP_K / 2) as u32;
                // SAFETY: inside the stage (word_column < STEP_K), aligned
                // to the group's bytes (ROW_STRIDE and the column are
                // multiples of 16 bytes, 8 or 4).
                this_lane.row_codes(step, |j| unsafe {
                    load_shared_words(row + (this_lane.word_column(j) / 2) as u32, G / 32)
                })
            })];
            GroupedLane::<T, N_TILES, G, 1>::accumulate(&mut acc, &Step { codes, params });
        }
        if current.chunk == chunks - 1 {
            let epilogue = Epilogue { bias, y, m, n };
            let first_m = current.m_tile * M_PER_TILE * N_TILES;
            // SAFETY: y holds m x n elements and bias n (or is null); the
            // partial tiles are at the start of shared memory.
            unsafe { epilogue.store::<N_TILES>(first_row(current), first_m, &acc[0], warp, lane, WARPS) };
            acc = [[[0.0f32; 4]; N_TILES]; 1];
        }
        sync_threads(); // every warp is done with the stage
        current = next;
    }
}
