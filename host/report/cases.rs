//! What the report runs, as data: sizes, shapes, storage types, kernel
//! versions and the block sizes of the sweep. Adding any of them is one
//! entry in a list here; a new type, elementwise version or swept block size
//! also needs its library call in api.rs, the one place the report calls the
//! kernels.

use crate::api::Variant;
use crate::model::{Dtype, Op};
use quant_kernels::Int4Mode;
use quant_kernels::int4_linear::Int4LinearVersion;

/// The elementwise operations, in report order.
pub const ELEMENTWISE_OPS: [Op; 2] = [Op::AddMulExp, Op::QuantizeInt8];

/// Elements per elementwise case: from well inside the L2 (100K f32 is
/// 1.2 MB for add_mul_exp) to 12x past it (50M is 600 MB).
pub const ELEMENTWISE_SIZES: [usize; 8] =
    [100_000, 300_000, 500_000, 1_000_000, 5_000_000, 10_000_000, 20_000_000, 50_000_000];
/// `--quick`: one size in L2, one past it, one far past it.
pub const QUICK_ELEMENTWISE_SIZES: [usize; 3] = [100_000, 1_000_000, 50_000_000];

/// `(N, K)` of the linear cases: a 7B model's attention and MLP projections
/// (4096, 11008) and a 70B model's MLP (28672 x 8192).
pub const LINEAR_SHAPES: [(usize, usize); 5] =
    [(4096, 4096), (11008, 4096), (4096, 11008), (28672, 8192), (8192, 28672)];
pub const QUICK_LINEAR_SHAPES: [(usize, usize); 2] = [(4096, 4096), (11008, 4096)];
/// Activation rows: decode (1) and a small batch (the targets of issue 3),
/// the batches of the tensor-core issue's targets (16, 64, 128, 1024 to
/// 8192) for the tiled GEMMs, and 32, past the library's crossover from
/// version 17 to them (`v7::ABOVE_M`). Past M = 16 the outputs are checked
/// on a sample of rows (gpu.rs, `checked_rows`).
pub const LINEAR_MS: [usize; 8] = [1, 16, 32, 64, 128, 256, 1024, 8192];
pub const QUICK_LINEAR_MS: [usize; 3] = [1, 16, 128];
pub const LINEAR_MODES: [Int4Mode; 2] = [Int4Mode::Symmetric, Int4Mode::Asymmetric];
pub const QUICK_LINEAR_MODES: [Int4Mode; 1] = [Int4Mode::Symmetric];
/// Up to this many activation rows the report times every int4 version,
/// mode and type; past it, on symmetric weights in f16 and bf16, version 17
/// up to twice its crossover (32 rows), versions 6 and 7 up to
/// [`SLOW_VERSIONS_MAX_M`] rows, 18 and 19 up to 128, 22 and 23 up to 32, and 10 to 13 at every M. Everything at every M took longer than a
/// 10-minute device call on the H100.
pub const EVERY_LINEAR_VARIANT_UP_TO_M: usize = 16;
/// Versions 6 and 7 stop here: at M = 8192 a call of theirs takes tens of
/// milliseconds on the large shapes.
pub const SLOW_VERSIONS_MAX_M: usize = 1024;

/// Whether the report times `version` at `m` rows of `mode` weights.
pub fn linear_variant_timed(m: usize, mode: Int4Mode, version: Int4LinearVersion) -> bool {
    m <= EVERY_LINEAR_VARIANT_UP_TO_M
        || (mode == Int4Mode::Symmetric
            && match version {
                Int4LinearVersion::V6 { .. } | Int4LinearVersion::V7 { .. } => m <= SLOW_VERSIONS_MAX_M,
                // Past the crossover to the tiled GEMMs too, to show it.
                Int4LinearVersion::V17 { .. } => m <= 2 * quant_kernels::abi::int4_linear::v7::ABOVE_M,
                // Versions 18 and 19's 64-row tiles: up to two, to compare.
                Int4LinearVersion::V18 { .. } => m <= 2 * quant_kernels::abi::int4_linear::v18::BLOCK_M,
                Int4LinearVersion::V19 { .. } => m <= 2 * quant_kernels::abi::int4_linear::v19::BLOCK_M,
                // Versions 22 and 23's 16-row tile likewise, and version 24's 32-row one.
                Int4LinearVersion::V22 { .. } | Int4LinearVersion::V23 { .. } => {
                    m <= 2 * quant_kernels::abi::int4_linear::v22::BLOCK_M
                }
                Int4LinearVersion::V24 { .. } => m <= 2 * quant_kernels::abi::int4_linear::v24::BLOCK_M,
                Int4LinearVersion::V10 { .. }
                | Int4LinearVersion::V11 { .. }
                | Int4LinearVersion::V12 { .. }
                | Int4LinearVersion::V13 { .. } => true,
                _ => false,
            })
}

/// Weights per quantization group.
pub const LINEAR_GROUP: usize = 128;

/// Storage types of activations and outputs.
pub const DTYPES: [Dtype; 3] = [Dtype::F32, Dtype::F16, Dtype::Bf16];

/// Elementwise kernel versions, numbered from 1 (naive) up, as in llm.c's
/// dev/cuda.
pub const ELEMENTWISE_VERSIONS: [u32; 3] = [1, 2, 3];
/// The int4 versions: every one the library has.
pub const LINEAR_VERSIONS: &[Int4LinearVersion] = &Int4LinearVersion::ALL;

/// Threads per block that `--sweep` tries (int4 versions 3 to 6 and 17 stop at 512;
/// versions 7 and 10 to 13 run once, at their own block).
pub const SWEEP_BLOCKS: [u32; 5] = [64, 128, 256, 512, 1024];
/// The ops whose launch takes a block size, which `--sweep` sweeps (for
/// int4, versions 3 to 6 and 17; the others keep their block).
pub const BLOCK_SWEPT: &[Op] = &[Op::AddMulExp, Op::QuantizeInt8, Op::Linear];

/// Which cases a run takes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Selection {
    /// Fewer sizes and shapes (see the `QUICK_` lists).
    pub quick: bool,
    /// Every block size of [`SWEEP_BLOCKS`] where the launch takes one.
    pub sweep: bool,
}

impl Selection {
    pub fn elementwise_sizes(&self) -> &'static [usize] {
        if self.quick { &QUICK_ELEMENTWISE_SIZES } else { &ELEMENTWISE_SIZES }
    }

    pub fn linear_shapes(&self) -> &'static [(usize, usize)] {
        if self.quick { &QUICK_LINEAR_SHAPES } else { &LINEAR_SHAPES }
    }

    pub fn linear_ms(&self) -> &'static [usize] {
        if self.quick { &QUICK_LINEAR_MS } else { &LINEAR_MS }
    }

    pub fn linear_modes(&self) -> &'static [Int4Mode] {
        if self.quick { &QUICK_LINEAR_MODES } else { &LINEAR_MODES }
    }

    /// The block sizes for `op`: the library's choice (`None`), or with
    /// `--sweep` each of [`SWEEP_BLOCKS`] where the launch takes one.
    pub fn blocks(&self, op: Op) -> Vec<Option<u32>> {
        if self.sweep && BLOCK_SWEPT.contains(&op) {
            SWEEP_BLOCKS.iter().map(|&b| Some(b)).collect()
        } else {
            vec![None]
        }
    }

    /// Every (version, block) of `op` in `dtype`, versions first to last.
    pub fn variants<V: Copy>(&self, op: Op, versions: &[V], dtype: Dtype) -> Vec<Variant<V>> {
        let blocks = self.blocks(op);
        versions
            .iter()
            .flat_map(|&version| blocks.iter().map(move |&block| Variant { version, block, dtype }))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_straddle_the_l2() {
        // An H100's L2 is 50 MB; add_mul_exp moves 12 bytes an element.
        let l2 = 50 << 20;
        for sizes in [&ELEMENTWISE_SIZES[..], &QUICK_ELEMENTWISE_SIZES[..]] {
            assert!(sizes.iter().any(|&n| 12 * n < l2) && sizes.iter().any(|&n| 12 * n > 2 * l2));
        }
    }

    #[test]
    fn every_int4_version_is_run() {
        let variants = Selection::default().variants(Op::Linear, LINEAR_VERSIONS, Dtype::F32);
        assert_eq!(variants.len(), Int4LinearVersion::ALL.len());
    }

    #[test]
    fn batches_time_what_the_library_picks() {
        let h100 = quant_kernels::launch::DeviceInfo { compute_capability: (9, 0), multiprocessors: 132 };
        for m in LINEAR_MS.into_iter().filter(|&m| m > EVERY_LINEAR_VARIANT_UP_TO_M) {
            for (n, k) in LINEAR_SHAPES {
                let chosen = Int4LinearVersion::best_for::<half::f16>(m, n, k, &h100);
                assert!(linear_variant_timed(m, Int4Mode::Symmetric, chosen), "{chosen:?} at m = {m}, n = {n}");
            }
        }
        assert!(!linear_variant_timed(128, Int4Mode::Asymmetric, Int4LinearVersion::V7 { split_k: 1 }));
        assert!(!linear_variant_timed(1024, Int4Mode::Symmetric, Int4LinearVersion::V1));
        assert!(!linear_variant_timed(8192, Int4Mode::Symmetric, Int4LinearVersion::V7 { split_k: 1 }));
        assert!(linear_variant_timed(8192, Int4Mode::Symmetric, Int4LinearVersion::V11 { split_k: 1 }));
        assert!(linear_variant_timed(16, Int4Mode::Asymmetric, Int4LinearVersion::V1));
    }

    #[test]
    fn sweep_only_where_the_launch_takes_a_block() {
        let sweep = Selection { quick: false, sweep: true };
        for op in [Op::Copy, Op::AddMulExp, Op::QuantizeInt8, Op::Linear] {
            let blocks = sweep.blocks(op);
            if BLOCK_SWEPT.contains(&op) {
                assert_eq!(blocks.len(), SWEEP_BLOCKS.len());
            } else {
                assert_eq!(blocks, [None]);
            }
        }
    }
}
