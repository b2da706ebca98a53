//! Version 13 (`sm_90a` only): version 12 in clusters of two blocks along
//! `n` that share their activations. Shapes from
//! `quant_kernels_abi::int4_linear::v13`.
//!
//! Run 15's `ncu` of version 12 (1024x8192x28672) found L2 72% busy and
//! DRAM 11%: each block copies its tile's activations (32 KB a step) and
//! codes (16 KB), so the activations cross L2 `n / 256` times, two thirds
//! of its traffic. Here the two blocks of a cluster, which take
//! neighbouring weight rows and the same activation rows, split each
//! stage's activations: the producer of rank `r` copies rows `64 r .. 64 r
//! + 64` of both halves of the stage with the TMA unit
//! ([`crate::tma`]), which writes them into the stage of both blocks
//! (multicast). The activations then cross L2 once a cluster: a third less
//! traffic a step. The TMA writes the 128-byte swizzle that version 10's
//! layout already has, and zeros past `m` and `k`. The producers store the
//! constants, as in version 12 ([`super::v12`]'s pipeline). From run 57
//! the codes come as version 23's do (`v23::TensorMapGemm`, on a cluster
//! of `CLUSTER`): producer thread 0 copies a step's 16 KB with one TMA
//! copy of version 23's map of them; before, every producer thread issued
//! four `cp.async` of 16 bytes a step. Measured (H200, run 57 call A,
//! bf16, cold, three rounds): 3.0-3.1% faster at 128 x 28672 x 8192 and
//! 128 x 8192 x 28672, 4.8% at 128 x 11008 x 4096, 7.1% at 128 x 4096 x
//! 4096, 1.8% at 128 x 4096 x 11008; 2.2-4.6% at M = 256 but 8192 x
//! 28672 (3.5% faster to 1.8% slower between rounds).
//!
//! **At G = 128** (run 58) the host launches the `_g128_` entry points
//! (`V13G128`), whose group size is 128 whatever the argument: they take
//! the layer's packed constants as version 23 does (producer thread 0
//! copies a step's 256 rows of them with one bulk copy, the other producer
//! threads stop, the consumers read a row's constants once a step). The
//! G-generic entry points keep the producers' slots: their 128
//! accumulators a thread leave no room for both kinds of consumer loop in
//! one entry point (see `v12::hopper::pipeline`). Measured (H200, run 58
//! call B, bf16, symmetric, cold, two rounds): 2.7% faster at 128 x 28672
//! x 8192 (92.0 against 94.6 µs), 3.0% at 128 x 8192 x 28672, 2.9% at
//! 128 x 4096 x 11008, 0.4-0.5% at the two other shapes; 0.5-2.6% at M =
//! 256. Version 12's (the same loop without the cluster) gained 7-9% on
//! the two largest shapes and came out faster than version 13's (89.1
//! against 92.0 µs at 128 x 28672 x 8192).
//!
//! **Barriers.** A stage's `full` barrier completes when the block's own
//! producer arrivals are in (version 12's) and the 32 KB of activations
//! and 16 KB of codes have landed: producer thread 0 makes its second
//! arrival with `expect_tx` of those bytes, which the copies count down as
//! they land, in either order. A block's copy writes into both blocks'
//! stages, so `empty[s]` completes only when both blocks are done with
//! stage `s`: every consumer thread of the block arrives (version 12's
//! release, which orders all lanes' reads of the codes and constants
//! before the producers refill them), and so does lane 0 of each consumer
//! warp of the other block (`CONSUMER_THREADS + 8` arrivals a phase). The
//! other block writes only the stage's activations, which only the MMAs
//! read, and each warp's lane 0 arrives after that warp has waited for
//! them, so one lane a warp suffices there. It arrives a chunk of MMAs
//! after the thread's own arrival: in the same chunk, ptxas waited for
//! each warpgroup MMA before the next (C7513, printed only with `-v`; run
//! 16 measured such a build 16% slower). The arrivals keep the default
//! `.release.cta` semantics: at cluster scope ptxas adds a GPU-wide fence
//! to each. The cluster meets (`barrier.cluster`) after the barriers are
//! initialized, and again before any block exits, since the other may
//! still arrive on its barriers.
//!
//! **Measured** (H100, run 17, bf16, cold, `docs/PERF.md`): 857 and 935
//! µs at 1024x8192x28672 and 1024x28672x8192 against version 12's 974 and
//! 1042 in the same call (1.11-1.14x), 1.13x at 8192x28672x8192 and
//! 1.04-1.29x at M = 128; racecheck, memcheck and synccheck clean on
//! every int4 test. The library chooses it on the H100 past 64 rows (run 23;
//! past 48 before version 18).
//! Run 16's forms: lane 0 alone freeing the stage in both blocks was as
//! fast but raced (the other lanes' reads of the codes and constants
//! were not ordered before the refill); producer thread 0 passing the
//! release to the other block was 1.1-1.4x slower than version 12 (one
//! more hop each step, and at cluster scope `MEMBAR.ALL.GPU` and
//! `CCTL.IVALL` on that thread's path).
//!
//! **The tensor map** is the first argument, in place of `x`'s address
//! (the host encodes it: rows of `k` elements, `m` rows, box 64 x 64,
//! 128-byte swizzle), and stays in the parameter space, where the TMA unit
//! reads it ([`crate::tma::tensor_map_address!`]).
//!
//! Launch: grid `(ceil(n / BLOCK_N) rounded up to a multiple of CLUSTER,
//! min(ceil(m / BLOCK_M), MAX_GRID_Y), splits)` (the PTX entry fixes the
//! cluster shape; a block past `n` still copies its share of the
//! activations), exactly `BLOCK_THREADS` (512) threads, `SHARED_BYTES` of
//! dynamic shared memory. In the `sm_80` PTX the entry points trap.

use super::mma_tile::{linear_tiled, linear_tiled_split_k, tensor_map_entry_points};
use super::v10::wgmma_tile;
use super::v23::TensorMapGemm;
use crate::float::Bf16;
use crate::tma::{TensorMap, tensor_map_address};
use quant_kernels_abi::int4_linear::v13::CLUSTER;

/// Version 13's main loop (launch shape above): version 23's
/// (`v23::TensorMapGemm`) on 128 activation rows in clusters of `CLUSTER`
/// blocks, one weight row's constants a producer thread.
pub(super) type V13 = TensorMapGemm<64, 1, CLUSTER>;

wgmma_tile!(V13, v13, windows on short rows);

tensor_map_entry_points! {
    V13: int4_linear_v13_f16, int4_linear_v13_bf16;
    split_k: int4_linear_v13_split_k_f16, int4_linear_v13_split_k_bf16
}

/// Version 13's main loop at G = 128 alone (its `_g128_` entry points):
/// the layer's packed constants, as version 23 reads them.
pub(super) type V13G128 = TensorMapGemm<64, 1, CLUSTER, true>;

wgmma_tile!(V13G128, v13, windows on short rows);

tensor_map_entry_points! {
    V13G128: int4_linear_v13_g128_f16, int4_linear_v13_g128_bf16;
    split_k: int4_linear_v13_split_k_g128_f16, int4_linear_v13_split_k_g128_bf16
}

#[cfg(target_feature = "sm_90a")]
pub(super) mod hopper {
    use crate::cluster;
    use crate::int4_linear::v10::WgmmaTile;
    use crate::int4_linear::v12::hopper::Ring;
    use crate::tma::{self, TensorMapAddress};
    use quant_kernels_abi::int4_linear::v13::{STEP_K, TMA_BOX_COLUMNS};

    /// The activations of a tile of `2 * ACC` rows, copied by the TMA unit
    /// from the tensor map of `x`: each block of a cluster of `CLUSTER`
    /// copies its rank's `2 * ACC / CLUSTER` rows into every block of it
    /// (into its own with a cluster of one). Versions 12, 13, 19, 23 and 24.
    pub(in crate::int4_linear) struct ActivationBoxes<const ACC: usize, const CLUSTER: usize> {
        map: TensorMapAddress,
        rank: u32,
    }

    impl<const ACC: usize, const CLUSTER: usize> ActivationBoxes<ACC, CLUSTER> {
        /// Both halves of a stage's activations (256 bytes a row), whichever
        /// block copied them (a box's bytes count in full, its zero fill too).
        pub(in crate::int4_linear) const BYTES: u32 = (2 * ACC * 2 * STEP_K) as u32;

        #[inline(always)]
        pub(in crate::int4_linear) fn new(map: TensorMapAddress) -> Self {
            Self { map, rank: if CLUSTER > 1 { cluster::rank() } else { 0 } }
        }

        /// This block's rank in its cluster.
        #[inline(always)]
        pub(in crate::int4_linear) fn rank(&self) -> u32 {
            self.rank
        }

        /// Copies step `i`'s activations of the tile from row `first_m` into
        /// stage `fill` of every block of the cluster, completing
        /// [`Self::BYTES`] on each block's `full` barrier. One thread a block.
        ///
        /// # Safety
        /// The stage is free in every block of the cluster; `map` is the
        /// host's map of `x` with the box of this tile (a whole number of
        /// 8-row swizzle atoms a rank).
        #[inline(always)]
        pub(in crate::int4_linear) unsafe fn copy<S: WgmmaTile>(&self, ring: &Ring<S>, fill: u32, i: usize, first_m: usize) {
            let box_rows = 2 * ACC / CLUSTER;
            const { assert!(S::BLOCK_M == 2 * ACC && (2 * ACC / CLUSTER) % 8 == 0 && 2 * TMA_BOX_COLUMNS == STEP_K) };
            let every_block = (1u16 << CLUSTER) - 1;
            let rows = box_rows as u32 * self.rank;
            for half in 0..2 {
                let destination =
                    ring.stage(fill) + (S::CODE_BYTES_PER_STAGE + S::ACTIVATION_HALF_BYTES * half) as u32 + 128 * rows;
                let coordinates = ((STEP_K * i + TMA_BOX_COLUMNS * half) as i32, (first_m as u32 + rows) as i32);
                // SAFETY: the stage is free in every block (the caller's),
                // its activation rows at the same offsets in each, 1024-byte
                // aligned (rows a multiple of 8); the step's full barrier.
                // Coordinates fit in i32: the host refuses m and k past that.
                unsafe {
                    if CLUSTER > 1 {
                        tma::load_2d_multicast(destination, self.map, coordinates, ring.full(fill), every_block)
                    } else {
                        tma::load_2d(destination, self.map, coordinates, ring.full(fill))
                    }
                };
            }
        }
    }
}
