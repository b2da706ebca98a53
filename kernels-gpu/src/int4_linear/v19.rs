//! Version 19 (`sm_90a` only): version 12's producer and MMA warpgroups
//! ([`super::v12`]) with version 18's tile of 256 weight rows x 64
//! activation rows (`wgmma.mma_async.m64n64k16`). Shapes from
//! `quant_kernels_abi::int4_linear::v19`.
//!
//! At M = 64 version 18 (the same tile on version 10's loop, where the
//! whole block meets every step) took about 1.8 µs a step on 28672 x 8192
//! (run 23), the same at M = 1, 16 and 64: the step's round trip, not its
//! MMAs, set the time. Version 12 took that round trip off the MMA
//! warpgroups and was 1.1-1.2x faster than version 10 at the 128-row tile.
//! With half the activations a stage (16 KB), five stages fit where
//! version 12 has four.
//!
//! **Measured** (H100, run 24, call F, bf16, cold, `docs/PERF.md`): 84.1
//! µs at 64 x 28672 x 8192 against version 18's 116.3 (1.31 µs a step
//! against 1.82), and 1.10-1.39x faster than version 18 at M = 32 and 64
//! on every benchmark shape, split or not: the library's choice up to 64
//! rows. That needs its register split: without `.minnctapersm 1`
//! (`build.rs`) ptxas ignored its `setmaxnreg` (C7508), kept the consumers
//! at 128 registers and spilled, and it was only 1.08-1.34x faster unsplit
//! and 1-7% slower split (calls A to E). Version 13's multicast on this
//! tile ("version 20") was 1.09-1.14x slower than that build and was
//! removed.
//!
//! **Activations by the TMA unit** (from run 54; version 13's feed with a
//! cluster of one block). Producer thread 0
//! copies each stage's activations as two boxes of the tensor map of `x`
//! (the first argument, in place of `x`'s address; ABI `v19` has the box:
//! 64 columns x 64 rows, 128-byte swizzle), which land in version 10's
//! layout, and the stage's `full` barrier expects their bytes; the
//! producer threads copy only the codes and store the constants. Rows past
//! `m` and columns past `k` arrive as zeros, as the copies' zero fill
//! wrote them. A step's 16 KB of activations were 1024 `cp.async` of 16
//! bytes, four a producer thread, each with its address and predicate;
//! here they are two instructions of one thread. **Measured** (H200, run
//! 54, call D, bf16, `docs/PERF.md`): 0.9-2.6% faster at M = 64 on every
//! benchmark shape (28672 x 8192: 71.46 µs against 73.37) and 1.7-2.9% at
//! M = 128. Predicted 8-11% from a probe with no activation copies at all
//! (call B: 9-12%); but that probe also took the activations' 16 KB a
//! step and block off the L2, the same bytes for every block, and those,
//! not the copies' instructions, are the likely rest (not measured apart).
//!
//! **Version 23's feed** (from run 56): the codes by the TMA unit too,
//! one copy a step of version 23's map of the codes (the second argument;
//! the tile has version 23's 256 weight rows a step), and at `G = 128`
//! the layer's packed constants by one bulk copy a step
//! ([`super::v23`]), all from producer thread 0; the other producer
//! threads give their registers back and stop (at other group sizes they
//! convert the constants, two rows each). Before, the producer threads
//! copied the codes with `cp.async`, four 16-byte copies each a step, and
//! converted every step's constants. **Measured** (H200, run 56 call C,
//! bf16, cold, three rounds): 9-12% faster at M = 64 on the large shapes
//! (28672 x 8192: 61.7 µs against 70.4; 8192 x 28672: 60.3 against
//! 66.6), 5% at 4096 x 11008 and 11008 x 4096, 1.3% slower at 4096 x
//! 4096 (11.33 against 11.19); at M = 128 (two tiles) 4-12% faster.
//!
//! Shared memory: version 12's ring of `STAGES` stages, each version 18's
//! codes and activations (layout in `v18.rs`) followed by the step's group
//! constants, then the barriers. The arguments are the tensor maps of `x`
//! and of the codes. Launch: grid `(ceil(n / BLOCK_N),
//! min(ceil(m / BLOCK_M), MAX_GRID_Y), splits)`, exactly `BLOCK_THREADS`
//! (512) threads, `SHARED_BYTES` of dynamic shared memory. In the `sm_80`
//! PTX the entry points trap.

use super::mma_tile::{linear_tiled, linear_tiled_split_k, tensor_map_entry_points};
use super::v10::wgmma_tile;
use super::v23::TensorMapGemm;
use crate::float::Bf16;
use crate::tma::{TensorMap, tensor_map_address};

/// Version 19's main loop: version 23's on the 64-row tile (run 56); where
/// `G` is not 128, half the producer threads convert the constants, two
/// rows each (run 55, calls B and E: 0.5-2.3% faster at M = 64).
pub(super) type V19 = TensorMapGemm<32, 2, 1>;

wgmma_tile!(V19, v19);

tensor_map_entry_points! {
    V19: int4_linear_v19_f16, int4_linear_v19_bf16;
    split_k: int4_linear_v19_split_k_f16, int4_linear_v19_split_k_bf16
}
