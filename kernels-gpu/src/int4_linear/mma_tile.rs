//! What the tensor-core versions (3 to 7, 10 to 13, 17) share: their entry
//! points, the dequantization of a lane's codes into MMA fragments, the 8
//! MMAs of a warp step, the epilogue that adds the warps' partial tiles and
//! stores them, and the entry points of the tiled GEMMs (7 and 10 to 13) around
//! their main loops.
//! The fragment layout is in [`crate::mma`]; how a lane's columns map to MMA
//! slots is in the documentation of version 3.

use super::GroupParams;
use crate::async_copy::copy16;
use crate::device::{
    Strided, block_dim_x, block_dim_y, block_idx_x, block_idx_y, block_idx_z, dynamic_shared_memory, grid_dim_y,
    grid_dim_z, lane_id, sync_threads, thread_idx_y, warp_id,
};
use crate::mma::{MmaHalf, magic_plus_codes, splat2};
use crate::wgmma::WgmmaHalf;
use core::ops::Range;
use quant_kernels_abi::int4::packed_constants::neg_offset_bits;
use quant_kernels_abi::int4::{BAND_ROWS, STEP_WORDS, padded_words_per_row, word_index};
#[cfg(target_feature = "sm_90a")]
use {crate::device::grid_dim_x, quant_kernels_abi::int4_linear::tile_order};
use quant_kernels_abi::int4_linear::v3::{M_PER_TILE, ROWS_PER_BLOCK};
use quant_kernels_abi::int4_linear::v7::{STEP_K, slice_steps};

/// Exports a tensor-core version's entry points (through
/// `export_per_float!`), one per activation type and number of MMA tiles of
/// activation rows (and the body's other constants: group size, row tiles;
/// the tiled GEMMs, versions 7 and 10 to 13, have none but their main loop:
/// `linear_tiled<V7>`). All take the arguments of `int4_linear_v1_m1_f32`,
/// with `x` and `y` of the entry's type (`bias` stays f32), `x` and
/// `qweight` 16-byte aligned. Launch (versions 3 to 6): grid `(ceil(n /
/// rows per block), min(ceil(m / (8 * n_tiles)), MAX_GRID_Y))`, 1 to 16
/// warps, and the version's `shared_bytes` of dynamic shared memory;
/// versions 7 and 10 to 13 have theirs in their files.
macro_rules! entry_points {
    ($body:ident<$kernel:ty>: $($name:ident: $type:ty;)*) => {
        $($crate::int4_linear::mma_tile::entry_points!(@one $body [, $kernel] $name $type);)*
    };
    ($body:ident: $($name:ident: $type:ty $(, $constant:expr)*;)*) => {
        $($crate::int4_linear::mma_tile::entry_points!(@one $body [$(, { $constant })*] $name $type);)*
    };
    // A body that calls `grid_dependency`'s wait itself, after the work it
    // may do before the previous grid ends.
    ($body:ident, waits itself: $($name:ident: $type:ty $(, $constant:expr)*;)*) => {
        $($crate::int4_linear::mma_tile::entry_points!(@entry {} $body [$(, { $constant })*] $name $type);)*
    };
    (@one $body:ident $generic:tt $name:ident $type:ty) => {
        $crate::int4_linear::mma_tile::entry_points!(
            @entry { $crate::grid_dependency::begin_after_previous_grid() } $body $generic $name $type
        );
    };
    (@entry $prologue:block $body:ident [$($generic:tt)*] $name:ident $type:ty) => {
        export_per_float!(
            @entry $prologue $body [$($generic)*] (
                x: *const T, qweight: *const u32, scales: *const u16, zeros: *const u8, bias: *const f32,
                y: *mut T, m: u32, n: u32, k: u32, group_size: u32,
            ) $name $type
        );
    };
}
pub(super) use entry_points;

/// Exports a tiled GEMM's four entry points (through `export_per_float!`):
/// `linear_tiled<$kernel>` in f16 and bf16, with the arguments of
/// [`entry_points!`], and `linear_tiled_split_k<$kernel>`, which takes
/// `partials` (`[gridDim.z][m][n]` f32) in place of `bias` and `y`.
macro_rules! tiled_entry_points {
    ($kernel:ty: $f16:ident, $bf16:ident; split_k: $f16_split:ident, $bf16_split:ident) => {
        // The main loop waits for the previous grid itself (`TiledGemm::sum_tiles`).
        $crate::int4_linear::mma_tile::entry_points!(@entry {} linear_tiled [, $kernel] $f16 f16);
        $crate::int4_linear::mma_tile::entry_points!(@entry {} linear_tiled [, $kernel] $bf16 Bf16);
        $crate::int4_linear::mma_tile::tiled_entry_points!(@split_k $kernel, $f16_split f16);
        $crate::int4_linear::mma_tile::tiled_entry_points!(@split_k $kernel, $bf16_split Bf16);
    };
    (@split_k $kernel:ty, $name:ident $float:ty) => {
        export_per_float!(
            @entry {} linear_tiled_split_k [, $kernel] (
                x: *const T, qweight: *const u32, scales: *const u16, zeros: *const u8, partials: *mut f32,
                m: u32, n: u32, k: u32, group_size: u32,
            ) $name $float
        );
    };
}
pub(super) use tiled_entry_points;

/// Exports the four entry points of a tiled GEMM that reads `x` and
/// `qweight` through tensor maps (versions 12, 13, 19, 23 and 24): those of
/// [`tiled_entry_points!`], with a [`TensorMap`](crate::tma::TensorMap) in
/// each of the two arguments' place, which the generic body gets as a
/// [`TensorMapAddress`](crate::tma::TensorMapAddress) (see
/// [`tensor_map_address!`](crate::tma::tensor_map_address)). The caller
/// imports `TensorMap`, `tensor_map_address`, `Bf16`, `linear_tiled` and
/// `linear_tiled_split_k`.
macro_rules! tensor_map_entry_points {
    ($kernel:ty: $f16:ident, $bf16:ident; split_k: $f16_split:ident, $bf16_split:ident) => {
        $crate::int4_linear::mma_tile::tensor_map_entry_points!(@entry $kernel, $f16: linear_tiled<f16>(bias: *const f32, y: *mut f16));
        $crate::int4_linear::mma_tile::tensor_map_entry_points!(@entry $kernel, $bf16: linear_tiled<Bf16>(bias: *const f32, y: *mut Bf16));
        $crate::int4_linear::mma_tile::tensor_map_entry_points!(@entry $kernel, $f16_split: linear_tiled_split_k<f16>(partials: *mut f32));
        $crate::int4_linear::mma_tile::tensor_map_entry_points!(@entry $kernel, $bf16_split: linear_tiled_split_k<Bf16>(partials: *mut f32));
    };
    (@entry $kernel:ty, $name:ident: $body:ident<$float:ty>($($out:ident: $out_ty:ty),*)) => {
        #[doc = concat!("`", stringify!($body), "::<", stringify!($float), ", ", stringify!($kernel), ">`.")]
        ///
        /// # Safety
        /// As for the generic body, with the tensor map's argument a map of that array.
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn $name(
            x: TensorMap, qweight: TensorMap, scales: *const u16, zeros: *const u8, $($out: $out_ty,)*
            m: u32, n: u32, k: u32, group_size: u32,
        ) {
            // The main loop waits for the previous grid itself (`TiledGemm::sum_tiles`).
            // The TMA unit reads the maps where they lie (see `tensor_map_address!`).
            let _ = (x, qweight);
            let (x, qweight) = (tensor_map_address!($name, 0), tensor_map_address!($name, 1));
            // SAFETY: the caller's contract is the generic body's.
            unsafe { $body::<$float, $kernel>(x, qweight, scales, zeros, $($out,)* m, n, k, group_size) }
        }
    };
}
pub(super) use tensor_map_entry_points;

/// Where the calling lane works: its warp among the `warps` of its group
/// (`threadIdx.x / 32`; a block has `blockDim.y` groups of warps, one in
/// every version but 17), its place `(g, t) = (lane / 4, lane % 4)` in the
/// MMA fragments, and the two weight rows (`first_row + g` and `+ 8`) it
/// loads for the A operand.
pub(super) struct LanePosition {
    pub warp: usize,
    pub lane: usize,
    pub warps: usize,
    pub g: usize,
    pub t: usize,
    pub first_row: usize,
    /// Rows past `n` read row `n - 1` and are never stored.
    pub rows: [usize; 2],
}

impl LanePosition {
    /// For a layer of `n >= 1` output rows, `rows_per_group` of them a
    /// group of warps (`rows` are those of its first 16): group
    /// `threadIdx.y` of block `b` takes those from `(b * blockDim.y +
    /// threadIdx.y) * rows_per_group`.
    #[inline(always)]
    pub(super) fn new(n: usize, rows_per_group: usize) -> Self {
        // (At least one warp: also keeps a division-by-zero panic path out of the PTX.)
        let (warp, lane, warps) = (warp_id() as usize, lane_id() as usize, (block_dim_x() as usize / 32).max(1));
        let (g, t) = (lane / 4, lane % 4);
        let group = block_idx_x() as usize * block_dim_y() as usize + thread_idx_y() as usize;
        let first_row = group * rows_per_group;
        let rows = Self::rows_at(first_row + g, n);
        Self { warp, lane, warps, g, t, first_row, rows }
    }

    /// The lane's two rows (`g` and `g + 8`) of its group's 16-row tile
    /// `tile`, below `n`.
    #[inline(always)]
    pub(super) fn tile_rows(&self, tile: usize, n: usize) -> [usize; 2] {
        Self::rows_at(self.first_row + ROWS_PER_BLOCK * tile + self.g, n)
    }

    /// Rows `row` and `row + 8`; rows past `n` read row `n - 1` and are never stored.
    #[inline(always)]
    fn rows_at(row: usize, n: usize) -> [usize; 2] {
        [row.min(n - 1), (row + 8).min(n - 1)]
    }
}

/// The first activation row of each tile of `m_tile` rows this block takes:
/// tiles `blockIdx.y, blockIdx.y + gridDim.y, ...` of the `m` rows.
#[inline(always)]
pub(super) fn activation_tiles(m: usize, m_tile: usize) -> impl Iterator<Item = usize> {
    (block_idx_y() as usize..m.div_ceil(m_tile)).step_by(grid_dim_y() as usize).map(move |tile| tile * m_tile)
}

/// Where a block of a producer-consumer GEMM starts: its tile of weight
/// rows, and the first of its tiles of activation rows (in the order of
/// `quant_kernels_abi::int4_linear::tile_order`).
#[cfg(target_feature = "sm_90a")]
pub(super) struct TileOrigin {
    pub(super) n_tile: usize,
    m_tile: usize,
}

#[cfg(target_feature = "sm_90a")]
impl TileOrigin {
    /// This block's, in clusters of `cluster` blocks along `x`.
    #[inline(always)]
    pub(super) fn of_block(cluster: core::num::NonZeroU32) -> Self {
        let block = (block_idx_x(), block_idx_y());
        let grid = (grid_dim_x(), grid_dim_y());
        let (n_tile, m_tile) = tile_order::tile_of_block(block, grid, cluster);
        Self { n_tile: n_tile as usize, m_tile: m_tile as usize }
    }

    /// The first activation row of each tile of `m_tile` rows this block
    /// takes: from its first, in strides of `gridDim.y`.
    #[inline(always)]
    pub(super) fn activation_tiles(&self, m: usize, m_tile: usize) -> impl Iterator<Item = usize> {
        (self.m_tile..m.div_ceil(m_tile)).step_by(grid_dim_y() as usize).map(move |tile| tile * m_tile)
    }
}

/// A row's dequantization constants for one step, as packed pairs: the
/// scale, and `-(MAGIC + z)`.
#[derive(Clone, Copy, Default)]
pub(super) struct RowParams {
    pub scale: u32,
    pub neg_offset: u32,
}

impl RowParams {
    /// The constants of rows `rows` for the group holding column `col`.
    ///
    /// # Safety
    /// `rows[r] < n` and `col < k` (or `col == 0`).
    #[inline(always)]
    pub(super) unsafe fn of_rows<T: MmaHalf>(groups: &GroupParams, rows: [usize; 2], col: usize) -> [Self; 2] {
        let group = groups.group_of(col);
        core::array::from_fn(|r| {
            // SAFETY: forwarded from the caller.
            let (scale, zero) = unsafe { (groups.scale_bits(rows[r], group), groups.zero_point(rows[r], group)) };
            Self::from_raw::<T>(scale, zero)
        })
    }

    /// The constants of a group of scale `scale_bits` (f16) and zero point `zero`.
    #[inline(always)]
    pub(super) fn from_raw<T: MmaHalf>(scale_bits: u16, zero: u32) -> Self {
        RowParams { scale: splat2(T::from_f16_bits(scale_bits)), neg_offset: splat2(neg_offset_bits(zero, T::NEG_MAGIC_BITS)) }
    }
}

/// Two weights `(u - z) * s` of `word`'s nibble pair `pair` (elements
/// `2 * pair` and `2 * pair + 1`), packed.
#[inline(always)]
pub(super) fn dequantize_pair<T: MmaHalf>(word: u32, pair: u32, params: RowParams) -> u32 {
    // + (-0.0): a plain product, rounded once.
    T::fma2(codes_minus_zero::<T>(word, pair, params.neg_offset), params.scale, 0x8000_8000)
}

/// The unscaled `u - z` of `word`'s nibble pair `pair`, packed: exact, as
/// `|u - z| < 16`. `neg_offset` is [`RowParams::neg_offset`].
#[inline(always)]
pub(super) fn codes_minus_zero<T: MmaHalf>(word: u32, pair: u32, neg_offset: u32) -> u32 {
    T::fma2(magic_plus_codes::<T>(word >> (4 * pair)), splat2(T::ONE_BITS), neg_offset)
}

/// One warp step: the lane's 32 columns of rows `g` and `g + 8` (`codes`,
/// one 16-byte chunk each) times the same columns of its activation rows
/// (`activations`, 16 pairs per MMA tile), as 8 MMAs per tile into `acc`.
/// The whole warp calls it together.
#[inline(always)]
pub(super) fn mma_step<T: MmaHalf, const N_TILES: usize>(
    acc: &mut [[f32; 4]; N_TILES],
    codes: &[[u32; 4]; 2],
    activations: &[[u32; 16]; N_TILES],
    params: &[RowParams; 2],
) {
    for word in 0..4 {
        let quads: [[u32; 4]; N_TILES] =
            core::array::from_fn(|j| core::array::from_fn(|i| activations[j][4 * word + i]));
        mma_word::<T, N_TILES>(acc, [codes[0][word], codes[1][word]], &quads, params);
    }
}

/// A quarter of [`mma_step`]: one code word of rows `g` and `g + 8` (8
/// columns each) times the same columns of the activation rows (`quads`: 4
/// pairs per MMA tile, the slots `4 word .. 4 word + 4` of `mma_step`'s
/// activations), as 2 MMAs per tile. Each A fragment is dequantized once
/// for all `N_TILES` tiles. The whole warp calls it together.
#[inline(always)]
pub(super) fn mma_word<T: MmaHalf, const N_TILES: usize>(
    acc: &mut [[f32; 4]; N_TILES],
    codes: [u32; 2],
    quads: &[[u32; 4]; N_TILES],
    params: &[RowParams; 2],
) {
    for half in 0..2u32 {
        let pair = 2 * half;
        let a = [
            dequantize_pair::<T>(codes[0], pair, params[0]),
            dequantize_pair::<T>(codes[1], pair, params[1]),
            dequantize_pair::<T>(codes[0], pair + 1, params[0]),
            dequantize_pair::<T>(codes[1], pair + 1, params[1]),
        ];
        let slot = 2 * half as usize;
        for j in 0..N_TILES {
            T::mma(&mut acc[j], a, [quads[j][slot], quads[j][slot + 1]]);
        }
    }
}

/// Where a layer's outputs go and what is added to them.
#[derive(Clone, Copy)]
pub(super) struct Epilogue<T> {
    pub bias: *const f32,
    pub y: *mut T,
    pub m: usize,
    pub n: usize,
}

impl<T: MmaHalf> Epilogue<T> {
    /// Adds the partial tiles of the `warps` warps of the calling group
    /// (`threadIdx.x / 32`, see [`LanePosition`]) through shared memory
    /// (`warps * N_TILES * 512` bytes a group, group `threadIdx.y`'s after
    /// the others before it; free for reuse on entry) and stores their
    /// outputs, rows from `first_row` and activation rows from `first_m`,
    /// with the bias, rounded to `T`. Every thread of the block calls it, each
    /// group with its own tile; shared memory is free again on return.
    ///
    /// # Safety
    /// `y` holds `m x n` elements, `bias` is null or holds `n`.
    #[inline(always)]
    pub(super) unsafe fn store<const N_TILES: usize>(
        &self,
        first_row: usize,
        first_m: usize,
        acc: &[[f32; 4]; N_TILES],
        warp: usize,
        lane: usize,
        warps: usize,
    ) {
        // [group][warp][tile][register][lane] f32.
        let partials = dynamic_shared_memory::<f32>().wrapping_add(thread_idx_y() as usize * warps * N_TILES * 4 * 32);
        sync_threads(); // shared memory may still be read as staging
        for (j, tile) in acc.iter().enumerate() {
            for (c, value) in tile.iter().enumerate() {
                // SAFETY: below warps * N_TILES * 4 * 32 floats.
                unsafe { *partials.add(((warp * N_TILES + j) * 4 + c) * 32 + lane) = *value };
            }
        }
        sync_threads();
        for i in Strided::block().over(N_TILES * 4 * 32) {
            let (register, owner) = (i / 32, i % 32);
            let (row, activation_row) =
                fragment_output(first_row, first_m, (owner / 4, owner % 4), register / 4, register % 4);
            let mut total = 0.0f32;
            for w in 0..warps {
                // SAFETY: written before the barrier, below warps * N_TILES * 4 * 32 floats.
                total += unsafe { *partials.add((w * N_TILES * 4 + register) * 32 + owner) };
            }
            // SAFETY: y holds m x n elements and bias n (or is null), from the
            // caller; `write` skips outputs outside them.
            unsafe { self.write(row, activation_row, total) };
        }
        sync_threads(); // the next tile overwrites shared memory
    }

    /// Stores a warp's tiles when it is the only warp of its group: each lane
    /// its own accumulators (fragment position `(g, t)`: rows `first_row + g`
    /// and `+ 8`, activation rows `first_m + 8 j + 2 t` and `+ 1` of tile
    /// `j`), with the bias, rounded to `T`. No shared memory, no barrier.
    ///
    /// # Safety
    /// `y` holds `m x n` elements, `bias` is null or holds `n`.
    #[inline(always)]
    pub(super) unsafe fn store_fragments<const N_TILES: usize>(
        &self,
        first_row: usize,
        first_m: usize,
        acc: &[[f32; 4]; N_TILES],
        g: usize,
        t: usize,
    ) {
        for (j, tile) in acc.iter().enumerate() {
            for (c, &total) in tile.iter().enumerate() {
                let (row, activation_row) = fragment_output(first_row, first_m, (g, t), j, c);
                // SAFETY: from the caller; `write` skips outputs outside m x n.
                unsafe { self.write(row, activation_row, total) };
            }
        }
    }

    /// The bias of weight row `row`, if there is one and `row < n`.
    #[inline(always)]
    fn bias_at(&self, row: usize) -> Option<f32> {
        // SAFETY: bias holds n floats when not null.
        (row < self.n && !self.bias.is_null()).then(|| unsafe { *self.bias.add(row) })
    }

    /// What every output of weight row `row` adds: its bias (0 without one,
    /// and past `n`).
    #[cfg_attr(not(target_feature = "sm_90a"), allow(dead_code))] // the warpgroup-MMA versions' epilogue
    #[inline(always)]
    pub(super) fn row_term(&self, row: usize) -> f32 {
        self.bias_at(row).unwrap_or(0.0)
    }
}

/// Where a tiled GEMM's sums go: the layer's `y`, with the bias
/// ([`Epilogue`]), or a split-K slice of f32 partial sums (a closure).
pub(super) trait TileOutput<T>: Copy {
    /// Stores the sum of output `(row, activation_row)` (weight row,
    /// activation row), if it is inside `m x n` (tiles overhang both).
    ///
    /// # Safety
    /// The buffers it writes hold its `m x n` outputs.
    unsafe fn write(&self, row: usize, activation_row: usize, sum: f32);

    /// The layer's outputs, where a version may store them in whole 16-byte
    /// pieces of `y`'s rows instead (`y` 16-byte aligned, `n` a multiple
    /// of 8: versions 12, 13, 19, 22 and 23, [`super::v10`]'s
    /// `Lane::store_lines`).
    #[cfg_attr(not(target_feature = "sm_90a"), allow(dead_code))] // the warpgroup-MMA versions' epilogue
    fn whole_lines(&self) -> Option<Epilogue<T>>;
}

impl<T: MmaHalf> TileOutput<T> for Epilogue<T> {
    /// Stores `y[activation_row][row] = sum + bias[row]`, rounded to `T`.
    ///
    /// # Safety
    /// `y` holds `m x n` elements, `bias` is null or holds `n`.
    #[inline(always)]
    unsafe fn write(&self, row: usize, activation_row: usize, mut sum: f32) {
        if row < self.n && activation_row < self.m {
            // Added only where there is a bias: `sum + 0.0` would be an
            // instruction (it is not `sum` for -0).
            if let Some(bias) = self.bias_at(row) {
                sum += bias;
            }
            // SAFETY: row < n and activation_row < m.
            unsafe { *self.y.add(activation_row * self.n + row) = T::from_f32(sum) };
        }
    }

    #[inline(always)]
    fn whole_lines(&self) -> Option<Epilogue<T>> {
        (self.y as usize % 16 == 0 && self.n % 8 == 0).then_some(*self)
    }
}

/// A split-K slice's store of one f32 partial sum, `(row, activation_row,
/// sum)`, which skips outputs past `n` or `m` (see [`linear_tiled_split_k`]).
/// A closure rather than a struct of the slice's address and size: with the
/// struct, LLVM kept each output's address in a register across the tile's
/// stores and ptxas spilled 80-260 bytes in the split-K entry points;
/// version 13's were 8% slower (run 39, call B).
impl<T, F: Fn(usize, usize, f32) + Copy> TileOutput<T> for F {
    #[inline(always)]
    unsafe fn write(&self, row: usize, activation_row: usize, sum: f32) {
        self(row, activation_row, sum)
    }

    #[inline(always)]
    fn whole_lines(&self) -> Option<Epilogue<T>> {
        None
    }
}

/// The output of accumulator `c` of MMA tile `j` of the lane at `(g, t)`
/// in the fragments of a warp whose tiles start at weight row `first_row`
/// and activation row `first_m`: `(weight row, activation row)`.
#[inline(always)]
fn fragment_output(first_row: usize, first_m: usize, (g, t): (usize, usize), j: usize, c: usize) -> (usize, usize) {
    (first_row + g + 8 * (c / 2), first_m + M_PER_TILE * j + 2 * t + c % 2)
}

/// The main loop of a tiled GEMM (versions 7 and 10 to 13), which the two entry
/// points of each share: [`linear_tiled`] over the whole of `K`, into `y`
/// with the bias, and [`linear_tiled_split_k`] over one slice of it, into
/// an f32 workspace.
pub(super) trait TiledGemm {
    /// What the main loop reads the activations through: their address
    /// (`*const T`), or (version 13) a tensor map of them.
    type Activations<T: WgmmaHalf>: Copy;

    /// What the main loop reads the codes through: their address (`*const
    /// u32`), or (version 23) a tensor map of them.
    type Codes: Copy;

    /// Each of the block's output tiles summed over `steps` (steps of
    /// `STEP_K` columns, within `0..ceil(k / STEP_K)`), each sum handed to
    /// `out`. It waits for the previous grid (`grid_dependency`) before it
    /// touches global memory other than by L2 prefetches.
    ///
    /// # Safety
    /// As for the entry points (`x`, the weights, `m`, `n`, `k` and
    /// `group_size`), and the version's launch shape; `out` as for
    /// [`TileOutput::write`], for `m x n` outputs.
    unsafe fn sum_tiles<T: WgmmaHalf>(
        x: Self::Activations<T>,
        qweight: Self::Codes,
        groups: GroupParams,
        dims: (usize, usize, usize),
        steps: Range<usize>,
        out: impl TileOutput<T>,
    );
}

/// A tiled GEMM over the whole of `K`, into `y` with the bias.
///
/// # Safety
/// As for the entry points, and the version's launch shape.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn linear_tiled<T: WgmmaHalf, G: TiledGemm>(
    x: G::Activations<T>,
    qweight: G::Codes,
    scales: *const u16,
    zeros: *const u8,
    bias: *const f32,
    y: *mut T,
    m: u32,
    n: u32,
    k: u32,
    group_size: u32,
) {
    let (m, n, k) = (m as usize, n as usize, k as usize);
    let groups = GroupParams::new(scales, zeros, k, group_size);
    // SAFETY: forwarded from the caller (y holds m x n elements, bias n or is null).
    unsafe { G::sum_tiles(x, qweight, groups, (m, n, k), 0..k.div_ceil(STEP_K), Epilogue { bias, y, m, n }) }
}

/// Split-K: block `(bx, by, bz)` sums slice `bz` of the steps of `K` into
/// `partials[bz]` (`[gridDim.z][m][n]` f32), without the bias: slice `z`
/// takes `slice_steps(steps, gridDim.z)` steps from step `z *
/// slice_steps` (the last ones may be shorter or empty; an empty one
/// stores zeros). `split_k.rs` adds the slices into `y`.
///
/// # Safety
/// As for [`linear_tiled`], with `partials` holding `gridDim.z * m * n` f32.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn linear_tiled_split_k<T: WgmmaHalf, G: TiledGemm>(
    x: G::Activations<T>,
    qweight: G::Codes,
    scales: *const u16,
    zeros: *const u8,
    partials: *mut f32,
    m: u32,
    n: u32,
    k: u32,
    group_size: u32,
) {
    let (m, n, k, slice) = (m as usize, n as usize, k as usize, block_idx_z() as usize);
    let steps = k.div_ceil(STEP_K);
    let per_slice = slice_steps(steps, grid_dim_z() as usize);
    let first_step = (slice * per_slice).min(steps);
    let this_slice = first_step..(first_step + per_slice).min(steps);
    // SAFETY: slice < gridDim.z, so the slice's m x n floats are inside partials.
    let partials = unsafe { partials.add(slice * m * n) };
    let out = |row: usize, activation_row: usize, sum: f32| {
        if row < n && activation_row < m {
            // SAFETY: inside the slice's m x n floats.
            unsafe { *partials.add(activation_row * n + row) = sum };
        }
    };
    let groups = GroupParams::new(scales, zeros, k, group_size);
    // SAFETY: forwarded from the caller.
    unsafe { G::sum_tiles(x, qweight, groups, (m, n, k), this_slice, out) }
}

/// Where a thread's copies of a tiled GEMM step come from and go, for
/// `THREADS` copying threads (a multiple of 64, so that code rows `THREADS
/// / 4` apart are a whole number of `qweight` bands apart): its
/// `code_chunks` 16-byte chunks of codes, the `p`-th of weight row `r +
/// THREADS / 4 * p` (chunk `c` of the step's 4) to `slot + 16 THREADS p`,
/// and its `activation_chunks` chunks of activations, the `p`-th of
/// activation row `r + THREADS / 16 * p` (chunk `c` of the step's 16) to
/// `slot + p * slot_step` (both counts constants of the version, at most
/// 32). Everything but the step's offset is worked out once per tile, so
/// that a copy costs an address add and a predicate.
pub(super) struct StepCopies<T, const THREADS: usize> {
    /// The first code chunk of step 0 (may point past the weights: read only if valid).
    code_source: *const u32,
    code_chunk: usize,
    code_slot: u32,
    code_chunks: usize,
    /// Bit `p`: the `p`-th code chunk's row is below `n`.
    code_rows: u32,
    /// The first activation chunk of step 0 (likewise).
    activation_source: *const T,
    activation_column: usize,
    activation_slot: u32,
    activation_slot_step: u32,
    activation_chunks: usize,
    /// Bit `p`: the `p`-th activation chunk's row is below `m`.
    activation_rows: u32,
    k: usize,
}

impl<T, const THREADS: usize> StepCopies<T, THREADS> {
    /// The copies of code chunk `code = (r, c, slot)` and activation chunk
    /// `activation = (r, c, slot)`, and those after them (`chunks` of each,
    /// `slot_step`: layout above), of `x` (`m` rows of `k`) and `qweight`
    /// (`n` rows of `k / 8` words, in bands).
    #[inline(always)]
    pub(super) fn new(
        (x, qweight): (*const T, *const u32),
        (m, n, k): (usize, usize, usize),
        code: (usize, usize, u32),
        activation: (usize, usize, u32),
        activation_slot_step: u32,
        (code_chunks, activation_chunks): (usize, usize),
    ) -> Self {
        let (code_row, code_chunk, code_slot) = code;
        let (activation_row, activation_chunk, activation_slot) = activation;
        const { assert!(THREADS % 64 == 0) };
        let rows_below = |first: usize, apart: usize, chunks: usize, end: usize| {
            (0..chunks).fold(0, |bits, p| bits | (((first + apart * p) < end) as u32) << p)
        };
        Self {
            code_source: qweight.wrapping_add(word_index(k, code_row, 4 * code_chunk)),
            code_chunk,
            code_slot,
            code_chunks,
            code_rows: rows_below(code_row, THREADS / 4, code_chunks, n),
            activation_source: x.wrapping_add(activation_row * k + 8 * activation_chunk),
            activation_column: 8 * activation_chunk,
            activation_slot,
            activation_slot_step,
            activation_chunks,
            activation_rows: rows_below(activation_row, THREADS / 16, activation_chunks, m),
            k,
        }
    }

    /// Copies the thread's share of step `i` into the stage at `stage`,
    /// zero-filled, without reading, past `n` or `m` rows or past `k`.
    ///
    /// # Safety
    /// `x` and `qweight` as [`new`](Self::new) was told, 16-byte aligned (`k
    /// % 32 == 0`); the slots are 16-byte aligned inside the block's shared
    /// memory.
    #[inline(always)]
    pub(super) unsafe fn copy(&self, stage: u32, i: usize) {
        let k = self.k;
        let codes_in_k = STEP_K / 32 * i + self.code_chunk < k / 32;
        // Weight rows THREADS / 4 apart (a multiple of 16) are THREADS / 4
        // rows of padded words apart, and steps 16 rows of 16 words.
        let (code_rows_apart, activation_rows_apart) = (THREADS / 4, THREADS / 16);
        let code_source = self.code_source.wrapping_add(BAND_ROWS * STEP_WORDS * i);
        for p in 0..self.code_chunks {
            let valid = codes_in_k && self.code_rows & (1 << p) != 0;
            // SAFETY: when valid, a chunk of a row < n below k / 32, inside
            // qweight; the slot is the caller's.
            unsafe {
                copy16(
                    stage + self.code_slot + (16 * THREADS * p) as u32,
                    code_source.wrapping_add(code_rows_apart * padded_words_per_row(k) * p).cast(),
                    valid,
                )
            };
        }
        let activations_in_k = STEP_K * i + self.activation_column < k;
        let activation_source = self.activation_source.wrapping_add(STEP_K * i);
        for p in 0..self.activation_chunks {
            let valid = activations_in_k && self.activation_rows & (1 << p) != 0;
            // SAFETY: when valid, 8 activations of a row < m at a column below
            // k, inside x; the slot is the caller's.
            unsafe {
                copy16(
                    stage + self.activation_slot + self.activation_slot_step * p as u32,
                    activation_source.wrapping_add(activation_rows_apart * k * p).cast(),
                    valid,
                )
            };
        }
    }
}
