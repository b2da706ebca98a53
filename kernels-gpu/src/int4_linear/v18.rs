//! Version 18 (`sm_90a` only): version 10 with a tile of 256 weight rows x
//! 64 activation rows (`wgmma.mma_async.m64n64k16`); shapes from
//! `quant_kernels_abi::int4_linear::v18`, the main loop `v10.rs`'s.
//!
//! Versions 10 to 13 multiply 128 activation rows a tile, so below 128 rows
//! they issue the MMAs of 128 anyway: at M = 64 on 8192x28672 run 23
//! measured them no faster than at M = 128 (112.7 against 105.0 µs), where
//! the tensor cores, not the weights' 40 µs of DRAM, set the time. Here a
//! tile's MMAs are half as many, and so is a stage's activations (16 KB);
//! every weight is still dequantized once per tile.
//!
//! Shared memory, per stage: version 10's layout with 64 activation rows
//! (codes `0 .. 16384`, the activations' two halves of 64 columns at
//! `16384 + 8192 h`). Launch: grid `(ceil(n / BLOCK_N), min(ceil(m /
//! BLOCK_M), MAX_GRID_Y), splits)`, exactly `BLOCK_THREADS` (256) threads,
//! `SHARED_BYTES` of dynamic shared memory. In the `sm_80` PTX the entry
//! points trap.

use super::mma_tile::{linear_tiled, linear_tiled_split_k, tiled_entry_points};
use super::v10::{WarpgroupGemm, wgmma_tile};
use crate::float::Bf16;

/// Version 18's main loop.
pub(super) type V18 = WarpgroupGemm<2, 32>;

wgmma_tile!(V18, v18);

tiled_entry_points! {
    V18: int4_linear_v18_f16, int4_linear_v18_bf16;
    split_k: int4_linear_v18_split_k_f16, int4_linear_v18_split_k_bf16
}
