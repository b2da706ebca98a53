//! Version 17: the body of versions 5 and 6 (`v5.rs`) in a 2-D block of
//! `blockDim.y` groups of `blockDim.x / 32` warps (shapes from
//! `quant_kernels_abi::int4_linear::v17`). Each group takes its own weight
//! rows (one 16-row tile a warp for up to 8 activation rows, as version 5,
//! two for 16, as version 6), and its warps split `K` as version 5's do.
//!
//! The warps of different groups read the same activations at about the
//! same time, so all but the first find them in L1: in versions 5 and 6 a
//! block's warps split `K`, and every 16 or 32 weight rows read the whole
//! activation tile from L2 (run 18's `ncu`: at `M = 16`, L2 moved 3.3-3.9
//! times what DRAM read). On the H100 (docs/PERF.md, run 22) this is 5.9%
//! faster than version 5 at 1x28672x8192 and 2.4% at 1x8192x28672, and no
//! faster on smaller layers or at `M = 16`, where a probe of the same
//! arrangement was 14% faster than version 6 for reasons not yet isolated.
//!
//! The `_w1_` entry points are for blocks whose groups are one warp each
//! (`blockDim.x == 32`), as that probe's were: the body knows it at compile
//! time, so each warp's loop over `K` has a constant stride and the warp
//! stores its tile from registers (no shared memory, no barrier).

use super::v5::linear_v5;
use crate::float::Bf16;
use quant_kernels_abi::int4_linear::v17::ROW_TILES;

super::mma_tile::entry_points! {
    linear_v5:
    int4_linear_v17_m8_g32_f16: f16, 1, 32, ROW_TILES[0], false;
    int4_linear_v17_m8_g64_f16: f16, 1, 64, ROW_TILES[0], false;
    int4_linear_v17_m8_g128_f16: f16, 1, 128, ROW_TILES[0], false;
    int4_linear_v17_m16_g32_f16: f16, 2, 32, ROW_TILES[1], false;
    int4_linear_v17_m16_g64_f16: f16, 2, 64, ROW_TILES[1], false;
    int4_linear_v17_m16_g128_f16: f16, 2, 128, ROW_TILES[1], false;
    int4_linear_v17_m8_w1_g32_f16: f16, 1, 32, ROW_TILES[0], true;
    int4_linear_v17_m8_w1_g64_f16: f16, 1, 64, ROW_TILES[0], true;
    int4_linear_v17_m8_w1_g128_f16: f16, 1, 128, ROW_TILES[0], true;
    int4_linear_v17_m16_w1_g32_f16: f16, 2, 32, ROW_TILES[1], true;
    int4_linear_v17_m16_w1_g64_f16: f16, 2, 64, ROW_TILES[1], true;
    int4_linear_v17_m16_w1_g128_f16: f16, 2, 128, ROW_TILES[1], true;
    int4_linear_v17_m8_g32_bf16: Bf16, 1, 32, ROW_TILES[0], false;
    int4_linear_v17_m8_g64_bf16: Bf16, 1, 64, ROW_TILES[0], false;
    int4_linear_v17_m8_g128_bf16: Bf16, 1, 128, ROW_TILES[0], false;
    int4_linear_v17_m16_g32_bf16: Bf16, 2, 32, ROW_TILES[1], false;
    int4_linear_v17_m16_g64_bf16: Bf16, 2, 64, ROW_TILES[1], false;
    int4_linear_v17_m16_g128_bf16: Bf16, 2, 128, ROW_TILES[1], false;
    int4_linear_v17_m8_w1_g32_bf16: Bf16, 1, 32, ROW_TILES[0], true;
    int4_linear_v17_m8_w1_g64_bf16: Bf16, 1, 64, ROW_TILES[0], true;
    int4_linear_v17_m8_w1_g128_bf16: Bf16, 1, 128, ROW_TILES[0], true;
    int4_linear_v17_m16_w1_g32_bf16: Bf16, 2, 32, ROW_TILES[1], true;
    int4_linear_v17_m16_w1_g64_bf16: Bf16, 2, 64, ROW_TILES[1], true;
    int4_linear_v17_m16_w1_g128_bf16: Bf16, 2, 128, ROW_TILES[1], true;
}
