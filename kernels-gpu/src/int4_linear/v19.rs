//! Version 19 (`sm_90a` only): version 12's producer and MMA warpgroups
//! ([`super::v12`]) with version 18's tile of 256 weight rows x 64
//! activation rows (`wgmma.mma_async.m64n64k16`). Shapes from
//! `quant_kernels_abi::int4_linear::v19`.
//!
//! At M = 64 version 18 (the same tile on version 10's loop, where the
//! whole block meets every step) took about 1.8 µs a step on 28672 x 8192
//! (run 23), the same at M = 1, 16 and 64: the step's round trip, not its
//! MMAs, set the time. Version 12 took that round trip off the MMA
//! warpgroups and was 1.1-1.2x faster than version 10 at the 128-row tile.
//! With half the activations a stage (16 KB), five stages fit where
//! version 12 has four.
//!
//! **Measured** (H100, run 24, call F, bf16, cold, `docs/PERF.md`): 84.1
//! µs at 64 x 28672 x 8192 against version 18's 116.3 (1.31 µs a step
//! against 1.82), and 1.10-1.39x faster than version 18 at M = 32 and 64
//! on every benchmark shape, split or not: the library's choice up to 64
//! rows. That needs its register split: without `.minnctapersm 1`
//! (`build.rs`) ptxas ignored its `setmaxnreg` (C7508), kept the consumers
//! at 128 registers and spilled, and it was only 1.08-1.34x faster unsplit
//! and 1-7% slower split (calls A to E). Version 13's multicast on this
//! tile ("version 20") was 1.09-1.14x slower than that build and was
//! removed.
//!
//! **Activations by the TMA unit** (from run 54). Producer thread 0
//! copies each stage's activations as two boxes of the tensor map of `x`
//! (the first argument, in place of `x`'s address; ABI `v19` has the box:
//! 64 columns x 64 rows, 128-byte swizzle), which land in version 10's
//! layout, and the stage's `full` barrier expects their bytes; the
//! producer threads copy only the codes and store the constants. Rows past
//! `m` and columns past `k` arrive as zeros, as the copies' zero fill
//! wrote them. A step's 16 KB of activations were 1024 `cp.async` of 16
//! bytes, four a producer thread, each with its address and predicate;
//! here they are two instructions of one thread. **Measured** (H200, run
//! 54, call D, bf16, `docs/PERF.md`): 0.9-2.6% faster at M = 64 on every
//! benchmark shape (28672 x 8192: 71.46 µs against 73.37) and 1.7-2.9% at
//! M = 128. Predicted 8-11% from a probe with no activation copies at all
//! (call B: 9-12%); but that probe also took the activations' 16 KB a
//! step and block off the L2, the same bytes for every block, and those,
//! not the copies' instructions, are the likely rest (not measured apart).
//!
//! Shared memory: version 12's ring of `STAGES` stages, each version 18's
//! codes and activations (layout in `v18.rs`) followed by the step's group
//! constants, then the barriers. Launch: grid `(ceil(n / BLOCK_N),
//! min(ceil(m / BLOCK_M), MAX_GRID_Y), splits)`, exactly `BLOCK_THREADS`
//! (512) threads, `SHARED_BYTES` of dynamic shared memory. In the `sm_80`
//! PTX the entry points trap.

use super::GroupParams;
use super::mma_tile::{TileOutput, TiledGemm, linear_tiled, linear_tiled_split_k, tensor_map_entry_points};
use super::v10::wgmma_tile;
use crate::float::Bf16;
use crate::tma::{TensorMap, TensorMapAddress, tensor_map_address};
use crate::wgmma::WgmmaHalf;
use core::ops::Range;

/// Version 19's main loop: version 12's (`v12::hopper::pipeline`) on the
/// 64-row tile, fed by [`hopper::TensorMapActivations`].
pub(super) struct V19;

wgmma_tile!(V19, v19);

tensor_map_entry_points! {
    V19, x: int4_linear_v19_f16, int4_linear_v19_bf16;
    split_k: int4_linear_v19_split_k_f16, int4_linear_v19_split_k_bf16
}

impl TiledGemm for V19 {
    type Activations<T: WgmmaHalf> = TensorMapAddress;
    type Codes = *const u32;

    #[inline(always)]
    unsafe fn sum_tiles<T: WgmmaHalf>(
        x: TensorMapAddress,
        qweight: *const u32,
        groups: GroupParams,
        dims: (usize, usize, usize),
        steps: Range<usize>,
        out: impl TileOutput<T>,
    ) {
        #[cfg(target_feature = "sm_90a")]
        // SAFETY: forwarded from the caller.
        unsafe {
            let feed = hopper::TensorMapActivations { map: x, qweight };
            super::v12::hopper::pipeline::<T, _, Self, 2, 32>(feed, groups, dims, steps, out)
        };
        #[cfg(not(target_feature = "sm_90a"))]
        super::v10::sm90a_only((x, qweight, groups, dims, steps, out));
    }
}

#[cfg(target_feature = "sm_90a")]
mod hopper {
    use crate::int4_linear::v10::WgmmaTile;
    use crate::int4_linear::v12::hopper::{Feed, Ring};
    use crate::tma::{self, TensorMapAddress};
    use quant_kernels_abi::int4_linear::v19::{
        ACTIVATION_BYTES_PER_STAGE, ACTIVATION_HALF_BYTES, BLOCK_M, CODE_BYTES_PER_STAGE, STEP_K, TMA_BOX_COLUMNS,
        TMA_BOX_ROWS,
    };

    /// Version 19's feed: producer thread 0 copies each step's activations
    /// with the TMA unit, and the producer threads copy the codes from
    /// `qweight`.
    pub(super) struct TensorMapActivations {
        pub(super) map: TensorMapAddress,
        pub(super) qweight: *const u32,
    }

    impl<T> Feed<T> for TensorMapActivations {
        /// Both halves of the stage's activations (a box's bytes count in
        /// full, its zero fill too).
        const LOADED_BYTES: u32 = ACTIVATION_BYTES_PER_STAGE as u32;

        fn copied_x(&self) -> Option<*const T> {
            None
        }
        fn copied_codes(&self) -> Option<*const u32> {
            Some(self.qweight)
        }

        #[inline(always)]
        unsafe fn load<S: WgmmaTile>(&self, ring: &Ring<S>, fill: u32, i: usize, first: (usize, usize), thread: usize) {
            // Version 19's ring: the box the host encodes is its.
            const { assert!(S::BLOCK_M == BLOCK_M && TMA_BOX_ROWS == BLOCK_M) };
            if thread != 0 {
                return;
            }
            for half in 0..2 {
                let destination = ring.stage(fill) + (CODE_BYTES_PER_STAGE + ACTIVATION_HALF_BYTES * half) as u32;
                let column = STEP_K * i + TMA_BOX_COLUMNS * half;
                // SAFETY: the stage is free (the caller's wait on `empty`),
                // its halves 1024-byte aligned; the step's full barrier,
                // which expects LOADED_BYTES more. Coordinates fit in i32:
                // the host refuses m and k past that.
                unsafe { tma::load_2d(destination, self.map, (column as i32, first.1 as i32), ring.full(fill)) };
            }
        }
    }
}
