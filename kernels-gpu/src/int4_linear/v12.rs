//! Version 12 (`sm_90a` only): version 10's tile and MMAs, with the copies
//! taken off the MMA warps. Shapes from `quant_kernels_abi::int4_linear::v12`.
//!
//! **From run 58** version 12 is fed as version 13 is, without its
//! cluster: `v23::TensorMapGemm<64, 1, 1>`, producer thread 0 copying a
//! step's codes and activations with the TMA unit (two tensor maps, its
//! first two arguments). Measured (H200, run 58 call A, bf16, symmetric,
//! G = 128, cold, two rounds): 3.2-13.7% faster than with the producers'
//! `cp.async` copies at M = 128 and 256 on the five benchmark shapes
//! (128 x 8192 x 28672 split 4: 94.5 against 109.6 µs), and against
//! version 13 2.8-4.6% faster in the split calls at 128 x 4096 x 4096,
//! 128 x 11008 x 4096 and 128 x 4096 x 11008, 1.3-2.2% slower on the two
//! largest shapes. What this file describes below, the producers copying
//! both with `cp.async` (`CopiedStages`), is now version 22's feed.
//!
//! Run 14's `ncu` of version 10 (1024x8192x28672) found the tensor pipe 46%
//! busy and its warps stalled, per instruction issued, 0.9 cycles at the
//! block barrier every step and 1.0 on global loads (the group constants),
//! besides the copies' own instructions. Here two more warpgroups, the
//! producers, do all of that: they copy each step's codes and activations
//! with `cp.async` and convert and store its group constants, while the
//! two MMA warpgroups (the consumers) only dequantize and multiply. They
//! meet through a pair of mbarriers a stage ([`crate::mbarrier`]) instead
//! of the whole block meeting every step:
//! - `full[s]` completes when the producer's copies into stage `s` have
//!   landed (one arrival a producer thread, made by the hardware:
//!   `cp.async.mbarrier.arrive.noinc`) and its constants are stored (one
//!   more arrival a producer thread);
//! - `empty[s]` completes when every consumer thread has seen the MMAs that
//!   read stage `s` complete (it arrives after the first chunk of the next
//!   step, whose `wgmma.wait` leaves only that chunk's MMAs pending).
//!
//! The producers, the consumers and the ring are `hopper::pipeline`,
//! which versions 12, 13, 19 and 22 to 24 share: what differs (how the
//! activations and codes reach a stage) is a `hopper::Feed`; version 22's
//! copies them both. The pipeline is generic over the tile (`WgmmaTile`):
//! version 19 runs it with version 18's 64-row tile.
//!
//! Every stage of the ring can be in flight at once (version 10 keeps
//! `STAGES - 2`), and the producer runs into the next activation tile while
//! the consumers store the last one's outputs.
//!
//! **Epilogue.** Where `y` is 16-byte aligned and `n` a multiple of 8, the
//! consumers store a tile through the stage of its last step, which they
//! free only after (`empty` then waits for the stores' reads of it; in
//! version 13 the other block's release too, since its producer writes the
//! stage's activations): each warpgroup writes its outputs there with the
//! bias, rounded, and stores `y` in whole 128-byte lines
//! (`v10::hopper::Lane::store_lines`; run 38: 2-9% faster than an output a
//! store at M = 16-8192). Elsewhere, and into split-K's workspace, each
//! output is stored on its own (`store_tiles`). Use `u` of stage `s` (the
//! block's step `STAGES u + s`, counted across its tiles) waits for phase
//! parity `u % 2` of `full[s]`; the producer waits for parity `(u - 1) %
//! 2` of `empty[s]` (the consumers' release of use `u - 1`; for `u = 0`
//! that is parity 1, which passes at once).
//!
//! **Registers.** 512 threads a block leave 128 registers a thread at launch
//! (`.maxntid`, set by the PTX build); the producer warpgroups give up all
//! but `PRODUCER_REGISTERS` (56, `setmaxnreg.dec`) and the consumers take
//! `CONSUMER_REGISTERS` (200, `setmaxnreg.inc`), which version 10's
//! accumulators and fragments need (ptxas keeps the main loop of each in
//! registers; a few values a tile, and two a producer step, go to the stack).
//!
//! **Shared memory.** The ring starts at a 1024-byte boundary; stage `s` at
//! `s * (STAGE_BYTES + PARAM_BYTES)` holds version 10's codes and
//! activations (layout in `v10.rs`), then that step's group constants
//! (version 10's buffer layout). After the ring, `full[0..STAGES]` and
//! `empty[0..STAGES]`, 8 bytes each.
//!
//! **Copies.** Producer thread `p` (of 256) copies code chunks `(p / 4 + 64
//! j, p % 4)` and activation chunks `(p / 16 + 16 j, p % 16)`, as version
//! 10's threads do, and stores the constants of weight row `p`: loaded
//! step by step, or, in versions 13, 22 and 23, at G = 128 with zero
//! points or rows past 64 groups 8 steps at a time, a window ahead
//! (`v10::hopper::ConstantWindows`; run 33: version 23 at M = 16 on 8192
//! x 28672 18% faster with zero points, 6% without; 1% slower at 28672 x
//! 8192 without them, whose loads stay a step each, for the branch between
//! the two). Versions 12 and 19 keep the step-by-step loads alone: with
//! both ways in their loop ptxas spilled in their producers and they ran
//! 5-42% slower (run 34). A single
//! producer warpgroup (each thread twice that) measured 8-14% slower: one
//! warp a scheduler was too few to issue a step's copies and constants in
//! the time the consumers take for it. Edges, error and epilogue as in
//! version 10.
//!
//! **Tile order.** A block's tiles are not `(blockIdx.x, blockIdx.y)` but
//! those of `quant_kernels_abi::int4_linear::tile_order` (`TileOrigin`):
//! the blocks walk groups of 8 activation tiles, so that a wave shares its
//! weight tiles in L2 instead of reading the whole matrix. On the H100
//! (docs/PERF.md, run 36) version 13 took 7-11% off 28672 x 8192 from M =
//! 256 to 8192, 4% off 8192 x 28672 and 1.5-2.6% off the other shapes, in
//! two sittings. Where a grid holds one activation tile (M up to a tile,
//! and every split call) the walk changes nothing, but versions 19 and 23
//! measured 1-2% slower there with it (run 36, calls D and E): not yet
//! explained, as their loops' SASS is the same length as before, and
//! reading their tiles as launched again did not win it back (run 37).
//!
//! Launch: grid `(ceil(n / BLOCK_N), min(ceil(m / BLOCK_M), MAX_GRID_Y),
//! splits)`, exactly `BLOCK_THREADS` (512) threads, `SHARED_BYTES` of
//! dynamic shared memory. In the `sm_80` PTX the entry points trap.

use super::GroupParams;
use super::mma_tile::{TileOutput, TiledGemm, linear_tiled, linear_tiled_split_k, tensor_map_entry_points};
use super::v10::{WgmmaTile, wgmma_tile};
use crate::float::Bf16;
use crate::tma::{TensorMap, tensor_map_address};
use crate::wgmma::WgmmaHalf;
use core::ops::Range;

/// The producer-consumer main loop of version 22 (`hopper::pipeline`
/// with the producers copying the activations): `TILES` MMA tiles of 64
/// weight rows a warpgroup, `ACC` accumulators a thread and tile, as
/// [`super::v10::WarpgroupGemm`]; its other constants come from
/// `WgmmaTile`.
pub(super) struct ProducerConsumer<const TILES: usize, const ACC: usize>;

/// Version 12's main loop (launch shape above), on version 23's feed
/// (`v23::TensorMapGemm`) with a cluster of one: version 13 without the
/// shared activations.
pub(super) type V12 = super::v23::TensorMapGemm<64, 1, 1>;

wgmma_tile!(V12, v12);

tensor_map_entry_points! {
    V12: int4_linear_v12_f16, int4_linear_v12_bf16;
    split_k: int4_linear_v12_split_k_f16, int4_linear_v12_split_k_bf16
}

/// Version 12's main loop at G = 128 alone (its `_g128_` entry points):
/// the layer's packed constants, as version 23 reads them.
pub(super) type V12G128 = super::v23::TensorMapGemm<64, 1, 1, true>;

wgmma_tile!(V12G128, v12);

tensor_map_entry_points! {
    V12G128: int4_linear_v12_g128_f16, int4_linear_v12_g128_bf16;
    split_k: int4_linear_v12_split_k_g128_f16, int4_linear_v12_split_k_g128_bf16
}

impl<const TILES: usize, const ACC: usize> TiledGemm for ProducerConsumer<TILES, ACC>
where
    Self: WgmmaTile,
{
    type Activations<T: WgmmaHalf> = *const T;
    type Codes = *const u32;

    #[inline(always)]
    unsafe fn sum_tiles<T: WgmmaHalf>(
        x: Self::Activations<T>,
        qweight: *const u32,
        groups: GroupParams,
        dims: (usize, usize, usize),
        steps: Range<usize>,
        out: impl TileOutput<T>,
    ) {
        #[cfg(target_feature = "sm_90a")]
        // SAFETY: forwarded from the caller.
        unsafe {
            hopper::pipeline::<T, _, Self, TILES, ACC, 1, false>(hopper::CopiedStages { x, qweight }, groups, dims, steps, out)
        };
        #[cfg(not(target_feature = "sm_90a"))]
        super::v10::sm90a_only((x, qweight, groups, dims, steps, out));
    }
}

#[cfg(target_feature = "sm_90a")]
pub(super) mod hopper {
    use super::GroupParams;
    use crate::async_copy::{self, dynamic_shared_address};
    use crate::device::{sync_threads, thread_idx_x};
    use crate::grid_dependency::begin_after_previous_grid;
    use crate::int4_linear::mma_tile::{TileOrigin, TileOutput};
    use crate::int4_linear::v10::WgmmaTile;
    use crate::int4_linear::v10::hopper::{
        ConstantForm, ConstantWindows, Lane, StepGroups, mma_step, stage_copies, store_constants, sync_mma,
    };
    use crate::mbarrier;
    use crate::tma::{self, TensorMapAddress, prefetch_3d_l2, prefetch_bulk_l2};
    use crate::wgmma::{self, WgmmaHalf, set_max_registers};
    use core::array::from_fn;
    use core::marker::PhantomData;
    use core::num::NonZeroU32;
    use core::ops::Range;
    // The same in every producer-consumer version (`producer_consumer_loop!`).
    use quant_kernels_abi::int4::packed_constants::{PACKED_CONSTANT_ROWS, halves_per_row, index, padded_rows};
    use quant_kernels_abi::int4::{BAND_ROWS, STEP_WORDS, row_start};
    use quant_kernels_abi::int4_linear::v12::{
        BLOCK_THREADS, CONSUMER_REGISTERS, CONSUMER_THREADS, GROUPS_PER_STEP, PRODUCER_REGISTERS, PRODUCER_THREADS,
        RING_ALIGN,
    };

    /// What a block's first step reads of the weights, which its producer
    /// threads ask the L2 for before the previous grid ends: the step's
    /// codes, and the group constants of the tile's rows. Their first
    /// copies after the wait then come from the L2, not the DRAM, as the
    /// decode GEMV's do (`v5.rs`). The activations may be the previous
    /// grid's output, so they wait.
    ///
    /// One step, not the ring's whole first fill (4 to 8 steps): on the
    /// H100 (docs/PERF.md, run 45, call C) the whole fill made the split
    /// calls at M = 16 and 128 1.2-17% slower, its flood of requests ahead
    /// of the first step's (at 64 rows split 8 at 4096 x 4096 4% faster),
    /// where one step made those at 16 to 64 rows
    /// 3.5-7.3% faster (version 13 split 3 at 128 x 11008 x 4096: 0.6%
    /// slower). Both took 0.7-4% off the unsplit calls, but for version
    /// 23's at 28672 x 8192, whose 20 idle multiprocessors start 20 of the
    /// next grid's blocks a whole call early: 1.2% slower with the fill,
    /// 1.1% faster with one step.
    pub(in crate::int4_linear) struct FirstStep {
        first_row: usize,
        /// None where the block's slice of `K` is empty.
        step: Option<usize>,
        thread: usize,
    }

    impl FirstStep {
        /// Producer thread `thread`'s share of the first step of a block
        /// from weight row `first_row`, over `steps` of `K`.
        #[inline(always)]
        fn new(first_row: usize, steps: &Range<usize>, thread: usize) -> Self {
            Self { first_row, step: (!steps.is_empty()).then_some(steps.start), thread }
        }

        /// Thread `BLOCK_N / 16` asks for the tile's rows' scales, and the
        /// next thread for their zero points, if any: contiguous in their
        /// arrays, one bulk prefetch each. That is every group of the rows,
        /// not only the step's: about 1/32 of the codes' bytes at G = 128,
        /// which the slices of `K` of the rows read in the end.
        ///
        /// # Safety
        /// `groups` describes `n` rows.
        #[inline(always)]
        unsafe fn constants<S: WgmmaTile>(&self, groups: &GroupParams, n: usize) {
            let rows = self.first_row..n.min(self.first_row + S::BLOCK_N);
            let thread = self.thread.wrapping_sub(S::BLOCK_N / BAND_ROWS);
            if rows.is_empty() || self.step.is_none() || thread > 1 {
                return;
            }
            // SAFETY: rows < n, so both arrays hold the rows' bytes.
            unsafe {
                if thread == 0 {
                    let row_bytes = 2 * groups.groups_per_row;
                    prefetch_bulk_l2(groups.scales.add(rows.start * groups.groups_per_row), rows.len() * row_bytes);
                } else if !groups.zeros.is_null() {
                    let row_bytes = groups.zero_bytes_per_row;
                    prefetch_bulk_l2(groups.zeros.add(rows.start * row_bytes), rows.len() * row_bytes);
                }
            }
        }

        /// Thread `b < BLOCK_N / 16` asks for band `b` of the tile's codes
        /// in the step: 1 KB, contiguous in `qweight` (a band is `[step]
        /// [row][word]`, `quant_kernels_abi::int4`), one bulk prefetch.
        ///
        /// # Safety
        /// `qweight` holds the codes of `n` rows of `k` columns.
        #[inline(always)]
        unsafe fn codes<S: WgmmaTile>(&self, qweight: *const u32, (n, k): (usize, usize)) {
            const STEP_BAND_WORDS: usize = BAND_ROWS * STEP_WORDS;
            let band = self.first_row / BAND_ROWS + self.thread;
            if let Some(step) = self.step.filter(|_| self.thread < S::BLOCK_N / BAND_ROWS && band < n.div_ceil(BAND_ROWS)) {
                let first = row_start(k, band * BAND_ROWS) + step * STEP_BAND_WORDS;
                // SAFETY: one whole step of one band, inside qweight.
                unsafe { prefetch_bulk_l2(qweight.add(first), 4 * STEP_BAND_WORDS) };
            }
        }

        /// Thread 0 asks for the step's box of codes through `map`, a
        /// tensor map of the codes as version 23 reads them (ABI `v23`).
        ///
        /// # Safety
        /// `map` is the kernel's tensor-map parameter of that view.
        #[inline(always)]
        pub(in crate::int4_linear) unsafe fn code_box(&self, map: TensorMapAddress) {
            if let Some(step) = self.step.filter(|_| self.thread == 0) {
                let (row, band) = ((BAND_ROWS * step) as i32, (self.first_row / BAND_ROWS) as i32);
                // SAFETY: forwarded from the caller; the coordinates fit in
                // i32 (the host refuses maps past that).
                unsafe { prefetch_3d_l2(map, (0, row, band)) };
            }
        }
    }

    /// The ring of tile `S` in shared memory, addressed by the block's
    /// running count of steps (`fill`, across its activation tiles).
    pub(in crate::int4_linear) struct Ring<S> {
        stages: u32,
        barriers: u32,
        tile: PhantomData<S>,
    }

    impl<S: WgmmaTile> Ring<S> {
        /// Bytes from one stage (with its constants) to the next.
        const STAGE_STRIDE: u32 = (S::STAGE_BYTES + S::PARAM_BYTES) as u32;

        pub(in crate::int4_linear) fn stage(&self, fill: u32) -> u32 {
            self.stages + (fill % S::STAGES as u32) * Self::STAGE_STRIDE
        }
        pub(in crate::int4_linear) fn full(&self, fill: u32) -> u32 {
            self.barriers + 8 * (fill % S::STAGES as u32)
        }
        pub(in crate::int4_linear) fn empty(&self, fill: u32) -> u32 {
            self.barriers + 8 * (S::STAGES as u32 + fill % S::STAGES as u32)
        }
        /// The parity of `fill`'s use of its stage.
        pub(in crate::int4_linear) fn parity(&self, fill: u32) -> u32 {
            (fill / S::STAGES as u32) % 2
        }
    }

    /// How the codes and activations reach the stages: what versions 12
    /// (and 19 and 22), 13 and 23 do differently. The defaults are those of
    /// a block on its own (all but version 13).
    pub(in crate::int4_linear) trait Feed<T> {
        /// Arrivals a phase of `empty[s]` besides one from each consumer
        /// thread of the block: those of [`release_peers`](Self::release_peers).
        const PEER_RELEASES: u32 = 0;

        /// Bytes that [`load`](Self::load)'s copies bring into a block's
        /// stage each step: producer thread 0's arrival on `full` expects
        /// them (`expect_tx`).
        const LOADED_BYTES: u32 = 0;

        /// Blocks a cluster along the grid's `x` (the unit of
        /// [`TileOrigin`]'s walk).
        const CLUSTER: NonZeroU32 = NonZeroU32::MIN;

        /// Whether, where a step is one group (G = 128), its constants come
        /// converted from the layer's packed array
        /// (`quant_kernels_abi::int4::packed_constants`, passed in the
        /// scales' place) by one bulk copy a step ([`packed_step_bytes`]: 2
        /// or 4 bytes a row in the stage): then producer thread 0 alone fills
        /// the stages, beside this feed's [`load`](Self::load), and the other
        /// producer threads only give their registers back.
        const PACKED_CONSTANTS: bool = false;

        /// The activations, if the producer threads copy them (`cp.async`);
        /// `None` if [`load`](Self::load) brings them.
        fn copied_x(&self) -> Option<*const T>;

        /// The codes, if the producer threads copy them (`cp.async`); `None`
        /// if [`load`](Self::load) brings them.
        fn copied_codes(&self) -> Option<*const u32>;

        /// The block (and the blocks it shares barriers with) meets after
        /// the barriers are initialized.
        fn meet(&self) {
            sync_threads();
        }

        /// Before the block exits, when other blocks may still arrive on its
        /// barriers.
        fn finish(&self) {}

        /// Producer thread `thread`, after its copies of step `i` (of the
        /// tile from weight row `first_row` and activation row `first_m`)
        /// into `fill`'s stage: brings
        /// what the producer threads do not copy (the activations of
        /// version 13, the codes of version 23) with the TMA unit,
        /// [`LOADED_BYTES`](Self::LOADED_BYTES) a step, counted on the
        /// stage's `full` barrier.
        ///
        /// # Safety
        /// The thread has waited for the stage's `empty` phase: every
        /// consumer that reads the stage, in any block, has released it.
        unsafe fn load<S: WgmmaTile>(&self, ring: &Ring<S>, fill: u32, i: usize, first: (usize, usize), thread: usize) {
            let _ = (ring, fill, i, first, thread);
        }

        /// Producer thread `first.thread`, before the previous grid ends: its
        /// share of the codes of the block's first step, where the producer
        /// threads copy them ([`FirstStep::codes`]); feeds whose
        /// [`load`](Self::load) brings them ask for theirs.
        ///
        /// # Safety
        /// The codes are those of `n` rows of `k` columns.
        #[inline(always)]
        unsafe fn prefetch_codes<S: WgmmaTile>(&self, first: &FirstStep, (n, k): (usize, usize)) {
            if let Some(qweight) = self.copied_codes() {
                // SAFETY: forwarded from the caller.
                unsafe { first.codes::<S>(qweight, (n, k)) };
            }
        }

        /// Each consumer thread, once the MMAs that read `fill`'s stage have
        /// completed, a chunk of MMAs after its own arrival on `empty[s]`:
        /// the other blocks' share of that barrier, if any. (Arriving in the
        /// same chunk as the thread's own arrival made ptxas wait for each
        /// MMA before the next, run 17.)
        ///
        /// # Safety
        /// Every consumer thread, once for each `fill`.
        unsafe fn release_peers<S: WgmmaTile>(&self, ring: &Ring<S>, fill: u32) {
            let _ = (ring, fill);
        }

        /// Each consumer thread, done with `fill`'s stage at the end of a
        /// tile (its MMAs and reads of the stage complete): its own arrival
        /// on `empty[s]`, then [`release_peers`](Self::release_peers).
        ///
        /// # Safety
        /// As for `release_peers`.
        #[inline(always)]
        unsafe fn release<S: WgmmaTile>(&self, ring: &Ring<S>, fill: u32) {
            // SAFETY: from the caller; the ring's barrier of `fill`.
            unsafe {
                mbarrier::arrive(ring.empty(fill));
                self.release_peers(ring, fill);
            }
        }
    }

    /// Bytes of one step's packed constants of a block's rows, with or
    /// without zero points.
    #[inline(always)]
    const fn packed_step_bytes(symmetric: bool) -> u32 {
        (2 * halves_per_row(symmetric) * PACKED_CONSTANT_ROWS) as u32
    }

    /// The feed of versions 12, 19 and 22: the producer threads copy the
    /// activations from `x` and the codes from `qweight`.
    pub(super) struct CopiedStages<T> {
        pub(super) x: *const T,
        pub(super) qweight: *const u32,
    }

    impl<T> Feed<T> for CopiedStages<T> {
        fn copied_x(&self) -> Option<*const T> {
            Some(self.x)
        }
        fn copied_codes(&self) -> Option<*const u32> {
            Some(self.qweight)
        }
    }

    /// The producer warpgroups and the MMA warpgroups of tile `S` (`TILES`
    /// MMA tiles of 64 weight rows a warpgroup, `ACC` accumulators a thread
    /// and tile), meeting at the ring's barriers, with the activations
    /// brought by `feed`. Each producer thread at work stores the group
    /// constants of `ROWS` weight rows (1 or 2); with 2 only the first
    /// producer warpgroup works, and the second only gives its registers
    /// back. The producers' per-warp work of a step (the barrier waits,
    /// the loop, the window bookkeeping) is then paid by 4 warps in place
    /// of 8: versions 19 and 24 were 0.5-3.7% faster (run 55, calls B
    /// and E); version 23 spilled in its producers and was 3-28% slower,
    /// and versions 12, 13 and 22 spilled.
    ///
    /// # Safety
    /// As for `TiledGemm::sum_tiles`, with the launch shape of `S`'s
    /// version (12, 13, 19, 22, 23 or 24).
    #[inline(always)]
    pub(in crate::int4_linear) unsafe fn pipeline<
        T: WgmmaHalf,
        F: Feed<T>,
        S: WgmmaTile,
        const TILES: usize,
        const ACC: usize,
        const ROWS: usize,
        const G128: bool,
    >(
        feed: F,
        groups: GroupParams,
        dims: (usize, usize, usize),
        steps: Range<usize>,
        out: impl TileOutput<T>,
    ) {
        // One or two weight rows' constants a producer thread at work.
        const {
            assert!(
                S::BLOCK_N == PRODUCER_THREADS
                    && CONSUMER_THREADS + PRODUCER_THREADS == BLOCK_THREADS as usize
                    && (ROWS == 1 || ROWS == 2)
            )
        };
        let producers = PRODUCER_THREADS / ROWS;
        // Where a step is one group (G = 128) the producers store its
        // constants once and the consumers read them once, in place of
        // four slots each (run 27). Versions 12 and 13 only in their
        // `_g128_` entry points (`G128`, where a step is always one group):
        // their 128 accumulators a thread leave too few registers for the
        // consumers' loops of both kinds in one entry point (ptxas spilled
        // 1.6 KB a thread in their unsplit ones).
        let one_group_loops = ACC <= 32 || G128;
        // Producer thread 0 alone fills the stages where a step is one
        // group for feeds of packed constants (see `Feed::PACKED_CONSTANTS`):
        // `one_group` below, spelled out here (computing it once, before
        // the barriers' set-up, moved the PTX of versions 13 to 24).
        let packed = F::PACKED_CONSTANTS && one_group_loops && StepGroups::new(&groups, dims.2).one_group();
        let stages = (dynamic_shared_address() + RING_ALIGN as u32 - 1) & !(RING_ALIGN as u32 - 1);
        let ring =
            Ring::<S> { stages, barriers: stages + S::STAGES as u32 * Ring::<S>::STAGE_STRIDE, tile: PhantomData };
        let thread = thread_idx_x() as usize % BLOCK_THREADS as usize;
        if thread == 0 {
            for fill in 0..S::STAGES as u32 {
                // SAFETY: 8-byte slots after the ring, inside SHARED_BYTES.
                unsafe {
                    mbarrier::init(ring.full(fill), if packed { 2 } else { 2 * producers as u32 });
                    mbarrier::init(ring.empty(fill), CONSUMER_THREADS as u32 + F::PEER_RELEASES);
                }
            }
            mbarrier::fence_init();
        }
        feed.meet();
        let one_group = one_group_loops && StepGroups::new(&groups, dims.2).one_group();
        let origin = TileOrigin::of_block(F::CLUSTER);
        // Each thread waits for the previous grid (see `grid_dependency`)
        // before it touches global memory: the producers after their L2
        // prefetches of the first step.
        if thread >= CONSUMER_THREADS {
            // SAFETY: each producer warpgroup, whole; it only gives registers back.
            unsafe { set_max_registers::<false, PRODUCER_REGISTERS>() };
            let producer = thread - CONSUMER_THREADS;
            let first = FirstStep::new(origin.n_tile * S::BLOCK_N, &steps, producer);
            // SAFETY (all): forwarded from the caller.
            unsafe {
                feed.prefetch_codes::<S>(&first, (dims.1, dims.2));
                if !packed {
                    first.constants::<S>(&groups, dims.1);
                }
            }
            begin_after_previous_grid();
            let (ring, feed, origin, groups) = (&ring, &feed, &origin, &groups);
            // SAFETY (all): forwarded from the caller; one_group as the consumers'.
            if packed {
                if producer == 0 {
                    unsafe { produce::<T, F, S, PRODUCER_THREADS, 1>(0, ring, feed, origin, groups, dims, steps, one_group) };
                }
            } else if ROWS == 1 {
                unsafe { produce::<T, F, S, PRODUCER_THREADS, 1>(producer, ring, feed, origin, groups, dims, steps, one_group) };
            } else if producer < producers {
                unsafe {
                    produce::<T, F, S, { PRODUCER_THREADS / 2 }, 2>(
                        producer, ring, feed, origin, groups, dims, steps, one_group,
                    )
                };
            }
        } else {
            // SAFETY: each consumer warpgroup, whole; the producers' decreases free what they take.
            unsafe { set_max_registers::<true, CONSUMER_REGISTERS>() };
            begin_after_previous_grid();
            // SAFETY (all): forwarded from the caller; one_group as above.
            // A loop of its own for packed constants of symmetric weights
            // (a branch a step in one loop made every call slower, run 57).
            if one_group && F::PACKED_CONSTANTS && groups.zeros.is_null() {
                unsafe { consume::<T, F, S, TILES, ACC, true, true>(thread, &ring, &feed, &origin, dims, steps, out) };
            } else if one_group {
                unsafe { consume::<T, F, S, TILES, ACC, true, false>(thread, &ring, &feed, &origin, dims, steps, out) };
            } else {
                unsafe { consume::<T, F, S, TILES, ACC, false, false>(thread, &ring, &feed, &origin, dims, steps, out) };
            }
        }
        feed.finish();
    }

    /// Producer thread `thread` of the `PRODUCERS` at work: fills stage
    /// after stage as the consumers free them, with its share of the
    /// copies and the constants of block rows `thread + PRODUCERS r` for
    /// `r < ROWS`; with `one_group`, only the first slot of each step's
    /// constants, read a window of steps at a time ([`ConstantWindows`])
    /// where [`StepGroups::windowed`] says for `S`.
    ///
    /// # Safety
    /// As for [`pipeline`]; `one_group` as the consumers were told.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    unsafe fn produce<T: WgmmaHalf, F: Feed<T>, S: WgmmaTile, const PRODUCERS: usize, const ROWS: usize>(
        thread: usize,
        ring: &Ring<S>,
        feed: &F,
        origin: &TileOrigin,
        groups: &GroupParams,
        (m, n, k): (usize, usize, usize),
        steps: Range<usize>,
        one_group: bool,
    ) {
        let first_row = origin.n_tile * S::BLOCK_N;
        let step_groups = StepGroups::new(groups, k);
        // Producer thread 0 alone, with the constants by bulk copy (see
        // `Feed::PACKED_CONSTANTS`).
        let packed = F::PACKED_CONSTANTS && one_group;
        let symmetric = groups.zeros.is_null();
        // The slots of constants the consumers read: all of a step's, or
        // its first (see `pipeline`).
        let slots = if one_group { 0..1 } else { 0..GROUPS_PER_STEP };
        // The block's rows whose constants this thread stores (rows past n
        // take row n - 1's), and where they go in a stage.
        // Both given, though one is the other's quotient: a const generic
        // cannot be computed from another (`stage_copies` takes the first,
        // the arrays' lengths the second).
        const { assert!(PRODUCERS * ROWS == PRODUCER_THREADS) };
        let block_rows: [usize; ROWS] = from_fn(|r| thread + PRODUCERS * r);
        let param_rows = block_rows.map(|row| (first_row + row).min(n - 1));
        let param_slots = block_rows.map(|row| (S::STAGE_BYTES + 8 * row) as u32);
        let mut fill = 0u32;
        // One loop for both ways (a branch a step): two copies of it made
        // the scalar way 1.5-2% slower at 16 x 28672 x 8192 (run 33, call E).
        // Versions without windows compile the scalar way alone.
        let windowed = step_groups.windowed::<S>(groups);
        // The first row of the packed constants a step copies: a grid of
        // whole clusters (version 13) may hold a block past the last
        // rows' block, which reads that block's constants (its own rows
        // are never stored) rather than past the array.
        let constants_row = match F::CLUSTER.get() {
            1 => first_row,
            _ => first_row.min(padded_rows(n) - PACKED_CONSTANT_ROWS),
        };
        let mut windows = [ConstantWindows::EMPTY; ROWS];
        for first_m in origin.activation_tiles(m, S::BLOCK_M) {
            let (x, qweight) = (feed.copied_x(), feed.copied_codes());
            let copies = stage_copies::<T, S, PRODUCERS>(
                (x.unwrap_or(core::ptr::null()), qweight.unwrap_or(core::ptr::null())),
                (m, n, k),
                (first_row, first_m),
                thread,
                (qweight.is_some(), x.is_some()),
            );
            for i in steps.clone() {
                let stage = ring.stage(fill);
                // SAFETY (all below): the ring's barriers and slots; x, the
                // weights and the constants as the caller's; param_rows < n.
                unsafe {
                    mbarrier::wait(ring.empty(fill), ring.parity(fill) ^ 1);
                    // Loads first, so that the copies issue while they are
                    // in flight. No prefetch of the next step's (mostly
                    // this step's line at G = 128): versions 13 and 19
                    // were 1.01-1.08x faster without it (run 26).
                    let raw: [_; ROWS] = from_fn(|r| {
                        if packed {
                            [(0, 0); GROUPS_PER_STEP]
                        } else if windowed {
                            windows[r].raw(groups, param_rows[r], i, slots.clone())
                        } else {
                            step_groups.raw(groups, param_rows[r], i, slots.clone())
                        }
                    });
                    copies.copy(stage, i);
                    mbarrier::arrive_on_copies(ring.full(fill));
                    feed.load(ring, fill, i, (first_row, first_m), thread);
                    if packed {
                        const {
                            assert!(
                                !F::PACKED_CONSTANTS
                                    || (S::BLOCK_N == PACKED_CONSTANT_ROWS
                                        && S::PARAM_BYTES >= packed_step_bytes(false) as usize)
                            )
                        };
                        // Group i's row constants_row and the 255 after it
                        // are in the padded array, 16-byte aligned (rows a
                        // multiple of 256); the stage's constants are free
                        // (the wait above); the full barrier expects their
                        // bytes below.
                        let first = groups.scales.add(index(n, constants_row, i, symmetric));
                        tma::load_bulk(stage + S::STAGE_BYTES as u32, first, packed_step_bytes(symmetric), ring.full(fill));
                    } else {
                        for r in 0..ROWS {
                            store_constants::<T, S>(stage + param_slots[r], &raw[r], slots.clone());
                        }
                    }
                    let bytes = F::LOADED_BYTES + if packed { packed_step_bytes(symmetric) } else { 0 };
                    if F::LOADED_BYTES > 0 && thread == 0 {
                        mbarrier::arrive_expect_bytes(ring.full(fill), bytes);
                    } else {
                        mbarrier::arrive(ring.full(fill));
                    }
                }
                fill += 1;
            }
        }
        // Leaves no copy in flight behind (a copy does not need its thread,
        // but a finished thread then owns nothing a tool could check).
        async_copy::commit();
        async_copy::wait::<0>();
    }

    /// Consumer thread `thread` (of the two MMA warpgroups): waits for each
    /// step's stage, multiplies, releases it, and stores each tile's sums.
    /// With `ONE_GROUP` it reads each step's first slot of constants only,
    /// in the form of `Feed::PACKED_CONSTANTS` for feeds of packed
    /// constants (2 bytes a row for `SYMMETRIC` weights, else 4).
    ///
    /// # Safety
    /// As for [`pipeline`]; `ONE_GROUP` only where a step is one group.
    #[inline(always)]
    unsafe fn consume<
        T: WgmmaHalf,
        F: Feed<T>,
        S: WgmmaTile,
        const TILES: usize,
        const ACC: usize,
        const ONE_GROUP: bool,
        const SYMMETRIC: bool,
    >(
        thread: usize,
        ring: &Ring<S>,
        feed: &F,
        origin: &TileOrigin,
        (m, _, _): (usize, usize, usize),
        steps: Range<usize>,
        out: impl TileOutput<T>,
    ) {
        let lane = Lane::new::<S>(thread);
        // The packed form wherever a step is one group (the host passes
        // packed constants for every such call of these feeds' versions).
        let form = match (F::PACKED_CONSTANTS && ONE_GROUP, SYMMETRIC) {
            (false, _) => ConstantForm::Slots,
            (true, false) => ConstantForm::Packed,
            (true, true) => ConstantForm::PackedScales,
        };
        let first_row = origin.n_tile * S::BLOCK_N;
        let mut fill = 0u32;
        // Where a step is one group and a thread holds fewer sums than the
        // pairs it dequantizes a step (16 against 64 in versions 22 and
        // 23, 32 in version 24), the MMAs take the exact `u - z` into
        // `step_sums`, afresh each step, and the thread adds those to
        // `acc` times the step's scales in f32: 16 (or 32) FMAs a step in
        // place of 64 packed multiplies, and one rounding less a weight. It adds them once the next
        // step's stage is full, before that step's MMAs overwrite them
        // (docs/PERF.md, run 46: 2.8-6% faster at 16 rows unsplit; adding
        // them between the next step's first dequantization and its MMAs
        // was slower on most calls).
        // Only with `mma.sync`, whose sums are complete when `mma_step`
        // returns (`add_scaled` does not wait).
        let scale_after = ONE_GROUP && sync_mma(ACC) && TILES * ACC < 8 * TILES * GROUPS_PER_STEP;
        // Zero once: a tile's first MMAs overwrite them (see `wgmma::mma`;
        // `mma_step` zeroes them first where it uses `mma.sync`), and with
        // no steps every tile's sums are these zeros. With
        // `scale_after` they are zeroed again after each tile.
        let mut acc = [[0.0f32; ACC]; TILES];
        let mut step_sums = [[0.0f32; ACC]; TILES];
        // The scales of the step whose sums `step_sums` holds, until they
        // are added.
        let mut step_scales: Option<[[f32; 2]; TILES]> = None;
        for first_m in origin.activation_tiles(m, S::BLOCK_M) {
            for i in steps.clone() {
                let stage = ring.stage(fill);
                let previous = (i > steps.start).then_some(fill - 1);
                // SAFETY: the ring's barriers; the whole warpgroup, on a stage
                // its barrier says is written, which stays unwritten until
                // every consumer has released it (after its MMAs completed).
                unsafe {
                    mbarrier::wait(ring.full(fill), ring.parity(fill));
                    // Only warpgroup MMAs read the stage through the
                    // async proxy; `ldmatrix` and `ld.shared` are ordered
                    // after the copies by the barrier's wait alone (run 48:
                    // 0-1.9% faster at 16 rows without the fence).
                    if !sync_mma(ACC) {
                        wgmma::fence_shared_writes();
                    }
                    let release = |chunk| release_previous(feed, ring, chunk, previous);
                    if scale_after {
                        add_scaled(&mut acc, step_scales.take(), &step_sums);
                        let params = mma_step::<T, S, TILES, ACC, true, false>(
                            &mut step_sums,
                            false,
                            (stage, stage + S::STAGE_BYTES as u32, form),
                            &lane,
                            release,
                        );
                        step_scales = params.map(|tiles| tiles.map(|rows| rows.map(|row| T::widen_bits(row.scale as u16))));
                    } else {
                        let accumulate = i > steps.start;
                        mma_step::<T, S, TILES, ACC, ONE_GROUP, true>(
                            &mut acc,
                            accumulate,
                            (stage, stage + S::STAGE_BYTES as u32, form),
                            &lane,
                            release,
                        );
                    }
                }
                fill += 1;
            }
            // (Nothing is pending with `mma.sync`; once a tile, not worth a branch.)
            wgmma::wait::<0>();
            for acc in acc.iter_mut() {
                wgmma::fence_accumulators(acc);
            }
            if scale_after {
                add_scaled(&mut acc, step_scales.take(), &step_sums);
            }
            match out.whole_lines().filter(|_| !steps.is_empty()) {
                // The tile's last stage, which the MMAs have done with, is
                // the staging buffer; it is freed after.
                Some(y) => {
                    // SAFETY: every consumer thread calls it; the stage stays
                    // unwritten by the producers (and the cluster's other
                    // block) until this thread arrives below; y as the
                    // caller's, 16-byte aligned with n a multiple of 8.
                    unsafe { lane.store_lines::<T, S, TILES, ACC>(&acc, ring.stage(fill - 1), &y, first_row, first_m) };
                    // The producers' next copies into the stage (through
                    // the async proxy too) come after these writes.
                    wgmma::fence_shared_writes();
                    // SAFETY: the tile's last step, done with.
                    unsafe { feed.release(ring, fill - 1) };
                }
                None => {
                    if !steps.is_empty() {
                        // SAFETY: the tile's last step, done with.
                        unsafe { feed.release(ring, fill - 1) };
                    }
                    // SAFETY: out as the caller's.
                    unsafe { lane.store_tiles(&acc, first_row, first_m, &out) };
                }
            }
            if scale_after {
                acc = [[0.0; ACC]; TILES];
            }
        }
    }

    /// Each consumer thread, after chunk `chunk` of a step's MMAs, when
    /// only that chunk's are pending (none with `mma.sync`): the previous
    /// step's (`previous`, none at a tile's first step) have completed, and
    /// its stage is free.
    ///
    /// # Safety
    /// Every consumer thread, for each chunk of each step.
    #[inline(always)]
    unsafe fn release_previous<T, F: Feed<T>, S: WgmmaTile>(feed: &F, ring: &Ring<S>, chunk: usize, previous: Option<u32>) {
        // SAFETY: forwarded from the caller.
        unsafe {
            match (chunk, previous) {
                (0, Some(previous)) => mbarrier::arrive(ring.empty(previous)),
                (1, Some(previous)) => feed.release_peers(ring, previous),
                _ => {}
            }
        }
    }

    /// With `scales` (the consumers' `scale_after`): `acc += scale *
    /// step_sums`, each sum times its weight row's scale (sum `i` of a tile
    /// is the lane's row plus `8 * (i % 4 / 2)`, as in `Lane::store_tiles`).
    /// Nothing to wait for: `scale_after` holds for the 16- and 32-row
    /// tiles only (8 and 16 sums a tile), whose `mma.sync` MMAs are
    /// complete when `mma_step` returns. Indexed loops: written with
    /// iterator adapters, LLVM kept both arrays in local memory (run 46).
    #[inline(always)]
    fn add_scaled<const TILES: usize, const ACC: usize>(
        acc: &mut [[f32; ACC]; TILES],
        scales: Option<[[f32; 2]; TILES]>,
        step_sums: &[[f32; ACC]; TILES],
    ) {
        if let Some(scales) = scales {
            for a in 0..TILES {
                for i in 0..ACC {
                    acc[a][i] = core::f32::math::mul_add(step_sums[a][i], scales[a][i % 4 / 2], acc[a][i]);
                }
            }
        }
    }
}
