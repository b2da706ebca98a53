//! Version 21 (`sm_90a` only): version 19 ([`super::v19`]) with `K` split
//! across the blocks of a thread-block cluster, which add their slices in
//! each other's shared memory. Shapes from `quant_kernels_abi::int4_linear::v21`.
//!
//! Version 19 splits `K` through an f32 workspace: every block of a slice
//! writes its tile of partial sums to global memory and a second kernel
//! adds them (`split_k.rs`). At M = 64 on 4096 x 4096 that is 8 slices of
//! 256 x 64 sums, 8.4 MB written and read back, and a second launch: the
//! split model counts about 8.6 µs of it in a call of 13 (docs/PERF.md, run
//! 25). Here the `s` slices of a tile are the `s` blocks of one cluster
//! (`_k{s}_`: grid `z` and the cluster's `z` are both `s`), and the sums never
//! leave the chip:
//! 1. each block runs version 19's pipeline over its slice (slice `z` =
//!    the cluster rank, as `linear_tiled_split_k` counts them);
//! 2. its consumers meet (a named barrier: both MMA warpgroups' MMAs have
//!    completed, so the ring is no longer read) and store their
//!    accumulators into the block's own shared memory, `[BLOCK_M][PARTIAL_ROW]`
//!    f32 from the ring's start;
//! 3. the cluster meets (`barrier.cluster`, release and acquire: every
//!    block's partial tile is written and visible);
//! 4. block `z`'s consumers take activation rows `z ceil(BLOCK_M / s) ..` of
//!    the tile, read each of the `s` partial tiles 16 bytes a thread
//!    (`ld.shared::cluster`), add them in slice order from 0.0, then the
//!    bias, as `split_k.rs` does, and write `y`;
//! 5. the cluster meets again, so that no block exits (and frees its shared
//!    memory) while another still reads it.
//!
//! The producers, whose registers are cut to 56, only meet the cluster
//! (steps 3 and 5, in their own branch): code the two sides shared after
//! the pipeline would have to fit those.
//!
//! The result is the same as version 19 split `s` ways through the
//! workspace (the same slices, added in the same order), but for the sign
//! of a zero sum without bias. Each block takes exactly one activation
//! tile, since its shared memory holds one partial tile: grid `y` is
//! `ceil(m / BLOCK_M)` (the host refuses `m` past `MAX_GRID_Y` tiles; a
//! launch with fewer traps).
//!
//! Launch: grid `(ceil(n / BLOCK_N), ceil(m / BLOCK_M), s)`, clusters of
//! `(1, 1, s)` (in the PTX), version 19's `BLOCK_THREADS` (512) and
//! `SHARED_BYTES`. The arguments are the unsplit kernels'. In the `sm_80`
//! PTX the entry points trap.

use super::mma_tile::entry_points;
use crate::float::Bf16;
use crate::wgmma::WgmmaHalf;

entry_points! {
    linear_v21:
    int4_linear_v21_k2_f16: f16, 2;
    int4_linear_v21_k3_f16: f16, 3;
    int4_linear_v21_k4_f16: f16, 4;
    int4_linear_v21_k5_f16: f16, 5;
    int4_linear_v21_k6_f16: f16, 6;
    int4_linear_v21_k7_f16: f16, 7;
    int4_linear_v21_k8_f16: f16, 8;
    int4_linear_v21_k2_bf16: Bf16, 2;
    int4_linear_v21_k3_bf16: Bf16, 3;
    int4_linear_v21_k4_bf16: Bf16, 4;
    int4_linear_v21_k5_bf16: Bf16, 5;
    int4_linear_v21_k6_bf16: Bf16, 6;
    int4_linear_v21_k7_bf16: Bf16, 7;
    int4_linear_v21_k8_bf16: Bf16, 8;
}

/// The body of every entry point: `SPLITS` slices of `K`, one a block of the cluster.
///
/// # Safety
/// As for the entry points, with the launch shape above.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn linear_v21<T: WgmmaHalf, const SPLITS: usize>(
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
    #[cfg(target_feature = "sm_90a")]
    // SAFETY: forwarded from the caller.
    unsafe {
        hopper::linear::<T, SPLITS>(x, qweight, scales, zeros, bias, y, (m, n, k), group_size)
    };
    #[cfg(not(target_feature = "sm_90a"))]
    super::v10::sm90a_only((x, qweight, scales, zeros, bias, y, m, n, k, group_size));
}

#[cfg(target_feature = "sm_90a")]
mod hopper {
    use crate::async_copy::{dynamic_shared_address, store_shared4};
    use crate::cluster;
    use crate::device::{block_idx_x, block_idx_y, grid_dim_y, sync_named, thread_idx_x};
    use crate::int4_linear::GroupParams;
    use crate::int4_linear::mma_tile::Epilogue;
    use crate::int4_linear::v12::hopper::{CopiedActivations, TileSink, pipeline};
    use crate::int4_linear::v19::V19;
    use crate::wgmma::WgmmaHalf;
    use quant_kernels_abi::int4_linear::v7::slice_steps;
    use quant_kernels_abi::int4_linear::v21::{
        BLOCK_M, BLOCK_N, CONSUMER_THREADS, MAX_SPLITS, PARTIAL_ROW, RING_ALIGN, STEP_K,
    };

    /// See the module's documentation.
    ///
    /// # Safety
    /// As for the entry points.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) unsafe fn linear<T: WgmmaHalf, const SPLITS: usize>(
        x: *const T,
        qweight: *const u32,
        scales: *const u16,
        zeros: *const u8,
        bias: *const f32,
        y: *mut T,
        (m, n, k): (u32, u32, u32),
        group_size: u32,
    ) {
        const { assert!(SPLITS >= 2 && SPLITS <= MAX_SPLITS as usize) };
        let (m, n, k) = (m as usize, n as usize, k as usize);
        if m.div_ceil(BLOCK_M) > grid_dim_y() as usize {
            // SAFETY: aborts the launch, which the host never makes.
            unsafe { core::arch::nvptx::trap() };
        }
        let slice = cluster::rank() as usize;
        let steps = k.div_ceil(STEP_K);
        let per_slice = slice_steps(steps, SPLITS);
        let first_step = (slice * per_slice).min(steps);
        let partial = PartialTile::<T, SPLITS> {
            base: (dynamic_shared_address() + RING_ALIGN as u32 - 1) & !(RING_ALIGN as u32 - 1),
            first_row: block_idx_x() as usize * BLOCK_N,
            first_m: block_idx_y() as usize * BLOCK_M,
            slice,
            epilogue: Epilogue { bias, y, m, n },
        };
        let groups = GroupParams::new(scales, zeros, k, group_size);
        // SAFETY: forwarded from the caller; version 19's launch shape.
        unsafe {
            pipeline::<T, _, V19, 2, 32>(
                CopiedActivations(x),
                qweight,
                groups,
                (m, n, k),
                first_step..(first_step + per_slice).min(steps),
                partial,
            )
        };
    }

    /// The block's tile of partial sums in its shared memory, and how the
    /// cluster adds them (steps 2 to 5 of the module's documentation).
    #[derive(Clone, Copy)]
    struct PartialTile<T, const SPLITS: usize> {
        /// Shared address of the tile: the ring's start.
        base: u32,
        first_row: usize,
        first_m: usize,
        /// This block's slice of `K`: its rank in the cluster.
        slice: usize,
        epilogue: Epilogue<T>,
    }

    impl<T, const SPLITS: usize> PartialTile<T, SPLITS> {
        /// Shared address of the sum of weight row `first_row + row` and
        /// activation row `first_m + activation_row`.
        #[inline(always)]
        fn address(&self, row: usize, activation_row: usize) -> u32 {
            self.base + (4 * (activation_row * PARTIAL_ROW + row)) as u32
        }
    }

    impl<T: WgmmaHalf, const SPLITS: usize> TileSink for PartialTile<T, SPLITS> {
        #[inline(always)]
        fn tile_done(&self) {
            // Both MMA warpgroups' MMAs are done: the ring is free.
            sync_named::<1, { CONSUMER_THREADS as u32 }>();
        }

        #[inline(always)]
        fn store(&self, row: usize, activation_row: usize, sum: f32) {
            let address = self.address(row - self.first_row, activation_row - self.first_m);
            // SAFETY: inside the tile (the pipeline's rows and activation
            // rows are the block's), which fits the ring (an ABI assertion).
            unsafe { store_shared4(address, sum.to_bits()) };
        }

        #[inline(always)]
        fn finish_consumer(&self) {
            cluster::sync();
            // Consumer thread `thread` adds 4 columns (weight rows) of one
            // activation row at a time: a warp reads 512 contiguous bytes.
            const QUADS: usize = BLOCK_N / 4;
            let thread = thread_idx_x() as usize;
            let (quad, first) = (thread % QUADS, thread / QUADS);
            let rows_per_slice = BLOCK_M.div_ceil(SPLITS);
            let end = ((self.slice + 1) * rows_per_slice).min(BLOCK_M);
            let mut activation_row = self.slice * rows_per_slice + first;
            while activation_row < end {
                let address = self.address(4 * quad, activation_row);
                let mut totals = [0.0f32; 4];
                for block in 0..SPLITS as u32 {
                    // SAFETY: the same 16-byte aligned place in the tile of
                    // each block, written before the cluster met and not
                    // written again; no block exits before the cluster meets
                    // below.
                    let sums = unsafe { cluster::load_peer16(cluster::peer_address(address, block)) };
                    for column in 0..4 {
                        totals[column] += f32::from_bits(sums[column]);
                    }
                }
                for (column, &total) in totals.iter().enumerate() {
                    let (row, activation_row) = (self.first_row + 4 * quad + column, self.first_m + activation_row);
                    // SAFETY: write skips outputs past n or m; y and bias as the caller's.
                    unsafe { self.epilogue.write(row, activation_row, total) };
                }
                activation_row += CONSUMER_THREADS / QUADS;
            }
            cluster::sync();
        }

        #[inline(always)]
        fn finish_producer(&self) {
            // The producers only meet the cluster, twice, as the consumers do.
            cluster::sync();
            cluster::sync();
        }
    }
}
