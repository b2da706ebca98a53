//! The contract between the GPU kernels (`kernels-gpu`, compiled to PTX) and
//! the host library: the block and tile shapes each kernel is compiled for,
//! and the packed int4 weight layout. Both sides depend on this crate, so a
//! shape changed here changes on both sides at once.
#![no_std]

/// The elementwise kernels (`add_mul_exp_*`, `quantize_int8_*`,
/// `quantize_int8_rows_*`), in every storage type and version. They read
/// `blockDim.x` and work for any block size; the host validates the one a
/// launch asks for.
pub mod elementwise {
    /// Threads per block unless the launch chooses otherwise.
    pub const DEFAULT_BLOCK_THREADS: u32 = 256;
    /// Bytes of one vector access: a thread loads 16 bytes of an input at a
    /// time (4 f32 or 8 f16/bf16 values) when the buffers are aligned for it.
    pub const VECTOR_BYTES: usize = 16;

    /// Version 2: every thread loads several 16-byte vectors of each input,
    /// all issued before any is used, from a tile of `CHUNKS * blockDim.x`
    /// vectors whose warps each read contiguous 512-byte runs.
    pub mod v2 {
        /// Vectors per input and thread in `add_mul_exp_v2_*` (two inputs:
        /// 64 bytes in flight a thread).
        pub const ADD_MUL_EXP_CHUNKS: usize = 2;
        /// Vectors per thread in `quantize_int8_v2_*` and
        /// `quantize_int8_rows_v2_*`, for every input type: 64 bytes in
        /// flight a thread (16 f32 or 32 f16/bf16 elements). With 2 vectors
        /// of f16/bf16 the H100 read 2.37 TB/s at 50M elements (`ncu`,
        /// docs/PERF.md run 12), against 2.94 for f32's 4.
        pub const QUANTIZE_VECTORS: usize = 4;
    }
}

/// The packed 4-bit weight format read by every `int4_linear_*` kernel.
///
/// A weight matrix `W[N][K]` (out_features x in_features, row-major as in
/// `nn.Linear`) is quantized in groups of `G` consecutive elements along `K`
/// (`G` in [`GROUP_SIZES`](int4::GROUP_SIZES), `K % G == 0`). Each weight
/// becomes a 4-bit code `u` in `0..=15`, and is recovered as `W[n][k] ~ (u -
/// z) * s` with the group's scale `s` and zero point `z`.
///
/// Three arrays:
///
/// | array | shape | element |
/// |---|---|---|
/// | `qweight` | bands of 16 rows, [`qweight_words`](int4::qweight_words) in all (below) | `u32`: 8 codes, see below |
/// | `scales` | `[N][K / G]`, row-major | `f16` (IEEE binary16 bits) |
/// | `zeros` | `[N][ceil((K / G) / 2)]`, row-major | `u8`: two 4-bit zero points; asymmetric mode only |
///
/// **Words in `qweight`: bands of 16 rows.** Word `j` of row `n` holds
/// `W[n][8j .. 8j + 8]`. Rows go in bands of [`BAND_ROWS`](int4::BAND_ROWS),
/// bands one after the other, and each band's words go step by step: a
/// step is 128 columns, [`STEP_WORDS`](int4::STEP_WORDS) words (64 bytes) of
/// each row, the band's 16 rows in order, then the next step. The last
/// band is padded to 16 rows and every row to whole steps with zero words
/// (`N` and `K` multiples of 16 and 128, as in most models, need none):
/// `qweight` holds [`qweight_words`](int4::qweight_words) words, and
/// [`word_index`](int4::word_index) is the formula. So one step of a band is
/// one contiguous kilobyte: a warp multiplying a 16-row tile by tensor-core
/// MMAs reads its step as two 512-byte runs (rows `0..8`, then `8..16`, 16
/// bytes a lane) instead of 16 pieces of 64 bytes a row apart, and a tiled
/// GEMM's step of `16 b` rows is `b` such kilobytes, which land in shared
/// memory as the 64-byte rows it used with a row-major layout.
///
/// ```text
/// band 0: step 0: row 0 words 0..16, row 1 words 0..16, ..., row 15 words 0..16
///         step 1: row 0 words 16..32, ..., row 15 words 16..32
///         ...
/// band 1: rows 16..32, the same way
/// ```
///
/// **Codes in a word.** The code of element `8j + NIBBLE_ORDER[i]` sits in
/// bits `4i .. 4i + 4`:
///
/// ```text
/// bits:     31..28 27..24 23..20 19..16 15..12 11..8 7..4 3..0
/// element:     7      5      3      1      6     4    2    0
/// ```
///
/// Even elements fill the low half-word and odd ones the high half-word, so
/// `(word >> 4t) & 0x000F_000F` puts the pair `(2t, 2t + 1)` into the two
/// 16-bit lanes: the layout a packed half-precision conversion wants. The f32
/// kernel extracts codes one at a time and is indifferent to the order.
///
/// **Zero points.** Symmetric mode stores none: `z` is
/// [`SYMMETRIC_ZERO_POINT`](int4::SYMMETRIC_ZERO_POINT)
/// (codes are signed int4 values offset by 8). Asymmetric mode stores the zero
/// point of group `g` of row `n` in bits `4 * (g % 2) .. 4 * (g % 2) + 4` of
/// byte `g / 2` of the row (low nibble first).
pub mod int4 {
    /// Codes per `u32` word of `qweight`.
    pub const CODES_PER_WORD: usize = 8;
    /// `NIBBLE_ORDER[i]` is the element (within the word's 8) stored in nibble `i`.
    pub const NIBBLE_ORDER: [usize; CODES_PER_WORD] = [0, 2, 4, 6, 1, 3, 5, 7];
    /// The zero point of symmetric mode: code `u` means the integer `u - 8` in `-8..=7`.
    pub const SYMMETRIC_ZERO_POINT: u32 = 8;
    /// The supported group sizes along `K`.
    pub const GROUP_SIZES: [usize; 3] = [32, 64, 128];
    /// Bytes of the `zeros` array per row, for a row of `groups` groups.
    pub const fn zero_bytes_per_row(groups: usize) -> usize {
        groups.div_ceil(2)
    }
    /// Rows of a band of `qweight`.
    pub const BAND_ROWS: usize = 16;
    /// Words of one row in one step of a band (128 columns).
    pub const STEP_WORDS: usize = 16;

    /// Words of a row in `qweight`: `k / 8` rounded up to whole steps.
    #[inline(always)]
    pub const fn padded_words_per_row(k: usize) -> usize {
        (k / CODES_PER_WORD).div_ceil(STEP_WORDS) * STEP_WORDS
    }

    /// Words of `qweight` for `n` rows of `k` columns: whole bands of whole steps.
    #[inline(always)]
    pub const fn qweight_words(n: usize, k: usize) -> usize {
        n.div_ceil(BAND_ROWS) * BAND_ROWS * padded_words_per_row(k)
    }

    /// The index in `qweight` of word `word` (columns `8 word .. 8 word +
    /// 8`) of row `row`, for rows of `k` columns: band `row / 16`, step
    /// `word / 16`, then row `row % 16` of the step. A 16-byte chunk (4
    /// words from a multiple of 4) is contiguous and 16-byte aligned.
    #[inline(always)]
    pub const fn word_index(k: usize, row: usize, word: usize) -> usize {
        row_start(k, row) + word_offset(word)
    }

    /// The index in `qweight` of word 0 of row `row` (rows of `k` columns).
    #[inline(always)]
    pub const fn row_start(k: usize, row: usize) -> usize {
        (row / BAND_ROWS * padded_words_per_row(k) + row % BAND_ROWS) * STEP_WORDS
    }

    /// How far word `word` of a row is from word 0 of the row, in words.
    #[inline(always)]
    pub const fn word_offset(word: usize) -> usize {
        word / STEP_WORDS * BAND_ROWS * STEP_WORDS + word % STEP_WORDS
    }

    /// The group constants of a layer at `G = 128` converted once, at
    /// load time, for one half activation type `T` (f16 or bf16), as
    /// versions 19, 23 and 24 (and 12 and 13's `_g128_` entry points) read them: `u16` halves laid out
    /// `[group][row][halves_per_row]` with the rows padded to a multiple
    /// of [`PACKED_CONSTANT_ROWS`] (zeros past `n`). A row's halves are
    /// the scale as `T`, then, for asymmetric weights only, `-(MAGIC + z)`
    /// as `T` ([`neg_offset_bits`]); symmetric weights (`z = 8`) store the
    /// scale alone. A block's 256 rows of one group are then 512 bytes
    /// (symmetric) or 1 KB, contiguous and 16-byte aligned: one bulk copy
    /// a step.
    ///
    /// [`neg_offset_bits`]: packed_constants::neg_offset_bits
    /// [`PACKED_CONSTANT_ROWS`]: packed_constants::PACKED_CONSTANT_ROWS
    pub mod packed_constants {
        /// Rows of the layout are padded to a multiple of this: the tile's
        /// weight rows in versions 12, 13, 19, 23 and 24.
        pub const PACKED_CONSTANT_ROWS: usize = 256;
        /// The only group size laid out this way: a step of 128 columns is
        /// one group.
        pub const GROUP_SIZE: usize = 128;
        /// The bits of `-(MAGIC + z)` are `NEG_MAGIC_BITS | z` (`MAGIC` is
        /// 1024 in f16, 128 in bf16: the exponent that puts a 4-bit code
        /// in the mantissa's low bits).
        pub const F16_NEG_MAGIC_BITS: u16 = 0xE400;
        /// As [`F16_NEG_MAGIC_BITS`], for bf16.
        pub const BF16_NEG_MAGIC_BITS: u16 = 0xC300;

        /// Halves a row and group: the scale alone for symmetric weights,
        /// the scale and `-(MAGIC + z)` for asymmetric ones.
        #[inline(always)]
        pub const fn halves_per_row(symmetric: bool) -> usize {
            if symmetric { 1 } else { 2 }
        }

        /// Rows of the layout for `n` weight rows.
        #[inline(always)]
        pub const fn padded_rows(n: usize) -> usize {
            n.div_ceil(PACKED_CONSTANT_ROWS) * PACKED_CONSTANT_ROWS
        }

        /// Halves of the layout for `n` rows of `k` columns.
        #[inline(always)]
        pub const fn halves(n: usize, k: usize, symmetric: bool) -> usize {
            k / GROUP_SIZE * padded_rows(n) * halves_per_row(symmetric)
        }

        /// The index of the first half of row `row`, group `group`, of a
        /// layer of `n` rows.
        #[inline(always)]
        pub const fn index(n: usize, row: usize, group: usize, symmetric: bool) -> usize {
            (group * padded_rows(n) + row) * halves_per_row(symmetric)
        }

        /// The bits of `-(MAGIC + z)` for zero point `zero`, for a type of
        /// `neg_magic_bits`.
        #[inline(always)]
        pub const fn neg_offset_bits(zero: u32, neg_magic_bits: u16) -> u16 {
            neg_magic_bits | zero as u16
        }
    }
}

/// The fused 4-bit linear kernels, by version (docs/PERF.md has each one's
/// design and measured times).
pub mod int4_linear {
    /// The largest `gridDim.y`; the kernels loop over `m` beyond it.
    pub const MAX_GRID_Y: u32 = 65_535;
    /// The largest `gridDim.z`: the most K slices of version 7's split-K.
    pub const MAX_GRID_Z: u32 = 65_535;

    /// Version 1, `int4_linear_v1_m1_f32` and `int4_linear_v1_m4_f32`: a
    /// block of [`WARPS`](v1::WARPS) warps computes `ROWS_PER_BLOCK` outputs
    /// (`n`) for `m_tile` activation rows; its warps split `K` and add their
    /// partial sums through shared memory. The entry points differ only in
    /// `m_tile`: 1 for decode, 4 for batches (each weight read serves 4 rows).
    pub mod v1 {
        /// Warps per block.
        pub const WARPS: u32 = 4;
        /// Threads per block.
        pub const BLOCK_THREADS: u32 = WARPS * 32;
        /// Output features (`n`) per block.
        pub const ROWS_PER_BLOCK: usize = 4;
        /// Activation rows per block of `int4_linear_v1_m1_f32`.
        pub const DECODE_M_TILE: usize = 1;
        /// Activation rows per block of `int4_linear_v1_m4_f32`.
        pub const BATCH_M_TILE: usize = 4;
        /// Dynamic shared memory per block: one f32 partial sum per warp and output.
        pub const fn shared_bytes(m_tile: usize) -> u32 {
            (WARPS as usize * ROWS_PER_BLOCK * m_tile * 4) as u32
        }
    }

    /// Version 2, `int4_linear_v2_f32`, for decode: each warp owns
    /// `ROWS_PER_WARP` whole rows, each lane loads 16 bytes (32 codes) a row
    /// and step with `CHUNKS_IN_FLIGHT` steps issued before any is used, and
    /// the block stages `TILE_K` activations at a time in shared memory, 36
    /// floats for every 32 so the lanes' 16-byte reads hit distinct banks.
    /// Block `(bx, by)` takes rows `bx * ROWS_PER_BLOCK ..` and activation rows
    /// `by, by + gridDim.y, ...`, one at a time.
    pub mod v2 {
        /// Warps per block.
        pub const WARPS: u32 = 8;
        /// Threads per block.
        pub const BLOCK_THREADS: u32 = WARPS * 32;
        /// Output features per warp.
        pub const ROWS_PER_WARP: usize = 2;
        /// Output features per block.
        pub const ROWS_PER_BLOCK: usize = WARPS as usize * ROWS_PER_WARP;
        /// 16-byte code loads a lane issues ahead, per row.
        pub const CHUNKS_IN_FLIGHT: usize = 2;
        /// Activations staged in shared memory at a time.
        pub const TILE_K: usize = 8192;
        /// Shared-memory floats per 32 activations (4 of padding).
        pub const PADDED_CHUNK: usize = 36;
        /// Dynamic shared memory per block.
        pub const SHARED_BYTES: u32 = (TILE_K / 32 * PADDED_CHUNK * 4) as u32;
    }

    /// Version 3, `int4_linear_v3_m{8,16}_{f16,bf16}`: tensor cores
    /// (`mma.sync.m16n8k16`), the weights as the A operand (16 rows `n`) and
    /// the activations as B (8 rows `m` per MMA tile, 1 or 2 tiles per
    /// block). Block `(bx, by)` takes rows `bx * ROWS_PER_BLOCK ..` and
    /// activation-row blocks `by, by + gridDim.y, ...`; its warps split `K`.
    pub mod v3 {
        /// Output features per block (one MMA tile of rows).
        pub const ROWS_PER_BLOCK: usize = 16;
        /// Activation rows per MMA tile (the `n` of `m16n8k16`).
        pub const M_PER_TILE: usize = 8;
        /// MMA tiles of activation rows per block, by entry point (`_m8_`, `_m16_`).
        pub const N_TILES: [usize; 2] = [1, 2];
        /// Columns (`k`) per warp step: 4 lanes x 32 codes.
        pub const STEP_K: usize = 128;
        /// Steps whose loads a warp issues before the first MMA.
        pub const STEPS_IN_FLIGHT: usize = 2;
        /// Warps per block unless the caller chooses.
        pub const DEFAULT_WARPS: u32 = 8;
        /// The most warps a block may have (versions 3 to 5): 32 would need
        /// more registers than a multiprocessor has.
        pub const MAX_WARPS: u32 = 16;
        /// Dynamic shared memory per block: each warp's partial MMA tiles.
        pub const fn shared_bytes(warps: u32, n_tiles: usize) -> u32 {
            warps * (n_tiles * 4 * 32 * 4) as u32
        }
    }

    /// Version 4, `int4_linear_v4_m{8,16}_{f16,bf16}`: version 3's tiles and
    /// MMAs, fed through per-warp rings of shared-memory stages by `cp.async`.
    pub mod v4 {
        /// Stages per warp; `STAGES - 1` steps of copies are in flight.
        pub const STAGES: usize = 4;
        /// Codes per stage: 16 rows x 64 bytes.
        pub const CODE_BYTES_PER_STAGE: usize = 16 * 64;
        /// Warps per block unless the caller chooses.
        pub const DEFAULT_WARPS: u32 = 8;
        /// Bytes of one stage with `activation_rows` rows of 128 activations (2 bytes each).
        pub const fn stage_bytes(activation_rows: usize) -> usize {
            CODE_BYTES_PER_STAGE + activation_rows * 256
        }
        /// Dynamic shared memory per block: the warps' rings, or the
        /// epilogue's partial tiles (`super::v3::shared_bytes`) if larger.
        pub const fn shared_bytes(warps: u32, n_tiles: usize, activation_rows: usize) -> u32 {
            let rings = warps * (STAGES * stage_bytes(activation_rows)) as u32;
            let partials = super::v3::shared_bytes(warps, n_tiles);
            if rings > partials { rings } else { partials }
        }
    }

    /// Version 5, `int4_linear_v5_m{8,16}_g{32,64,128}_{f16,bf16}`: version
    /// 3's tiles and launch shape (`v3`), the scales applied per group to
    /// f32 accumulators, and L2 prefetches ahead of the loads.
    pub mod v5 {
        /// How many of a warp's batches (`v3::STEPS_IN_FLIGHT` steps each)
        /// ahead of its loads it asks the L2 to fetch its codes, by entry
        /// point (`_m8_`, `_m16_`). The `_m8_` ones one since run 50 (H200,
        /// with [`PREFETCH_ONCE_A_LINE`]: 0.6-5.7% faster than two at M = 1
        /// on the five benchmark shapes); the `_m16_` ones keep two (with
        /// one, version 17's at 16 x 4096 x 4096 ran 8% slower).
        pub const PREFETCH_BATCHES: [usize; 2] = [1, 2];
        /// Whether one lane asks for each 128-byte line of codes (two rows'
        /// 64 bytes of a step) rather than both lanes of its rows, by entry
        /// point (`_m8_`, `_m16_`). Once a line was 1-4% faster at M = 1 on
        /// 4096 x 4096 and 4096 x 11008 (run 50, H200), and 0.4-1.7% slower
        /// for the `_m16_` entry points at 16 rows.
        pub const PREFETCH_ONCE_A_LINE: [bool; 2] = [true, false];
    }

    /// Version 6, `int4_linear_v6_m{8,16}_g{32,64,128}_{f16,bf16}`: version
    /// 5 with `ROW_TILES` tiles of 16 weight rows per warp; launch as `v3`
    /// with `ROWS_PER_BLOCK` rows a block.
    pub mod v6 {
        /// Tiles of 16 weight rows (`v3::ROWS_PER_BLOCK`) per warp and block.
        pub const ROW_TILES: usize = 2;
        /// Output features per block.
        pub const ROWS_PER_BLOCK: usize = ROW_TILES * super::v3::ROWS_PER_BLOCK;
    }

    /// Version 7, `int4_linear_v7_{f16,bf16}`: a tiled GEMM for large `M`.
    /// A block computes `BLOCK_N` weight rows x `BLOCK_M` activation rows
    /// over the whole of `K`, its `WARPS_N x WARPS_M` warps each a
    /// `WARP_N x WARP_M` sub-tile, fed by a block-wide `cp.async` ring of
    /// `STAGES` shared-memory stages of one 128-column step each.
    ///
    /// A stage (byte offsets from its start; documented with the kernel):
    /// the step's codes, `BLOCK_N` rows x 64 bytes, row `r` at `64 r`; then
    /// the activations, `BLOCK_M` rows x 256 bytes, 16-byte chunk `c` of row
    /// `r` at `CODE_BYTES_PER_STAGE + 256 r + 16 (c ^ swizzle(r, c))`.
    ///
    /// **Split-K** (`int4_linear_v7_split_k_{f16,bf16}`, then
    /// `int4_linear_split_k_reduce_{f16,bf16}`): the same tiles with
    /// `gridDim.z = splits`; block `(bx, by, bz)` sums slice `bz` of the
    /// `ceil(K / STEP_K)` steps ([`slice_steps`](v7::slice_steps) a slice,
    /// the last ones shorter or empty) into `partials[bz][m][n]` (f32), and
    /// the reduction adds the slices and the bias into `y`. Slices start on
    /// step boundaries, which are group boundaries (every group size
    /// divides `STEP_K`).
    pub mod v7 {
        /// Weight rows (`n`) per block.
        pub const BLOCK_N: usize = 128;
        /// Activation rows (`m`) per block.
        pub const BLOCK_M: usize = 128;
        /// Warps along `n` and along `m`.
        pub const WARPS_N: usize = 4;
        pub const WARPS_M: usize = 2;
        /// Threads per block (fixed: the tile needs every warp).
        pub const BLOCK_THREADS: u32 = (WARPS_N * WARPS_M * 32) as u32;
        /// Weight rows per warp: `WARP_N / 16` MMA A tiles.
        pub const WARP_N: usize = BLOCK_N / WARPS_N;
        /// Activation rows per warp: `WARP_M / 8` MMA B tiles.
        pub const WARP_M: usize = BLOCK_M / WARPS_M;
        /// Columns (`k`) per stage (version 3's warp step).
        pub const STEP_K: usize = 128;
        /// Stages in the ring; `STAGES - 1` steps of copies are in flight.
        pub const STAGES: usize = 3;
        /// Codes per stage: `BLOCK_N` rows x 64 bytes.
        pub const CODE_BYTES_PER_STAGE: usize = BLOCK_N * STEP_K / 2;
        /// Activations per stage: `BLOCK_M` rows x 256 bytes.
        pub const ACTIVATION_BYTES_PER_STAGE: usize = BLOCK_M * STEP_K * 2;
        /// Bytes of one stage.
        pub const STAGE_BYTES: usize = CODE_BYTES_PER_STAGE + ACTIVATION_BYTES_PER_STAGE;
        /// Dynamic shared memory per block (120 KB: needs the opt-in above
        /// 48 KB, within the 163 KB of an A100 and 227 KB of an H100).
        pub const SHARED_BYTES: u32 = (STAGES * STAGE_BYTES) as u32;
        /// The XOR applied to 16-byte chunk `chunk` (0..16) of activation
        /// row `row` of a stage, so that the warps' 16-byte reads (lane
        /// `(g, t)`: row `g`, chunks `4t .. 4t + 4`) and the copies' writes
        /// are free of bank conflicts (see the kernel's documentation).
        pub const fn swizzle(row: usize, chunk: usize) -> usize {
            ((chunk >> 3) & 1) | ((row & 1) << 1)
        }
        /// Steps of `K` in each slice of a split-K launch of `splits`
        /// slices over `steps` steps: slice `z` takes steps `z s .. min((z +
        /// 1) s, steps)` with `s = slice_steps(steps, splits)` (`splits >= 1`).
        pub const fn slice_steps(steps: usize, splits: usize) -> usize {
            steps.div_ceil(splits)
        }
        /// Threads per block of `int4_linear_split_k_reduce_*`, each on
        /// `REDUCE_COLUMNS` output columns: grid
        /// `(ceil(n / (REDUCE_THREADS * REDUCE_COLUMNS)), min(m, MAX_GRID_Y))`,
        /// rows past `gridDim.y` looped over.
        pub const REDUCE_THREADS: u32 = 256;
        /// Output columns a thread of the reduction: a 16-byte load of f32
        /// partial sums.
        pub const REDUCE_COLUMNS: usize = 4;
        /// `Int4LinearVersion::best_for` picks a tiled GEMM (version 7, or
        /// its `wgmma` successors on compute capability 9.0) for more
        /// activation rows than this (f16 and bf16), splitting `K` where
        /// its grid would leave multiprocessors idle: one 16-row MMA tile,
        /// past which version 17 reads the weights once more for every 16
        /// rows.
        pub const ABOVE_M: usize = 16;
        /// The fewest steps a slice of a chosen split-K keeps: the ring
        /// has `STAGES - 1` steps in flight, and a shorter slice would spend
        /// most of its time filling it.
        pub const MIN_SLICE_STEPS: usize = 4;
    }

    /// The constants of a warpgroup-MMA tile (versions 10 to 13, 18, 19, 22 and 23)
    /// from its weight rows per warpgroup, activation rows and stages;
    /// the main loop's own constants (threads, shared memory) come from
    /// [`block_barrier_loop!`] or [`producer_consumer_loop!`].
    macro_rules! wgmma_tile {
        ($warpgroup_n:expr, $block_m:expr, $stages:expr) => {
            /// The only compute capability whose PTX (`sm_90a`) has it.
            pub const COMPUTE_CAPABILITY: (u32, u32) = (9, 0);
            /// Warpgroups (4 warps) that multiply; each owns `WARPGROUP_N` weight rows.
            pub const WARPGROUPS: usize = 2;
            /// Weight rows per warpgroup: `WARPGROUP_N / 64` MMAs of 64 rows.
            pub const WARPGROUP_N: usize = $warpgroup_n;
            /// Weight rows (`n`) per block.
            pub const BLOCK_N: usize = WARPGROUPS * WARPGROUP_N;
            /// Activation rows (`m`) per block: the `N` of the `wgmma`.
            pub const BLOCK_M: usize = $block_m;
            /// Columns (`k`) per stage, as version 7 (split-K slices are counted in them).
            pub const STEP_K: usize = super::v7::STEP_K;
            /// Stages in the ring. The block-barrier loop keeps `STAGES - 2`
            /// steps of copies in flight (the stage a step overwrites was
            /// read two steps before, by MMAs that have finished); the
            /// producer-consumer loop all of them.
            pub const STAGES: usize = $stages;
            /// Codes per stage: `BLOCK_N` rows x 64 bytes.
            pub const CODE_BYTES_PER_STAGE: usize = BLOCK_N * STEP_K / 2;
            /// Activations per stage: `BLOCK_M` rows x 256 bytes, as two halves
            /// of 64 columns, each in 128-byte swizzled rows (`v10.rs` has
            /// the layout).
            pub const ACTIVATION_BYTES_PER_STAGE: usize = BLOCK_M * STEP_K * 2;
            /// Bytes of one half (64 columns) of a stage's activations.
            pub const ACTIVATION_HALF_BYTES: usize = BLOCK_M * 128;
            /// Bytes of one stage.
            pub const STAGE_BYTES: usize = CODE_BYTES_PER_STAGE + ACTIVATION_BYTES_PER_STAGE;
            /// Group constants per weight row and step: one per group of 32
            /// columns at most.
            pub const GROUPS_PER_STEP: usize = STEP_K / 32;
            /// Bytes of one step's group constants: `BLOCK_N` rows x
            /// `GROUPS_PER_STEP` x (packed scale, packed offset).
            pub const PARAM_BYTES: usize = BLOCK_N * GROUPS_PER_STEP * 8;
            /// Alignment of the ring: the swizzle atoms' (1024 bytes).
            pub const RING_ALIGN: usize = 1024;
        };
    }

    /// The launch constants of the block-barrier main loop (versions 10,
    /// 11 and 18: every warp copies, converts and multiplies, and the block
    /// meets each step).
    macro_rules! block_barrier_loop {
        () => {
            /// Threads per block (fixed: the tile needs every warp).
            pub const BLOCK_THREADS: u32 = (WARPGROUPS * 128) as u32;
            /// Dynamic shared memory per block: the ring, then two steps'
            /// group constants, and room to align the ring.
            pub const SHARED_BYTES: u32 = (STAGES * STAGE_BYTES + 2 * PARAM_BYTES + RING_ALIGN) as u32;
        };
    }

    /// The launch constants of the producer-consumer main loop (versions
    /// 12, 13, 19, 22, 23 and 24: producer warpgroups copy, MMA warpgroups multiply, and
    /// they meet at mbarriers a stage).
    macro_rules! producer_consumer_loop {
        () => {
            /// Threads of the MMA warpgroups (the consumers), which own the tile's rows.
            pub const CONSUMER_THREADS: usize = WARPGROUPS * 128;
            /// Threads of the producer warpgroups, which copy every stage.
            pub const PRODUCER_THREADS: usize = 256;
            /// Threads per block (fixed): the consumers, then the producers.
            pub const BLOCK_THREADS: u32 = (CONSUMER_THREADS + PRODUCER_THREADS) as u32;
            /// Registers a producer thread keeps (`setmaxnreg.dec`).
            pub const PRODUCER_REGISTERS: u32 = 56;
            /// Registers a consumer thread takes (`setmaxnreg.inc`): what the
            /// producers give back from the 128 a thread a block of 512 starts with.
            pub const CONSUMER_REGISTERS: u32 = 200;
            /// Dynamic shared memory per block: the ring (each stage followed by
            /// its step's group constants), two mbarriers a stage, and room to
            /// align the ring.
            pub const SHARED_BYTES: u32 = (STAGES * (STAGE_BYTES + PARAM_BYTES) + 16 * STAGES + RING_ALIGN) as u32;
            const _: () = assert!(
                PRODUCER_THREADS as u32 * PRODUCER_REGISTERS + CONSUMER_THREADS as u32 * CONSUMER_REGISTERS
                    <= BLOCK_THREADS * (65536 / BLOCK_THREADS / 8 * 8)
            );
            const _: () = assert!(BLOCK_N == PRODUCER_THREADS);
            const _: () = assert!(SHARED_BYTES <= 227 * 1024);
        };
    }

    /// The box of the tensor map of `x` that versions 12, 13, 19, 23 and 24
    /// take as their first argument, in place of `x`'s address (rows of `k`
    /// 2-byte elements, `m` of them, 128-byte swizzle, out-of-bounds
    /// elements read as zero): `TMA_BOX_COLUMNS x TMA_BOX_ROWS`, the rows a
    /// block copies of each half of a stage's activations.
    macro_rules! tma_activation_box {
        ($box_rows:expr) => {
            /// Columns of a tensor-map copy: one half of a stage's
            /// activations (128 bytes a row, the swizzle's width).
            pub const TMA_BOX_COLUMNS: usize = 64;
            /// Rows of a tensor-map copy: those the block copies, of both halves.
            pub const TMA_BOX_ROWS: usize = $box_rows;
            const _: () = assert!(2 * TMA_BOX_COLUMNS == STEP_K && TMA_BOX_ROWS % 8 == 0);
        };
    }

    /// Version 10, `int4_linear_v10_*` and `int4_linear_v10_split_k_*`
    /// (sm_90a only): version 7's tiled GEMM on the Hopper's warpgroup MMAs
    /// (`wgmma.mma_async.m64n128k16`), the dequantized weights as the A
    /// operand in registers and the activations as B, read by the tensor
    /// cores from shared memory. Same arguments, split-K and reduction as
    /// version 7; the layout of a stage is documented in the kernel's file.
    /// 256 weight rows x 128 activation rows a block, 209 KB of shared memory.
    pub mod v10 {
        wgmma_tile!(128, 128, 4);
        block_barrier_loop!();
    }

    /// Version 11, `int4_linear_v11_*` and `int4_linear_v11_split_k_*`
    /// (sm_90a only): version 10 with 128 weight rows x 256 activation rows
    /// a block (`wgmma.mma_async.m64n256k16`, one MMA tile of 64 rows a
    /// warpgroup), so that each dequantized weight serves twice the
    /// activation rows; 3 stages, 225 KB of shared memory.
    pub mod v11 {
        wgmma_tile!(64, 256, 3);
        block_barrier_loop!();
    }

    /// Version 18, `int4_linear_v18_*` and `int4_linear_v18_split_k_*`
    /// (sm_90a only): version 10 with 256 weight rows x 64 activation rows
    /// a block (`wgmma.mma_async.m64n64k16`), so that up to 64 activation
    /// rows do not pay for the MMAs of 128; 4 stages, 145 KB of shared memory.
    pub mod v18 {
        wgmma_tile!(128, 64, 4);
        block_barrier_loop!();
    }

    /// Version 12, `int4_linear_v12_*` and `int4_linear_v12_split_k_*`
    /// (sm_90a only): version 10's tile and MMAs, with two more warpgroups
    /// that do every copy (the producers) and mbarriers a stage in place of
    /// the block barrier each step; 225 KB of shared memory.
    pub mod v12 {
        wgmma_tile!(128, 128, 4);
        producer_consumer_loop!();
        tma_activation_box!(BLOCK_M);
    }

    /// Version 13, `int4_linear_v13_*` and `int4_linear_v13_split_k_*`
    /// (sm_90a only): version 12 in clusters of `CLUSTER` blocks along `n`,
    /// which share their activation tiles: each block's producer copies its
    /// share of every stage's activations with the TMA unit and multicasts
    /// it into every block of the cluster, so the activations cross L2 once
    /// a cluster instead of once a block. The first argument is a tensor map
    /// of `x` (`CUtensorMap`, 128 bytes; `tma_activation_box!` above), each
    /// block copying its `BLOCK_M / CLUSTER` rows. Every other constant is
    /// version 12's.
    pub mod v13 {
        wgmma_tile!(128, 128, 4);
        producer_consumer_loop!();
        /// Blocks a cluster (along the grid's `x`, which must be a multiple of it).
        pub const CLUSTER: usize = 2;
        tma_activation_box!(BLOCK_M / CLUSTER);
    }

    /// Version 19, `int4_linear_v19_*` and `int4_linear_v19_split_k_*`
    /// (sm_90a only): version 12's producers and consumers with version
    /// 18's tile (256 weight rows x 64 activation rows, `m64n64k16`), and 5
    /// stages (one more than version 12 in about as much shared memory: 201 KB).
    /// From run 54 the TMA unit copies each stage's activations: the first
    /// argument is a tensor map of `x` (`m` rows of `k`), as version 13's;
    /// from run 56 its codes too: the second is version 23's map of the
    /// codes (the same view and [`v23::CODE_BOX`]: both tiles have
    /// `BLOCK_N` = 256).
    pub mod v19 {
        wgmma_tile!(128, 64, 5);
        producer_consumer_loop!();
        tma_activation_box!(BLOCK_M);
    }

    /// Version 22, `int4_linear_v22_*` and `int4_linear_v22_split_k_*`
    /// (sm_90a only): version 19 with 16 activation rows a block
    /// (`mma.sync.m16n8k16` per warp since run 47; `m64n16k16` before),
    /// for up to 16 rows: a quarter of version 19's MMAs and activations a
    /// step, and 8 stages of 28 KB (225 KB of shared memory), all in
    /// flight.
    pub mod v22 {
        wgmma_tile!(128, 16, 8);
        producer_consumer_loop!();
    }

    /// Version 24, `int4_linear_v24_*` and `int4_linear_v24_split_k_*`
    /// (sm_90a only): version 23 with 32 activation rows a block, for 17 to
    /// 32 rows, where version 19 multiplies 64: half version 19's MMAs and
    /// activations a step, 7 stages of 32 KB (225 KB of shared memory). Its
    /// second argument is version 23's tensor map of the codes (the same
    /// view and [`v23::CODE_BOX`]: both tiles have `BLOCK_N` = 256).
    pub mod v24 {
        wgmma_tile!(128, 32, 7);
        producer_consumer_loop!();
        tma_activation_box!(BLOCK_M);
    }

    /// Version 23, `int4_linear_v23_*` and `int4_linear_v23_split_k_*`
    /// (sm_90a only): version 22 with each stage's codes copied by the TMA
    /// unit, one copy of `CODE_BOX` a step, from a tensor map of `qweight`
    /// (its second argument, in place of the address) that views the banded
    /// format ([`crate::int4`]) as a 3-D array of `u32` words: `[bands]
    /// [words per row / 16 * 16][16]`, `bands = ceil(n / 16)`; element
    /// `(w, 16 s + r, b)` is word `w` of row `16 b + r` in step `s`.
    pub mod v23 {
        // Version 22's tile, block and ring.
        pub use super::v22::*;
        /// The box of a step's codes, innermost first: 16 words (the 64
        /// bytes of a row's step, the 64-byte swizzle's width), the 16 rows of
        /// a band, and the block's `BLOCK_N / 16` bands.
        pub const CODE_BOX: [usize; 3] =
            [crate::int4::STEP_WORDS, crate::int4::BAND_ROWS, BLOCK_N / crate::int4::BAND_ROWS];
        const _: () = assert!(CODE_BOX[0] * CODE_BOX[1] * CODE_BOX[2] * 4 == CODE_BYTES_PER_STAGE);
        tma_activation_box!(BLOCK_M);
    }

    /// The order in which the producer-consumer GEMMs (versions 12, 13, 19,
    /// 22, 23 and 24) take their tiles: block `(bx, by)` of a grid `(gx, gy)`
    /// starts at the tile `(n_tile, m_tile)` of [`tile_of_block`](tile_order::tile_of_block), then takes
    /// activation tiles `m_tile + gy, m_tile + 2 gy, ...` of the same weight
    /// tile (when `m` has more tiles than `gy`).
    ///
    /// The hardware starts blocks in the order of their index, `x` first, so
    /// read as it is, `(bx, by)` runs every weight tile of one activation
    /// tile at once, and each wave reads the whole weight matrix, from DRAM
    /// where it is larger than the L2 (28672 x 8192: 117 MB). Here the
    /// launch order walks groups of [`GROUP_M`](tile_order::GROUP_M) activation tiles (fewer in
    /// the last group), down the group and then across the weight tiles, so
    /// that a wave holds a few weight tiles for a few activation tiles, as
    /// CUTLASS's grouped rasterization and Triton's `GROUP_M` do. The unit
    /// of the walk is a cluster of `cluster` blocks along `x` (version 13:
    /// 2), whose blocks keep neighbouring weight tiles and one activation
    /// tile (they share its copies).
    pub mod tile_order {
        use core::num::NonZeroU32;

        /// Activation tiles a group of the walk.
        pub const GROUP_M: usize = 8;

        /// The tile `(n_tile, m_tile)` block `(bx, by)` of a grid `(gx, gy)`
        /// starts at, in clusters of `cluster` blocks along `x` (`gx` a
        /// multiple of it, below 2^29): a bijection of the grid onto itself.
        ///
        /// In launch order, block `by * gx / cluster + bx / cluster` (in
        /// units of a cluster) is unit `in_group` of group `by / GROUP_M`,
        /// whose `group_m` activation tiles it walks down first. In 32 bits
        /// with one division by `group_m`: on the H100 the 64-bit form's
        /// three division calls before the blocks' first copies cost the
        /// kernels at M = 16 to 64 1-2.5% (docs/PERF.md, run 36, call D).
        #[inline(always)]
        pub fn tile_of_block((bx, by): (u32, u32), (gx, gy): (u32, u32), cluster: NonZeroU32) -> (u32, u32) {
            const G: u32 = GROUP_M as u32;
            let (group, row_in_group) = (by / G, by % G);
            let in_group = row_in_group * (gx / cluster) + bx / cluster;
            let first_m_tile = G * group;
            // Never 0 (by < gy), and a divisor the compiler knows is not 0:
            // the kernels keep no panic path.
            let group_m = NonZeroU32::new((gy - first_m_tile).min(G)).unwrap_or(NonZeroU32::MIN);
            (cluster.get() * (in_group / group_m) + bx % cluster, first_m_tile + in_group % group_m)
        }
    }

    /// Version 17, `int4_linear_v17_m{8,16}[_w{1,2,4,8,16}]_g{32,64,128}_{f16,bf16}`:
    /// versions 5 (`_m8_`) and 6 (`_m16_`) in a 2-D block. Block `(bx,
    /// by)` takes `ROWS_PER_GROUP[i] * blockDim.y` weight rows from `bx`
    /// times that, and the activation-row blocks `by, by + gridDim.y, ...`
    /// (as `v3`); group `threadIdx.y` takes its `ROWS_PER_GROUP[i]` of them,
    /// and its `blockDim.x / 32` warps split `K` as version 5's warps do.
    /// Grid `(ceil(n / (ROWS_PER_GROUP[i] * blockDim.y)), min(ceil(m / (8 *
    /// v3::N_TILES[i])), MAX_GRID_Y))`, at most `MAX_WARPS[i]` warps in all.
    /// The `_w{w}_` entry points (`w` up to `MAX_WARPS[i]`) require `w`
    /// warps a group (`blockDim.x == 32 w`) and know it at compile time;
    /// with `w` = 1 each warp takes all of `K` and stores its outputs from
    /// registers, with no dynamic shared memory.
    pub mod v17 {
        /// Tiles of 16 weight rows a warp, by entry point (`_m8_`, `_m16_`).
        pub const ROW_TILES: [usize; 2] = [1, super::v6::ROW_TILES];
        /// Weight rows a group of warps, by entry point.
        pub const ROWS_PER_GROUP: [usize; 2] =
            [ROW_TILES[0] * super::v3::ROWS_PER_BLOCK, ROW_TILES[1] * super::v3::ROWS_PER_BLOCK];
        /// The most warps a block may have (groups times warps a group), by
        /// entry point: 16 for `_m8_`, whose registers the PTX caps at
        /// `M8_REGISTERS` (`.maxnreg`), and 8 for `_m16_`, which takes up to
        /// 255. Dynamic shared memory: `v3::shared_bytes` of all of them
        /// (each group adds its warps' tiles in its own part).
        pub const MAX_WARPS: [u32; 2] = [16, 8];
        /// Registers a thread of the `_m8_` entry points (PTX `.maxnreg`).
        pub const M8_REGISTERS: u32 = 65536 / (32 * MAX_WARPS[0]);
    }
}
