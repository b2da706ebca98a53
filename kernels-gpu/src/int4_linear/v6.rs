//! Version 6: version 5 with two 16-row tiles of weights per warp (a block
//! takes `quant_kernels_abi::int4_linear::v6::ROWS_PER_BLOCK` rows), the
//! body of `v5.rs` with `R = 2`.
//!
//! On the H100 `ncu` found version 5 at 65% of DRAM bandwidth on the
//! largest shape with the L2 75% busy and a third of the activation reads
//! missing the L1: every 16-row block reads the whole activation row again,
//! and a warp's registers hold as many bytes of activations as of codes.
//! With two row tiles each step's activations (and the MMAs that sum them
//! for the zero point) serve twice the codes, so a warp has twice the bytes
//! of codes in flight for 16 more registers of codes a step, and the
//! activations are read half as often.

use super::v5::linear_v5;
use crate::float::Bf16;
use quant_kernels_abi::int4_linear::v6::ROW_TILES;

super::mma_tile::entry_points! {
    linear_v5, waits itself:
    int4_linear_v6_m8_g32_f16: f16, 1, 32, ROW_TILES, 0;
    int4_linear_v6_m8_g64_f16: f16, 1, 64, ROW_TILES, 0;
    int4_linear_v6_m8_g128_f16: f16, 1, 128, ROW_TILES, 0;
    int4_linear_v6_m16_g32_f16: f16, 2, 32, ROW_TILES, 0;
    int4_linear_v6_m16_g64_f16: f16, 2, 64, ROW_TILES, 0;
    int4_linear_v6_m16_g128_f16: f16, 2, 128, ROW_TILES, 0;
    int4_linear_v6_m8_g32_bf16: Bf16, 1, 32, ROW_TILES, 0;
    int4_linear_v6_m8_g64_bf16: Bf16, 1, 64, ROW_TILES, 0;
    int4_linear_v6_m8_g128_bf16: Bf16, 1, 128, ROW_TILES, 0;
    int4_linear_v6_m16_g32_bf16: Bf16, 2, 32, ROW_TILES, 0;
    int4_linear_v6_m16_g64_bf16: Bf16, 2, 64, ROW_TILES, 0;
    int4_linear_v6_m16_g128_bf16: Bf16, 2, 128, ROW_TILES, 0;
}
