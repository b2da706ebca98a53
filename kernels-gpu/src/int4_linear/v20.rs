//! Version 20 (`sm_90a` only): version 19 in clusters of two blocks along
//! `n` that share their activations through TMA multicast, as version 13
//! is version 12 in them ([`super::v13`] has the barriers and the tensor
//! map). Shapes from `quant_kernels_abi::int4_linear::v20`.
//!
//! At M = 64 a stage holds 16 KB of codes and 16 KB of activations, so
//! sharing the activations saves a quarter of a block's L2 reads a step
//! (version 13 saves a third at 128 rows; run 23 measured it 1.1x faster
//! than version 12 at M = 64 on 28672 x 8192).
//!
//! Launch: grid `(ceil(n / BLOCK_N)` rounded up to a multiple of
//! `CLUSTER`, `min(ceil(m / BLOCK_M), MAX_GRID_Y), splits)`, exactly
//! `BLOCK_THREADS` (512) threads, `SHARED_BYTES` of dynamic shared memory,
//! a tensor map of `x` with box `TMA_BOX_COLUMNS x TMA_BOX_ROWS` as the
//! first argument. In the `sm_80` PTX the entry points trap.

use super::mma_tile::{linear_tiled, linear_tiled_split_k};
use super::v10::wgmma_tile;
use super::v13::{Multicast, multicast_entry_points};
use crate::float::Bf16;
use crate::tma::{TensorMap, tensor_map_address};

/// Version 20's main loop.
pub(super) type V20 = Multicast<2, 32>;

wgmma_tile!(V20, v20);

multicast_entry_points! {
    V20: int4_linear_v20_f16, int4_linear_v20_bf16;
    split_k: int4_linear_v20_split_k_f16, int4_linear_v20_split_k_bf16
}
