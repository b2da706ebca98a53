//! Version 10 (`sm_90a` only): version 7's tiled GEMM on the Hopper's
//! warpgroup MMAs (`wgmma.mma_async.m64n128k16`, see [`crate::wgmma`]),
//! reading the packed format as it is. Shapes from
//! `quant_kernels_abi::int4_linear::v10`.
//!
//! Version 7 feeds `mma.sync` from registers: every warp loads its
//! activations from shared memory and issues 16 MMAs of 16x8x16 a column
//! step and tile, and measured 230-280 TFLOP/s at M = 1024. Here the
//! activations are the B operand, which the tensor cores read from shared
//! memory themselves, and one instruction multiplies 64 weight rows by 128
//! activation rows by 16 columns; the warps only dequantize the weights
//! (the A operand, in registers) and copy.
//!
//! **Block.** `BLOCK_N` (256) weight rows x `BLOCK_M` (128) activation rows
//! of `y^T`, over the steps of `K` it is given (128 columns a step). Two
//! warpgroups of 4 warps; warpgroup `wg` owns weight rows `128 wg .. + 128`
//! as two MMA tiles of 64 (`a` = 0, 1), each with 64 f32 accumulators a
//! thread. Warp `w` of a warpgroup holds rows `16 w + g` and `16 w + g + 8`
//! of each tile (lane `(g, t)`).
//!
//! **Columns.** An MMA's 16 columns are `K`'s own, in order: `wgmma` reads B
//! from shared memory as it lies, so the activations cannot be permuted
//! as versions 3-7 permute them. Lane `t` needs columns `2t, 2t + 1` and
//! `2t + 8, 2t + 9` of each 16: the nibble pair `t` of the two code words
//! of those 16 columns (`(word >> 4t) & 0x000F_000F`, the packed format's
//! pairs), so each lane reads all of its rows' 64 bytes of a step and
//! dequantizes a quarter of them.
//!
//! **Pipeline.** A ring of `STAGES` (4; 3 in version 11) stages of one
//! step each, filled by `cp.async`, `STAGES - 2` steps ahead: at step `i`
//! every thread loads step `i`'s group constants of one weight row (all
//! of the step's slots, or half when a block has 128 rows: version 11),
//! from L1, where a prefetch issued during step `i - 1` put them, and
//! stores them converted, waits
//! for its copies of step `i`, fences them for the MMAs' reads, and the
//! block meets; then the copies of step `i + STAGES - 2` go into the stage
//! step `i - 2` used (whose MMAs are complete: every warpgroup waits for all but its
//! last MMA group at each chunk), and the warps compute. Per 16-column
//! chunk a warpgroup dequantizes its two A fragments, fences, issues two
//! MMAs as one group and waits until only that group is pending, so the
//! dequantization of a chunk overlaps the MMAs of the one before. No
//! global load is in flight at a fence: `wgmma.fence` waits for the
//! warp's pending loads (`ncu` found every step's first fence held by the
//! constants when they were loaded a step ahead into registers).
//!
//! **Shared memory.** The ring starts at a 1024-byte boundary. Per stage
//! (byte offsets from its start):
//!
//! | bytes | what | layout |
//! |---|---|---|
//! | `0 .. 16384` | codes | row `r` (of 256) at `64 r`, its 16-byte chunk `c` (columns `32c ..`) at `+ 16 (c ^ ((r >> 1) % 4))` |
//! | `16384 .. 49152` | activations | columns `64h .. 64h + 64` of the step (`h` = 0, 1) at `16384 + 16384 h`: row `r` (of 128) at `+ 128 r`, its 16-byte chunk `c` (columns `64h + 8c ..`) at `+ 16 (c ^ (r % 8))` |
//!
//! The activations are B in the K-major layout with the 128-byte swizzle
//! ([`crate::wgmma`]): atoms of 8 rows x 128 bytes, 1024 bytes apart (the
//! stride byte offset); the MMA of chunk `q` starts `32 (q % 4)` bytes into
//! half `q / 4`. The codes' swizzle keeps a warp's reads of one chunk from
//! its 8 rows `g` (64 bytes apart, so on two bank groups only, 4-way
//! conflicts unswizzled) on 8 distinct groups of 4 banks. The copies write
//! whole rows a quarter-warp (8 distinct 16-byte bank groups). After the
//! ring, two buffers (steps `i` even and odd) of the group constants:
//! weight row `r`'s for columns `32p .. 32p + 32` of the step at `2048 p +
//! 8 r`, as `RowParams` (`mma_tile.rs`: packed scale, packed `-(MAGIC +
//! z)`), so that a lane octet's 8 rows are 64
//! consecutive bytes; thread `r` converts and stores row `r`'s (version
//! 11: threads `r` and `r + 128` each half of its slots).
//!
//! **Error.** Each weight is dequantized into `T` with one rounding, as in
//! versions 3-7, and the tensor cores sum the products in f32: the bounds
//! of the tests (`‖y - ref‖ / ‖ref‖` within 2e-3 in f16, 1e-2 in bf16, and
//! the per-output bound) hold; the H100 measured 2.7e-4 and 2.7e-3 (run 13).
//!
//! **Edges.** Copies past `K`, of weight rows past `n` and activation rows
//! past `m` are zero-filled without reading; groups past `K` get scale 0.
//! The epilogue, split-K and the reduction are version 7's
//! ([`linear_tiled`], [`linear_tiled_split_k`]).
//!
//! Launch: grid `(ceil(n / BLOCK_N), min(ceil(m / BLOCK_M), MAX_GRID_Y),
//! splits)`, exactly `BLOCK_THREADS` (256) threads, `SHARED_BYTES` of
//! dynamic shared memory. In the `sm_80` PTX the entry points trap.

use super::GroupParams;
use super::mma_tile::{TileOutput, TiledGemm, linear_tiled, linear_tiled_split_k, tiled_entry_points};
use crate::float::Bf16;
use crate::wgmma::WgmmaHalf;
use core::ops::Range;

tiled_entry_points! {
    V10: int4_linear_v10_f16, int4_linear_v10_bf16;
    split_k: int4_linear_v10_split_k_f16, int4_linear_v10_split_k_bf16
}

/// The main loop of versions 10 and 11 (version 12 shares its step,
/// `hopper::mma_step`): `TILES` MMA tiles of 64 weight rows a warpgroup,
/// `ACC` accumulators a thread and tile (64 for `m64n128k16`, 128 for
/// `m64n256k16`); its other constants come from [`WgmmaTile`].
pub(super) struct WarpgroupGemm<const TILES: usize, const ACC: usize>;

/// Version 10's main loop (launch shape above).
pub(super) type V10 = WarpgroupGemm<2, 64>;

/// A warpgroup GEMM's shape: a version's constants
/// (`quant_kernels_abi::int4_linear::v10`, `v11`, ...).
#[cfg_attr(not(target_feature = "sm_90a"), expect(dead_code, reason = "read by the sm_90a main loops only"))]
pub(super) trait WgmmaTile {
    const BLOCK_N: usize;
    const BLOCK_M: usize;
    const WARPGROUP_N: usize;
    const STAGES: usize;
    const STAGE_BYTES: usize;
    const CODE_BYTES_PER_STAGE: usize;
    const ACTIVATION_HALF_BYTES: usize;
    const PARAM_BYTES: usize;
    /// Whether the producers (versions 12, 13, 19, 22 and 23) may read the
    /// group constants a window of 8 steps at a time (`hopper::ConstantWindows`):
    /// not in versions 12 and 19, whose producers spilled with the second
    /// way in their loop and ran 5-42% slower where they kept the scalar
    /// loads (run 34, calls D and E).
    const CONSTANT_WINDOWS: bool;
    /// Whether the windows are also for the short rows of symmetric
    /// layers (`hopper::SCALAR_LOADS_MAX_GROUPS`): in version 13, 1.3-3.7%
    /// faster at M = 128 to 8192 on 4096 x 4096, 11008 x 4096 and 28672 x
    /// 8192 (docs/PERF.md, run 36, one round); in version 23, 7.8% faster
    /// at 16 x 28672 x 8192 and 0.2-4.2% slower on its short split slices
    /// (run 48, call E; run 33 had found them 4-5% slower).
    const SHORT_ROW_WINDOWS: bool;
}

/// Implements [`WgmmaTile`] for `$gemm` with the constants of ABI module
/// `$abi`; `windows` where its producers read the constants in windows,
/// `windows on short rows` where also on the short rows of symmetric layers.
macro_rules! wgmma_tile {
    ($gemm:ty, $abi:ident) => {
        $crate::int4_linear::v10::wgmma_tile!(@impl $gemm, $abi, false, false);
    };
    ($gemm:ty, $abi:ident, windows) => {
        $crate::int4_linear::v10::wgmma_tile!(@impl $gemm, $abi, true, false);
    };
    ($gemm:ty, $abi:ident, windows on short rows) => {
        $crate::int4_linear::v10::wgmma_tile!(@impl $gemm, $abi, true, true);
    };
    (@impl $gemm:ty, $abi:ident, $windows:literal, $short_rows:literal) => {
        impl $crate::int4_linear::v10::WgmmaTile for $gemm {
            const BLOCK_N: usize = quant_kernels_abi::int4_linear::$abi::BLOCK_N;
            const BLOCK_M: usize = quant_kernels_abi::int4_linear::$abi::BLOCK_M;
            const WARPGROUP_N: usize = quant_kernels_abi::int4_linear::$abi::WARPGROUP_N;
            const STAGES: usize = quant_kernels_abi::int4_linear::$abi::STAGES;
            const STAGE_BYTES: usize = quant_kernels_abi::int4_linear::$abi::STAGE_BYTES;
            const CODE_BYTES_PER_STAGE: usize = quant_kernels_abi::int4_linear::$abi::CODE_BYTES_PER_STAGE;
            const ACTIVATION_HALF_BYTES: usize = quant_kernels_abi::int4_linear::$abi::ACTIVATION_HALF_BYTES;
            const PARAM_BYTES: usize = quant_kernels_abi::int4_linear::$abi::PARAM_BYTES;
            const CONSTANT_WINDOWS: bool = $windows;
            const SHORT_ROW_WINDOWS: bool = $short_rows;
        }
    };
}
pub(super) use wgmma_tile;

wgmma_tile!(V10, v10);

impl<const TILES: usize, const ACC: usize> TiledGemm for WarpgroupGemm<TILES, ACC>
where
    Self: WgmmaTile,
{
    type Activations<T: WgmmaHalf> = *const T;
    type Codes = *const u32;

    #[inline(always)]
    unsafe fn sum_tiles<T: WgmmaHalf>(
        x: *const T,
        qweight: *const u32,
        groups: GroupParams,
        dims: (usize, usize, usize),
        steps: Range<usize>,
        out: impl TileOutput<T>,
    ) {
        crate::grid_dependency::begin_after_previous_grid();
        #[cfg(target_feature = "sm_90a")]
        // SAFETY: forwarded from the caller. (Versions 10, 11 and 18 store
        // an output at a time.)
        unsafe { hopper::sum_tiles::<T, Self, TILES, ACC>(x, qweight, groups, dims, steps, out) };
        #[cfg(not(target_feature = "sm_90a"))]
        sm90a_only((x, qweight, groups, dims, steps, out));
    }
}

/// The body of the `sm_90a`-only versions in the `sm_80` PTX: traps,
/// aborting the launch (the host never launches them there), and takes
/// the arguments it leaves unused.
#[cfg(not(target_feature = "sm_90a"))]
#[inline(always)]
pub(super) fn sm90a_only<A>(_: A) {
    // SAFETY: aborts the launch; no preconditions.
    unsafe { core::arch::nvptx::trap() }
}

#[cfg(target_feature = "sm_90a")]
pub(super) mod hopper {
    use super::{GroupParams, WgmmaTile};
    use crate::async_copy::{
        self, dynamic_shared_address, load_shared_high_splat, load_shared2, load_shared8, load_shared16, store_shared2,
        store_shared8,
    };
    use crate::device::{block_idx_x, in_place, lane_id, store_words, sync_named, sync_threads, thread_idx_x};
    use crate::int4_linear::mma_tile::{
        Epilogue, RowParams, StepCopies, TileOutput, activation_tiles, codes_minus_zero, dequantize_pair,
    };
    use crate::mma::{load_matrices_x4, splat2};
    use crate::wgmma::{self, WgmmaHalf};
    use core::array::from_fn;
    use core::mem::transmute_copy;
    use core::ops::Range;
    use quant_kernels_abi::int4::SYMMETRIC_ZERO_POINT;
    use quant_kernels_abi::int4::packed_constants::neg_offset_bits;
    use quant_kernels_abi::int4_linear::v10::{BLOCK_THREADS, GROUPS_PER_STEP, RING_ALIGN, STEP_K};

    const THREADS: usize = BLOCK_THREADS as usize;

    /// See [`super::WarpgroupGemm`] and the module documentation.
    ///
    /// # Safety
    /// As for `TiledGemm::sum_tiles`, with the launch shape of `S`'s version.
    #[inline(always)]
    pub(super) unsafe fn sum_tiles<T: WgmmaHalf, S: WgmmaTile, const TILES: usize, const ACC: usize>(
        x: *const T,
        qweight: *const u32,
        groups: GroupParams,
        (m, n, k): (usize, usize, usize),
        steps: Range<usize>,
        out: impl TileOutput<T>,
    ) {
        const {
            assert!(
                (S::BLOCK_N == THREADS || 2 * S::BLOCK_N == THREADS) // one or two threads a row's constants
                    && (S::STAGES == 3 || S::STAGES == 4)
            )
        };
        // (The launch shape bounds the thread, which lets the compiler
        // fold what depends on it for the tile at hand.)
        let thread = thread_idx_x() as usize % THREADS;
        let lane = Lane::new::<S>(thread);
        let first_row = block_idx_x() as usize * S::BLOCK_N;
        let Range { start: first_step, end: end_step } = steps;
        let shared = (dynamic_shared_address() + RING_ALIGN as u32 - 1) & !(RING_ALIGN as u32 - 1);
        let stage_of = |step: usize| shared + ((step % S::STAGES) * S::STAGE_BYTES) as u32;
        let constants_of = |step: usize| shared + (S::STAGES * S::STAGE_BYTES + (step % 2) * S::PARAM_BYTES) as u32;
        // This thread's row of group constants (rows past n take row n - 1's)
        // and its share of the row's slots in a step: all of them (256 rows a
        // block), or half (128 rows, two threads a row, one per warpgroup).
        let param_row = (first_row + thread % S::BLOCK_N).min(n - 1);
        let param_slot = (8 * (thread % S::BLOCK_N)) as u32;
        let slots_per_thread = GROUPS_PER_STEP * S::BLOCK_N / THREADS;
        let first_slot = thread / S::BLOCK_N * slots_per_thread;
        let slots = first_slot..first_slot + slots_per_thread;
        let step_groups = StepGroups::new(&groups, k);

        // Zero once: a tile's first MMAs overwrite them (see `wgmma::mma`),
        // and with no steps every tile's sums are these zeros.
        let mut acc = [[0.0f32; ACC]; TILES];
        for first_m in activation_tiles(m, S::BLOCK_M) {
            let copies =
                stage_copies::<T, S, THREADS>((x, qweight), (m, n, k), (first_row, first_m), thread, (true, true));
            // Copies step `i` into its stage (none past the slice's last
            // step), then commits a group either way, so that the `j`-th
            // group holds the slice's `j`-th step.
            let issue = |i: usize| {
                if i < end_step {
                    let stage = stage_of(i);
                    // SAFETY: the stage's slots; x and the weights as the caller's.
                    unsafe { copies.copy(stage, i) };
                }
                async_copy::commit();
            };

            for i in 0..S::STAGES - 2 {
                issue(first_step + i);
            }
            for i in first_step..end_step {
                let (stage, constants) = (stage_of(i), constants_of(i));
                // Loaded now, from L1 (prefetched during step i - 1), and
                // stored at once: a load still in flight at a `wgmma.fence`
                // would stall it.
                // SAFETY: param_row < n; the buffer's slots.
                unsafe {
                    let raw = step_groups.raw(&groups, param_row, i, slots.clone());
                    store_constants::<T, S>(constants + param_slot, &raw, slots.clone());
                }
                // Step i's copies were the last group but S::STAGES - 3.
                match S::STAGES {
                    3 => async_copy::wait::<0>(),
                    _ => async_copy::wait::<1>(),
                }
                wgmma::fence_shared_writes();
                // Step i's codes, activations and constants are in; every
                // warpgroup is done with step i - 2's stage.
                sync_threads();
                issue(i + S::STAGES - 2);
                if i + 1 < end_step {
                    // SAFETY: param_row < n, step i + 1 < ceil(k / 128).
                    unsafe { step_groups.prefetch(&groups, param_row, i + 1, slots.clone()) };
                }
                let accumulate = i > first_step;
                // SAFETY: the whole block, after the barrier that made the stage visible.
                unsafe {
                    mma_step::<T, S, TILES, ACC, false, true>(
                        &mut acc,
                        accumulate,
                        (stage, constants, ConstantForm::Slots),
                        &lane,
                        |_| {},
                    )
                };
            }
            wgmma::wait::<0>();
            for acc in acc.iter_mut() {
                wgmma::fence_accumulators(acc);
            }
            async_copy::wait::<0>();
            // The next tile's copies overwrite the stages every warp reads.
            sync_threads();
            // SAFETY: forwarded from the caller.
            unsafe { lane.store_tiles(&acc, first_row, first_m, &out) };
        }
    }

    /// Where a consumer lane `(g, t)` of warp `warp` (of the block's
    /// warpgroups) works: its first weight row in the block (row `g` of
    /// its warp's 16 in tile 0; tile `a` adds 64 rows, the second row 8),
    /// that row's codes and constants in a stage and buffer, the swizzle of
    /// its rows' code chunks (the same for all of them), and the descriptor
    /// of the stage's activations.
    pub(in crate::int4_linear) struct Lane {
        row: usize,
        t: usize,
        codes: u32,
        code_swizzle: u32,
        params: u32,
        b_descriptor: u64,
        /// The lane's row of `ldmatrix` in a 16-row tile's activations
        /// ([`Lane::b_rows`]): its byte offset in a half, the low bit of
        /// its 16-byte chunk, and its swizzle.
        b_row: u32,
        b_chunk: u32,
        b_swizzle: u32,
    }

    impl Lane {
        #[inline(always)]
        pub(in crate::int4_linear) fn new<S: WgmmaTile>(thread: usize) -> Self {
            let (warp, lane) = (thread / 32, lane_id() as usize);
            let row = S::WARPGROUP_N * (warp / 4) + 16 * (warp % 4) + lane / 4;
            Self {
                row,
                t: lane % 4,
                codes: (64 * row) as u32,
                code_swizzle: code_swizzle(row),
                params: (8 * row) as u32,
                b_descriptor: wgmma::descriptor_swizzle128(0, 1024),
                // Lanes 0-7: activation rows 0-7, the even chunk; lanes 8-15
                // the odd chunk; lanes 16-31 rows 8-15 alike.
                b_row: (128 * (8 * (lane / 16) + lane % 8)) as u32,
                b_chunk: (lane / 8 % 2) as u32,
                b_swizzle: (lane % 8) as u32,
            }
        }

        /// The shared address of the lane's row of `ldmatrix` for MMA
        /// chunk `chunk` (columns `16 chunk .. + 16`) of the activation
        /// rows `16 rows .. + 16` of a stage at `stage` (16- and 32-row
        /// tiles): its four 8 x 8 matrices are the first and the last 8 of
        /// those rows, each of the chunk's two 16-byte chunks (`2 (chunk %
        /// 4)` and the next of half `chunk / 4`, in the layout above), which
        /// are the B fragments of the chunk's two `m16n8k16` MMAs on them.
        /// (16 rows are 2048 bytes of a half, two whole swizzle atoms.)
        #[inline(always)]
        fn b_rows<S: WgmmaTile>(&self, stage: u32, chunk: usize, rows: usize) -> u32 {
            let column_chunk = (2 * (chunk % 4) as u32 + self.b_chunk) ^ self.b_swizzle;
            let half = (S::CODE_BYTES_PER_STAGE + S::ACTIVATION_HALF_BYTES * (chunk / 4) + 2048 * rows) as u32;
            stage + half + self.b_row + 16 * column_chunk
        }

        /// Writes the accumulators of the tile of weight rows from
        /// `first_row` and activation rows from `first_m` to `out`, an
        /// output at a time.
        ///
        /// # Safety
        /// `out` as for [`TileOutput::write`].
        #[inline(always)]
        pub(in crate::int4_linear) unsafe fn store_tiles<T, const TILES: usize, const ACC: usize>(
            &self,
            acc: &[[f32; ACC]; TILES],
            first_row: usize,
            first_m: usize,
            out: &impl TileOutput<T>,
        ) {
            for (a, tile) in acc.iter().enumerate() {
                for (i, &value) in tile.iter().enumerate() {
                    let (j, c) = (i / 4, i % 4);
                    let row = first_row + self.row + 64 * a + 8 * (c / 2);
                    let activation_row = first_m + 8 * j + 2 * self.t + c % 2;
                    // SAFETY: from the caller; `write` skips outputs outside m x n.
                    unsafe { out.write(row, activation_row, value) };
                }
            }
        }

        /// [`store_tiles`](Self::store_tiles) in whole lines of `y`, through
        /// `staging` (shared memory the block's MMAs are done with, at least
        /// `256 x BLOCK_M` bytes): per MMA tile `a`, each warpgroup writes its
        /// 64 weight rows x `BLOCK_M` activation rows, with the bias and
        /// rounded to `T`, as `BLOCK_M` rows of 128 bytes (8 chunks of 16
        /// bytes, chunk `c` of activation row `j` at `128 j + 16 (c ^ (j %
        /// 8))`, so that the lanes' 2-byte writes and 16-byte reads meet no
        /// bank conflict); then each of its threads reads chunks and stores
        /// them into `y`, 8 lanes an activation row's 128 contiguous bytes.
        /// A warp store writes 4 whole lines of `y`, where
        /// [`store_tiles`](Self::store_tiles)' writes 16-byte pieces of 4
        /// rows, half a sector each. The stage is read and written at
        /// addresses worked out once a lane (`writes`, `reads`): computed an
        /// output at a time, ptxas spilled 1.2 KB a thread and the tile was
        /// 4-9% slower than with `store_tiles`; this form was 2-9% faster
        /// (run 38, calls F to H: without any stores a tile took 10-16%
        /// less time).
        ///
        /// # Safety
        /// Every consumer thread (`CONSUMER_THREADS`) calls it after its
        /// MMAs are complete; `out.y` is 16-byte aligned, `out.n` a multiple
        /// of 8, and `out` as for [`TileOutput::write`].
        #[inline(always)]
        pub(in crate::int4_linear) unsafe fn store_lines<
            T: WgmmaHalf,
            S: WgmmaTile,
            const TILES: usize,
            const ACC: usize,
        >(
            &self,
            acc: &[[f32; ACC]; TILES],
            staging: u32,
            out: &Epilogue<T>,
            first_row: usize,
            first_m: usize,
        ) {
            const { assert!(size_of::<T>() == 2 && 2 * ACC == S::BLOCK_M && 2 * 128 * S::BLOCK_M <= S::STAGE_BYTES) };
            let (warpgroup, row_in_tile) = (self.row / S::WARPGROUP_N, self.row % 64);
            let region = staging + (warpgroup * 128 * S::BLOCK_M) as u32;
            let reader = thread_idx_x() as usize % 128;
            // Each row's bias, loaded before the wait for the other warpgroup.
            let terms: [[f32; 2]; TILES] =
                from_fn(|a| from_fn(|half| out.row_term(first_row + self.row + 64 * a + 8 * half)));
            // SAFETY: the consumer threads, together: both warpgroups' MMAs
            // have read the stage.
            unsafe { sync_named::<3, 256>() };
            // The lane's writes: accumulator 4 j + c at activation row 8 j +
            // 2 t + c % 2 and row `row_in_tile + 8 (c / 2)`, so at
            // `writes[c] + 1024 j` (the swizzle depends on the activation
            // row modulo 8 only); its reads: chunk `reader % 8` of
            // activation rows `reader / 8 + 16 p`, at `reads + 2048 p`.
            let writes: [u32; 4] = from_fn(|c| {
                let (row, activation_row) = (row_in_tile + 8 * (c / 2), 2 * self.t + c % 2);
                region + (128 * activation_row + 16 * ((row / 8) ^ activation_row) + 2 * (row % 8)) as u32
            });
            let (read_row, chunk) = (reader / 8, reader % 8);
            let reads = region + (128 * read_row + 16 * (chunk ^ (read_row % 8))) as u32;
            for (a, tile) in acc.iter().enumerate() {
                for (i, &sum) in tile.iter().enumerate() {
                    let (j, c) = (i / 4, i % 4);
                    // SAFETY: T is 2 bytes (asserted above).
                    let bits: u16 = unsafe { transmute_copy(&T::from_f32(sum + terms[a][c / 2])) };
                    // SAFETY: inside the warpgroup's region, 2-byte aligned.
                    unsafe { store_shared2(writes[c] + (1024 * j) as u32, bits) };
                }
                // SAFETY: the warpgroup's 128 threads, together.
                unsafe { sync_named_warpgroup(warpgroup) };
                let row = first_row + S::WARPGROUP_N * warpgroup + 64 * a + 8 * chunk;
                for p in 0..S::BLOCK_M / 16 {
                    let m = first_m + read_row + 16 * p;
                    // SAFETY: inside the region, 16-byte aligned.
                    let words = unsafe { load_shared16(reads + (2048 * p) as u32) };
                    if row < out.n && m < out.m {
                        // SAFETY: the 8 outputs from (m, row) are inside y (n a
                        // multiple of 8), 16-byte aligned (y, n and row).
                        unsafe { store_words(out.y.add(m * out.n + row), words) };
                    }
                }
                if a + 1 < TILES {
                    // SAFETY: as above; the next tile's writes wait for these reads.
                    unsafe { sync_named_warpgroup(warpgroup) };
                }
            }
        }
    }

    /// Barrier 1 + `warpgroup` for the 128 threads of consumer warpgroup
    /// `warpgroup` (0 or 1).
    ///
    /// # Safety
    /// The warpgroup's threads, together.
    #[inline(always)]
    unsafe fn sync_named_warpgroup(warpgroup: usize) {
        // SAFETY: forwarded from the caller.
        unsafe {
            if warpgroup == 0 { sync_named::<1, 128>() } else { sync_named::<2, 128>() }
        }
    }

    /// The byte offset (`16 (c ^ s)`, XORed with chunk `c`'s `16 c`) of
    /// a code chunk of weight row `row` in the stage (layout above).
    #[inline(always)]
    fn code_swizzle(row: usize) -> u32 {
        16 * ((row as u32 >> 1) % 4)
    }

    /// The copies of copying thread `thread` (of `THREADS`) into a stage
    /// of `S`'s layout, for the tile of weight rows from `first_row` and
    /// activation rows from `first_m`: its first code chunk `(thread / 4,
    /// thread % 4)` at its swizzled place in the row, its first activation
    /// chunk `(row, c) = (thread / 16, thread % 16)` at its own, the others
    /// `THREADS / 4` code rows (`16 THREADS` bytes, the same swizzle: a
    /// multiple of 8 rows) and `THREADS / 16` activation rows (whole atoms,
    /// `8 THREADS` bytes) further on each. With `codes` or `activations`
    /// false, none of those (they come another way: versions 23 and 13).
    #[inline(always)]
    pub(in crate::int4_linear) fn stage_copies<T, S: WgmmaTile, const THREADS: usize>(
        sources: (*const T, *const u32),
        dims: (usize, usize, usize),
        (first_row, first_m): (usize, usize),
        thread: usize,
        (codes, activations): (bool, bool),
    ) -> StepCopies<T, THREADS> {
        const { assert!(S::BLOCK_N * 4 % THREADS == 0 && S::BLOCK_M * 16 % THREADS == 0) };
        let (code_row, code_chunk) = (thread / 4, thread % 4);
        let code_slot = (64 * code_row) as u32 + ((16 * code_chunk) as u32 ^ code_swizzle(code_row));
        let (activation_row, activation_chunk) = (thread / 16, thread % 16);
        let activation_slot = S::CODE_BYTES_PER_STAGE
            + S::ACTIVATION_HALF_BYTES * (activation_chunk / 8)
            + 128 * activation_row
            + 16 * ((activation_chunk % 8) ^ (activation_row % 8));
        StepCopies::new(
            sources,
            dims,
            (first_row + code_row, code_chunk, code_slot),
            (first_m + activation_row, activation_chunk, activation_slot as u32),
            8 * THREADS as u32,
            // 16-byte chunks of codes (4 a row) and of activations (16 a row) in a stage.
            (if codes { S::BLOCK_N * 4 / THREADS } else { 0 }, if activations { S::BLOCK_M * 16 / THREADS } else { 0 }),
        )
    }

    /// Which group each 32-column slot of a step falls in: slot `p` of step
    /// `i` is the row's columns `128 i + 32 p ..` (slot `4 i + p` of the
    /// row), inside group `(4 i + p) >> slot_shift`.
    pub(in crate::int4_linear) struct StepGroups {
        slots_per_row: u32,
        slot_shift: u32,
    }

    impl StepGroups {
        #[inline(always)]
        pub(in crate::int4_linear) fn new(groups: &GroupParams, k: usize) -> Self {
            Self { slots_per_row: (k / 32) as u32, slot_shift: groups.group_shift - 5 }
        }

        /// Whether a step is one group (G = 128, so `k % 128 == 0`): its
        /// four slots hold the same constants.
        #[inline(always)]
        pub(in crate::int4_linear) fn one_group(&self) -> bool {
            self.slot_shift == 2
        }

        /// The scale bits and zero point of row `row`'s group in each of
        /// the step's slots `slots` (`(0, 0)` in the others, and past `k`,
        /// where the codes and activations are zero), each group read once.
        ///
        /// # Safety
        /// `row < n`.
        #[inline(always)]
        pub(in crate::int4_linear) unsafe fn raw(
            &self,
            groups: &GroupParams,
            row: usize,
            i: usize,
            slots: Range<usize>,
        ) -> [(u16, u32); GROUPS_PER_STEP] {
            // SAFETY: row < n. (Its offsets are computed at each call:
            // hoisted out of the loop they would hold 64-bit registers.)
            let row = unsafe { groups.row(in_place(row)) };
            if self.one_group() {
                // G = 128 (so k % 128 == 0): the step is one group, read
                // once for all its slots, without the general loop's
                // branch a slot. Version 22, whose step is bound by issue,
                // was 5-6% faster on the two largest shapes for it (run
                // 27, call D); versions 19 and 13 within 1%.
                // SAFETY: step i < k / 128, the row's group count.
                let both = unsafe { (row.scale_bits(i), row.zero_point(i)) };
                return one_group_slots(both, slots);
            }
            let mut raw = [(0u16, 0u32); GROUPS_PER_STEP];
            for p in 0..GROUPS_PER_STEP {
                let slot = (GROUPS_PER_STEP * i + p) as u32;
                raw[p] = if !slots.contains(&p) || slot >= self.slots_per_row {
                    (0, 0)
                } else if p > slots.start && slot & ((1 << self.slot_shift) - 1) != 0 {
                    raw[p - 1] // the group of the slot before
                } else {
                    let group = (slot >> self.slot_shift) as usize;
                    // SAFETY: the slot is below k / 32, so its group below k / group_size.
                    unsafe { (row.scale_bits(group), row.zero_point(group)) }
                };
            }
            raw
        }

        /// Whether the producers of tile `S` read the constants a window at
        /// a time ([`ConstantWindows`]): where its version has them
        /// ([`WgmmaTile::CONSTANT_WINDOWS`]), a step is one group, every row
        /// holds whole windows of 8 (`k % 1024 == 0`) and the arrays are
        /// aligned for the windows' vector loads, if the layer has zero
        /// points (two scalar loads a step), rows longer than
        /// [`SCALAR_LOADS_MAX_GROUPS`] or a version that takes them on short
        /// rows too ([`WgmmaTile::SHORT_ROW_WINDOWS`]).
        #[inline(always)]
        pub(in crate::int4_linear) fn windowed<S: WgmmaTile>(&self, groups: &GroupParams) -> bool {
            S::CONSTANT_WINDOWS
                && self.one_group()
                && groups.groups_per_row % WINDOW_STEPS == 0
                && groups.scales as usize % 16 == 0
                && groups.zeros as usize % 4 == 0
                && (!groups.zeros.is_null() || S::SHORT_ROW_WINDOWS || groups.groups_per_row > SCALAR_LOADS_MAX_GROUPS)
        }

        /// Asks L1 for the groups of row `row` in step `i`'s slots `slots`:
        /// the first and last (at most 8 bytes of scales apart).
        ///
        /// # Safety
        /// `row < n`, step `i` below `ceil(k / 128)`.
        #[inline(always)]
        pub(in crate::int4_linear) unsafe fn prefetch(
            &self,
            groups: &GroupParams,
            row: usize,
            i: usize,
            slots: Range<usize>,
        ) {
            // Step i starts below k, and so does its first slot in `slots`.
            let first = (GROUPS_PER_STEP * i + slots.start) as u32;
            let last = (first + slots.len() as u32 - 1).min(self.slots_per_row - 1);
            // SAFETY: row < n, both groups below k / group_size.
            unsafe {
                let row = groups.row(in_place(row));
                row.prefetch((first >> self.slot_shift) as usize);
                row.prefetch((last >> self.slot_shift) as usize);
            }
        }
    }

    /// Steps (groups, at G = 128) of one window of [`ConstantWindows`].
    pub(in crate::int4_linear) const WINDOW_STEPS: usize = 8;

    /// The most groups a row of a symmetric layer for which the producers
    /// keep a scalar load a step: up to `k = 8192` at G = 128 the block's
    /// 256 rows of scales (128 bytes each) about fit in what the ring's
    /// shared memory leaves of L1, where those loads hit. Version 23 at M
    /// = 16, bf16 (docs/PERF.md, run 33): windows for every symmetric layer
    /// slowed 16 x 28672 x 8192 from 57.6 to 60.2 µs and 16 x 4096 x 4096
    /// split 8 by 5% (call B, not explained), while at 16 x 8192 x 28672
    /// split 4 they took 62.2 µs to 58.7 (call F), and with zero points
    /// 76.4 to 62.4. Versions 13 and 23 (from run 48) take the windows on
    /// every row (`WgmmaTile::SHORT_ROW_WINDOWS`).
    const SCALAR_LOADS_MAX_GROUPS: usize = 64;

    /// One producer thread's group constants at G = 128, read a window of
    /// `WINDOW_STEPS` steps at a time (16 bytes of scales and 4 of zero
    /// points, one vector load each) in place of a scalar load or two a
    /// step, with the next window loaded as the current one starts: a
    /// step's constants are in registers when the producer needs them,
    /// where a load a step made each step wait for an L2 round trip.
    pub(in crate::int4_linear) struct ConstantWindows {
        current: ([u32; 4], u32),
        /// Window `index + 1`, where the row has one.
        next: ([u32; 4], u32),
        /// The window `current` holds (`None` before the first).
        index: Option<usize>,
    }

    impl ConstantWindows {
        /// No window loaded yet.
        pub(in crate::int4_linear) const EMPTY: Self = Self { current: ([0; 4], 0), next: ([0; 4], 0), index: None };

        /// As [`StepGroups::raw`], where [`StepGroups::windowed`] holds.
        ///
        /// # Safety
        /// `row < n`, step `i` below `k / 128`, and the layer `windowed`.
        #[inline(always)]
        pub(in crate::int4_linear) unsafe fn raw(
            &mut self,
            groups: &GroupParams,
            row: usize,
            i: usize,
            slots: Range<usize>,
        ) -> [(u16, u32); GROUPS_PER_STEP] {
            let window = i / WINDOW_STEPS;
            if self.index != Some(window) {
                // SAFETY (all three): row < n; windows below k / 128, whole
                // and aligned (`windowed`).
                let row = unsafe { groups.row(in_place(row)) };
                // The window after the current one was loaded as `next` (it
                // is in the row, since step i is); any other (a slice's or
                // tile's first) is loaded now.
                self.current = if self.index.map(|index| index + 1) == Some(window) {
                    self.next
                } else {
                    unsafe { row.window8(WINDOW_STEPS * window) }
                };
                self.index = Some(window);
                let next_first = WINDOW_STEPS * (window + 1);
                if next_first < groups.groups_per_row {
                    self.next = unsafe { row.window8(next_first) };
                }
            }
            let j = i % WINDOW_STEPS;
            let (scales, zeros) = self.current;
            // Selects, not an index: an indexed array would go to local memory.
            let word = match (j < 4, j % 4 < 2) {
                (true, true) => scales[0],
                (true, false) => scales[1],
                (false, true) => scales[2],
                (false, false) => scales[3],
            };
            one_group_slots(((word >> (16 * (j % 2))) as u16, (zeros >> (4 * j)) & 0xF), slots)
        }
    }

    /// A one-group step's constants `both` in each of the slots `slots`,
    /// `(0, 0)` in the others: what [`StepGroups::raw`] and
    /// [`ConstantWindows::raw`] return at G = 128.
    #[inline(always)]
    fn one_group_slots(both: (u16, u32), slots: Range<usize>) -> [(u16, u32); GROUPS_PER_STEP] {
        from_fn(|p| if slots.contains(&p) { both } else { (0, 0) })
    }

    /// Stores the constants `raw` of slots `slots` of one weight row,
    /// converted to [`RowParams`], at `row_params` in a step's buffer
    /// (slot `p` at `row_params + p * PARAM_BYTES / 4`).
    ///
    /// # Safety
    /// `row_params` is the row's 8-byte slot in a buffer of `S::PARAM_BYTES`.
    #[inline(always)]
    pub(in crate::int4_linear) unsafe fn store_constants<T: WgmmaHalf, S: WgmmaTile>(
        row_params: u32,
        raw: &[(u16, u32); GROUPS_PER_STEP],
        slots: Range<usize>,
    ) {
        for (p, &(scale_bits, zero)) in raw.iter().enumerate() {
            if slots.contains(&p) {
                let RowParams { scale, neg_offset } = RowParams::from_raw::<T>(scale_bits, zero);
                // SAFETY: 8-byte aligned, inside the step's buffer.
                unsafe { store_shared8(row_params + (S::PARAM_BYTES / 4 * p) as u32, [scale, neg_offset]) };
            }
        }
    }

    /// Whether [`mma_step`] multiplies a tile of `acc` accumulators a
    /// thread by `mma.sync`, a warp at a time, in place of warpgroup MMAs:
    /// the 16-row tile (versions 22 and 23) and the 32-row one (version
    /// 24). At 64 rows (version 19) `mma.sync` was 14-35% slower
    /// (docs/PERF.md, run 48).
    #[inline(always)]
    pub(in crate::int4_linear) const fn sync_mma(acc: usize) -> bool {
        acc == 8 || acc == 16
    }

    /// How a step's constants lie in its stage, after the codes and
    /// activations.
    #[derive(Clone, Copy)]
    pub(in crate::int4_linear) enum ConstantForm {
        /// The producers' 8-byte slots, one a row and 32 columns
        /// (`store_constants`).
        Slots,
        /// A step of the layer's packed constants
        /// (`quant_kernels_abi::int4::packed_constants`, a step one group)
        /// with zero points: the scale and `-(MAGIC + z)`, 4 bytes a row.
        Packed,
        /// The same without: the scale alone, 2 bytes a row.
        PackedScales,
    }

    /// The MMAs of one step: per 16-column chunk, the warpgroup dequantizes
    /// its A fragments from the stage's codes at `stage` and the constants
    /// at `constants`, fences, issues one MMA a tile as one group, waits
    /// until only that group is pending and calls `after_chunk(chunk)`;
    /// with 16 or 32 activation rows ([`sync_mma`]) each warp instead loads
    /// the chunk's activations with `ldmatrix` and issues two `mma.sync` a
    /// tile and 16 rows, complete when it returns. The
    /// first chunk's MMAs add to `acc` if `accumulate`, else overwrite it
    /// (a tile's first step). With `ONE_GROUP` (G = 128: the step is one
    /// group) only slot 0 of the constants is read, for every slot, and
    /// returned; in the `form` the stage holds them in (other than
    /// [`ConstantForm::Slots`] only with `ONE_GROUP`). Without
    /// `SCALED` (only with `ONE_GROUP`) the fragments are the exact `u -
    /// z`, and the caller applies the step's scales to the sums.
    ///
    /// # Safety
    /// The whole warpgroup calls it; the stage and constants are written
    /// and visible to the MMAs (to the async proxy for warpgroup MMAs, to
    /// the generic proxy for `ldmatrix` where [`sync_mma`]), and stay
    /// unwritten until a `wgmma::wait` covers the step's last group (with
    /// `mma.sync`, until it returns).
    #[inline(always)]
    pub(in crate::int4_linear) unsafe fn mma_step<
        T: WgmmaHalf,
        S: WgmmaTile,
        const TILES: usize,
        const ACC: usize,
        const ONE_GROUP: bool,
        const SCALED: bool,
    >(
        acc: &mut [[f32; ACC]; TILES],
        accumulate: bool,
        (stage, constants, form): (u32, u32, ConstantForm),
        lane: &Lane,
        mut after_chunk: impl FnMut(usize),
    ) -> Option<[[RowParams; 2]; TILES]> {
        const { assert!(TILES * 64 == S::WARPGROUP_N && 2 * ACC == S::BLOCK_M && STEP_K == 128 && (SCALED || ONE_GROUP)) };
        // The constants of slot p for the lane's rows of each tile.
        let slot_params = |p: usize| -> [[RowParams; 2]; TILES] {
            from_fn(|a| {
                from_fn(|h| {
                    // SAFETY (all): an aligned slot inside the buffer.
                    let [scale, neg_offset] = match form {
                        // Slot 0 only (`ONE_GROUP`), 4 bytes a row: the
                        // scale splat here (its low half is all that the
                        // sums' scaling reads), the offset in the asm.
                        ConstantForm::Packed => {
                            let [word, neg_offset] = unsafe {
                                load_shared_high_splat(constants + (256 * a + 32 * h) as u32 + lane.params / 2)
                            };
                            [splat2(word as u16), neg_offset]
                        }
                        // 2 bytes a row, and every zero point 8.
                        ConstantForm::PackedScales => {
                            let scale = unsafe { load_shared2(constants + (128 * a + 16 * h) as u32 + lane.params / 4) };
                            [splat2(scale), splat2(neg_offset_bits(SYMMETRIC_ZERO_POINT, T::NEG_MAGIC_BITS))]
                        }
                        ConstantForm::Slots => {
                            let slot = constants + (S::PARAM_BYTES / 4 * p + 512 * a + 64 * h) as u32 + lane.params;
                            unsafe { load_shared8(slot) }
                        }
                    };
                    RowParams { scale, neg_offset }
                })
            })
        };
        let step_params = ONE_GROUP.then(|| slot_params(0));
        // The 16- and 32-row tiles multiply by `mma.sync`, a warp at a time
        // (docs/PERF.md, run 47: 2-7% faster at 16 rows, split or not,
        // than its warpgroup MMAs): their MMAs are small, and each chunk's
        // warpgroup MMA made the four warps meet and wait for it. The
        // accumulators' layout is the same: 4 a tile's 8 activation rows.
        let sync_mma = sync_mma(ACC);
        if sync_mma && !accumulate {
            *acc = [[0.0; ACC]; TILES];
        }
        for p in 0..GROUPS_PER_STEP {
            // Words 4p .. 4p + 4 (columns 32p .. 32p + 32, slot p of the
            // constants) of the lane's rows, and their group's constants.
            // SAFETY: aligned slots inside the stage.
            let codes: [[[u32; 4]; 2]; TILES] = from_fn(|a| {
                let chunk = lane.codes + ((16 * p as u32) ^ lane.code_swizzle);
                from_fn(|h| unsafe { load_shared16(stage + chunk + (4096 * a + 512 * h) as u32) })
            });
            let row_params = step_params.unwrap_or_else(|| slot_params(p));
            for half in 0..2 {
                let fragments: [[u32; 4]; TILES] = from_fn(|a| {
                    let [low, high] = [2 * half, 2 * half + 1];
                    let pair = |h: usize, word: usize| match SCALED {
                        true => dequantize_pair::<T>(codes[a][h][word], lane.t as u32, row_params[a][h]),
                        false => codes_minus_zero::<T>(codes[a][h][word], lane.t as u32, row_params[a][h].neg_offset),
                    };
                    [pair(0, low), pair(1, low), pair(0, high), pair(1, high)]
                });
                let chunk = 2 * p + half;
                if sync_mma {
                    for rows in 0..ACC / 8 {
                        // SAFETY: the whole warp; rows of the stage's activations.
                        let b = unsafe { load_matrices_x4(lane.b_rows::<S>(stage, chunk, rows)) };
                        for (a, acc) in acc.iter_mut().enumerate() {
                            // Accumulators 8 rows + 0-3: activation rows 16
                            // rows + 0-7; 8 rows + 4-7: 16 rows + 8-15.
                            let (first, last) = acc[8 * rows..8 * rows + 8].split_at_mut(4);
                            T::mma(first.try_into().unwrap(), fragments[a], [b[0], b[1]]);
                            T::mma(last.try_into().unwrap(), fragments[a], [b[2], b[3]]);
                        }
                    }
                    after_chunk(chunk);
                    continue;
                }
                let b = wgmma::advance(
                    lane.b_descriptor,
                    stage
                        + (S::CODE_BYTES_PER_STAGE + S::ACTIVATION_HALF_BYTES * (chunk / 4) + 32 * (chunk % 4)) as u32,
                );
                wgmma::fence();
                for (a, acc) in acc.iter_mut().enumerate() {
                    // SAFETY: the whole warpgroup, after the fence; the
                    // stage is rewritten only after this MMA is waited for.
                    unsafe { wgmma::mma::<T, ACC>(acc, fragments[a], b, accumulate || chunk > 0) };
                }
                wgmma::commit();
                wgmma::wait::<1>();
                after_chunk(chunk);
            }
        }
        step_params
    }
}
