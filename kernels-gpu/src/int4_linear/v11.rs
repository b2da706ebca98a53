//! Version 11 (`sm_90a` only): version 10 with a tile of 128 weight rows x
//! 256 activation rows (`wgmma.mma_async.m64n256k16`); shapes from
//! `quant_kernels_abi::int4_linear::v11`, the main loop `v10.rs`'s with one
//! MMA tile of 64 weight rows a warpgroup.
//!
//! Version 10 dequantizes each weight once per 128 activation rows; here
//! once per 256, so a step of the same MMA work (64 weight rows x 256
//! activation rows x 128 columns a warpgroup) needs half the dequantizing
//! instructions (32 A registers a thread, not 64), which run 13's `ncu`
//! named as what held version 10 back. The price: twice the activations a
//! stage (64 KB), so 3 stages (one step of copies in flight, not two) fit
//! in the 227 KB of shared memory, and a tile wastes more of itself when
//! `m` is not a multiple of 256. Measured (docs/PERF.md): within 4% of
//! version 10 either way from M = 256 to 8192, in run 14 with its MMAs
//! serialized by ptxas (C7515, since mended) and in run 15 without; it
//! reads the activations from L2 twice as often as version 10 for the same
//! MMAs, and the L2 is what limits these tiles.
//!
//! Shared memory, per stage: codes `0 .. 8192` (row `r` of 128 at `64 r`,
//! swizzled as in version 10), then the activations' two halves of 64
//! columns at `8192 + 32768 h`, as in
//! version 10 with 256 rows. Launch: grid `(ceil(n / BLOCK_N), min(ceil(m /
//! BLOCK_M), MAX_GRID_Y), splits)`, exactly `BLOCK_THREADS` (256) threads,
//! `SHARED_BYTES` of dynamic shared memory. In the `sm_80` PTX the entry
//! points trap.

use super::mma_tile::{linear_tiled, linear_tiled_split_k, tiled_entry_points};
use super::v10::{WarpgroupGemm, wgmma_tile};
use crate::float::Bf16;

/// Version 11's main loop.
pub(super) type V11 = WarpgroupGemm<1, 128>;

wgmma_tile!(V11, v11);

tiled_entry_points! {
    V11: int4_linear_v11_f16, int4_linear_v11_bf16;
    split_k: int4_linear_v11_split_k_f16, int4_linear_v11_split_k_bf16
}
