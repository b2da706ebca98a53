//! Version 23 (`sm_90a` only): version 22 ([`super::v22`]) with each
//! stage's codes copied by the TMA unit. Shapes from
//! `quant_kernels_abi::int4_linear::v23`.
//!
//! **Why.** At M = 16 version 22's step is set by its producers, not by its
//! MMA warpgroups: in run 28's probes (call A) dropping the consumers'
//! scale multiply (64 of their 370 instructions a step) took 0-2% off,
//! while dropping the producers' code copies took 9-21% off (that probe
//! also read no codes from memory, so it bounds what is to be had). Each
//! producer thread copied four 16-byte chunks of codes a step with
//! `cp.async`, each with its address, its bounds and its predicate; here
//! producer thread 0 issues one 3-D TMA copy of the step's 16 KB instead.
//!
//! **Measured** (H100, run 28, bf16, cold, `docs/PERF.md`): at M = 16
//! 1.02-1.06x faster than version 22 on 4096 x 4096 (split 8), 11008 x
//! 4096 (split 3), 4096 x 11008 (split 8) and 28672 x 8192 (55.4 µs
//! against 59.1), with 6% fewer instructions; 1.03x slower at 8192 x
//! 28672 split 4 (1.09x with zero points), where `ncu` found the
//! producers' loads of the constants waiting longer. The library's choice
//! from 9 to 16 rows where `k` is at most 16384.
//!
//! From run 48 its producers read the group constants of symmetric layers
//! a window of 8 steps at a time on rows up to `k` = 8192 too (`windows on
//! short rows`), as version 13's do: 7.8% faster at 16 x 28672 x 8192
//! (53.53 to 49.35 µs), 0.2% slower at 16 x 11008 x 4096 split 3 and 4.2%
//! at 16 x 4096 x 4096 split 8, where the library takes version 17
//! (`docs/PERF.md`, run 48, call E). Run 33 had measured them 4-5% slower
//! on that tile. Version 22's producers keep the scalar loads: with
//! windows its split entry points spilled 4 bytes and its split calls ran
//! 0.9-5.7% slower.
//!
//! **The tensor maps.** The second argument, in place of `qweight`'s
//! address, is a map of the banded codes as a 3-D array of words (ABI
//! `v23` has the view and the box), 64-byte swizzle. A band's step is 16
//! rows of 64 bytes at once in global memory, so the box of a step (16
//! words x 16 rows x 16 bands) lands as weight row `r` of the block at
//! byte `64 r`, and the swizzle puts its 16-byte chunk `c` at `+ 16 (c ^
//! ((r >> 1) % 4))`: version 10's layout, which the consumers read as
//! before. Bands past the last are written as zeros (their rows are never
//! stored), and rows past `n` in the last band read its padding, as every
//! version's copies of whole bands may. From run 55 the first argument is
//! a map of `x` too, as for versions 13 and 19: two boxes of 64 columns x
//! the tile's rows a step (ABI `TMA_BOX_*`), 128-byte swizzle, rows past
//! `m` and columns past `k` filled with zeros.
//!
//! **Measured, TMA activations** (H200, run 55 call A, bf16, cold, three
//! rounds): 3.5% faster at 16 x 28672 x 8192 (46.5 µs against 48.2; 4.0%
//! with zero points), 3-4% at 16 x 8192 x 28672 split 4, 1.4-3.6% for
//! version 24 at M = 32 on four shapes (32 x 28672 x 8192: 59.0 against
//! 61.3), 0.4% slower at 32 x 4096 x 4096 and 4.6% at 16 x 4096 x 11008
//! split 8 with zero points (15.96 against 15.25), where the library
//! takes version 22. Before, the producer threads copied the activations
//! with `cp.async`, 16 bytes each at a time.
//!
//! **Constants** (run 56): at G = 128 the host passes the layer's packed
//! constants for `T` in the scales' place
//! (`quant_kernels_abi::int4::packed_constants`, converted at load time),
//! and producer thread 0 brings a step's 256 rows with one bulk copy
//! beside its TMA copies; the other producer threads give their
//! registers back and stop, and the consumers read 4 bytes a row (the
//! offset's splat folded into an operand selector). Measured (H200, run
//! 56 call A, bf16, cold, three rounds): 6% faster at 16 x 28672 x
//! 8192 and 16 x 8192 x 28672 split 4 (9-12% with zero points), 4% at
//! 16 x 4096 x 11008 split 8 (17% with zero points: both modes now read
//! the same words), 5.3% for version 24 at 32 x 28672 x 8192, 2.3% at
//! 32 x 8192 x 28672 and 32 x 4096 x 11008; 1.8-3.2% slower at 11008 x 4096
//! (16 and 32 rows) and 0.6% at 32 x 4096 x 4096, where the words doubled
//! the bytes of a symmetric layer's constants (3% of the call's bytes).
//! From run 57 a symmetric layer's packed constants are the scales alone
//! (2 bytes a row, a 512-byte copy a step; the consumers' offset a
//! constant, in a loop of their own). Measured (H200, run 57 call C,
//! two rounds): symmetric 1.0-1.5% faster at 16 rows but 28672 x 8192
//! (0%), 0.6-3.3% for version 24 at 32 rows (11008 x 4096: 15.28 against
//! 15.71), -1.2 to +0.6% for version 19 at 64 rows; with zero points
//! (the same words) -0.6 to +1.5% (16 x 28672 x 8192). One loop with a
//! branch a step on the form was 1-10% slower everywhere (call B). At
//! other group sizes the producer threads load, convert and store the
//! constants as below.
//!
//! **Barriers.** A stage's `full` barrier completes when the producer
//! threads' two arrivals each are in (the second after storing their
//! constants: version 12's; at G = 128 producer thread 0's two alone)
//! and the codes, activations (and packed constants) have landed:
//! producer thread 0 makes its second arrival with `expect_tx` of those
//! bytes. It issues the copies after waiting for the stage's `empty`
//! phase, which every consumer thread reaches only after its reads of the
//! stage.
//!
//! Launch: grid `(ceil(n / BLOCK_N), min(ceil(m / BLOCK_M), MAX_GRID_Y),
//! splits)`, exactly `BLOCK_THREADS` (512) threads, `SHARED_BYTES` of
//! dynamic shared memory. In the `sm_80` PTX the entry points trap.

use super::GroupParams;
use super::mma_tile::{TileOutput, TiledGemm, linear_tiled, linear_tiled_split_k, tensor_map_entry_points};
use super::v10::{WgmmaTile, wgmma_tile};
use crate::float::Bf16;
use crate::tma::{TensorMap, TensorMapAddress, tensor_map_address};
use crate::wgmma::WgmmaHalf;
use core::ops::Range;

/// The main loop of versions 12, 13, 19, 23 and 24: version 12's
/// (`v12::hopper::pipeline`) fed by [`hopper::TensorMapCopies`], two MMA
/// tiles of 64 weight rows a warpgroup with `ACC` accumulators a thread and
/// tile (8: version 22's 16 activation rows, by `mma.sync`; 16: version
/// 24's 32, by `mma.sync`; 32: version 19's 64, and 64: versions 12 and
/// 13's 128, by `wgmma`), and `ROWS`
/// weight rows' constants a producer thread where `G` is not 128 (see
/// `pipeline`). With `G128` (versions 12 and 13's `_g128_` entry points,
/// which the host launches at G = 128 alone) the group size is 128 whatever
/// the argument, so that the pipeline compiles its one-group loops alone,
/// which 128 accumulators a thread leave room for one way of at a time.
pub(super) struct TensorMapGemm<const ACC: usize, const ROWS: usize, const CLUSTER: usize, const G128: bool = false>;

/// Version 23's main loop (launch shape above).
pub(super) type V23 = TensorMapGemm<8, 1, 1>;

wgmma_tile!(V23, v23, windows on short rows);

tensor_map_entry_points! {
    V23: int4_linear_v23_f16, int4_linear_v23_bf16;
    split_k: int4_linear_v23_split_k_f16, int4_linear_v23_split_k_bf16
}

impl<const ACC: usize, const ROWS: usize, const CLUSTER: usize, const G128: bool> TiledGemm
    for TensorMapGemm<ACC, ROWS, CLUSTER, G128>
where
    Self: WgmmaTile,
{
    type Activations<T: WgmmaHalf> = TensorMapAddress;
    type Codes = TensorMapAddress;

    #[inline(always)]
    unsafe fn sum_tiles<T: WgmmaHalf>(
        x: TensorMapAddress,
        qweight: TensorMapAddress,
        groups: GroupParams,
        dims: (usize, usize, usize),
        steps: Range<usize>,
        out: impl TileOutput<T>,
    ) {
        #[cfg(target_feature = "sm_90a")]
        // SAFETY: forwarded from the caller.
        unsafe {
            use quant_kernels_abi::int4::packed_constants;
            let x = super::v13::hopper::ActivationBoxes::new(x);
            let feed = hopper::TensorMapCopies::<ACC, CLUSTER> { x, codes: qweight };
            let groups = match G128 {
                true => GroupParams::new(groups.scales, groups.zeros, dims.2, packed_constants::GROUP_SIZE as u32),
                false => groups,
            };
            super::v12::hopper::pipeline::<T, _, Self, 2, ACC, ROWS, G128>(feed, groups, dims, steps, out)
        };
        #[cfg(not(target_feature = "sm_90a"))]
        super::v10::sm90a_only((x, qweight, groups, dims, steps, out));
    }
}

#[cfg(target_feature = "sm_90a")]
mod hopper {
    use crate::cluster;
    use crate::device::{lane_id, sync_threads};
    use crate::int4_linear::v10::WgmmaTile;
    use crate::int4_linear::v12::hopper::{Feed, FirstStep, Ring};
    use crate::int4_linear::v13::hopper::ActivationBoxes;
    use crate::mbarrier;
    use crate::tma::{self, TensorMapAddress};
    use core::num::NonZeroU32;
    use quant_kernels_abi::int4_linear::v12::CONSUMER_THREADS;
    use quant_kernels_abi::int4::BAND_ROWS;
    use quant_kernels_abi::int4_linear::v23::{BLOCK_N, CODE_BYTES_PER_STAGE};

    /// Version 23's feed (and that of versions 19 and 24, whose tiles have
    /// the same 256 weight rows): producer thread 0 copies each step's codes and the
    /// activations of a tile of `2 * ACC` rows ([`ActivationBoxes`]) with
    /// the TMA unit.
    pub(super) struct TensorMapCopies<const ACC: usize, const CLUSTER: usize> {
        pub(super) x: ActivationBoxes<ACC, CLUSTER>,
        pub(super) codes: TensorMapAddress,
    }

    impl<T, const ACC: usize, const CLUSTER: usize> Feed<T> for TensorMapCopies<ACC, CLUSTER> {
        /// The codes' box and the activations' two.
        const LOADED_BYTES: u32 = CODE_BYTES_PER_STAGE as u32 + ActivationBoxes::<ACC, CLUSTER>::BYTES;
        const PACKED_CONSTANTS: bool = true;
        /// Each consumer warp of the other blocks of the cluster.
        const PEER_RELEASES: u32 = (CLUSTER - 1) as u32 * CONSUMER_THREADS as u32 / 32;
        const CLUSTER: NonZeroU32 = NonZeroU32::new(CLUSTER as u32).unwrap();

        fn meet(&self) {
            if CLUSTER > 1 { cluster::sync() } else { sync_threads() }
        }

        /// The other blocks may still arrive on this one's `empty`.
        fn finish(&self) {
            if CLUSTER > 1 {
                cluster::sync();
            }
        }

        /// Lane 0 of each consumer warp tells the other blocks (version
        /// 13's cluster). Their copies into this stage overwrite only its
        /// activations, which only the MMAs read, and the caller has waited
        /// for this warp's.
        #[inline(always)]
        unsafe fn release_peers<S: WgmmaTile>(&self, ring: &Ring<S>, fill: u32) {
            if CLUSTER == 1 || lane_id() != 0 {
                return;
            }
            for rank in 0..CLUSTER as u32 {
                if rank != self.x.rank() {
                    // SAFETY: the same barrier in each block of the cluster,
                    // which meets before any block exits.
                    unsafe { mbarrier::arrive_remote(cluster::peer_address(ring.empty(fill), rank)) };
                }
            }
        }

        fn copied_x(&self) -> Option<*const T> {
            None
        }
        fn copied_codes(&self) -> Option<*const u32> {
            None
        }

        #[inline(always)]
        unsafe fn prefetch_codes<S: WgmmaTile>(&self, first: &FirstStep, _: (usize, usize)) {
            // SAFETY: the kernel's map of the codes (see `load`).
            unsafe { first.code_box(self.codes) };
        }

        #[inline(always)]
        unsafe fn load<S: WgmmaTile>(&self, ring: &Ring<S>, fill: u32, i: usize, first: (usize, usize), thread: usize) {
            // Version 23's ring (or version 24's, with the same codes a
            // stage): the box the host encodes is its.
            const { assert!(S::BLOCK_N == BLOCK_N && S::CODE_BYTES_PER_STAGE == CODE_BYTES_PER_STAGE) };
            if thread != 0 {
                return;
            }
            let band = first.0 / BAND_ROWS;
            // SAFETY (both): the stage is free (the caller's wait on
            // `empty`), its codes at its start, 1024-byte aligned, its
            // activations after them; the step's full barrier, which
            // expects LOADED_BYTES more; the host's maps with these boxes.
            // Coordinates fit in i32: the host refuses maps past that.
            unsafe {
                tma::load_3d(ring.stage(fill), self.codes, (0, (BAND_ROWS * i) as i32, band as i32), ring.full(fill));
                self.x.copy(ring, fill, i, first.1);
            }
        }
    }
}
