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
//! times what DRAM read). On the H100 (docs/PERF.md, run 22) this alone was
//! 5.9% faster than version 5 at 1x28672x8192 and 2.4% at 1x8192x28672.
//!
//! The `_w{1,2,4,8,16}_` entry points know the warps of a group at compile
//! time (`blockDim.x == 32 w`); the others read it from the block. Knowing
//! it, each warp's loop over `K` steps by a constant, and a group of one
//! warp takes all of `K` and stores its tile from registers (no shared
//! memory, no barrier). Run 23 measured that 1-8% faster than versions 5
//! and 6 in the same blocks at M = 1 and 16 on every benchmark shape, and
//! 15% faster at 16x28672x8192 in groups of one warp (66 against 78 µs):
//! the gap run 22's probe had found.

use super::v5::linear_v5;
use crate::float::Bf16;
use quant_kernels_abi::int4_linear::v17::ROW_TILES;

super::mma_tile::entry_points! {
    linear_v5, waits itself:
    int4_linear_v17_m8_g32_f16: f16, 1, 32, ROW_TILES[0], 0;
    int4_linear_v17_m8_g64_f16: f16, 1, 64, ROW_TILES[0], 0;
    int4_linear_v17_m8_g128_f16: f16, 1, 128, ROW_TILES[0], 0;
    int4_linear_v17_m16_g32_f16: f16, 2, 32, ROW_TILES[1], 0;
    int4_linear_v17_m16_g64_f16: f16, 2, 64, ROW_TILES[1], 0;
    int4_linear_v17_m16_g128_f16: f16, 2, 128, ROW_TILES[1], 0;
    int4_linear_v17_m8_w1_g32_f16: f16, 1, 32, ROW_TILES[0], 1;
    int4_linear_v17_m8_w1_g64_f16: f16, 1, 64, ROW_TILES[0], 1;
    int4_linear_v17_m8_w1_g128_f16: f16, 1, 128, ROW_TILES[0], 1;
    int4_linear_v17_m16_w1_g32_f16: f16, 2, 32, ROW_TILES[1], 1;
    int4_linear_v17_m16_w1_g64_f16: f16, 2, 64, ROW_TILES[1], 1;
    int4_linear_v17_m16_w1_g128_f16: f16, 2, 128, ROW_TILES[1], 1;
    int4_linear_v17_m8_w2_g32_f16: f16, 1, 32, ROW_TILES[0], 2;
    int4_linear_v17_m8_w2_g64_f16: f16, 1, 64, ROW_TILES[0], 2;
    int4_linear_v17_m8_w2_g128_f16: f16, 1, 128, ROW_TILES[0], 2;
    int4_linear_v17_m16_w2_g32_f16: f16, 2, 32, ROW_TILES[1], 2;
    int4_linear_v17_m16_w2_g64_f16: f16, 2, 64, ROW_TILES[1], 2;
    int4_linear_v17_m16_w2_g128_f16: f16, 2, 128, ROW_TILES[1], 2;
    int4_linear_v17_m8_w4_g32_f16: f16, 1, 32, ROW_TILES[0], 4;
    int4_linear_v17_m8_w4_g64_f16: f16, 1, 64, ROW_TILES[0], 4;
    int4_linear_v17_m8_w4_g128_f16: f16, 1, 128, ROW_TILES[0], 4;
    int4_linear_v17_m16_w4_g32_f16: f16, 2, 32, ROW_TILES[1], 4;
    int4_linear_v17_m16_w4_g64_f16: f16, 2, 64, ROW_TILES[1], 4;
    int4_linear_v17_m16_w4_g128_f16: f16, 2, 128, ROW_TILES[1], 4;
    int4_linear_v17_m8_w8_g32_f16: f16, 1, 32, ROW_TILES[0], 8;
    int4_linear_v17_m8_w8_g64_f16: f16, 1, 64, ROW_TILES[0], 8;
    int4_linear_v17_m8_w8_g128_f16: f16, 1, 128, ROW_TILES[0], 8;
    int4_linear_v17_m16_w8_g32_f16: f16, 2, 32, ROW_TILES[1], 8;
    int4_linear_v17_m16_w8_g64_f16: f16, 2, 64, ROW_TILES[1], 8;
    int4_linear_v17_m16_w8_g128_f16: f16, 2, 128, ROW_TILES[1], 8;
    int4_linear_v17_m8_w16_g32_f16: f16, 1, 32, ROW_TILES[0], 16;
    int4_linear_v17_m8_w16_g64_f16: f16, 1, 64, ROW_TILES[0], 16;
    int4_linear_v17_m8_w16_g128_f16: f16, 1, 128, ROW_TILES[0], 16;
    int4_linear_v17_m8_g32_bf16: Bf16, 1, 32, ROW_TILES[0], 0;
    int4_linear_v17_m8_g64_bf16: Bf16, 1, 64, ROW_TILES[0], 0;
    int4_linear_v17_m8_g128_bf16: Bf16, 1, 128, ROW_TILES[0], 0;
    int4_linear_v17_m16_g32_bf16: Bf16, 2, 32, ROW_TILES[1], 0;
    int4_linear_v17_m16_g64_bf16: Bf16, 2, 64, ROW_TILES[1], 0;
    int4_linear_v17_m16_g128_bf16: Bf16, 2, 128, ROW_TILES[1], 0;
    int4_linear_v17_m8_w1_g32_bf16: Bf16, 1, 32, ROW_TILES[0], 1;
    int4_linear_v17_m8_w1_g64_bf16: Bf16, 1, 64, ROW_TILES[0], 1;
    int4_linear_v17_m8_w1_g128_bf16: Bf16, 1, 128, ROW_TILES[0], 1;
    int4_linear_v17_m16_w1_g32_bf16: Bf16, 2, 32, ROW_TILES[1], 1;
    int4_linear_v17_m16_w1_g64_bf16: Bf16, 2, 64, ROW_TILES[1], 1;
    int4_linear_v17_m16_w1_g128_bf16: Bf16, 2, 128, ROW_TILES[1], 1;
    int4_linear_v17_m8_w2_g32_bf16: Bf16, 1, 32, ROW_TILES[0], 2;
    int4_linear_v17_m8_w2_g64_bf16: Bf16, 1, 64, ROW_TILES[0], 2;
    int4_linear_v17_m8_w2_g128_bf16: Bf16, 1, 128, ROW_TILES[0], 2;
    int4_linear_v17_m16_w2_g32_bf16: Bf16, 2, 32, ROW_TILES[1], 2;
    int4_linear_v17_m16_w2_g64_bf16: Bf16, 2, 64, ROW_TILES[1], 2;
    int4_linear_v17_m16_w2_g128_bf16: Bf16, 2, 128, ROW_TILES[1], 2;
    int4_linear_v17_m8_w4_g32_bf16: Bf16, 1, 32, ROW_TILES[0], 4;
    int4_linear_v17_m8_w4_g64_bf16: Bf16, 1, 64, ROW_TILES[0], 4;
    int4_linear_v17_m8_w4_g128_bf16: Bf16, 1, 128, ROW_TILES[0], 4;
    int4_linear_v17_m16_w4_g32_bf16: Bf16, 2, 32, ROW_TILES[1], 4;
    int4_linear_v17_m16_w4_g64_bf16: Bf16, 2, 64, ROW_TILES[1], 4;
    int4_linear_v17_m16_w4_g128_bf16: Bf16, 2, 128, ROW_TILES[1], 4;
    int4_linear_v17_m8_w8_g32_bf16: Bf16, 1, 32, ROW_TILES[0], 8;
    int4_linear_v17_m8_w8_g64_bf16: Bf16, 1, 64, ROW_TILES[0], 8;
    int4_linear_v17_m8_w8_g128_bf16: Bf16, 1, 128, ROW_TILES[0], 8;
    int4_linear_v17_m16_w8_g32_bf16: Bf16, 2, 32, ROW_TILES[1], 8;
    int4_linear_v17_m16_w8_g64_bf16: Bf16, 2, 64, ROW_TILES[1], 8;
    int4_linear_v17_m16_w8_g128_bf16: Bf16, 2, 128, ROW_TILES[1], 8;
    int4_linear_v17_m8_w16_g32_bf16: Bf16, 1, 32, ROW_TILES[0], 16;
    int4_linear_v17_m8_w16_g64_bf16: Bf16, 1, 64, ROW_TILES[0], 16;
    int4_linear_v17_m8_w16_g128_bf16: Bf16, 1, 128, ROW_TILES[0], 16;
}
