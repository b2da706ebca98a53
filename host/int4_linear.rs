//! The fused 4-bit linear layer `y[M][N] = x[M][K] * dequant(W)^T (+ bias)`,
//! for decode (`M = 1`) and batches (`M > 1`) alike, with activations and
//! outputs in f32 (versions 1 and 2) or f16/bf16 (versions 3 and up; the bias
//! stays f32 and sums are f32 throughout).
//!
//! **Error bounds**, against the f64 reference computed from the same packed
//! weights and the activations as stored (rounded to their type), tested on
//! random inputs up to `K = 14336` for every version, group size and mode:
//!
//! | activations | `‖y − ref‖ / ‖ref‖` | where it comes from |
//! |---|---|---|
//! | f32 (v1, v2) | `1e-5` (about 1e-7 measured) | f32 FMA chains over exact small integers, one scale product per chunk |
//! | f16 (v3 and up) | `2e-3` (2.2e-4 to 2.8e-4 measured) | the output's rounding (`2^-11`); v3/v4 also round each weight `(u - z) s` once to f16 |
//! | bf16 (v3 and up) | `1e-2` (1.7e-3 to 2.7e-3 measured) | the same with `u = 2^-8`; v5, v6 and v17 round no weight, only the output; v22 to v24 at `G = 128` round no weight either, but their scale once to bf16 |
//!
//! The norm-wise bound holds over outputs of 256 elements or more; a few
//! outputs that cancel to near zero can exceed it in relative terms, so
//! every output also satisfies the element-wise bound
//! `|y - ref| <= u |ref| + 16 (u + K 2^-24) sum_k |s| |x_k|` (`u` the type's
//! unit roundoff, `s` the group scale of `W[n][k]`; `16 |s| >= |w|`), which
//! the tests check too.
//! The quantization error itself (against the unquantized weights) is much
//! larger and is reported by `cargo run --release` and in the README.

use crate::Error;
use crate::float::{Float, PerFloat};
use crate::int4_weights::Int4Shape;
use crate::launch::{DeviceInfo, Launch, LaunchConfig, checked_product, expect_len};
use quant_kernels_abi::int4::{self, GROUP_SIZES};
use quant_kernels_abi::int4_linear::{
    MAX_GRID_Y, MAX_GRID_Z, v1, v2, v3, v4, v6, v7, v10, v11, v12, v13, v17, v18, v19, v22, v23, v24,
};

/// Version 1's decode entry point (one activation row per block).
pub const V1_DECODE_KERNEL: &str = "int4_linear_v1_m1_f32";
/// Version 1's batch entry point (4 activation rows per block).
pub const V1_BATCH_KERNEL: &str = "int4_linear_v1_m4_f32";
/// Version 2 (decode: 16-byte loads, several in flight, activations in shared memory).
pub const V2_KERNEL: &str = "int4_linear_v2_f32";
/// Version 3's entry points for up to 8 activation rows per block.
pub const V3_M8_KERNELS: PerFloat<Option<&str>> =
    PerFloat { f32: None, f16: Some("int4_linear_v3_m8_f16"), bf16: Some("int4_linear_v3_m8_bf16") };
/// Version 3's entry points for 16 activation rows per block (`m > 8`).
pub const V3_M16_KERNELS: PerFloat<Option<&str>> =
    PerFloat { f32: None, f16: Some("int4_linear_v3_m16_f16"), bf16: Some("int4_linear_v3_m16_bf16") };

/// Version 4's entry points for up to 8 activation rows per block.
pub const V4_M8_KERNELS: PerFloat<Option<&str>> =
    PerFloat { f32: None, f16: Some("int4_linear_v4_m8_f16"), bf16: Some("int4_linear_v4_m8_bf16") };
/// Version 4's entry points for 16 activation rows per block (`m > 8`).
pub const V4_M16_KERNELS: PerFloat<Option<&str>> =
    PerFloat { f32: None, f16: Some("int4_linear_v4_m16_f16"), bf16: Some("int4_linear_v4_m16_bf16") };

/// Version 5's entry points: `[m_tile][group]` with `m_tile` 8 or 16 and
/// `group` 32, 64 or 128 (a kernel per group size).
pub const V5_KERNELS: [[PerFloat<Option<&str>>; 3]; 2] = [
    [
        PerFloat { f32: None, f16: Some("int4_linear_v5_m8_g32_f16"), bf16: Some("int4_linear_v5_m8_g32_bf16") },
        PerFloat { f32: None, f16: Some("int4_linear_v5_m8_g64_f16"), bf16: Some("int4_linear_v5_m8_g64_bf16") },
        PerFloat { f32: None, f16: Some("int4_linear_v5_m8_g128_f16"), bf16: Some("int4_linear_v5_m8_g128_bf16") },
    ],
    [
        PerFloat { f32: None, f16: Some("int4_linear_v5_m16_g32_f16"), bf16: Some("int4_linear_v5_m16_g32_bf16") },
        PerFloat { f32: None, f16: Some("int4_linear_v5_m16_g64_f16"), bf16: Some("int4_linear_v5_m16_g64_bf16") },
        PerFloat { f32: None, f16: Some("int4_linear_v5_m16_g128_f16"), bf16: Some("int4_linear_v5_m16_g128_bf16") },
    ],
];

/// Version 6's entry points, indexed as [`V5_KERNELS`].
pub const V6_KERNELS: [[PerFloat<Option<&str>>; 3]; 2] = [
    [
        PerFloat { f32: None, f16: Some("int4_linear_v6_m8_g32_f16"), bf16: Some("int4_linear_v6_m8_g32_bf16") },
        PerFloat { f32: None, f16: Some("int4_linear_v6_m8_g64_f16"), bf16: Some("int4_linear_v6_m8_g64_bf16") },
        PerFloat { f32: None, f16: Some("int4_linear_v6_m8_g128_f16"), bf16: Some("int4_linear_v6_m8_g128_bf16") },
    ],
    [
        PerFloat { f32: None, f16: Some("int4_linear_v6_m16_g32_f16"), bf16: Some("int4_linear_v6_m16_g32_bf16") },
        PerFloat { f32: None, f16: Some("int4_linear_v6_m16_g64_f16"), bf16: Some("int4_linear_v6_m16_g64_bf16") },
        PerFloat { f32: None, f16: Some("int4_linear_v6_m16_g128_f16"), bf16: Some("int4_linear_v6_m16_g128_bf16") },
    ],
];

/// Names one of version 17's entry points per activation type:
/// `v17_kernels!("m8", "_w4", "g128")`.
macro_rules! v17_kernels {
    ($m:literal, $warps:literal, $g:literal) => {
        PerFloat {
            f32: None,
            f16: Some(concat!("int4_linear_v17_", $m, $warps, "_", $g, "_f16")),
            bf16: Some(concat!("int4_linear_v17_", $m, $warps, "_", $g, "_bf16")),
        }
    };
    ($warps:literal) => {
        [
            [v17_kernels!("m8", $warps, "g32"), v17_kernels!("m8", $warps, "g64"), v17_kernels!("m8", $warps, "g128")],
            [
                v17_kernels!("m16", $warps, "g32"),
                v17_kernels!("m16", $warps, "g64"),
                v17_kernels!("m16", $warps, "g128"),
            ],
        ]
    };
}

/// Version 17's warps a group with entry points of their own
/// ([`V17_KERNELS`]' first index, from 1); other counts take the entry
/// points that read it from the block.
pub const V17_FIXED_WARPS: [u32; 5] = [1, 2, 4, 8, 16];

/// Version 17's entry points, `[warps][m_tile][group size]`: `warps` 0 for
/// any number of warps a group (`blockDim.x / 32`, read at run time), then
/// one for each of [`V17_FIXED_WARPS`] up to `v17::MAX_WARPS` of the tile
/// (none for 16 warps a group past 8 activation rows), which knows it at
/// compile time; the rest indexed as [`V5_KERNELS`] (`m_tile` 8: version
/// 5's body; 16: version 6's).
pub const V17_KERNELS: [[[PerFloat<Option<&str>>; 3]; 2]; 6] = [
    v17_kernels!(""),
    v17_kernels!("_w1"),
    v17_kernels!("_w2"),
    v17_kernels!("_w4"),
    v17_kernels!("_w8"),
    [
        [v17_kernels!("m8", "_w16", "g32"), v17_kernels!("m8", "_w16", "g64"), v17_kernels!("m8", "_w16", "g128")],
        [PerFloat { f32: None, f16: None, bf16: None }; 3],
    ],
];

/// Version 10's entry points (version 7 on the Hopper's warpgroup MMAs; sm_90a only).
pub const V10_KERNELS: PerFloat<Option<&str>> =
    PerFloat { f32: None, f16: Some("int4_linear_v10_f16"), bf16: Some("int4_linear_v10_bf16") };

/// Version 10's split-K entry points (see [`SplitK`]).
pub const V10_SPLIT_K_KERNELS: PerFloat<Option<&str>> =
    PerFloat { f32: None, f16: Some("int4_linear_v10_split_k_f16"), bf16: Some("int4_linear_v10_split_k_bf16") };

/// Version 11's entry points (version 10 with 256 activation rows a block; sm_90a only).
pub const V11_KERNELS: PerFloat<Option<&str>> =
    PerFloat { f32: None, f16: Some("int4_linear_v11_f16"), bf16: Some("int4_linear_v11_bf16") };

/// Version 11's split-K entry points (see [`SplitK`]).
pub const V11_SPLIT_K_KERNELS: PerFloat<Option<&str>> =
    PerFloat { f32: None, f16: Some("int4_linear_v11_split_k_f16"), bf16: Some("int4_linear_v11_split_k_bf16") };

/// Version 18's entry points (version 10 with 64 activation rows a block; sm_90a only).
pub const V18_KERNELS: PerFloat<Option<&str>> =
    PerFloat { f32: None, f16: Some("int4_linear_v18_f16"), bf16: Some("int4_linear_v18_bf16") };

/// Version 18's split-K entry points (see [`SplitK`]).
pub const V18_SPLIT_K_KERNELS: PerFloat<Option<&str>> =
    PerFloat { f32: None, f16: Some("int4_linear_v18_split_k_f16"), bf16: Some("int4_linear_v18_split_k_bf16") };

/// Version 19's entry points (version 12 with version 18's 64-row tile; sm_90a only).
/// The first argument is a tensor map of `x` (see [`XTensorMap`]) in place of its address.
pub const V19_KERNELS: PerFloat<Option<&str>> =
    PerFloat { f32: None, f16: Some("int4_linear_v19_f16"), bf16: Some("int4_linear_v19_bf16") };

/// Version 19's split-K entry points (see [`SplitK`]).
pub const V19_SPLIT_K_KERNELS: PerFloat<Option<&str>> =
    PerFloat { f32: None, f16: Some("int4_linear_v19_split_k_f16"), bf16: Some("int4_linear_v19_split_k_bf16") };

/// Version 22's entry points (version 19 with 16 activation rows a block; sm_90a only).
pub const V22_KERNELS: PerFloat<Option<&str>> =
    PerFloat { f32: None, f16: Some("int4_linear_v22_f16"), bf16: Some("int4_linear_v22_bf16") };

/// Version 22's split-K entry points (see [`SplitK`]).
pub const V22_SPLIT_K_KERNELS: PerFloat<Option<&str>> =
    PerFloat { f32: None, f16: Some("int4_linear_v22_split_k_f16"), bf16: Some("int4_linear_v22_split_k_bf16") };

/// Version 24's entry points (version 23 with 32 activation rows a block;
/// sm_90a only). The second argument is a tensor map of `qweight`, as
/// version 23's (see [`QweightTensorMap`]).
pub const V24_KERNELS: PerFloat<Option<&str>> =
    PerFloat { f32: None, f16: Some("int4_linear_v24_f16"), bf16: Some("int4_linear_v24_bf16") };

/// Version 24's split-K entry points (see [`SplitK`]), with the tensor map too.
pub const V24_SPLIT_K_KERNELS: PerFloat<Option<&str>> =
    PerFloat { f32: None, f16: Some("int4_linear_v24_split_k_f16"), bf16: Some("int4_linear_v24_split_k_bf16") };

/// Version 23's entry points (version 22 with its codes copied by the TMA
/// unit; sm_90a only). The second argument is a tensor map of `qweight`
/// (see [`QweightTensorMap`]) in place of its address.
pub const V23_KERNELS: PerFloat<Option<&str>> =
    PerFloat { f32: None, f16: Some("int4_linear_v23_f16"), bf16: Some("int4_linear_v23_bf16") };

/// Version 23's split-K entry points (see [`SplitK`]), with the tensor map too.
pub const V23_SPLIT_K_KERNELS: PerFloat<Option<&str>> =
    PerFloat { f32: None, f16: Some("int4_linear_v23_split_k_f16"), bf16: Some("int4_linear_v23_split_k_bf16") };

/// Version 12's entry points (version 10 with producer warpgroups, on
/// version 13's feed without its cluster; sm_90a only): for G = 32 and 64,
/// then for G = 128 (`_g128_`, which take the layer's packed constants in
/// the scales' place). The first two arguments are tensor maps of `x` and
/// `qweight` (see [`XTensorMap`], [`QweightTensorMap`]).
pub const V12_KERNELS: [PerFloat<Option<&str>>; 2] = [
    PerFloat { f32: None, f16: Some("int4_linear_v12_f16"), bf16: Some("int4_linear_v12_bf16") },
    PerFloat { f32: None, f16: Some("int4_linear_v12_g128_f16"), bf16: Some("int4_linear_v12_g128_bf16") },
];

/// Version 12's split-K entry points (see [`SplitK`]), as [`V12_KERNELS`].
pub const V12_SPLIT_K_KERNELS: [PerFloat<Option<&str>>; 2] = [
    PerFloat { f32: None, f16: Some("int4_linear_v12_split_k_f16"), bf16: Some("int4_linear_v12_split_k_bf16") },
    PerFloat {
        f32: None,
        f16: Some("int4_linear_v12_split_k_g128_f16"),
        bf16: Some("int4_linear_v12_split_k_g128_bf16"),
    },
];

/// Version 13's entry points (version 12 in clusters of two blocks that
/// share the activations; sm_90a only), as [`V12_KERNELS`].
pub const V13_KERNELS: [PerFloat<Option<&str>>; 2] = [
    PerFloat { f32: None, f16: Some("int4_linear_v13_f16"), bf16: Some("int4_linear_v13_bf16") },
    PerFloat { f32: None, f16: Some("int4_linear_v13_g128_f16"), bf16: Some("int4_linear_v13_g128_bf16") },
];

/// Version 13's split-K entry points (see [`SplitK`]), as [`V12_KERNELS`].
pub const V13_SPLIT_K_KERNELS: [PerFloat<Option<&str>>; 2] = [
    PerFloat { f32: None, f16: Some("int4_linear_v13_split_k_f16"), bf16: Some("int4_linear_v13_split_k_bf16") },
    PerFloat {
        f32: None,
        f16: Some("int4_linear_v13_split_k_g128_f16"),
        bf16: Some("int4_linear_v13_split_k_g128_bf16"),
    },
];

/// Version 7's entry points (a tiled GEMM for large `m`).
pub const V7_KERNELS: PerFloat<Option<&str>> =
    PerFloat { f32: None, f16: Some("int4_linear_v7_f16"), bf16: Some("int4_linear_v7_bf16") };
/// Version 7's split-K entry points: each block sums a slice of `K` into
/// the f32 workspace (see [`SplitK`]).
pub const V7_SPLIT_K_KERNELS: PerFloat<Option<&str>> =
    PerFloat { f32: None, f16: Some("int4_linear_v7_split_k_f16"), bf16: Some("int4_linear_v7_split_k_bf16") };
/// The second kernel of a split-K call: adds the slices and the bias into `y`.
pub const SPLIT_K_REDUCE_KERNELS: PerFloat<Option<&str>> =
    PerFloat { f32: None, f16: Some("int4_linear_split_k_reduce_f16"), bf16: Some("int4_linear_split_k_reduce_bf16") };

/// The kernel versions, simplest first; docs/PERF.md has each one's design
/// and measured times. Every version accepts every shape; versions 1 and 2
/// take f32 activations, versions 3 to 7 f16 and bf16.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Int4LinearVersion {
    /// A block's warps split `K` for 4 rows; `m` in tiles of 1 (m = 1) or 4.
    V1,
    /// A warp owns 2 rows, 16-byte loads two steps deep, activations staged
    /// in shared memory, codes converted through exponent bits.
    V2,
    /// Tensor cores (`mma.sync`), the weights dequantized to the activation
    /// type in registers; `warps` (1 to 16; fewer where the registers do not allow them) per block split `K`.
    V3 { warps: u32 },
    /// Version 3's MMAs fed by a `cp.async` pipeline through shared memory,
    /// `STAGES - 1` steps in flight per warp; `warps` (1 to 16) per block.
    V4 { warps: u32 },
    /// Version 3's tiles with raw codes as the A operand: the scale and zero
    /// point applied once per group to f32 accumulators, through a second
    /// MMA that sums the activations; `warps` (1 to 16) per block.
    V5 { warps: u32 },
    /// Version 5 with 32 weight rows per warp instead of 16: each step's
    /// activations serve twice the codes; `warps` (1 to 16) per block.
    V6 { warps: u32 },
    /// A tiled GEMM for large `m`: a block of 8 warps computes 128 weight
    /// rows x 128 activation rows, fed by a 3-stage `cp.async` ring (its
    /// block is fixed). `split_k` is the number of slices `K` is split
    /// into across blocks: 1 is one launch over all of `K`; more sum each
    /// slice into an f32 workspace and add the slices in a second launch
    /// ([`SplitK`]), for grids too small to fill the GPU ([`tiled_split_k`]).
    V7 { split_k: u32 },
    /// Version 7 on the Hopper's warpgroup MMAs (`wgmma`): a block of 8
    /// warps computes 256 weight rows x 128 activation rows, the tensor
    /// cores reading the activations from a 4-stage `cp.async` ring. Runs
    /// on compute capability 9.0 only ([`runs_on`](Self::runs_on)); split
    /// as version 7. (Versions 8 and 9 were measured and removed:
    /// docs/PERF.md, runs 10 and 12.)
    V10 { split_k: u32 },
    /// Version 10 with a block of 128 weight rows x 256 activation rows
    /// (`wgmma` m64n256k16), so each dequantized weight serves twice the
    /// activation rows; a 3-stage ring. Compute capability 9.0 only; split
    /// as version 7.
    V11 { split_k: u32 },
    /// Version 10's tile and MMAs with two producer warpgroups, meeting the
    /// MMA warpgroups through an mbarrier pair a stage instead of a block
    /// barrier each step; from run 58 fed as version 13 is (producer thread
    /// 0 copies a step's codes and activations with the TMA unit, and at
    /// G = 128 the layer's packed constants), without its cluster. Compute
    /// capability 9.0 only; split as version 7. The one
    /// [`best_for`](Self::best_for) chooses past 64 rows (up to 128 where
    /// the split model predicts it faster than version 19): 0.95-0.99x
    /// of version 13's time on most benchmark shapes from M = 128 to 8192
    /// (docs/PERF.md, run 58).
    V12 { split_k: u32 },
    /// Version 12 in clusters of two blocks along `n`, which share each
    /// stage's activations: each block copies half of them with the TMA
    /// unit into both (multicast), so they cross L2 half as often. Compute
    /// capability 9.0 only; split as version 7. Runs 17 to 57 chose it
    /// past 64 rows (1.1-1.25x faster than version 12 on the larger shapes
    /// then, run 17); [`best_for`](Self::best_for) no longer does, since
    /// version 12 took version 13's feed (run 58).
    V13 { split_k: u32 },
    /// Versions 5 (up to 8 activation rows) and 6 (up to 16) in a 2-D block
    /// of `row_groups` groups of warps, `warps` in all: each group takes
    /// its own weight rows and its warps split `K`, so the groups read the
    /// same activations at about the same time and all but the first find
    /// them in L1. `warps` must be a multiple of `row_groups`, at most
    /// `quant_kernels_abi::int4_linear::v17::MAX_WARPS` (16 up to 8
    /// activation rows, 8 past them). Groups of 1, 2, 4, 8 or 16 warps run
    /// entry points that know the count at compile time ([`V17_KERNELS`]),
    /// 1-8% faster than versions 5 and 6 in the same block (docs/PERF.md,
    /// run 23); other counts read it from the block.
    /// (Versions 14 to 16 were measured and removed: docs/PERF.md, runs
    /// 19, 21 and 22.)
    V17 { row_groups: u32, warps: u32 },
    /// Version 10 with a block of 256 weight rows x 64 activation rows
    /// (`wgmma` m64n64k16): up to 64 activation rows, half the MMAs of
    /// version 10's tile. Compute capability 9.0 only; split as version 7.
    V18 { split_k: u32 },
    /// Version 12's producer and MMA warpgroups with version 18's tile
    /// (256 weight rows x 64 activation rows) and 5 stages. Compute
    /// capability 9.0 only; split as version 7. The one
    /// [`best_for`](Self::best_for) chooses there from 33 to 64 rows, and
    /// up to 128 where the split model predicts it faster than version 13:
    /// 1.10-1.39x faster than version 18 (docs/PERF.md, run 24). (Versions
    /// 20 and 21 were measured and removed: docs/PERF.md, runs 24 and 25.)
    V19 { split_k: u32 },
    /// Version 19 with 16 activation rows a block and 8 stages: up to 16
    /// rows, a quarter of version 19's MMAs, by `mma.sync` a warp (run 47;
    /// `wgmma` m64n16k16 before). Compute
    /// capability 9.0 only; split as version 7. At M = 16 1.02-1.17x faster
    /// than version 17 on four benchmark shapes (docs/PERF.md, run 27);
    /// [`best_for`](Self::best_for) took it from 9 to 16 rows past
    /// 16384 until version 17's programmatic launches beat it there (run
    /// 31), and where it split rows longer than 8192 from run 46 until
    /// version 23 copied its activations with the TMA unit (run 55).
    /// Version 23 is taken in its place.
    V22 { split_k: u32 },
    /// Version 22 with each step's codes copied by the TMA unit (one copy
    /// a step by one producer thread, from a tensor map of `qweight`, in
    /// place of four `cp.async` a producer thread). Compute capability 9.0
    /// only; split as version 7. The one [`best_for`](Self::best_for)
    /// chooses from 9 to 16 rows where its slices are long enough and `k`
    /// is at most [`V23_MAX_K`]: at M = 16 1.01-1.06x faster than
    /// version 22 on three benchmark shapes, 1.03x slower (1.09x with
    /// zero points) at 8192 x 28672 (docs/PERF.md, run 28).
    V23 { split_k: u32 },
    /// Version 23 with 32 activation rows a block and 7 stages: from 17
    /// to 32 rows, half version 19's MMAs, by `mma.sync` a warp. Compute
    /// capability 9.0 only; split as version 7. The one
    /// [`best_for`](Self::best_for) chooses there: at M = 32 on the H200,
    /// with its codes copied by the producer threads as version 22 does,
    /// 1.08-1.18x faster than version 19 on every benchmark shape, split or
    /// not (docs/PERF.md, run 52, call A: 62.9 µs against 74.5 at 28672 x
    /// 8192); copied by the TMA unit, as version 23 does, 0.4-3.1% faster
    /// again on four of them (call D).
    V24 { split_k: u32 },
}

/// What the host needs of a tiled GEMM's block (versions 7, 10 to 13, 18,
/// 19 and 22 to 24), from its ABI module, and its measured step.
#[derive(Debug, Clone, Copy)]
struct TiledBlock {
    /// Weight rows and activation rows a block.
    block_n: usize,
    block_m: usize,
    /// Blocks a cluster along `n`: the grid holds whole clusters.
    cluster: usize,
    threads: u32,
    shared_bytes: u32,
    /// The only compute capability whose PTX (`sm_90a`) has it; `None`: every one.
    only_on: Option<(u32, u32)>,
    /// A block's step of 128 columns on the H100, in ns ([`tiled_split_k`]).
    step_ns: u128,
}

/// The [`TiledBlock`] of ABI module `$abi`.
macro_rules! tiled_block {
    // Only on `$only_on` (`None`: every compute capability), clusters of `$cluster` blocks.
    (@ $abi:ident, $only_on:expr, $step_ns:expr, $cluster:expr) => {
        TiledBlock {
            block_n: $abi::BLOCK_N,
            block_m: $abi::BLOCK_M,
            cluster: $cluster,
            threads: $abi::BLOCK_THREADS,
            shared_bytes: $abi::SHARED_BYTES,
            only_on: $only_on,
            step_ns: $step_ns,
        }
    };
    ($abi:ident, None, $step_ns:expr) => {
        tiled_block!(@ $abi, None, $step_ns, 1)
    };
    ($abi:ident, $step_ns:expr) => {
        tiled_block!(@ $abi, Some($abi::COMPUTE_CAPABILITY), $step_ns, 1)
    };
    ($abi:ident, $step_ns:expr, cluster $cluster:expr) => {
        tiled_block!(@ $abi, Some($abi::COMPUTE_CAPABILITY), $step_ns, $cluster)
    };
}

impl Int4LinearVersion {
    /// Every version, with its default launch shape.
    pub const ALL: [Self; 17] = [
        Self::V1,
        Self::V2,
        Self::V3 { warps: v3::DEFAULT_WARPS },
        Self::V4 { warps: v4::DEFAULT_WARPS },
        Self::V5 { warps: v3::DEFAULT_WARPS },
        Self::V6 { warps: v3::DEFAULT_WARPS },
        Self::V7 { split_k: 1 },
        Self::V10 { split_k: 1 },
        Self::V11 { split_k: 1 },
        Self::V12 { split_k: 1 },
        Self::V13 { split_k: 1 },
        Self::V17 { row_groups: 2, warps: 8 },
        Self::V18 { split_k: 1 },
        Self::V19 { split_k: 1 },
        Self::V22 { split_k: 1 },
        Self::V23 { split_k: 1 },
        Self::V24 { split_k: 1 },
    ];

    /// The version for `m` activation rows of type `T` and `n x k` weights
    /// on `device`, with its launch choice ([`tuned`](Self::tuned)), for
    /// weights with or without zero points alike. [`plan`] and
    /// [`Kernels::int4_linear`](crate::Kernels::int4_linear) launch this
    /// version.
    pub fn best_for<T: Float>(m: usize, n: usize, k: usize, device: &DeviceInfo) -> Self {
        let version = match T::NAME {
            "f32" if m == 1 => Self::V2,
            "f32" => Self::V1,
            // Version 17 runs v5's body up to one MMA tile of activation rows
            // and v6's (32 weight rows a warp) up to v7::ABOVE_M (16), with the
            // warps of a group known at compile time: 1-8% faster than v5
            // and v6 on every benchmark shape at M = 1 and 16, and 15% at 16
            // x 28672 x 8192 in groups of one warp (docs/PERF.md, run 23).
            // From 9 rows, version 23 where `k` is at most V23_MAX_K and its
            // slices are long enough (`V22_MIN_SLICE_STEPS`), already split.
            _ if m <= v7::ABOVE_M => match sixteen_row_tile_where_slices_are_long(m, n, k, device) {
                Some(tiled) => return tiled,
                None => Self::V17 { row_groups: 1, warps: 1 },
            },
            // Past it the tiled GEMM, which reads each weight once per tile
            // of activation rows, with K split where its grid is small. Past
            // 16 rows version 17 reads the weights again for every 16: at M =
            // 32 it took 1.3-1.7x the time of version 19 on every benchmark
            // shape (run 24, call F).
            // On compute capability 9.0 the tiling runs on warpgroup MMAs:
            // version 10 was 1.3-1.45x faster than version 7 at M = 1024
            // and 1.1-1.45x at M = 128 (docs/PERF.md, run 13), version 12
            // (fed by producer warpgroups) 1.1-1.2x faster than version 10
            // from M = 128 to 8192 (run 15), and version 13 (version 12
            // sharing the activations across a cluster of two blocks)
            // 1.1-1.25x faster than version 12 from M = 128 to 8192 on the
            // larger shapes, 0.94-1.07x of it on the smallest (run 17).
            // Version 11 (256 activation rows a tile) is not faster than
            // version 10 (runs 14 and 15), so it is not chosen. Up to 64 rows
            // version 19 (version 12's pipeline on 64-row tiles): at M = 32
            // and 64 1.10-1.39x faster than version 18 (version 10's loop on
            // them) on every benchmark shape, split or not (run 24, call F).
            // From 17 to 32 rows version 24 (version 23's pipeline on
            // 32-row tiles), which does not multiply the 32 rows past `m`
            // that version 19's tile does (run 52).
            _ if m <= v24::BLOCK_M && Self::V24 { split_k: 1 }.runs_on(device.compute_capability) => {
                Self::V24 { split_k: 1 }
            }
            _ if m <= v19::BLOCK_M && Self::V19 { split_k: 1 }.runs_on(device.compute_capability) => {
                Self::V19 { split_k: 1 }
            }
            // Past it version 12 with its split. From run 58 version 12 is
            // fed as version 13 is (the TMA unit, and at G = 128 the packed
            // constants), without the cluster, and took 0.95-0.99 of version
            // 13's time on most unsplit calls from M = 128 to 8192
            // (1.00-1.007 at 256 x 28672 x 8192 and at M = 8192 on 4096 x
            // 11008 and 8192 x 28672; run 58 call C); with no grid padded to
            // whole clusters either, the model would never predict version
            // 13 faster, so it is not asked (runs 44 to 57 took version 13
            // except where its padding cost a wave, and in some split calls).
            //
            // Up to version 12's 128 rows, two of version 19's tiles where
            // the split model predicts them faster (each version with its
            // own split): at 128 x 4096 x 4096 version 19 split 4 took
            // 17.50 µs against version 13 split 8's 19.59, and on the
            // other four benchmark shapes at M = 128, where the model
            // predicts version 13, version 13 was faster (run 26, call F).
            //
            _ if Self::V12 { split_k: 1 }.runs_on(device.compute_capability) => {
                let (v12, v19) = (Self::V12 { split_k: 1 }, Self::V19 { split_k: 1 });
                let (split, v12_ns) = tiled_split(v12, m, n, k, device);
                if m <= v12::BLOCK_M {
                    let (v19_split, v19_ns) = tiled_split(v19, m, n, k, device);
                    if v19_ns < v12_ns {
                        return v19.with_split_k(v19_split);
                    }
                }
                return v12.with_split_k(split);
            }
            _ => Self::V7 { split_k: 1 },
        };
        version.tuned(m, n, k, device)
    }

    /// This version with the launch choice that suits `m` activation rows
    /// and `n x k` weights on `device`: the warps per block of versions 3
    /// to 6, the groups and warps of version 17 (`v17_block`), the split of
    /// `K` of the tiled GEMMs ([`tiled_split_k`]); versions 1 and 2
    /// have none and are returned as they are.
    ///
    /// Versions 3 to 6: the block's warps split `K`, so fewer warps a block
    /// means more blocks and longer runs of `K` per warp. The H100's sweeps
    /// (docs/PERF.md, all five shapes) were fastest with about 2048 tiles of
    /// 16 weight rows in flight: version 5 (one tile a warp) with about
    /// 2048 warps in the grid (run 5), version 6 (two) with about 1024 (run
    /// 14). So: the largest power of two at most `2048 / ceil(n / 16)`
    /// warps, from 2 to 8.
    pub fn tuned(self, m: usize, n: usize, k: usize, device: &DeviceInfo) -> Self {
        if self.split_k().is_some() {
            return self.with_split_k(tiled_split_k(self, m, n, k, device));
        }
        if let Self::V17 { .. } = self {
            return v17_block(m, n, device);
        }
        let share = (2048 / n.div_ceil(v3::ROWS_PER_BLOCK).max(1)).max(1);
        let warps = (1u32 << share.ilog2()).clamp(2, v3::DEFAULT_WARPS);
        self.with_warps(warps)
    }

    /// Output features (`n`) per block, for `m` activation rows (version
    /// 17's groups take twice the rows past 8).
    pub fn rows_per_block(self, m: usize) -> usize {
        match self {
            Self::V1 => v1::ROWS_PER_BLOCK,
            Self::V2 => v2::ROWS_PER_BLOCK,
            Self::V3 { .. } | Self::V4 { .. } | Self::V5 { .. } => v3::ROWS_PER_BLOCK,
            Self::V6 { .. } => v6::ROWS_PER_BLOCK,
            Self::V17 { row_groups, .. } => v17::ROWS_PER_GROUP[wide_tile(m) as usize] * row_groups as usize,
            tiled => tiled.tiled_block().map_or(0, |block| block.block_n),
        }
    }

    /// The block of a tiled GEMM (versions 7, 10 to 13, 18, 19 and 22 to 24).
    fn tiled_block(self) -> Option<TiledBlock> {
        // The steps: 2.0 µs for version 7 (run 8: 65.5 µs for 32 steps),
        // 2.4 µs for version 10 (run 14: 76.2 µs for 32 steps at
        // 1024x4096x4096, a tile twice version 7's), 2.45 µs for version 11
        // (run 14: 78.9 µs, the same tile area), 1.80 µs for version 12 (run
        // 15's 2.05 µs, 65.3 µs, the same tile as version 10; on version
        // 13's feed with the packed constants at G = 128 it took 0.95-0.99
        // of version 13's time from M = 128 to 8192 in the unsplit calls of
        // the five benchmark shapes, 1.00-1.007 at three, run 58 call C),
        // 1.87 µs for version 13
        // (run 17's 2.0 µs, 63.7 µs, was 0.976 of version 12's; its codes by
        // the TMA unit took 0.90-0.93 of version 12's time at M = 8192 on
        // the shapes whose grids it does not pad, run 57, call C), 1.65 µs for
        // version 18 (run 23: 107.5 µs for 64 steps at 1 x 28672 x 8192, one
        // wave) and 1.31 µs for version 19 (run 24, call F: 84.1 µs at 64 x
        // 28672 x 8192).
        Some(match self {
            Self::V7 { .. } => tiled_block!(v7, None, 2000),
            Self::V10 { .. } => tiled_block!(v10, 2400),
            Self::V11 { .. } => tiled_block!(v11, 2450),
            Self::V12 { .. } => tiled_block!(v12, 1800),
            Self::V13 { .. } => tiled_block!(v13, 1870, cluster v13::CLUSTER),
            Self::V18 { .. } => tiled_block!(v18, 1650),
            Self::V19 { .. } => tiled_block!(v19, 1310),
            // 0.93 µs for version 22 (run 27, call G: 59.3 µs for 64 steps
            // at 16 x 28672 x 8192) and 0.87 µs for version 23 (run 28,
            // call C: 55.5 µs).
            Self::V22 { .. } => tiled_block!(v22, 930),
            Self::V23 { .. } => tiled_block!(v23, 870),
            // Version 24 was measured on the H200 only: 0.98 µs a step
            // (run 52, call A: 62.9 µs for 64 steps at 32 x 28672 x 8192),
            // where versions 19 and 22 took 0.82-0.88 of their H100 steps
            // (run 51: 1.15 and 0.76 µs), so about 1.15 µs on the H100.
            Self::V24 { .. } => tiled_block!(v24, 1150),
            // Named, so that a new version must say which it is.
            Self::V1
            | Self::V2
            | Self::V3 { .. }
            | Self::V4 { .. }
            | Self::V5 { .. }
            | Self::V6 { .. }
            | Self::V17 { .. } => return None,
        })
    }

    /// The warps per block, for the versions whose block is a launch choice
    /// (3 to 6 and 17).
    pub fn warps(self) -> Option<u32> {
        match self {
            Self::V3 { warps }
            | Self::V4 { warps }
            | Self::V5 { warps }
            | Self::V6 { warps }
            | Self::V17 { warps, .. } => Some(warps),
            _ => None,
        }
    }

    /// The most warps a block may have at `m` activation rows, for the
    /// versions whose block is a launch choice: 16 for versions 3 to 6 (32
    /// would need more registers than a multiprocessor has), and version
    /// 17's `v17::MAX_WARPS` for its entry point.
    pub fn most_warps(self, m: usize) -> Option<u32> {
        match self {
            Self::V17 { .. } => Some(v17::MAX_WARPS[wide_tile(m) as usize]),
            version => version.warps().map(|_| v3::MAX_WARPS),
        }
    }

    /// The slices `K` is split into, for the tiled GEMMs (versions 7, 10 to
    /// 13, 18, 19 and 22 to 24; the others have no split).
    pub fn split_k(self) -> Option<u32> {
        match self {
            Self::V7 { split_k }
            | Self::V10 { split_k }
            | Self::V11 { split_k }
            | Self::V18 { split_k }
            | Self::V19 { split_k }
            | Self::V22 { split_k }
            | Self::V23 { split_k }
            | Self::V24 { split_k }
            | Self::V12 { split_k }
            | Self::V13 { split_k } => Some(split_k),
            _ => None,
        }
    }

    /// This version with `warps` per block (versions 3 to 6, and 17 with its
    /// groups kept; the others have a fixed block and are returned as they are).
    pub fn with_warps(self, warps: u32) -> Self {
        match self {
            Self::V3 { .. } => Self::V3 { warps },
            Self::V4 { .. } => Self::V4 { warps },
            Self::V5 { .. } => Self::V5 { warps },
            Self::V6 { .. } => Self::V6 { warps },
            Self::V17 { row_groups, .. } => Self::V17 { row_groups, warps },
            fixed => fixed,
        }
    }

    /// This version with `K` split into `split_k` slices (the tiled GEMMs;
    /// the others have no split and are returned as they are).
    pub fn with_split_k(self, split_k: u32) -> Self {
        match self {
            Self::V7 { .. } => Self::V7 { split_k },
            Self::V10 { .. } => Self::V10 { split_k },
            Self::V11 { .. } => Self::V11 { split_k },
            Self::V18 { .. } => Self::V18 { split_k },
            Self::V19 { .. } => Self::V19 { split_k },
            Self::V22 { .. } => Self::V22 { split_k },
            Self::V23 { .. } => Self::V23 { split_k },
            Self::V24 { .. } => Self::V24 { split_k },
            Self::V12 { .. } => Self::V12 { split_k },
            Self::V13 { .. } => Self::V13 { split_k },
            unsplit => unsplit,
        }
    }

    /// 1 to 7, 10 to 13, 17 to 19 and 22 to 24.
    pub fn number(self) -> u32 {
        match self {
            Self::V1 => 1,
            Self::V2 => 2,
            Self::V3 { .. } => 3,
            Self::V4 { .. } => 4,
            Self::V5 { .. } => 5,
            Self::V6 { .. } => 6,
            Self::V7 { .. } => 7,
            Self::V10 { .. } => 10,
            Self::V11 { .. } => 11,
            Self::V12 { .. } => 12,
            Self::V13 { .. } => 13,
            Self::V17 { .. } => 17,
            Self::V18 { .. } => 18,
            Self::V19 { .. } => 19,
            Self::V22 { .. } => 22,
            Self::V23 { .. } => 23,
            Self::V24 { .. } => 24,
        }
    }

    /// Whether this version runs on a device of `compute_capability`:
    /// versions 10 to 13, 18, 19 and 22 to 24 are only in the `sm_90a` PTX, which
    /// only compute capability 9.0 runs (elsewhere their entry points trap).
    pub fn runs_on(self, compute_capability: (u32, u32)) -> bool {
        self.tiled_block().and_then(|block| block.only_on).is_none_or(|only| only == compute_capability)
    }

    /// Whether this version takes activations of type `T`.
    pub fn supports<T: Float>(self) -> bool {
        self.kernel::<T>(1, GROUP_SIZES[0]).is_some()
    }

    /// The entry point for `m` activation rows of type `T` and weights in
    /// groups of `group_size`, if the version has one (with split-K, the
    /// first of its two kernels).
    pub fn kernel<T: Float>(self, m: usize, group_size: usize) -> Option<&'static str> {
        let wide = wide_tile(m);
        // Versions 12 and 13's entry points for G = 128 alone.
        let g128 = (group_size == int4::packed_constants::GROUP_SIZE) as usize;
        let f32_only = |name| PerFloat { f32: Some(name), f16: None, bf16: None };
        let names = match self {
            Self::V1 if m == 1 => f32_only(V1_DECODE_KERNEL),
            Self::V1 => f32_only(V1_BATCH_KERNEL),
            Self::V2 => f32_only(V2_KERNEL),
            Self::V3 { .. } if wide => V3_M16_KERNELS,
            Self::V3 { .. } => V3_M8_KERNELS,
            Self::V4 { .. } if wide => V4_M16_KERNELS,
            Self::V4 { .. } => V4_M8_KERNELS,
            Self::V5 { .. } => V5_KERNELS[wide as usize][GROUP_SIZES.iter().position(|&g| g == group_size)?],
            Self::V6 { .. } => V6_KERNELS[wide as usize][GROUP_SIZES.iter().position(|&g| g == group_size)?],
            Self::V7 { split_k } if split_k > 1 => V7_SPLIT_K_KERNELS,
            Self::V7 { .. } => V7_KERNELS,
            Self::V10 { split_k } if split_k > 1 => V10_SPLIT_K_KERNELS,
            Self::V10 { .. } => V10_KERNELS,
            Self::V11 { split_k } if split_k > 1 => V11_SPLIT_K_KERNELS,
            Self::V11 { .. } => V11_KERNELS,
            Self::V18 { split_k } if split_k > 1 => V18_SPLIT_K_KERNELS,
            Self::V18 { .. } => V18_KERNELS,
            Self::V19 { split_k } if split_k > 1 => V19_SPLIT_K_KERNELS,
            Self::V19 { .. } => V19_KERNELS,
            Self::V22 { split_k } if split_k > 1 => V22_SPLIT_K_KERNELS,
            Self::V22 { .. } => V22_KERNELS,
            Self::V23 { split_k } if split_k > 1 => V23_SPLIT_K_KERNELS,
            Self::V23 { .. } => V23_KERNELS,
            Self::V24 { split_k } if split_k > 1 => V24_SPLIT_K_KERNELS,
            Self::V24 { .. } => V24_KERNELS,
            Self::V12 { split_k } if split_k > 1 => V12_SPLIT_K_KERNELS[g128],
            Self::V12 { .. } => V12_KERNELS[g128],
            Self::V13 { split_k } if split_k > 1 => V13_SPLIT_K_KERNELS[g128],
            Self::V13 { .. } => V13_KERNELS[g128],
            Self::V17 { row_groups, warps } => {
                let (per_group, most) = (warps / row_groups.max(1), v17::MAX_WARPS[wide as usize]);
                let fixed = V17_FIXED_WARPS.iter().position(|&w| w == per_group && w <= most).map_or(0, |i| i + 1);
                V17_KERNELS[fixed][wide as usize][GROUP_SIZES.iter().position(|&g| g == group_size)?]
            }
        };
        names.get::<T>()
    }
}

/// Refuses a block of `warps` that `version` does not take for `m`
/// activation rows ([`Int4LinearVersion::most_warps`]).
fn check_warps(version: Int4LinearVersion, m: usize, warps: u32) -> Result<(), Error> {
    let most = version.most_warps(m).unwrap_or(0);
    if (1..=most).contains(&warps) {
        Ok(())
    } else {
        Err(Error::InvalidBlockThreads { threads: warps.saturating_mul(32), max: 32 * most })
    }
}

/// The fewest steps of `K` a slice of version 22 (or 23) must hold for
/// [`Int4LinearVersion::best_for`] to take it over version 17 (9 to 16
/// rows). At M = 16 on the H100 (docs/PERF.md, run 27, call G) version 22
/// was 1.14x faster than version 17 at 11008 x 4096 (split 3, slices of 11
/// steps), 1.17x at 4096 x 11008 (split 8, 11 steps), 1.13x at 28672 x
/// 8192 (unsplit, 64 steps) and 1.02x at 8192 x 28672 (split 4, 56 steps);
/// 1.08x slower at 4096 x 4096 (split 8, 4 steps), where the ring's fill
/// and the reduction cost more than the slices save.
const V22_MIN_SLICE_STEPS: usize = 8;

/// The longest rows (`k`) for which [`Int4LinearVersion::best_for`] takes
/// version 23 over version 17 from 9 to 16 activation rows: the longest
/// measured. At M = 16 on the H100 (docs/PERF.md, run 28, calls B and C)
/// version 23 was 1.04x faster than version 22 at 11008 x 4096 (split 3),
/// 1.01x at 4096 x 11008 (split 8) and 1.06x at 28672 x 8192, and 1.03x
/// slower at 8192 x 28672 (split 4; 1.09x slower with zero points), so the
/// bound stood at 16384 and version 17 took 8192 x 28672 from run 31. Run
/// 33 made version 23's producers read the group constants 8 steps at a
/// time, and there it became the faster: at 16 x 8192 x 28672 (bf16, split
/// 4) 57.44-58.30 µs against version 17's 58.47-58.98 without zero points
/// and 61.96-62.52 against 64.20-64.23 with them, three rounds in two
/// sittings (run 33 call J, run 34 call A). Longer rows are not measured.
pub const V23_MAX_K: usize = 28672;

/// Version 23 with its split, for 9 to 16 half-precision activation rows
/// (version 17's wide tile; the caller keeps `m` at most 16) on a device
/// that runs it, where `k` is at most [`V23_MAX_K`] and the slices hold at
/// least [`V22_MIN_SLICE_STEPS`] steps.
fn sixteen_row_tile_where_slices_are_long(
    m: usize,
    n: usize,
    k: usize,
    device: &DeviceInfo,
) -> Option<Int4LinearVersion> {
    let version = Int4LinearVersion::V23 { split_k: 1 };
    if !wide_tile(m) || k > V23_MAX_K || !version.runs_on(device.compute_capability) {
        return None;
    }
    // From run 46 to 54 version 22 (codes and activations copied by the
    // producer threads) took the split calls of rows longer than 8192: on
    // the H100 it was 2.7-4.4% faster at 16 x 4096 x 11008 split 8 and up
    // to 0.9% at 16 x 8192 x 28672 split 4 (docs/PERF.md, runs 45 and 46).
    // With version 23's activations by the TMA unit (run 55, calls E and G,
    // H200, two sittings) version 23 was faster at 8192 x 28672 split 4 by
    // 5.3-5.4% (2.7-3.0% with zero points) and at 4096 x 11008 split 8 by
    // 2.7-3.1%, but 3.1-3.5% slower there with zero points; with the
    // constants converted at load time (run 56, call A) version 23 took
    // 13.44 µs there with zero points, against its 16.11 before and
    // version 22's 15.63 (run 55).
    let splits = tiled_split_k(version, m, n, k, device);
    let slice = v7::slice_steps(k.div_ceil(v7::STEP_K), splits as usize);
    (slice >= V22_MIN_SLICE_STEPS).then_some(version.with_split_k(splits))
}

/// Whether `m` activation rows take the versions' wide tile (16 rows a
/// block, `_m16_` entry points) rather than 8.
fn wide_tile(m: usize) -> bool {
    m > v3::M_PER_TILE * v3::N_TILES[0]
}

/// Version 17's block for `m` activation rows and `n` weight rows on
/// `device`. As versions 5 and 6 ([`Int4LinearVersion::tuned`]), `K` is
/// split between the largest power of two at most `2048 / ceil(n / 16)`
/// warps a group, here from 1 to 8. Groups of one warp (`n` past 16384)
/// fill half the most warps a block may have (`v17::MAX_WARPS`: 8 of 16,
/// or 4 of 8 past 8 activation rows), halved while that leaves more than
/// a quarter of the multiprocessors without a block; wider groups go one a
/// block. On the H100 (docs/PERF.md, run 23) this block was the fastest
/// measured, or within 0.3% of it, at every benchmark shape at M = 1 and
/// 16 but 1 x 8192 x 28672, where two and four groups of 4 warps were
/// 0.7-2% faster; two groups instead of one were up to 9% slower. Run 23
/// filled the whole block with one-warp groups; since run 40's loop the
/// half block is 0.7% faster at 1 x 28672 x 8192 with symmetric weights
/// (45.04 against 45.36 µs in one build), as fast with asymmetric ones,
/// and 1-2% faster at 16 and 32 rows (run 43, call F).
fn v17_block(m: usize, n: usize, device: &DeviceInfo) -> Int4LinearVersion {
    let share = (2048 / n.div_ceil(v3::ROWS_PER_BLOCK).max(1)).max(1);
    let per_group = (1u32 << share.ilog2()).min(8);
    let mut row_groups = if per_group == 1 { v17::MAX_WARPS[wide_tile(m) as usize] / 2 } else { 1 };
    let rows = v17::ROWS_PER_GROUP[wide_tile(m) as usize];
    let too_few = |groups: u32| 4 * n.div_ceil(rows * groups as usize) < 3 * device.multiprocessors as usize;
    while row_groups > 1 && too_few(row_groups) {
        row_groups /= 2;
    }
    Int4LinearVersion::V17 { row_groups, warps: row_groups * per_group }
}

/// The buffers of one call, by length (and the addresses whose alignment the
/// kernels rely on).
#[derive(Debug, Clone, Copy)]
pub struct Int4LinearBuffers {
    /// Activation rows `M`.
    pub m: usize,
    /// Length of `x` (must be `m * k`).
    pub x_len: usize,
    /// Device address of `x` (must be 16-byte aligned).
    pub x_address: u64,
    /// Device address of `qweight` (must be 16-byte aligned; every
    /// allocation is).
    pub qweight_address: u64,
    /// Length of the bias, if there is one (must be `n`).
    pub bias_len: Option<usize>,
    /// Length of `y` (must be `m * n`).
    pub y_len: usize,
}

/// The split of `K` that a tiled GEMM (version 7, 10 to 13, 18, 19 or 22; 1 for
/// the others) is predicted fastest with for `m` activation rows and `n x
/// k` weights on `device`, 1 for none.
///
/// A block holds a multiprocessor alone (version 7: 120 KB of shared memory,
/// ~230 registers a thread; the others: 145 to 225 KB), so `s` slices of
/// `tiles = ceil(n / BLOCK_N) * ceil(m / BLOCK_M)` tiles (`ceil(n /
/// BLOCK_N)` rounded up to whole clusters: version 13) run in `waves =
/// ceil(s * tiles / multiprocessors)` waves of `ceil(steps / s)` steps of
/// 128 columns each. The split minimises the predicted time
///
/// `waves * ceil(steps / s) * STEP + [s > 1] (REDUCE + s * tiles * SLICE)`
///
/// over the splits whose slices all hold steps and, past `s = 1`, at least
/// `v7::MIN_SLICE_STEPS` of them (ties to the smaller split), and keeps it
/// only if it is predicted at least 10% faster than no split: the model is
/// not finer than that, and a split costs a workspace. `STEP` is a block's
/// step on the H100 (the measured figures are in
/// `Int4LinearVersion::tiled_block`); `REDUCE` (3 µs, the second launch)
/// and `SLICE` (a tile's partial written and read back at ~3 TB/s: 44 ns for
/// version 7's 64 KB) are predictions (docs/PERF.md, "v7 split-K"). On the
/// H100, version 7's 32 tiles (N = 4096, M <= 128) split 4 ways, 64 tiles (N
/// = 8192) 2 ways, and grids of a wave or more rarely split.
pub fn tiled_split_k(version: Int4LinearVersion, m: usize, n: usize, k: usize, device: &DeviceInfo) -> u32 {
    tiled_split(version, m, n, k, device).0
}

/// [`tiled_split_k`]'s split and the time the model predicts with it, in
/// ns (0 for a version that is not tiled).
fn tiled_split(version: Int4LinearVersion, m: usize, n: usize, k: usize, device: &DeviceInfo) -> (u32, u128) {
    let Some(block) = version.tiled_block() else { return (1, 0) };
    let steps = k.div_ceil(v7::STEP_K);
    let predicted_ns = |splits: usize| tiled_predicted_ns(&block, (m, n, k), device, splits);
    // More slices than multiprocessors would not shorten a wave.
    let most = (steps / v7::MIN_SLICE_STEPS).min(device.multiprocessors as usize).max(1);
    let no_empty_slice = |splits: usize| (splits - 1) * v7::slice_steps(steps, splits) < steps;
    let best = (2..=most).filter(|&s| no_empty_slice(s)).min_by_key(|&s| predicted_ns(s));
    match best {
        Some(splits) if 10 * predicted_ns(splits) <= 9 * predicted_ns(1) => (splits as u32, predicted_ns(splits)),
        _ => (1, predicted_ns(1)),
    }
}

/// The time [`tiled_split_k`]'s model predicts for a tiled GEMM's `block`
/// with `K` in `splits` slices, in ns; its grid in whole clusters.
fn tiled_predicted_ns(
    block: &TiledBlock,
    (m, n, k): (usize, usize, usize),
    device: &DeviceInfo,
    splits: usize,
) -> u128 {
    const REDUCE_NS: u128 = 3000;
    let slice_ns = (block.block_n * block.block_m) as u128 * 4 * 2 / 3000; // bytes at 3 bytes/ns
    let tiles = (n.div_ceil(block.block_n).next_multiple_of(block.cluster) * m.div_ceil(block.block_m)) as u128;
    let steps = k.div_ceil(v7::STEP_K);
    let waves = (splits as u128 * tiles).div_ceil(device.multiprocessors.max(1) as u128);
    let compute = waves * v7::slice_steps(steps, splits) as u128 * block.step_ns;
    if splits == 1 { compute } else { compute + REDUCE_NS + splits as u128 * tiles * slice_ns }
}

/// A checked call of the layer: the launches to enqueue, in order, on one
/// stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Int4LinearPlan {
    /// The layer's kernel. Without a split of `K` it writes `y`, and its
    /// arguments are those [`plan`] lists; with one, see [`SplitK`].
    pub launch: Launch,
    /// The split of `K` into more than one slice (versions 7, 10 to 13, 18, 19 and 22 to 24), if any.
    pub split_k: Option<SplitK>,
    /// Versions 12, 13, 19, 23 and 24 take a tensor map of `x` as their first
    /// argument, in place of `x`'s address: this says what to encode.
    pub x_tensor_map: Option<XTensorMap>,
    /// Versions 12, 13, 19, 23 and 24 take a tensor map of `qweight` as their
    /// second argument, in place of `qweight`'s address: this says what to
    /// encode.
    pub qweight_tensor_map: Option<QweightTensorMap>,
    /// Whether the third argument is the address of the layer's packed
    /// constants for `T` in place of `scales` (versions 12, 13, 19, 23 and 24 at
    /// `G = 128`): what [`Int4Weights::packed_constants`] returns for `T`,
    /// laid out as [`quant_kernels_abi::int4::packed_constants`] says.
    ///
    /// [`Int4Weights::packed_constants`]: crate::int4_weights::Int4Weights::packed_constants
    pub packed_constants: bool,
}

/// The tensor map of the activations that the launches of versions 12, 13, 19,
/// 23 and 24 take as their first argument (a `CUtensorMap`, 128 bytes, passed by value):
/// `cuTensorMapEncodeTiled` of `x`'s address as a 2-D array of 2-byte
/// elements (`CU_TENSOR_MAP_DATA_TYPE_UINT16`, or the f16/bf16 type), dims
/// `[columns, rows]`, row stride `2 * columns` bytes, box `[box_columns,
/// box_rows]`, element strides `[1, 1]`, no interleave,
/// `CU_TENSOR_MAP_SWIZZLE_128B`, any L2 promotion,
/// `CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE` (zeros outside). With `columns == 0`
/// the kernel reads no activations, and any 128 bytes will do (the driver
/// encodes no empty array).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct XTensorMap {
    /// `m`.
    pub rows: usize,
    /// `k`.
    pub columns: usize,
    pub box_columns: usize,
    pub box_rows: usize,
}

/// The tensor map of the codes that the launches of versions 12, 13, 19, 23 and 24 take as their
/// second argument (a `CUtensorMap`, 128 bytes, passed by value):
/// `cuTensorMapEncodeTiled` of `qweight`'s address as a 3-D array of 4-byte
/// words (`CU_TENSOR_MAP_DATA_TYPE_UINT32`), dims `[16, words_per_row,
/// bands]` with `words_per_row = quant_kernels_abi::int4::padded_words_per_row(k)`
/// and `bands = ceil(n / 16)`, strides `[64, 64 * words_per_row]` bytes
/// (a row's step, then a band), box `quant_kernels_abi::int4_linear::v23::CODE_BOX`,
/// element strides `[1, 1, 1]`, no interleave, `CU_TENSOR_MAP_SWIZZLE_64B`,
/// any L2 promotion, `CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE` (zeros outside).
/// Element `(w, 16 s + r, b)` is word `w` of row `16 b + r` in step `s`: a
/// band's step is 16 rows of 64 bytes at once in the banded format. With
/// `words_per_row == 0` (`k == 0`) the kernel reads no codes, and any 128
/// bytes will do (the driver encodes no empty array).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QweightTensorMap {
    /// Words of a row, whole steps: `padded_words_per_row(k)`.
    pub words_per_row: usize,
    /// Bands of 16 rows: `ceil(n / 16)`.
    pub bands: usize,
}

/// A call of version 7, 10 to 13, 18, 19 or 22 to 24 with `K` split into `splits > 1` slices: `launch`
/// (of the [`Int4LinearPlan`]) sums each slice of `K` into an f32
/// workspace `partials[splits][m][n]`, and `reduce` adds the slices and the
/// bias into `y`.
///
/// The caller provides the workspace, `workspace_len` f32 that need no
/// initialization (every element is written) and that nothing else reads
/// or writes from the first launch until `reduce` is done, then enqueues on
/// one stream:
/// 1. `launch`, with the arguments of [`plan`] but one `partials:
///    CUdeviceptr` in place of `bias` and `y`: `x, qweight, scales, zeros,
///    partials, m, n, k, group_size`;
/// 2. `reduce`, with `partials: CUdeviceptr`, `bias: CUdeviceptr` (f32, 0
///    for none), `y: CUdeviceptr`, `m: u32`, `n: u32`, `splits: u32`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SplitK {
    /// Slices of `K`: `gridDim.z` of `launch`. Each slice holds
    /// `quant_kernels_abi::int4_linear::v7::slice_steps` steps of 128
    /// columns (the last ones fewer, or none).
    pub splits: u32,
    /// f32 elements of the workspace: `splits * m * n`.
    pub workspace_len: usize,
    /// The reduction of the slices into `y`.
    pub reduce: Launch,
}

/// The f32 elements of the workspace that a call of `version` (with its
/// split of `K`) for `m` activation rows and `n` outputs needs
/// ([`SplitK::workspace_len`]): `split_k * m * n` where it splits `K`, 0
/// where it does not.
pub fn workspace_len(version: Int4LinearVersion, m: usize, n: usize) -> Result<usize, Error> {
    match version.split_k() {
        Some(splits) if splits > 1 => {
            checked_product("split_k * m * n", splits as usize, checked_product("m * n", m, n)?)
        }
        _ => Ok(0),
    }
}

/// Checks one call with activations and outputs of type `T` against the
/// weights' shape and returns the plan of
/// [`Int4LinearVersion::best_for`]`::<T>(m, n, k, device)`, or `None` when
/// there is nothing to compute (`m == 0` or `n == 0`).
///
/// Kernel arguments, the same for every version, in order: `x: CUdeviceptr`
/// (`T [m][k]`), `qweight: CUdeviceptr`, `scales: CUdeviceptr`, `zeros:
/// CUdeviceptr` (0 for symmetric weights), `bias: CUdeviceptr` (f32, 0 for
/// none), `y: CUdeviceptr` (`T [m][n]`), `m: u32`, `n: u32`, `k: u32`,
/// `group_size: u32`; the weight arrays as in [`quant_kernels_abi::int4`].
/// A plan that splits `K` has two launches and a workspace ([`SplitK`]); a
/// plan of version 13, 19, 23 or 24 takes a tensor map of `x` in place of
/// `x` ([`XTensorMap`]), one of version 19, 23 or 24 a tensor map of
/// `qweight` in place of `qweight` ([`QweightTensorMap`]) and, at `G =
/// 128`, the layer's packed constants for `T` in place of `scales`
/// ([`Int4LinearPlan::packed_constants`]).
pub fn plan<T: Float>(
    shape: &Int4Shape,
    buffers: &Int4LinearBuffers,
    device: &DeviceInfo,
) -> Result<Option<Int4LinearPlan>, Error> {
    let version = Int4LinearVersion::best_for::<T>(buffers.m, shape.n, shape.k, device);
    plan_version::<T>(shape, buffers, version)
}

/// As [`plan`], for a given version (and launch choice: warps, split).
pub fn plan_version<T: Float>(
    shape: &Int4Shape,
    buffers: &Int4LinearBuffers,
    version: Int4LinearVersion,
) -> Result<Option<Int4LinearPlan>, Error> {
    let Int4LinearBuffers { m, x_len, x_address, qweight_address, bias_len, y_len } = *buffers;
    for (what, value) in [("m", m), ("n", shape.n), ("k", shape.k)] {
        if value > u32::MAX as usize {
            return Err(Error::TooLarge { what, value: value as u128, limit: u32::MAX as u128 });
        }
    }
    expect_len("x", checked_product("m * k", m, shape.k)?, x_len)?;
    expect_len("y", checked_product("m * n", m, shape.n)?, y_len)?;
    if let Some(bias_len) = bias_len {
        expect_len("bias", shape.n, bias_len)?;
    }
    for (argument, address) in [("x", x_address), ("qweight", qweight_address)] {
        if address % 16 != 0 {
            return Err(Error::Misaligned { argument, align: 16 });
        }
    }
    // Int4Shape's fields are public: the kernels' indexing (a lane's 32
    // columns in one group, rows of x 16-byte aligned) needs what
    // Int4Shape::new checks.
    if !GROUP_SIZES.contains(&shape.group_size) {
        return Err(Error::InvalidGroupSize(shape.group_size));
    }
    if shape.k % shape.group_size != 0 {
        return Err(Error::KNotMultipleOfGroup { k: shape.k, group_size: shape.group_size });
    }
    if m == 0 || shape.n == 0 {
        return Ok(None);
    }
    let unsupported = || Error::UnsupportedType { kernel: "int4_linear", version: version.number(), dtype: T::NAME };
    let (m_tile, block, shared_mem_bytes) = match version {
        Int4LinearVersion::V1 if m == 1 => (v1::DECODE_M_TILE, [v1::BLOCK_THREADS, 1, 1], v1::shared_bytes(1)),
        Int4LinearVersion::V1 => (v1::BATCH_M_TILE, [v1::BLOCK_THREADS, 1, 1], v1::shared_bytes(v1::BATCH_M_TILE)),
        Int4LinearVersion::V2 => (1, [v2::BLOCK_THREADS, 1, 1], v2::SHARED_BYTES),
        Int4LinearVersion::V3 { warps }
        | Int4LinearVersion::V4 { warps }
        | Int4LinearVersion::V5 { warps }
        | Int4LinearVersion::V6 { warps } => {
            check_warps(version, m, warps)?;
            let n_tiles = v3::N_TILES[wide_tile(m) as usize];
            let m_tile = v3::M_PER_TILE * n_tiles;
            let shared = match version {
                Int4LinearVersion::V4 { .. } => v4::shared_bytes(warps, n_tiles, m.min(m_tile)),
                _ => v3::shared_bytes(warps, n_tiles),
            };
            (m_tile, [warps * 32, 1, 1], shared)
        }
        Int4LinearVersion::V17 { row_groups, warps } => {
            check_warps(version, m, warps)?;
            let per_group = warps / row_groups.max(1);
            if row_groups == 0 || per_group * row_groups != warps {
                return Err(Error::InvalidBlockShape { row_groups, warps });
            }
            let n_tiles = v3::N_TILES[wide_tile(m) as usize];
            // One-warp groups store from registers.
            let shared = if per_group == 1 { 0 } else { v3::shared_bytes(warps, n_tiles) };
            (v3::M_PER_TILE * n_tiles, [32 * per_group, row_groups, 1], shared)
        }
        tiled => {
            let (Some(block), Some(split_k)) = (tiled.tiled_block(), tiled.split_k()) else {
                return Err(unsupported());
            };
            // The slices are gridDim.z.
            if !(1..=MAX_GRID_Z).contains(&split_k) {
                return Err(Error::InvalidSplitK { split_k, max: MAX_GRID_Z });
            }
            (block.block_m, [block.threads, 1, 1], block.shared_bytes)
        }
    };
    let kernel = version.kernel::<T>(m, shape.group_size).ok_or_else(unsupported)?;
    // Whole clusters (version 13).
    let blocks_n =
        shape.n.div_ceil(version.rows_per_block(m)).next_multiple_of(version.tiled_block().map_or(1, |b| b.cluster));
    // Versions 12, 13, 19, 23 and 24 read x through a tensor map of it, in
    // boxes of (columns, rows).
    let x_box = match version {
        Int4LinearVersion::V12 { .. } => Some((v12::TMA_BOX_COLUMNS, v12::TMA_BOX_ROWS)),
        Int4LinearVersion::V13 { .. } => Some((v13::TMA_BOX_COLUMNS, v13::TMA_BOX_ROWS)),
        Int4LinearVersion::V19 { .. } => Some((v19::TMA_BOX_COLUMNS, v19::TMA_BOX_ROWS)),
        Int4LinearVersion::V23 { .. } => Some((v23::TMA_BOX_COLUMNS, v23::TMA_BOX_ROWS)),
        Int4LinearVersion::V24 { .. } => Some((v24::TMA_BOX_COLUMNS, v24::TMA_BOX_ROWS)),
        _ => None,
    };
    if x_box.is_some() {
        // The map's box coordinates are 32-bit signed and reach one tile
        // past m and a step past k (every such version's tile and step are
        // within version 13's).
        const {
            assert!(
                v12::BLOCK_M <= v13::BLOCK_M
                    && v12::STEP_K == v13::STEP_K
                    && v19::BLOCK_M <= v13::BLOCK_M
                    && v23::BLOCK_M <= v13::BLOCK_M
                    && v24::BLOCK_M <= v13::BLOCK_M
                    && v19::STEP_K == v13::STEP_K
                    && v23::STEP_K == v13::STEP_K
                    && v24::STEP_K == v13::STEP_K
            )
        };
        for (what, value) in [("m", m), ("k", shape.k)] {
            let limit = i32::MAX as usize - v13::BLOCK_M.max(v13::STEP_K);
            if value > limit {
                return Err(Error::TooLarge { what, value: value as u128, limit: limit as u128 });
            }
        }
    }
    let splits = version.split_k().unwrap_or(1);
    let m_tiles = m.div_ceil(m_tile).min(MAX_GRID_Y as usize);
    let launch = Launch {
        kernel,
        config: LaunchConfig { grid: [blocks_n as u32, m_tiles as u32, splits], block, shared_mem_bytes },
    };
    let split_k = if splits > 1 {
        let reduce = Launch {
            kernel: SPLIT_K_REDUCE_KERNELS.get::<T>().ok_or_else(unsupported)?,
            config: LaunchConfig {
                grid: [
                    shape.n.div_ceil(v7::REDUCE_THREADS as usize * v7::REDUCE_COLUMNS) as u32,
                    m.min(MAX_GRID_Y as usize) as u32,
                    1,
                ],
                block: [v7::REDUCE_THREADS, 1, 1],
                shared_mem_bytes: 0,
            },
        };
        let workspace_len = workspace_len(version, m, shape.n)?;
        Some(SplitK { splits, workspace_len, reduce })
    } else {
        None
    };
    let x_tensor_map =
        x_box.map(|(box_columns, box_rows)| XTensorMap { rows: m, columns: shape.k, box_columns, box_rows });
    // Versions 12, 13, 19, 23 and 24 (version 23's feed) read the codes
    // through a map of them, and where a step is one group the packed
    // constants (versions 12 and 13 in their `_g128_` entry points).
    use Int4LinearVersion::{V12, V13, V19, V23, V24};
    let qweight_tensor_map = matches!(version, V12 { .. } | V13 { .. } | V19 { .. } | V23 { .. } | V24 { .. })
        .then_some(QweightTensorMap {
            words_per_row: int4::padded_words_per_row(shape.k),
            bands: shape.n.div_ceil(int4::BAND_ROWS),
        });
    let packed_constants = matches!(version, V12 { .. } | V13 { .. } | V19 { .. } | V23 { .. } | V24 { .. })
        && shape.group_size == int4::packed_constants::GROUP_SIZE;
    Ok(Some(Int4LinearPlan { launch, split_k, x_tensor_map, qweight_tensor_map, packed_constants }))
}

#[cfg(feature = "cuda")]
mod cuda {
    use super::{Int4LinearBuffers, Int4LinearVersion, plan_version};
    use crate::float::PerFloat;
    use crate::int4_weights::{Int4Mode, Int4Shape, Int4Weights};
    use crate::kernels::{address, arg};
    use crate::tensor_map::TensorMap;
    use crate::{Error, Float, Kernels};
    use cust::memory::{DeviceBuffer, DeviceCopy, DeviceSlice};
    use cust::stream::Stream;

    /// Packed 4-bit weights on the device, with an optional bias: one linear layer.
    pub struct DeviceInt4Linear {
        shape: Int4Shape,
        qweight: DeviceBuffer<u32>,
        scales: DeviceBuffer<u16>,
        zeros: Option<DeviceBuffer<u8>>,
        bias: Option<DeviceBuffer<f32>>,
        /// The constants converted for versions 12, 13, 19, 23 and 24, f16 then bf16
        /// ([`Int4Weights::packed_constants`]), where `G` is 128 and the
        /// device runs them.
        packed_constants: Option<[DeviceBuffer<u16>; 2]>,
    }

    impl DeviceInt4Linear {
        pub fn shape(&self) -> Int4Shape {
            self.shape
        }

        pub fn has_bias(&self) -> bool {
            self.bias.is_some()
        }
    }

    impl std::fmt::Debug for DeviceInt4Linear {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("DeviceInt4Linear").field("shape", &self.shape).field("bias", &self.has_bias()).finish()
        }
    }

    impl Kernels {
        /// Copies packed weights (and a bias of `n` elements, if given) to the
        /// device. Where `G` is 128 and the device runs versions 19, 23 and
        /// 24 (compute capability 9.0), also their converted constants for
        /// f16 and for bf16 activations ([`Int4Weights::packed_constants`]):
        /// 1/16 of the codes' bytes more on the device (1/8 with zero
        /// points), read at 9 to 128 activation rows in place of the
        /// producers' conversion a step.
        pub fn upload_int4_linear(
            &self,
            weights: &Int4Weights,
            bias: Option<&[f32]>,
        ) -> Result<DeviceInt4Linear, Error> {
            let shape = weights.shape();
            if let Some(bias) = bias {
                crate::launch::expect_len("bias", shape.n, bias.len())?;
            }
            let scales: Vec<u16> = weights.scales().iter().map(|s| s.to_bits()).collect();
            // Built only where the versions that read them run.
            let reads_packed = Int4LinearVersion::V23 { split_k: 1 }.runs_on(self.device().compute_capability);
            let packed_constants = reads_packed
                .then(|| weights.packed_constants::<half::f16>().zip(weights.packed_constants::<half::bf16>()))
                .flatten();
            Ok(DeviceInt4Linear {
                shape,
                qweight: self.upload(weights.qweight())?,
                scales: self.upload(&scales)?,
                zeros: match shape.mode {
                    Int4Mode::Symmetric => None,
                    Int4Mode::Asymmetric => Some(self.upload(weights.zeros())?),
                },
                bias: bias.map(|b| self.upload(b)).transpose()?,
                packed_constants: packed_constants
                    .map(|(f16, bf16)| Ok::<_, Error>([self.upload(&f16)?, self.upload(&bf16)?]))
                    .transpose()?,
            })
        }

        /// Enqueues `y = x * dequant(W)^T + bias` on `stream`, for `m` rows
        /// of activations `x[m][k]` (16-byte aligned) into `y[m][n]`, both
        /// f32, f16 or bf16, with the version best for that type and the
        /// weights on this device ([`Int4LinearVersion::best_for`]).
        pub fn int4_linear<T: Float + DeviceCopy>(
            &self,
            x: &DeviceSlice<T>,
            m: usize,
            layer: &DeviceInt4Linear,
            y: &mut DeviceSlice<T>,
            stream: &Stream,
        ) -> Result<(), Error> {
            let version = Int4LinearVersion::best_for::<T>(m, layer.shape.n, layer.shape.k, self.device());
            self.int4_linear_version(version, x, m, layer, y, stream)
        }

        /// As [`int4_linear`](Self::int4_linear), with a given kernel version
        /// and launch choice (for comparing versions; every version computes
        /// the same). [`Error::UnsupportedType`] if the version does not take `T`.
        ///
        /// **Workspace.** A call that splits `K` (a tiled GEMM with `split_k
        /// > 1`, [`SplitK`](super::SplitK)) needs `4 * split_k * m * n` bytes
        /// for the slices' partial sums. It allocates them on `stream`, in
        /// stream order, from a memory pool of the handle
        /// (`cuMemAllocFromPoolAsync`), enqueues its two kernels and frees
        /// them on `stream` (`cuMemFreeAsync`): calls on several streams
        /// each have their own workspace, the host never waits, and under
        /// [`capture`](Kernels::capture) the allocation and the free become
        /// nodes of the graph, which owns that memory (such a call is 4
        /// nodes: allocation, two kernels, free). The cost: two more
        /// driver calls on the host per call; on the device the workspace
        /// written once and read once (`8 * split_k * m * n` bytes, mostly
        /// in L2) and the second launch; and the pool keeps the most memory
        /// it ever held at once until the handle is dropped (64 KB per
        /// block of the split grid: 8 MB for a 128 x 4096 output split 4
        /// ways). In a graph the allocation node also comes between the
        /// kernel before and the split GEMM, which then cannot start before
        /// that kernel ends (programmatic launch): up to 0.9 µs a call on
        /// the H100, 1.4 with version 13 at 128 x 11008 x 4096
        /// (docs/PERF.md, run 35). An engine that manages its own memory
        /// passes a workspace of its own instead
        /// ([`int4_linear_version_with_workspace`](Self::int4_linear_version_with_workspace)),
        /// for the library's pick [`Int4LinearVersion::best_for`] and
        /// [`workspace_len`](super::workspace_len) of that version.
        pub fn int4_linear_version<T: Float + DeviceCopy>(
            &self,
            version: Int4LinearVersion,
            x: &DeviceSlice<T>,
            m: usize,
            layer: &DeviceInt4Linear,
            y: &mut DeviceSlice<T>,
            stream: &Stream,
        ) -> Result<(), Error> {
            self.enqueue_int4_linear(version, (x, m), layer, y, None, stream)
        }

        /// As [`int4_linear_version`](Self::int4_linear_version), with the
        /// split-K workspace the caller owns: at least
        /// [`workspace_len`](super::workspace_len) f32 (any length, also
        /// empty, for a call that does not split `K`; shorter is
        /// [`Error::LengthMismatch`]). Nothing is allocated or freed: a
        /// split call is its two kernels, two nodes under
        /// [`capture`](Kernels::capture). The caller keeps the workspace
        /// alive, and out of other work, until the call's kernels (or the
        /// graph that captured them) are done, as cuBLAS asks of its
        /// workspaces: two calls in flight at once on different streams
        /// need two workspaces.
        #[allow(clippy::too_many_arguments)]
        pub fn int4_linear_version_with_workspace<T: Float + DeviceCopy>(
            &self,
            version: Int4LinearVersion,
            x: &DeviceSlice<T>,
            m: usize,
            layer: &DeviceInt4Linear,
            y: &mut DeviceSlice<T>,
            workspace: &mut DeviceSlice<f32>,
            stream: &Stream,
        ) -> Result<(), Error> {
            self.enqueue_int4_linear(version, (x, m), layer, y, Some(workspace), stream)
        }

        /// The call of both methods above: `workspace`, the caller's, or
        /// `None` for one from the pool.
        fn enqueue_int4_linear<T: Float + DeviceCopy>(
            &self,
            version: Int4LinearVersion,
            (x, m): (&DeviceSlice<T>, usize),
            layer: &DeviceInt4Linear,
            y: &mut DeviceSlice<T>,
            workspace: Option<&mut DeviceSlice<f32>>,
            stream: &Stream,
        ) -> Result<(), Error> {
            let shape = layer.shape;
            let buffers = Int4LinearBuffers {
                m,
                x_len: x.len(),
                x_address: address(x),
                qweight_address: address(&layer.qweight),
                bias_len: layer.bias.as_ref().map(|b| b.len()),
                y_len: y.len(),
            };
            let Some(plan) = plan_version::<T>(&shape, &buffers, version)? else { return Ok(()) };
            let compute_capability = self.device().compute_capability;
            let not_on_device = || Error::VersionNotOnDevice {
                kernel: "int4_linear",
                version: version.number(),
                target: "sm_90a",
                compute_capability,
            };
            if !version.runs_on(compute_capability) {
                return Err(not_on_device());
            }
            let (x, y) = (address(x), address(y));
            let qweight = address(&layer.qweight);
            // Versions 12, 13, 19, 23 and 24 at G = 128 read T's packed constants in
            // the scales' place (their producers then convert nothing); the
            // upload made them where the device runs those versions.
            let scales = match (plan.packed_constants, &layer.packed_constants) {
                (false, _) => address(&layer.scales),
                // (No f32 plan reads them: versions 12, 13, 19, 23 and 24 take half types only.)
                (true, Some([f16, bf16])) => PerFloat { f32: 0, f16: address(f16), bf16: address(bf16) }.get::<T>(),
                (true, None) => return Err(not_on_device()),
            };
            let zeros = layer.zeros.as_ref().map_or(0, |z| address(z));
            let bias = layer.bias.as_ref().map_or(0, |b| address(b));
            let dims = [m as u32, shape.n as u32, shape.k as u32, shape.group_size as u32];
            let [m, n, k, group_size] = dims.each_ref().map(arg);
            // Versions 12, 13, 19, 23 and 24 read x and qweight through tensor
            // maps, their first two arguments.
            let (x_map, qweight_map);
            let x = match plan.x_tensor_map {
                Some(map) => {
                    x_map = TensorMap::encode(x, &map)?;
                    arg(&x_map)
                }
                None => arg(&x),
            };
            let qweight = match plan.qweight_tensor_map {
                Some(map) => {
                    qweight_map = TensorMap::encode_qweight(qweight, &map)?;
                    arg(&qweight_map)
                }
                None => arg(&qweight),
            };
            let Some(split) = plan.split_k else {
                let args = [x, qweight, arg(&scales), arg(&zeros), arg(&bias), arg(&y), m, n, k, group_size];
                // SAFETY: the argument list matches every int4 entry point; the shapes
                // were checked, and the weight arrays match their shape by construction.
                return unsafe { self.launch(&plan.launch, stream, &args) };
            };
            // SAFETY (both launches): the split-K argument lists (SplitK);
            // `partials` holds workspace_len f32 that nothing else uses
            // until the reduction is done, y holds m * n.
            let launch_split = |partials: u64| unsafe {
                let args = [x, qweight, arg(&scales), arg(&zeros), arg(&partials), m, n, k, group_size];
                self.launch(&plan.launch, stream, &args)?;
                let args = [arg(&partials), arg(&bias), arg(&y), m, n, arg(&split.splits)];
                self.launch(&split.reduce, stream, &args)
            };
            if let Some(workspace) = workspace {
                if workspace.len() < split.workspace_len {
                    let (expected, actual) = (split.workspace_len, workspace.len());
                    return Err(Error::LengthMismatch { argument: "workspace", expected, actual });
                }
                return launch_split(address(workspace));
            }
            let workspaces = self.workspaces()?;
            let partials = workspaces.alloc_f32(split.workspace_len, stream)?;
            let launched = launch_split(partials);
            // Freed after whatever was enqueued, also when a launch was refused.
            // SAFETY: allocated above on this stream, freed once; no later
            // work uses it.
            let freed = unsafe { workspaces.free(partials, stream) };
            launched.and(freed)
        }
    }
}

#[cfg(feature = "cuda")]
pub use cuda::DeviceInt4Linear;
