//! Version 22 (`sm_90a` only): version 19's pipeline ([`super::v12`]) with
//! a tile of 256 weight rows x 16 activation rows. Shapes from
//! `quant_kernels_abi::int4_linear::v22`.
//!
//! Up to 16 activation rows version 19 multiplies 64, and its step (1.31 µs
//! at 64 x 28672 x 8192, run 24) is about twice what the weights' bytes
//! cost at the copy bandwidth: its MMAs and its activations are a quarter
//! of that here, and a stage 28 KB instead of 40, so 8 stages fit. The MMA
//! warpgroups still dequantize every weight of a step once, as version 17
//! does at M = 16 (which reads the weights once per 16 rows too).
//!
//! **Measured** (H100, run 27, bf16, cold, `docs/PERF.md`): at M = 16
//! (call G) 1.02-1.17x faster than version 17 on 11008 x 4096 (split 3),
//! 4096 x 11008 (split 8), 28672 x 8192 (59.3 µs against 66.7) and 8192 x
//! 28672 (split 4), 1.08x slower on 4096 x 4096; the library's choice from
//! 9 to 16 rows where its slices hold 8 steps or more. Its step stayed
//! near 1 µs at first, not the 0.6 predicted: `ncu` and the SASS put it
//! at issue (4,800 warp instructions a block and step, call A), not at the
//! MMAs nor the memory; reading a step's constants once at G = 128 (calls
//! D and F) took it to 0.93 µs. From run 46, at G = 128 its consumers
//! (and version 23's) multiply the exact `u - z` and scale each step's sums
//! in f32 (`v12::hopper::consume`): a step loop of 331 instructions in
//! place of 372, 2.8-6% faster unsplit at M = 16 (split: -2% to +1%).
//! From run 47 its consumer warps multiply by `mma.sync.m16n8k16`, B
//! loaded from the stage by `ldmatrix`, in place of a warpgroup MMA
//! (`m64n16k16`) a chunk (`v10::hopper::mma_step`): 2-7% faster at M = 16
//! on every call but 4096 x 11008 (split 8 within 0.6%, unsplit 1.5-5%
//! slower), with a step loop of 317 instructions.
//!
//! Shared memory: version 12's ring of `STAGES` stages, each version 10's
//! codes and activations (layout in `v10.rs`, 16 activation rows: two
//! swizzle atoms a half) followed by the step's group constants, then the
//! barriers. Launch: grid `(ceil(n / BLOCK_N), min(ceil(m / BLOCK_M),
//! MAX_GRID_Y), splits)`, exactly `BLOCK_THREADS` (512) threads,
//! `SHARED_BYTES` of dynamic shared memory. In the `sm_80` PTX the entry
//! points trap.

use super::mma_tile::{linear_tiled, linear_tiled_split_k, tiled_entry_points};
use super::v10::wgmma_tile;
use super::v12::ProducerConsumer;
use crate::float::Bf16;

/// Version 22's main loop.
pub(super) type V22 = ProducerConsumer<2, 8>;

wgmma_tile!(V22, v22, windows);

tiled_entry_points! {
    V22: int4_linear_v22_f16, int4_linear_v22_bf16;
    split_k: int4_linear_v22_split_k_f16, int4_linear_v22_split_k_bf16
}
