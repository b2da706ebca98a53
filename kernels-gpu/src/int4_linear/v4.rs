//! Version 4: version 3's tensor-core step, fed through shared memory by a
//! `cp.async` pipeline (shapes from `quant_kernels_abi::int4_linear::v4`).
//!
//! Version 3 keeps two steps of loads in registers and waits for them before
//! its MMAs, so each warp has at most 2 KB in flight and stalls once per two
//! steps; on the H100 it reached 60% of the copy bandwidth on the largest
//! shape. Here each warp owns a ring of `STAGES` shared-memory stages and
//! keeps `STAGES - 1` steps of copies in flight while it computes on the
//! oldest, at no register cost. A stage holds the step's 16 rows x 64 bytes
//! of codes (row `r` at byte `64 r`, lane `t`'s chunk at `64 r + 16 t`: a
//! warp's 16-byte reads of it are contiguous, so conflict-free), then the
//! 128 activations of each activation row of the block, 256 bytes a row.
//! Copies past the end of a row are zero-filled; activation rows past `m`
//! are neither copied nor read. The group scales and zero points of the
//! next step are loaded into registers while this step computes.

use super::GroupParams;
use super::mma_tile::{Epilogue, LanePosition, RowParams, activation_tiles, entry_points, mma_step};
use crate::async_copy::{commit, copy16, dynamic_shared_address, load_shared16, sync_warp, wait};
use crate::float::Bf16;
use crate::mma::MmaHalf;
use core::array::from_fn;
use quant_kernels_abi::int4::word_index;
use quant_kernels_abi::int4_linear::v3::{M_PER_TILE, ROWS_PER_BLOCK, STEP_K};
use quant_kernels_abi::int4_linear::v4::{CODE_BYTES_PER_STAGE, STAGES, stage_bytes};

entry_points! {
    linear_v4:
    int4_linear_v4_m8_f16: f16, 1;
    int4_linear_v4_m16_f16: f16, 2;
    int4_linear_v4_m8_bf16: Bf16, 1;
    int4_linear_v4_m16_bf16: Bf16, 2;
}

/// The body of every version 4 entry point.
///
/// # Safety
/// As for the entry points.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn linear_v4<T: MmaHalf, const N_TILES: usize>(
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
    let (m, n, k) = (m as usize, n as usize, k as usize);
    let groups = GroupParams::new(scales, zeros, k, group_size);
    let LanePosition { warp, lane, warps, g, t, first_row, rows } = LanePosition::new(n, ROWS_PER_BLOCK);
    let chunks_per_row = k / 32;
    let steps = k.div_ceil(STEP_K);
    // This warp's steps are warp, warp + warps, ...: `my_steps` of them.
    let my_steps = if warp < steps { (steps - warp).div_ceil(warps) } else { 0 };
    let m_tile = M_PER_TILE * N_TILES;
    let stage_size = stage_bytes(m.min(m_tile)) as u32;
    let my_stages = dynamic_shared_address() + (warp * STAGES) as u32 * stage_size;

    for first_m in activation_tiles(m, m_tile) {
        let rows_here = (m - first_m).min(m_tile);

        // Issues the copies of this warp's `i`-th step into stage `i % STAGES`
        // (none past the last step), then commits a group either way, so that
        // group `i` always holds step `i`.
        let issue = |i: usize| {
            if i < my_steps {
                let step = warp + i * warps;
                let stage = my_stages + (i % STAGES) as u32 * stage_size;
                let c = 4 * step + t;
                for (r, &row) in rows.iter().enumerate() {
                    let valid = c < chunks_per_row;
                    // SAFETY: when valid, the chunk lies in row `row` < n; the
                    // stage slot is 16-byte aligned inside this warp's ring.
                    unsafe {
                        let source = qweight.add(if valid { word_index(k, row, 4 * c) } else { 0 });
                        copy16(stage + (64 * (g + 8 * r) + 16 * t) as u32, source.cast(), valid);
                    }
                }
                // 16 pieces of 16 bytes per activation row.
                for piece in (lane..rows_here * 16).step_by(32) {
                    let (row, c) = (piece / 16, 4 * step + piece % 16 / 4);
                    let valid = c < chunks_per_row;
                    // SAFETY: when valid, 8 activations at column 32c + 8(piece % 4) < k of row first_m + row < m.
                    unsafe {
                        let source = x.add(if valid { (first_m + row) * k + 32 * c + 8 * (piece % 4) } else { 0 });
                        copy16(stage + (CODE_BYTES_PER_STAGE + 16 * piece) as u32, source.cast(), valid);
                    }
                }
            }
            commit();
        };
        // Lane t's group constants for this warp's `i`-th step.
        let params_of = |i: usize| {
            let c = 4 * (warp + i * warps) + t;
            // SAFETY: rows[r] < n; the column is below k, or 0.
            unsafe { RowParams::of_rows::<T>(&groups, rows, if c < chunks_per_row { 32 * c } else { 0 }) }
        };

        let mut acc = [[0.0f32; 4]; N_TILES];
        for i in 0..STAGES - 1 {
            issue(i);
        }
        // (k == 0 leaves no group to read.)
        let mut next_params = if my_steps > 0 { params_of(0) } else { Default::default() };
        for i in 0..my_steps {
            wait::<{ STAGES as u32 - 2 }>();
            sync_warp(); // step i's copies, by every lane, are in; stage i - 1 is free
            issue(i + STAGES - 1);
            let params = next_params;
            next_params = params_of(i + 1);
            let stage = my_stages + (i % STAGES) as u32 * stage_size;
            // SAFETY: 16-byte aligned slots of this warp's stage.
            let codes = unsafe {
                [load_shared16(stage + (64 * g + 16 * t) as u32), load_shared16(stage + (64 * (g + 8) + 16 * t) as u32)]
            };
            let activations: [[u32; 16]; N_TILES] = from_fn(|j| {
                let row = M_PER_TILE * j + g;
                if row >= rows_here {
                    return [0; 16];
                }
                let base = stage + (CODE_BYTES_PER_STAGE + 256 * row + 64 * t) as u32;
                // SAFETY: the row's 64 bytes for lane t, inside the stage.
                let quads: [[u32; 4]; 4] = from_fn(|q| unsafe { load_shared16(base + 16 * q as u32) });
                from_fn(|p| quads[p / 4][p % 4])
            });
            mma_step::<T, N_TILES>(&mut acc, &codes, &activations, &params);
        }
        wait::<0>();

        let epilogue = Epilogue { bias, y, m, n };
        // SAFETY: y holds m x n elements and bias n (or is null).
        unsafe { epilogue.store::<N_TILES>(first_row, first_m, &acc, warp, lane, warps) };
    }
}
