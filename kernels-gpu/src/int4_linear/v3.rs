//! Version 3: tensor cores, f16 and bf16 activations and outputs (shapes
//! from `quant_kernels_abi::int4_linear::v3`).
//!
//! Each warp multiplies a 16-row tile of the weights by up to `8 * N_TILES`
//! activation rows with `mma.sync.m16n8k16`: the weights are the A operand
//! (rows `n`), the activations the B operand (columns `m`), so one
//! instruction serves 1 to 8 activation rows and decode wastes only tensor
//! core cycles, which are plentiful, not memory traffic.
//!
//! **Reading the packed format as it is.** A warp step covers 128 columns
//! (`k`) of its 16 rows: lane `(g, t) = (lane / 4, lane % 4)` loads the 16
//! bytes of columns `32t .. 32t + 32` of rows `g` and `g + 8` (a warp reads
//! 64 contiguous bytes of each row) and the 32 activations of those columns
//! (64 bytes) for the activation row of its B column `g`. The MMA sums over
//! its 16 `k` slots in any order, so slot `2t + i` of lane `(g, t)` can stand
//! for any column that lane holds, provided A and B agree: the 8 MMAs of a
//! step each take 4 columns per row from every lane (word `w`, half `h`:
//! columns `32t + 8w + 4h .. + 4`), which in the nibble order of
//! `quant_kernels_abi::int4` are the pairs `(word >> 8h) & 0x000F000F` and
//! `(word >> (8h + 4)) & 0x000F000F`, and the activations at the same columns
//! are two consecutive 32-bit pairs. No shuffle, no shared memory.
//!
//! **Dequantization, 3 instructions per two weights.** OR-ing a pair of
//! codes into the exponent bits of `MAGIC` (1024 in f16, 128 in bf16) gives
//! `MAGIC + u` exactly; one packed FMA subtracts `MAGIC + z` (exact: a small
//! integer), one more multiplies by the group scale (one rounding to the
//! activation type: a relative error of at most 2^-11 (f16) or 2^-8 (bf16)
//! per weight). A lane's 32 columns lie in one group (groups are 32, 64 or
//! 128 columns, aligned), so each lane needs one scale and zero point per
//! row and step. Products and sums are f32 in the tensor cores.
//!
//! The block's warps split the steps of `K` (warp `w` takes steps `w, w +
//! warps, ...`, `STEPS_IN_FLIGHT` at a time, every load issued before the
//! first MMA) and add their partial tiles through shared memory. Any number
//! of warps from 1 to 32 works (the block size is a launch choice).

use super::GroupParams;
use crate::device::{
    Strided, Vec4, block_dim_x, block_idx_x, block_idx_y, dynamic_shared_memory, grid_dim_y, lane_id, sync_threads,
    warp_id,
};
use crate::float::{Bf16, Float};
use crate::mma::{MmaHalf, splat2};
use core::array::from_fn;
use quant_kernels_abi::int4_linear::v3::{M_PER_TILE, ROWS_PER_BLOCK, STEP_K, STEPS_IN_FLIGHT};

/// Defines the entry points of version 3 for one activation type and MMA
/// tiles per activation-row block.
macro_rules! entry_points {
    ($($name:ident: $type:ty, $n_tiles:literal;)*) => {$(
        /// `y[m][n] = sum_k x[m][k] * (u[n][k] - z[n][g]) * s[n][g] (+ bias[n])`
        /// on tensor cores, for
        #[doc = concat!("`", stringify!($type), "` activations and outputs and ", stringify!($n_tiles),
            " x 8 activation rows per block.")]
        ///
        /// Arguments as for `int4_linear_v1_m1_f32`, with `x` and `y` of this
        /// type (`bias` stays f32, added before the output's rounding).
        ///
        /// Launch: grid `(ceil(n / ROWS_PER_BLOCK), min(ceil(m / (8 * n_tiles)), MAX_GRID_Y))`,
        /// any multiple of 32 threads up to 1024, `shared_bytes(warps, n_tiles)`
        /// of dynamic shared memory.
        ///
        /// # Safety
        /// As for `int4_linear_v1_m1_f32`, and `x` and `qweight` 16-byte aligned.
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn $name(
            x: *const $type,
            qweight: *const u32,
            scales: *const u16,
            zeros: *const u8,
            bias: *const f32,
            y: *mut $type,
            m: u32,
            n: u32,
            k: u32,
            group_size: u32,
        ) {
            // SAFETY: forwarded from the caller.
            unsafe { linear_v3::<$type, $n_tiles>(x, qweight, scales, zeros, bias, y, m, n, k, group_size) }
        }
    )*};
}

entry_points! {
    int4_linear_v3_m8_f16: f16, 1;
    int4_linear_v3_m16_f16: f16, 2;
    int4_linear_v3_m8_bf16: Bf16, 1;
    int4_linear_v3_m16_bf16: Bf16, 2;
}

/// A row's dequantization constants for one step, as packed pairs: the
/// scale, and `-(MAGIC + z)`.
#[derive(Clone, Copy)]
struct RowParams {
    scale: u32,
    neg_offset: u32,
}

/// Two weights `(u - z) * s` of `word`'s nibble pair `pair` (elements
/// `2 * pair` and `2 * pair + 1`), packed.
#[inline(always)]
fn dequantize_pair<T: MmaHalf>(word: u32, pair: u32, params: RowParams) -> u32 {
    let magic_plus_codes = ((word >> (4 * pair)) & 0x000F_000F) | splat2(T::MAGIC_BITS);
    let one = splat2(T::from_f16_bits(0x3C00));
    let codes_minus_zero = T::fma2(magic_plus_codes, one, params.neg_offset);
    // + (-0.0): a plain product, rounded once.
    T::fma2(codes_minus_zero, params.scale, 0x8000_8000)
}

/// The body of every version 3 entry point.
///
/// # Safety
/// As for the entry points.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn linear_v3<T: MmaHalf, const N_TILES: usize>(
    x: *const T,
    qweight: *const u32,
    scales: *const u16,
    zeros: *const u8,
    bias: *const f32,
    y: *mut T,
    m: u32,
    n: u32,
    k: u32,
    group_size: u32,
) {
    const F: usize = STEPS_IN_FLIGHT;
    let (m, n, k) = (m as usize, n as usize, k as usize);
    let groups = GroupParams::new(scales, zeros, k, group_size);
    let (warp, lane, warps) = (warp_id() as usize, lane_id() as usize, block_dim_x() as usize / 32);
    let (g, t) = (lane / 4, lane % 4);
    let first_row = block_idx_x() as usize * ROWS_PER_BLOCK;
    // This lane's rows of A; rows past `n` load row n - 1 and are never stored.
    let rows = [(first_row + g).min(n - 1), (first_row + g + 8).min(n - 1)];
    let chunks_per_row = k / 32; // 16-byte chunks of codes, 32 columns each
    let steps = k.div_ceil(STEP_K);
    let chunks = qweight.cast::<Vec4<u32>>();
    // [warp][tile][register][lane] f32 partial sums.
    let partials = dynamic_shared_memory::<f32>();
    let m_tile = M_PER_TILE * N_TILES;

    let mut tile_m = block_idx_y() as usize;
    while tile_m < m.div_ceil(m_tile) {
        let first_m = tile_m * m_tile;
        // The activation row of this lane's B column in each MMA tile, if below m.
        let x_rows: [Option<*const Vec4<u32>>; N_TILES] = from_fn(|j| {
            let row = first_m + M_PER_TILE * j + g;
            // SAFETY: row < m.
            (row < m).then(|| unsafe { x.add(row * k).cast::<Vec4<u32>>() })
        });
        let mut acc = [[0.0f32; 4]; N_TILES];

        let mut step = warp;
        while step < steps {
            // Lane t's chunk of each step in flight, if inside the row (the
            // last step of a row may be partial; steps past the end are
            // skipped below, by the whole warp at once).
            let chunk: [Option<usize>; F] = from_fn(|u| {
                let c = (step + warps * u) * 4 + t;
                (c < chunks_per_row).then_some(c)
            });
            let codes: [[[u32; 4]; 2]; F] = from_fn(|u| {
                // SAFETY: rows[r] < n and c < k / 32.
                from_fn(|r| chunk[u].map_or([0; 4], |c| unsafe { (*chunks.add(rows[r] * chunks_per_row + c)).0 }))
            });
            // Zero activations where there is no chunk: the products of
            // that lane's slots vanish whatever A holds there.
            let activations: [[[u32; 16]; N_TILES]; F] = from_fn(|u| {
                from_fn(|j| match (chunk[u], x_rows[j]) {
                    // SAFETY: the chunk's 32 activations (4 x 16 bytes) lie in row `x_rows[j]`.
                    (Some(c), Some(row)) => unsafe {
                        let quads: [[u32; 4]; 4] = from_fn(|q| (*row.add(4 * c + q)).0);
                        from_fn(|i| quads[i / 4][i % 4])
                    },
                    _ => [0; 16],
                })
            });
            let params: [[RowParams; 2]; F] = from_fn(|u| {
                let group = groups.group_of(chunk[u].unwrap_or(0) * 32);
                from_fn(|r| {
                    // SAFETY: rows[r] < n and group < k / group_size (or 0 when k > 0).
                    let (scale, zero) = unsafe { (groups.scale_bits(rows[r], group), groups.zero_point(rows[r], group)) };
                    RowParams {
                        scale: splat2(T::from_f16_bits(scale)),
                        neg_offset: splat2(T::NEG_MAGIC_BITS | zero as u16),
                    }
                })
            });
            for u in 0..F {
                if step + warps * u >= steps {
                    break;
                }
                for word in 0..4 {
                    for half in 0..2u32 {
                        let pair = 2 * half;
                        let a = [
                            dequantize_pair::<T>(codes[u][0][word], pair, params[u][0]),
                            dequantize_pair::<T>(codes[u][1][word], pair, params[u][1]),
                            dequantize_pair::<T>(codes[u][0][word], pair + 1, params[u][0]),
                            dequantize_pair::<T>(codes[u][1][word], pair + 1, params[u][1]),
                        ];
                        let slot = 4 * word + 2 * half as usize;
                        for j in 0..N_TILES {
                            T::mma(&mut acc[j], a, [activations[u][j][slot], activations[u][j][slot + 1]]);
                        }
                    }
                }
            }
            step += warps * F;
        }

        for (j, tile) in acc.iter().enumerate() {
            for (c, value) in tile.iter().enumerate() {
                // SAFETY: below warps * N_TILES * 4 * 32 floats = shared_bytes(warps, N_TILES) / 4.
                unsafe { *partials.add(((warp * N_TILES + j) * 4 + c) * 32 + lane) = *value };
            }
        }
        sync_threads();
        for i in Strided::block().over(N_TILES * 4 * 32) {
            let (register, owner) = (i / 32, i % 32);
            let (j, c) = (register / 4, register % 4);
            let row = first_row + owner / 4 + 8 * (c / 2);
            let activation_row = first_m + M_PER_TILE * j + 2 * (owner % 4) + c % 2;
            if row < n && activation_row < m {
                let mut total = 0.0f32;
                for w in 0..warps {
                    // SAFETY: written before the barrier, in bounds as above.
                    total += unsafe { *partials.add((w * N_TILES * 4 + register) * 32 + owner) };
                }
                // SAFETY: row < n and activation_row < m.
                unsafe {
                    if !bias.is_null() {
                        total += *bias.add(row);
                    }
                    *y.add(activation_row * n + row) = T::from_f32(total);
                }
            }
        }
        // The next tile overwrites `partials`.
        sync_threads();
        tile_m += grid_dim_y() as usize;
    }
}
