//! Version 15: the decode GEMV. Version 5's arithmetic (raw codes as the A
//! operand; the scale and zero point applied once a group to f32
//! accumulators) and launch shape (16 weight rows a block, its warps
//! splitting `K` by steps), one activation row at a time, fed through a
//! ring of shared-memory stages a warp by `cp.async` (the stage layout is
//! documented in `quant_kernels_abi::int4_linear::v15`).
//!
//! Version 5 keeps its loads in registers: a warp issues two steps' loads,
//! waits for them, then multiplies, so it has nothing in flight while it
//! multiplies, and the ~50 registers that hold a batch cap it at about 16
//! warps an SM. On the H100 its loads alone (no arithmetic) took 44 µs of
//! its 52 on 28672x8192, against 39 µs for a plain stream of the codes.
//! Here a warp copies step `i + STAGES - 1` into its ring before it
//! multiplies step `i`, so `STAGES - 1` steps stay in flight through the
//! arithmetic at no register cost. A step's copies are the band's kilobyte
//! of codes and 256 bytes of the activation row, both contiguous in global
//! memory. The group constants, which are too small and scattered to copy,
//! travel beside the copies in a ring of registers: loaded with step
//! `i + STAGES - 1`'s copies, used at step `i`.
//!
//! With one activation row, every lane reads the same activations, so the
//! B operand's 8 columns are equal and no lane needs a predicate; the
//! epilogue stores column 0 alone.

use super::GroupParams;
use super::mma_tile::{Epilogue, LanePosition, activation_tiles, entry_points};
use super::v5::{GroupedLane, Step, StepGroups};
use crate::async_copy::{
    commit, copy16, dynamic_shared_address, load_shared4, load_shared8, load_shared16, sync_warp, wait,
};
use crate::float::Bf16;
use crate::mma::MmaHalf;
use core::array::from_fn;
use quant_kernels_abi::int4::{BAND_ROWS, STEP_WORDS, row_start};
use quant_kernels_abi::int4_linear::v3::{ROWS_PER_BLOCK, STEP_K};
use quant_kernels_abi::int4_linear::v15::{CODE_BYTES, STAGE_BYTES, STAGES};

entry_points! {
    linear_v15:
    int4_linear_v15_g32_f16: f16, 32;
    int4_linear_v15_g64_f16: f16, 64;
    int4_linear_v15_g128_f16: f16, 128;
    int4_linear_v15_g32_bf16: Bf16, 32;
    int4_linear_v15_g64_bf16: Bf16, 64;
    int4_linear_v15_g128_bf16: Bf16, 128;
}

/// A lane of one 16-row tile and one MMA tile of activations, in groups of `G`.
type Lane<T, const G: usize> = GroupedLane<T, 1, G, 1>;

/// The body of every version 15 entry point, for groups of `G` columns.
///
/// # Safety
/// As for the entry points, with `group_size == G`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn linear_v15<T: MmaHalf, const G: usize>(
    x: *const T,
    qweight: *const u32,
    scales: *const u16,
    zeros: *const u8,
    bias: *const f32,
    y: *mut T,
    m: u32,
    n: u32,
    k: u32,
    _group_size: u32,
) {
    let (m, n, k) = (m as usize, n as usize, k as usize);
    let position = LanePosition::new(n, ROWS_PER_BLOCK);
    let (warp, warps, lane, g, t) = (position.warp, position.warps, position.lane, position.g, position.t);
    let steps = k.div_ceil(STEP_K);
    // This warp's steps are warp, warp + warps, ...: `my_steps` of them.
    let my_steps = if warp < steps { (steps - warp).div_ceil(warps) } else { 0 };
    let ring = dynamic_shared_address() + (warp * STAGES * STAGE_BYTES) as u32;
    let stage = |slot: usize| ring + (slot * STAGE_BYTES) as u32;
    // The block's 16 rows are one band of qweight: its step s is the
    // kilobyte from word BAND_ROWS * STEP_WORDS * s.
    let band = qweight.wrapping_add(row_start(k, position.first_row));
    // Lane l < 16 copies the activations of slot l: word l / 4 of the lanes at t = l % 4.
    let slot_column = Lane::<T, G>::column_of(lane % 4, lane / 4);
    let words_per_group = G / 32;

    for first_m in activation_tiles(m, 1) {
        let groups = GroupParams::new(scales, zeros, k, G as u32);
        // SAFETY: forwarded from the caller; first_m < m.
        let lane_groups = unsafe { Lane::<T, G>::new(&position, x, qweight, groups, (m, n, k, first_m)) };
        let x_row = x.wrapping_add(first_m * k);
        // Copies this warp's `i`-th step into stage `i % STAGES`, none past
        // its last step, and commits a group either way, so that group `i`
        // holds step `i`.
        let issue = |i: usize| {
            let step = warp + i * warps;
            if i < my_steps {
                let stage = stage(i % STAGES);
                // SAFETY: a band's step is a whole kilobyte of qweight (the
                // padding rows and columns are zero words), 16-byte aligned;
                // an activation chunk is read only inside the row (k % 8 ==
                // 0), 16-byte aligned (k % 32 == 0); the stage is in this
                // warp's ring.
                unsafe {
                    let codes = band.add(BAND_ROWS * STEP_WORDS * step).cast::<u8>();
                    for half in 0..2 {
                        let offset = CODE_BYTES / 2 * half + 16 * lane;
                        copy16(stage + offset as u32, codes.add(offset), true);
                    }
                    if lane < 16 {
                        let column = STEP_K * step + slot_column;
                        let valid = column < k;
                        let source = x_row.add(if valid { column } else { 0 }).cast();
                        copy16(stage + (CODE_BYTES + 16 * lane) as u32, source, valid);
                    }
                }
            }
            commit();
        };
        // The group constants of this warp's `i`-th step (zeros past its last).
        let constants = |i: usize| lane_groups.load_groups(warp + i * warps);
        // The lane's words of rows g and g + 8, and its activation pairs,
        // from a stage whose copies are in.
        let read = |slot: usize, groups: StepGroups<1>| -> Step<1, 1> {
            let stage = stage(slot);
            let codes = from_fn(|r| {
                let row = stage + (64 * (g + 8 * r)) as u32;
                let mut words = [0u32; 4];
                for j in (0..4).step_by(words_per_group) {
                    let address = row + (Lane::<T, G>::column_of(t, j) / 2) as u32;
                    // SAFETY: the group's 16, 8 or 4 bytes of the lane, at
                    // their natural alignment inside the stage's row.
                    unsafe {
                        match words_per_group {
                            4 => words = load_shared16(address),
                            2 => [words[j], words[j + 1]] = load_shared8(address),
                            _ => words[j] = load_shared4(address),
                        }
                    }
                }
                words
            });
            let mut pairs = [0u32; 16];
            for j in 0..4 {
                // SAFETY: slot 4 j + t of the stage's activations.
                let quad = unsafe { load_shared16(stage + (CODE_BYTES + 16 * (4 * j + t)) as u32) };
                pairs[4 * j..4 * j + 4].copy_from_slice(&quad);
            }
            Step { codes: [codes], groups: groups.in_place(), activations: [pairs] }
        };

        let mut acc = [[[0.0f32; 4]; 1]; 1];
        for i in 0..STAGES - 1 {
            issue(i);
        }
        // The constants of steps i and i + 1, loaded a step ahead (they are
        // mostly L1 hits). The loop is unrolled twice so that each has a
        // fixed place: moving a register whose load is in flight would wait
        // for the load.
        let mut pending = [constants(0), StepGroups::NONE];
        let mut first = 0;
        while first < my_steps {
            for slot in 0..2 {
                let i = first + slot;
                if i < my_steps {
                    wait::<{ STAGES as u32 - 2 }>();
                    sync_warp(); // step i's copies, by every lane, are in; step i - 1's stage is free
                    issue(i + STAGES - 1);
                    pending[1 - slot] = constants(i + 1);
                    Lane::<T, G>::accumulate(&mut acc, &read(i % STAGES, pending[slot]));
                }
            }
            first += 2;
        }
        wait::<0>();

        // Column 0 of the tiles is activation row first_m; the others repeat it.
        let epilogue = Epilogue { bias, y, m: first_m + 1, n };
        // SAFETY: y holds m x n elements and bias n (or is null).
        unsafe { epilogue.store::<1>(position.first_row, first_m, &acc[0], warp, lane, warps) };
    }
}
