//! Version 24 (`sm_90a` only): version 23's pipeline ([`super::v12`] fed
//! by [`super::v23`]'s copies of the codes and activations by the TMA
//! unit) and `mma.sync`
//! consumers with a tile of 256 weight rows x 32 activation rows. Shapes
//! from `quant_kernels_abi::int4_linear::v24`.
//!
//! From 17 to 32 rows version 19 multiplies 64: at 32 x 28672 x 8192 it
//! took 74.6 µs on the H200, as long as at 64 rows (73.5), where version 22
//! took 48.5 at 16 (docs/PERF.md, run 51, call E). Its step is latency-bound
//! between the dequantization and the 64-row MMAs (run 48, call C), and
//! half of those MMAs are of rows past `m` at M = 32. Here the MMA
//! warpgroups dequantize a step's weights once, as in versions 19 and 22,
//! and each warp multiplies them by 32 activation rows with `mma.sync`
//! (two `ldmatrix` and four `m16n8k16` a tile and 16-column chunk, twice
//! version 22's), scaling the step's sums in f32 at `G` = 128 as version
//! 22 does. A stage is 24 KB (version 19's codes, half its activations),
//! so 7 stages fit.
//!
//! **Measured** (H200, run 52, bf16, cold, `docs/PERF.md`): at M = 32
//! 1.08-1.18x faster than version 19 on the five benchmark shapes, with
//! each version's split (28672 x 8192 unsplit: 62.9 µs against 74.5, 0.98
//! µs a step against 1.16; 8192 x 28672 split 4: 60.8 against 68.7). The
//! same tile on warpgroup MMAs (`m64n32k16`) was as fast unsplit and 3-8%
//! slower split; without the constant windows 0.3-2.1% slower (2.1% at
//! 28672 x 8192). Two of its tiles at M = 64 take 1.2-1.7x version 19's
//! time. Those builds had the producer threads copy the codes (version 22's
//! feed); with version 23's, one TMA copy a step (call D, three rounds),
//! it was 0.4-3.1% faster on four shapes and within 0.2% on 4096 x 11008
//! split 8 (28672 x 8192: 61.5 µs against 63.0).
//!
//! Shared memory: version 12's ring of `STAGES` stages, each version 10's
//! codes and activations (layout in `v10.rs`, 32 activation rows: four
//! swizzle atoms a half) followed by the step's group constants, then the
//! barriers. The arguments are the tensor maps that version 23 takes:
//! of `x` (with this tile's 32-row box, from run 55) and of the codes (its
//! view and box: ABI `v23`; this tile's codes are the same 256 rows a
//! step). Launch: grid `(ceil(n / BLOCK_N),
//! min(ceil(m / BLOCK_M), MAX_GRID_Y), splits)`, exactly `BLOCK_THREADS`
//! (512) threads, `SHARED_BYTES` of dynamic shared memory. In the `sm_80`
//! PTX the entry points trap.

use super::mma_tile::{linear_tiled, linear_tiled_split_k, tensor_map_entry_points};
use super::v10::wgmma_tile;
use super::v23::TensorMapGemm;
use crate::float::Bf16;
use crate::tma::{TensorMap, tensor_map_address};

/// Version 24's main loop: version 23's on 32 activation rows, with half
/// the producer threads filling the stages, two rows' constants each (run
/// 55, calls B and E: 0.5-3.7% faster at M = 32), where `G` is not 128;
/// at `G = 128` version 23's packed constants, one bulk copy a step by
/// producer thread 0 (`v23.rs`).
pub(super) type V24 = TensorMapGemm<16, 2, 1>;

wgmma_tile!(V24, v24, windows);

tensor_map_entry_points! {
    V24: int4_linear_v24_f16, int4_linear_v24_bf16;
    split_k: int4_linear_v24_split_k_f16, int4_linear_v24_split_k_bf16
}
