//! The fused 4-bit linear layer: launch plans (CPU) and the kernels against
//! the f64 reference from the same packed weights (GPU).

mod common;

#[path = "../kernels-gpu/src/math.rs"]
#[allow(dead_code)]
mod device_math;

use common::*;
use libtest_mimic::Failed;
use quant_kernels::abi::int4_linear::{
    MAX_GRID_Y, MAX_GRID_Z, tile_order, v7, v10, v11, v12, v13, v17, v18, v19, v22, v23, v24,
};
use quant_kernels::check::{Rng, relative_l2_error};
use quant_kernels::cust::context::CurrentContext;
use quant_kernels::cust::memory::DeviceBuffer;
use quant_kernels::cust::stream::{Stream, StreamFlags};
use quant_kernels::half::{bf16, f16};
use quant_kernels::int4_linear::{
    self, Int4LinearBuffers, Int4LinearPlan, Int4LinearVersion, QweightTensorMap, SplitK, V1_BATCH_KERNEL,
    V1_DECODE_KERNEL, V2_KERNEL, XTensorMap,
};
use quant_kernels::launch::{DeviceInfo, Launch, LaunchConfig};
use quant_kernels::{Error, Float, Int4Mode, Int4Shape, Int4Weights, Kernels, PerFloat, reference};
use std::num::NonZeroU32;

/// The bounds of host/int4_linear.rs, `||y - ref|| / ||ref||`, by activation type.
const BOUNDS: PerFloat<f64> = PerFloat { f32: 1e-5, f16: 2e-3, bf16: 1e-2 };
const MODES: [Int4Mode; 2] = [Int4Mode::Symmetric, Int4Mode::Asymmetric];
const BATCHES: [usize; 6] = [1, 2, 3, 7, 16, 33];
/// Output widths that are not multiples of the 4-row block or of anything else.
const WIDTHS: [usize; 8] = [1, 2, 3, 5, 63, 65, 257, 1031];

/// The H100 of the measurements: 132 multiprocessors. The H200 (from run
/// 49) gives the same `DeviceInfo`, so the plans tested here are its too.
const H100: DeviceInfo = DeviceInfo { compute_capability: (9, 0), multiprocessors: 132 };
/// A forced split of `K` every GPU test runs version 7 with, besides the
/// versions' defaults: uneven slices, and empty ones where `K` is short.
const SPLIT: u32 = 3;

/// The one launch of a plan that does not split `K`.
fn only_launch(plan: Result<Option<Int4LinearPlan>, Error>) -> Result<Launch, Failed> {
    let plan = plan?.ok_or("no launch")?;
    ensure(plan.split_k.is_none(), || format!("a split of K: {plan:?}"))?;
    Ok(plan.launch)
}

fn buffers(m: usize, shape: &Int4Shape, bias: bool) -> Int4LinearBuffers {
    Int4LinearBuffers {
        m,
        x_len: m * shape.k,
        x_address: 256,
        qweight_address: 512,
        bias_len: bias.then_some(shape.n),
        y_len: m * shape.n,
    }
}

fn plans_check_shapes(_: &mut Rng) -> TestResult {
    let shape = Int4Shape::new(10, 256, 64, Int4Mode::Asymmetric)?;
    let ok = buffers(3, &shape, true);
    let launch = only_launch(int4_linear::plan::<f32>(&shape, &ok, &H100))?;
    ensure(launch.kernel == V1_BATCH_KERNEL && launch.config.grid == [3, 1, 1], || format!("{launch:?}"))?;
    let decode = only_launch(int4_linear::plan::<f32>(&shape, &buffers(1, &shape, false), &H100))?;
    ensure(decode.kernel == V2_KERNEL && decode.config.grid == [1, 1, 1], || format!("m = 1: {decode:?}"))?;
    let v1 = only_launch(int4_linear::plan_version::<f32>(&shape, &buffers(1, &shape, false), Int4LinearVersion::V1))?;
    ensure(v1.kernel == V1_DECODE_KERNEL, || format!("v1 with m = 1: {v1:?}"))?;
    // Version 17 for half types, one group of 8 warps on these narrow
    // layers: past 8 activation rows version 6's body (32 weight rows a
    // group, 16 activation rows a block), up to 8 version 5's (16, 8).
    let narrow = Int4Shape::new(40, 256, 64, Int4Mode::Symmetric)?;
    let half = [
        (only_launch(int4_linear::plan::<bf16>(&shape, &buffers(9, &shape, false), &H100))?, "m16_w8_g64_bf16", 1),
        (only_launch(int4_linear::plan::<f16>(&narrow, &buffers(8, &narrow, false), &H100))?, "m8_w8_g64_f16", 3),
    ];
    for (launch, kernel, blocks) in half {
        ensure(
            launch.kernel == format!("int4_linear_v17_{kernel}")
                && launch.config.grid == [blocks, 1, 1]
                && launch.config.block == [256, 1, 1],
            || format!("{kernel}: {launch:?}"),
        )?;
    }
    expect_error(
        int4_linear::plan_version::<f16>(&shape, &ok, Int4LinearVersion::V2),
        Error::UnsupportedType { kernel: "int4_linear", version: 2, dtype: "f16" },
    )?;
    expect_error(
        int4_linear::plan_version::<f32>(&shape, &ok, Int4LinearVersion::V3 { warps: 8 }),
        Error::UnsupportedType { kernel: "int4_linear", version: 3, dtype: "f32" },
    )?;
    // Up to v7::ABOVE_M (16) rows, version 17 (run 23): one group of 2 to 8
    // warps splitting K, or one-warp groups filling half the block past 16384
    // rows (run 43);
    // from 9 rows on the H100, version 23 where k is at most V23_MAX_K (run
    // 28; 28672 since run 34, past it version 17) and its slices hold 8
    // steps or more (run 27); version 22 where it split rows longer than
    // 8192 from run 46 to run 54 (version 23 again from run 55).
    let v17 = |row_groups, warps| Int4LinearVersion::V17 { row_groups, warps };
    let v23 = |split_k| Int4LinearVersion::V23 { split_k };
    for (m, n, k, expected) in [
        (1, 4096, 4096, v17(1, 8)),
        (1, 11008, 4096, v17(1, 2)),
        (1, 8192, 28672, v17(1, 4)),
        (1, 28672, 8192, v17(8, 8)),
        (8, 28672, 4096, v17(8, 8)),
        (16, 4096, 4096, v17(1, 8)),
        (16, 11008, 4096, v23(3)),
        (16, 4096, 11008, v23(8)),
        (16, 28672, 8192, v23(1)),
        (16, 8192, 28672, v23(4)),
        (9, 8192, 4096, v23(4)),
        (9, 28672, 896, v17(4, 4)),
        (16, 4096, int4_linear::V23_MAX_K, v23(8)),
        (16, 4096, int4_linear::V23_MAX_K + 128, v17(1, 8)),
    ] {
        let chosen = Int4LinearVersion::best_for::<bf16>(m, n, k, &H100);
        ensure(chosen == expected, || format!("{m}x{n}x{k}: {chosen:?}"))?;
    }
    // Version 23 only where it runs (sm_90a).
    let sm80 = DeviceInfo { compute_capability: (8, 0), multiprocessors: 132 };
    let chosen = Int4LinearVersion::best_for::<bf16>(16, 28672, 8192, &sm80);
    ensure(matches!(chosen, Int4LinearVersion::V17 { .. }), || format!("sm_80 16x28672x8192: {chosen:?}"))?;
    let chosen = Int4LinearVersion::best_for::<f32>(1, 4096, 4096, &H100);
    ensure(chosen == Int4LinearVersion::V2, || "f32 decode".into())?;
    // The tiled GEMM past v7::ABOVE_M rows, for half types only (their
    // splits of K: plans_split_k): on the H100 version 24 up to its 32-row
    // tile, 19 up to its 64-row one, 19 or 12 up to 12's 128 rows, 12 past
    // them (version 13 is not picked from run 58); 7 elsewhere.
    let a100 = DeviceInfo { compute_capability: (8, 0), multiprocessors: 108 };
    for (m, n) in [(v7::ABOVE_M + 1, 65 * v7::BLOCK_N), (64, 4096), (128, 4096), (129, 11008), (8192, 4096)] {
        let chosen = Int4LinearVersion::best_for::<bf16>(m, n, 4096, &H100);
        let wgmma = match chosen {
            Int4LinearVersion::V24 { .. } => m <= v24::BLOCK_M,
            Int4LinearVersion::V19 { .. } => m > v24::BLOCK_M && m <= v12::BLOCK_M,
            Int4LinearVersion::V12 { .. } => m > v19::BLOCK_M,
            _ => false,
        };
        ensure(wgmma, || format!("m = {m}, n = {n}: {chosen:?}"))?;
        let chosen = Int4LinearVersion::best_for::<bf16>(m, n, 4096, &a100);
        ensure(matches!(chosen, Int4LinearVersion::V7 { .. }), || format!("A100 m = {m}, n = {n}: {chosen:?}"))?;
    }
    let chosen = Int4LinearVersion::best_for::<bf16>(v7::ABOVE_M, 4096, 4096, &H100);
    ensure(matches!(chosen, Int4LinearVersion::V17 { .. }), || format!("m = {}: {chosen:?}", v7::ABOVE_M))?;
    let chosen = Int4LinearVersion::best_for::<f32>(1024, 4096, 4096, &H100);
    ensure(chosen == Int4LinearVersion::V1, || "f32 GEMM".into())?;
    // Version 12 in the split calls where run 57 took version 13 (run 58's
    // sitting measured version 12 faster there), with the same split.
    let v12 = |split_k| Int4LinearVersion::V12 { split_k };
    for (m, n, k, expected) in [(128, 11008, 4096, v12(3)), (256, 4096, 4096, v12(4)), (128, 4096, 11008, v12(8))] {
        let chosen = Int4LinearVersion::best_for::<bf16>(m, n, k, &H100);
        ensure(chosen == expected, || format!("{m}x{n}x{k}: {chosen:?}"))?;
    }
    // 128 x 128 tiles: ragged N and M round up; 8 warps; the 3-stage ring.
    let wide = Int4Shape::new(200, 256, 64, Int4Mode::Asymmetric)?;
    let unsplit = Int4LinearVersion::V7 { split_k: 1 };
    let gemm = only_launch(int4_linear::plan_version::<f16>(&wide, &buffers(257, &wide, true), unsplit))?;
    ensure(
        gemm.kernel == "int4_linear_v7_f16"
            && gemm.config.grid == [2, 3, 1]
            && gemm.config.block == [256, 1, 1]
            && gemm.config.shared_mem_bytes == 3 * (128 * 64 + 128 * 256),
        || format!("f16, m = 257: {gemm:?}"),
    )?;
    // Within the opt-in shared memory of an A100 (163 KB; an H100 has 227 KB).
    ensure(v7::SHARED_BYTES <= 163 * 1024, || format!("v7 needs {} bytes of shared memory", v7::SHARED_BYTES))?;
    expect_error(
        int4_linear::plan_version::<f32>(&wide, &buffers(257, &wide, true), unsplit),
        Error::UnsupportedType { kernel: "int4_linear", version: 7, dtype: "f32" },
    )?;
    // Int4Shape's fields are public: a shape built by hand is checked too.
    let bad_group = Int4Shape { group_size: 48, ..wide };
    expect_error(
        int4_linear::plan::<f16>(&bad_group, &buffers(40, &bad_group, false), &H100),
        Error::InvalidGroupSize(48),
    )?;
    let bad_k = Int4Shape { k: 96, ..wide };
    expect_error(
        int4_linear::plan::<f16>(&bad_k, &buffers(40, &bad_k, false), &H100),
        Error::KNotMultipleOfGroup { k: 96, group_size: 64 },
    )?;
    for warps in [0, 17] {
        for version in tensor_core_versions(warps) {
            expect_error(
                int4_linear::plan_version::<bf16>(&shape, &ok, version),
                Error::InvalidBlockThreads { threads: warps * 32, max: 512 },
            )?;
        }
    }
    expect_error(
        int4_linear::plan::<f32>(&shape, &Int4LinearBuffers { x_len: 767, ..ok }, &H100),
        Error::LengthMismatch { argument: "x", expected: 768, actual: 767 },
    )?;
    expect_error(
        int4_linear::plan::<f32>(&shape, &Int4LinearBuffers { y_len: 31, ..ok }, &H100),
        Error::LengthMismatch { argument: "y", expected: 30, actual: 31 },
    )?;
    expect_error(
        int4_linear::plan::<f32>(&shape, &Int4LinearBuffers { bias_len: Some(9), ..ok }, &H100),
        Error::LengthMismatch { argument: "bias", expected: 10, actual: 9 },
    )?;
    expect_error(
        int4_linear::plan::<f32>(&shape, &Int4LinearBuffers { x_address: 260, ..ok }, &H100),
        Error::Misaligned { argument: "x", align: 16 },
    )?;
    expect_error(
        int4_linear::plan::<f32>(&shape, &Int4LinearBuffers { qweight_address: 516, ..ok }, &H100),
        Error::Misaligned { argument: "qweight", align: 16 },
    )?;
    let too_many = 1usize << 32;
    ensure(
        matches!(
            int4_linear::plan::<f32>(
                &shape,
                &Int4LinearBuffers { m: too_many, x_len: too_many * 256, y_len: too_many * 10, ..ok },
                &H100,
            ),
            Err(Error::TooLarge { what: "m", .. })
        ),
        || "m >= 2^32 accepted".into(),
    )?;
    ensure(int4_linear::plan::<f32>(&shape, &buffers(0, &shape, true), &H100) == Ok(None), || {
        "m = 0 must launch nothing".into()
    })?;
    let empty = Int4Shape::new(0, 256, 64, Int4Mode::Symmetric)?;
    ensure(int4_linear::plan::<f32>(&empty, &buffers(4, &empty, false), &H100) == Ok(None), || {
        "n = 0 must launch nothing".into()
    })
}

/// Version 7's split of `K`: chosen from the shape and the multiprocessors,
/// never with an empty or too short slice, and planned as two launches and
/// a workspace.
fn plans_split_k(rng: &mut Rng) -> TestResult {
    use Int4LinearVersion::{V7, V10, V11, V12, V13, V18, V19, V22, V23, V24};
    // The predicted best splits (docs/PERF.md, "v7 split-K", runs 13, 15, 17,
    // 23, 24 and 26, and 43): on the H100 version 24 up to 32 rows, 19 up
    // to 64, 19 or 12 (the faster predicted) up to 128, 12 past them
    // (version 13 is not picked from run 58); version 7 on a device of as many
    // multiprocessors that has no sm_90a (its tiles are half as tall).
    let no_sm90a = DeviceInfo { compute_capability: (10, 0), multiprocessors: 132 };
    for (m, n, k, v7_split, h100) in [
        (128, 4096, 4096, 4, V19 { split_k: 4 }),
        (64, 4096, 4096, 4, V19 { split_k: 8 }),
        (64, 8192, 28672, 2, V19 { split_k: 4 }),
        (128, 4096, 11008, 4, V12 { split_k: 8 }),
        (128, 8192, 28672, 2, V12 { split_k: 4 }),
        (256, 4096, 4096, 2, V12 { split_k: 4 }),
        (128, 11008, 4096, 1, V12 { split_k: 3 }),
        (128, 28672, 8192, 1, V12 { split_k: 1 }),
        (64, 28672, 8192, 1, V19 { split_k: 1 }),
        (32, 28672, 8192, 1, V24 { split_k: 1 }),
        (32, 4096, 4096, 4, V24 { split_k: 8 }),
        (32, 4096, 11008, 4, V24 { split_k: 8 }),
        (32, 8192, 28672, 2, V24 { split_k: 4 }),
        (17, 11008, 4096, 1, V24 { split_k: 3 }),
        (33, 11008, 4096, 1, V19 { split_k: 3 }),
        (65, 28672, 8192, 1, V12 { split_k: 1 }),
        (1024, 4096, 4096, 1, V12 { split_k: 1 }),
        (1024, 8192, 28672, 1, V12 { split_k: 1 }),
        (8192, 4096, 4096, 1, V12 { split_k: 1 }),
        (1024, 11008, 4096, 1, V12 { split_k: 1 }),
        (8192, 11008, 4096, 1, V12 { split_k: 1 }),
        (1024, 256, 4096, 8, V12 { split_k: 8 }),
    ] {
        let chosen = Int4LinearVersion::best_for::<f16>(m, n, k, &H100);
        ensure(chosen == h100, || format!("H100 {m}x{n}x{k}: {chosen:?}"))?;
        let chosen = Int4LinearVersion::best_for::<f16>(m, n, k, &no_sm90a);
        ensure(chosen == V7 { split_k: v7_split }, || format!("no sm_90a {m}x{n}x{k}: {chosen:?}"))?;
    }
    // By the device: 96 blocks fill more of an A100's 108 multiprocessors.
    let a100 = DeviceInfo { compute_capability: (8, 0), multiprocessors: 108 };
    let chosen = Int4LinearVersion::best_for::<bf16>(128, 4096, 4096, &a100);
    ensure(chosen == V7 { split_k: 3 }, || format!("A100: {chosen:?}"))?;
    // Too few steps for two slices of MIN_SLICE_STEPS: no split (version
    // 19's two tiles predicted faster than version 12's one).
    let short = (2 * v7::MIN_SLICE_STEPS - 1) * v7::STEP_K;
    let chosen = Int4LinearVersion::best_for::<bf16>(128, 128, short, &H100);
    ensure(chosen == V19 { split_k: 1 }, || format!("K = {short}: {chosen:?}"))?;
    let chosen = Int4LinearVersion::best_for::<bf16>(129, 128, short, &H100);
    ensure(chosen == V12 { split_k: 1 }, || format!("K = {short}, m = 129: {chosen:?}"))?;
    // Any shape and device: no slice empty or shorter than MIN_SLICE_STEPS,
    // no more slices than multiprocessors.
    for _ in 0..5000 {
        let (m, n, k) = (1 + rng.below(2000), 1 + rng.below(30_000), 32 * rng.below(1200));
        let multiprocessors = 1 + rng.below(200) as u32;
        let device = DeviceInfo { compute_capability: (9, 0), multiprocessors };

        let tiled = [
            V7 { split_k: 1 },
            V10 { split_k: 1 },
            V11 { split_k: 1 },
            V12 { split_k: 1 },
            V13 { split_k: 1 },
            V18 { split_k: 1 },
            V19 { split_k: 1 },
            V22 { split_k: 1 },
            V23 { split_k: 1 },
            V24 { split_k: 1 },
        ];
        let version = tiled[rng.below(tiled.len())];
        let splits = int4_linear::tiled_split_k(version, m, n, k, &device) as usize;
        let steps = k.div_ceil(v7::STEP_K);
        let slice = v7::slice_steps(steps, splits);
        ensure(
            splits == 1
                || (slice >= v7::MIN_SLICE_STEPS && (splits - 1) * slice < steps && splits <= multiprocessors as usize),
            || format!("{version:?} {m}x{n}x{k} on {multiprocessors} multiprocessors: {splits} slices"),
        )?;
    }
    // The plan: the split-K GEMM over gridDim.z, the workspace, the
    // reduction over n and m.
    let shape = Int4Shape::new(200, 640, 64, Int4Mode::Symmetric)?;
    let plan = int4_linear::plan_version::<f16>(&shape, &buffers(257, &shape, true), V7 { split_k: 3 })?;
    let expected = Int4LinearPlan {
        launch: Launch {
            kernel: "int4_linear_v7_split_k_f16",
            config: LaunchConfig { grid: [2, 3, 3], block: [256, 1, 1], shared_mem_bytes: v7::SHARED_BYTES },
        },
        split_k: Some(SplitK {
            splits: 3,
            workspace_len: 3 * 257 * 200,
            reduce: Launch {
                kernel: "int4_linear_split_k_reduce_f16",
                config: LaunchConfig { grid: [1, 257, 1], block: [256, 1, 1], shared_mem_bytes: 0 },
            },
        }),
        x_tensor_map: None,
        qweight_tensor_map: None,
        packed_constants: false,
    };
    ensure(plan == Some(expected), || format!("{plan:?}"))?;
    // The length a caller's workspace needs: the plan's, or none unsplit.
    let lengths = [V7 { split_k: 3 }, V7 { split_k: 1 }, Int4LinearVersion::V3 { warps: 4 }]
        .map(|version| int4_linear::workspace_len(version, 257, 200));
    ensure(lengths == [Ok(3 * 257 * 200), Ok(0), Ok(0)], || format!("workspace lengths {lengths:?}"))?;
    expect_error(
        int4_linear::workspace_len(V7 { split_k: 2 }, usize::MAX / 2, 3),
        Error::TooLarge { what: "m * n", value: (usize::MAX / 2) as u128 * 3, limit: usize::MAX as u128 },
    )?;
    // More activation rows than gridDim.y holds (the reduction loops over
    // them), the most slices gridDim.z holds, bf16.
    let many = 70_000;
    let plan = int4_linear::plan_version::<bf16>(&shape, &buffers(many, &shape, false), V7 { split_k: MAX_GRID_Z })?;
    let plan = plan.ok_or("no plan")?;
    let reduce = plan.split_k.ok_or("no split")?.reduce;
    ensure(
        plan.launch.kernel == "int4_linear_v7_split_k_bf16"
            && plan.launch.config.grid == [2, many.div_ceil(128) as u32, MAX_GRID_Z]
            && reduce.kernel == "int4_linear_split_k_reduce_bf16"
            && reduce.config.grid == [1, MAX_GRID_Y, 1],
        || format!("m = {many}: {plan:?}"),
    )?;
    // One slice is version 7 as it was: one launch, no workspace.
    let whole = only_launch(int4_linear::plan_version::<f16>(&shape, &buffers(257, &shape, true), V7 { split_k: 1 }))?;
    ensure(whole.kernel == "int4_linear_v7_f16" && whole.config.grid == [2, 3, 1], || format!("{whole:?}"))?;
    for split_k in [0, MAX_GRID_Z + 1] {
        expect_error(
            int4_linear::plan_version::<bf16>(&shape, &buffers(5, &shape, false), V7 { split_k }),
            Error::InvalidSplitK { split_k, max: MAX_GRID_Z },
        )?;
    }
    expect_error(
        int4_linear::plan_version::<f32>(&shape, &buffers(5, &shape, false), V7 { split_k: 2 }),
        Error::UnsupportedType { kernel: "int4_linear", version: 7, dtype: "f32" },
    )?;
    let split = V7 { split_k: 4 };
    ensure(
        split.number() == 7
            && split.split_k() == Some(4)
            && split.warps().is_none()
            && split.with_warps(2) == split
            && split.with_split_k(2) == V7 { split_k: 2 }
            && Int4LinearVersion::V6 { warps: 4 }.with_split_k(2) == Int4LinearVersion::V6 { warps: 4 }
            && split.kernel::<f16>(128, 64) == Some("int4_linear_v7_split_k_f16")
            && Int4LinearVersion::V6 { warps: 4 }.split_k().is_none(),
        || "version 7's accessors".into(),
    )
}

/// Versions 10 to 13, 18, 19 and 22 to 24: their own tiles, block and shared
/// memory, both entry points each, and only on compute capability 9.0
/// (their PTX is sm_90a); version 13's grid in whole clusters, and its
/// limits; the tensor maps of versions 12, 13, 19, 23 and 24, and their
/// packed constants.
fn plans_wgmma_versions(_: &mut Rng) -> TestResult {
    use Int4LinearVersion::{V10, V11, V12, V13, V18, V19, V22, V23, V24};
    let shape = Int4Shape::new(600, 384, 64, Int4Mode::Asymmetric)?;
    for (version, split, tiles, threads, shared_mem_bytes) in [
        (V10 { split_k: 1 }, V10 { split_k: 2 }, [3, 3], 256, v10::SHARED_BYTES),
        (V11 { split_k: 1 }, V11 { split_k: 2 }, [5, 2], 256, v11::SHARED_BYTES),
        (V18 { split_k: 1 }, V18 { split_k: 2 }, [3, 5], 256, v18::SHARED_BYTES),
        (V12 { split_k: 1 }, V12 { split_k: 2 }, [3, 3], 512, v12::SHARED_BYTES),
        // 600 rows: 3 blocks of 256, a cluster of 2 and one whose second block has no rows.
        (V13 { split_k: 1 }, V13 { split_k: 2 }, [4, 3], 512, v13::SHARED_BYTES),
        (V19 { split_k: 1 }, V19 { split_k: 2 }, [3, 5], 512, v19::SHARED_BYTES),
        (V22 { split_k: 1 }, V22 { split_k: 2 }, [3, 17], 512, v22::SHARED_BYTES),
        (V23 { split_k: 1 }, V23 { split_k: 2 }, [3, 17], 512, v23::SHARED_BYTES),
        (V24 { split_k: 1 }, V24 { split_k: 2 }, [3, 9], 512, v24::SHARED_BYTES),
    ] {
        let number = version.number();
        let whole = only_launch(int4_linear::plan_version::<f16>(&shape, &buffers(257, &shape, true), version))?;
        let expected = LaunchConfig { grid: [tiles[0], tiles[1], 1], block: [threads, 1, 1], shared_mem_bytes };
        ensure(whole.kernel == format!("int4_linear_v{number}_f16") && whole.config == expected, || {
            format!("{whole:?}")
        })?;
        let planned = int4_linear::plan_version::<bf16>(&shape, &buffers(5, &shape, false), split)?;
        let planned = planned.ok_or("no plan")?;
        ensure(
            planned.launch.kernel == format!("int4_linear_v{number}_split_k_bf16")
                && planned.launch.config.grid == [tiles[0], 1, 2]
                && planned.split_k.is_some_and(|s| s.workspace_len == 2 * 5 * 600),
            || format!("{planned:?}"),
        )?;
        expect_error(
            int4_linear::plan_version::<f32>(&shape, &buffers(5, &shape, false), version),
            Error::UnsupportedType { kernel: "int4_linear", version: number, dtype: "f32" },
        )?;
        let runs = [(8, 0), (8, 9), (9, 0), (10, 0), (12, 0)].map(|cc| version.runs_on(cc));
        ensure(runs == [false, false, true, false, false], || format!("v{number} runs_on: {runs:?}"))?;
        // Within the H100's 227 KB a block (v10 209 KB, v11 to v13 and v22 to v24 225 KB, v18 145 KB, v19 201 KB).
        ensure(shared_mem_bytes <= 227 * 1024, || format!("v{number}: {shared_mem_bytes} bytes of shared memory"))?;
    }
    // Version 13 reads x through a tensor map of it (k columns, m rows).
    let plan =
        int4_linear::plan_version::<f16>(&shape, &buffers(257, &shape, true), V13 { split_k: 1 })?.ok_or("no plan")?;
    let expected = XTensorMap { rows: 257, columns: 384, box_columns: 64, box_rows: v13::BLOCK_M / v13::CLUSTER };
    ensure(plan.x_tensor_map == Some(expected), || format!("{plan:?}"))?;
    // Its tensor-map coordinates are 32-bit signed, and reach a tile past m.
    let limit = i32::MAX as usize - v13::BLOCK_M.max(v13::STEP_K);
    expect_error(
        int4_linear::plan_version::<f16>(&shape, &buffers(limit + 1, &shape, false), V13 { split_k: 1 }),
        Error::TooLarge { what: "m", value: limit as u128 + 1, limit: limit as u128 },
    )?;
    // ... and qweight through version 23's map of it.
    let codes = QweightTensorMap { words_per_row: 48, bands: 38 };
    ensure(plan.qweight_tensor_map == Some(codes), || format!("{plan:?}"))?;
    // Versions 12, 19, 23 and 24 read qweight through a tensor map of it
    // (384 columns are 48 words a row, 3 steps; 600 rows 38 bands), and x
    // through one with a box of their tile's rows.
    for version in [V12 { split_k: 1 }, V19 { split_k: 2 }, V23 { split_k: 2 }, V24 { split_k: 1 }, V24 { split_k: 2 }]
    {
        let plan = int4_linear::plan_version::<f16>(&shape, &buffers(257, &shape, true), version)?.ok_or("no plan")?;
        let box_rows = match version {
            V12 { .. } => v12::BLOCK_M,
            V19 { .. } => v19::BLOCK_M,
            V23 { .. } => v23::BLOCK_M,
            _ => v24::BLOCK_M,
        };
        let x_map = XTensorMap { rows: 257, columns: 384, box_columns: 64, box_rows };
        ensure(plan.qweight_tensor_map == Some(codes) && plan.x_tensor_map == Some(x_map), || format!("{plan:?}"))?;
    }
    expect_error(
        int4_linear::plan_version::<f16>(&shape, &buffers(limit + 1, &shape, false), V19 { split_k: 1 }),
        Error::TooLarge { what: "m", value: limit as u128 + 1, limit: limit as u128 },
    )?;
    let plan =
        int4_linear::plan_version::<f16>(&shape, &buffers(257, &shape, true), V22 { split_k: 1 })?.ok_or("no plan")?;
    ensure(plan.x_tensor_map.is_none() && plan.qweight_tensor_map.is_none(), || format!("{plan:?}"))?;
    // Versions 12, 13, 19, 23 and 24 take the layer's packed constants in
    // the scales' place at G = 128 only (versions 12 and 13 in their
    // `_g128_` entry points); version 22 never.
    let g128 = Int4Shape::new(600, 384, 128, Int4Mode::Asymmetric)?;
    let versions = [
        V12 { split_k: 1 },
        V13 { split_k: 1 },
        V19 { split_k: 2 },
        V22 { split_k: 1 },
        V23 { split_k: 1 },
        V24 { split_k: 2 },
    ];
    for version in versions {
        for shape in [&shape, &g128] {
            let plan =
                int4_linear::plan_version::<f16>(shape, &buffers(257, shape, true), version)?.ok_or("no plan")?;
            let at_g128 = shape.group_size == 128;
            let expected = at_g128 && !matches!(version, V22 { .. });
            ensure(plan.packed_constants == expected, || format!("G = {}: {plan:?}", shape.group_size))?;
            let (number, split) = (version.number(), if version.split_k() == Some(1) { "" } else { "split_k_" });
            let entry = match version {
                V12 { .. } | V13 { .. } if at_g128 => format!("int4_linear_v{number}_g128_f16"),
                _ => format!("int4_linear_v{number}_{split}f16"),
            };
            ensure(plan.launch.kernel == entry, || format!("G = {}: {plan:?}", shape.group_size))?;
        }
    }
    ensure(Int4LinearVersion::ALL.iter().all(|v| v.number() >= 10 || v.runs_on((8, 0))), || "runs_on".into())
}

/// Versions 3 to 6 (whose block is any number of warps), with `warps` per
/// block; version 17 too, in one group.
fn tensor_core_versions(warps: u32) -> impl Iterator<Item = Int4LinearVersion> {
    let one_group = move |v: Int4LinearVersion| match v {
        Int4LinearVersion::V17 { .. } => Int4LinearVersion::V17 { row_groups: 1, warps },
        v => v.with_warps(warps),
    };
    Int4LinearVersion::ALL.into_iter().filter(|v| v.warps().is_some()).map(one_group)
}

/// Version 17's blocks for `m` activation rows, valid or not: groups from
/// 1 to 16, warps a group from 1 to 16 (powers of two, which have entry
/// points of their own, and 3, which reads it from the block).
fn v17_blocks(m: usize) -> impl Iterator<Item = (u32, u32, bool)> {
    let most = v17::MAX_WARPS[(m > 8) as usize];
    [1, 2, 4, 8, 16].into_iter().flat_map(move |groups| {
        [1, 2, 3, 4, 8, 16].into_iter().map(move |per_group| (groups, per_group, groups * per_group <= most))
    })
}

/// Version 17's launch: a 2-D block (a group's warps along x, groups along
/// y), its rows a block by tile width, the entry point that knows the warps
/// a group where there is one, every warp's partial tiles in shared memory
/// or none for one-warp groups; blocks of more than 16 warps or uneven
/// groups refused. Its block for the benchmark shapes.
fn plans_v17_blocks(_: &mut Rng) -> TestResult {
    let shape = Int4Shape::new(1000, 512, 128, Int4Mode::Symmetric)?;
    for (m, tile, rows, n_tiles) in [(8, "m8", 16, 1), (20, "m16", 32, 2)] {
        for (groups, per_group, valid) in v17_blocks(m) {
            let version = Int4LinearVersion::V17 { row_groups: groups, warps: groups * per_group };
            let plan = int4_linear::plan_version::<bf16>(&shape, &buffers(m, &shape, true), version);
            if !valid {
                let (threads, max) = (32 * groups * per_group, 32 * v17::MAX_WARPS[(m > 8) as usize]);
                expect_error(plan, Error::InvalidBlockThreads { threads, max })?;
                continue;
            }
            let launch = only_launch(plan)?;
            let rows = rows * groups as usize;
            let m_tiles = m.div_ceil(8 * n_tiles) as u32;
            let kernel = match per_group {
                3 => format!("int4_linear_v17_{tile}_g128_bf16"),
                _ => format!("int4_linear_v17_{tile}_w{per_group}_g128_bf16"),
            };
            let shared = if per_group == 1 { 0 } else { groups * per_group * n_tiles as u32 * 512 };
            ensure(
                launch.kernel == kernel
                    && launch.config.grid == [1000usize.div_ceil(rows) as u32, m_tiles, 1]
                    && launch.config.block == [32 * per_group, groups, 1]
                    && launch.config.shared_mem_bytes == shared,
                || format!("{version:?}, m = {m}: {launch:?}"),
            )?;
        }
    }
    for (row_groups, warps) in [(3, 10), (0, 8)] {
        expect_error(
            int4_linear::plan_version::<f16>(
                &shape,
                &buffers(2, &shape, false),
                Int4LinearVersion::V17 { row_groups, warps },
            ),
            Error::InvalidBlockShape { row_groups, warps },
        )?;
    }
    // One-warp groups fill half the block, halved again while a quarter of
    // the multiprocessors would idle (never on the H100 at these sizes; on
    // a GPU of twice its multiprocessors at 20000 rows).
    let twice_h100 = DeviceInfo { multiprocessors: 2 * H100.multiprocessors, ..H100 };
    for (m, n, row_groups, warps, device) in [
        (1, 4096, 1, 8, &H100),
        (1, 11008, 1, 2, &H100),
        (1, 28672, 8, 8, &H100),
        (1, 8192, 1, 4, &H100),
        (16, 4096, 1, 8, &H100),
        (16, 11008, 1, 2, &H100),
        (16, 28672, 4, 4, &H100),
        (16, 8192, 1, 4, &H100),
        (1, 64, 1, 8, &H100),
        (1, 20000, 8, 8, &H100),
        (1, 20000, 4, 4, &twice_h100),
    ] {
        let tuned = Int4LinearVersion::V17 { row_groups: 1, warps: 1 }.tuned(m, n, 4096, device);
        let expected = Int4LinearVersion::V17 { row_groups, warps };
        ensure(tuned == expected, || format!("m = {m}, n = {n}: {tuned:?}, expected {expected:?}"))?;
    }
    Ok(())
}

/// Every version with its default launch, and versions 7, 10 to 13, 18,
/// 19 and 22 to 24 split [`SPLIT`] ways.
fn versions_under_test() -> Vec<Int4LinearVersion> {
    let split = [
        Int4LinearVersion::V7 { split_k: SPLIT },
        Int4LinearVersion::V10 { split_k: SPLIT },
        Int4LinearVersion::V11 { split_k: SPLIT },
        Int4LinearVersion::V12 { split_k: SPLIT },
        Int4LinearVersion::V13 { split_k: SPLIT },
        Int4LinearVersion::V18 { split_k: SPLIT },
        Int4LinearVersion::V19 { split_k: SPLIT },
        Int4LinearVersion::V22 { split_k: SPLIT },
        Int4LinearVersion::V23 { split_k: SPLIT },
        Int4LinearVersion::V24 { split_k: SPLIT },
    ];
    Int4LinearVersion::ALL.into_iter().chain(split).collect()
}

/// Quantizes random weights, runs `versions` in every activation type they
/// take on random activations into a poisoned output with guard elements
/// after it, and checks the guard, that every element was written, and the
/// type's error bound.
fn check_layer(
    kernels: &Kernels,
    rng: &mut Rng,
    m: usize,
    shape: Int4Shape,
    with_bias: bool,
    versions: &[Int4LinearVersion],
) -> TestResult {
    let Int4Shape { n, k, group_size, mode } = shape;
    let weights = Int4Weights::quantize(&rng.normals(n * k, 0.05), n, k, group_size, mode)?;
    let x = rng.normals(m * k, 1.0);
    let bias = with_bias.then(|| rng.normals(n, 0.5));
    let layer = kernels.upload_int4_linear(&weights, bias.as_deref())?;
    let what = format!("m={m} n={n} k={k} g={group_size} {mode:?} bias={with_bias}");
    check_versions::<f32>(kernels, &layer, &weights, &x, m, bias.as_deref(), versions, &what)?;
    check_versions::<f16>(kernels, &layer, &weights, &x, m, bias.as_deref(), versions, &what)?;
    check_versions::<bf16>(kernels, &layer, &weights, &x, m, bias.as_deref(), versions, &what)
}

/// [`check_layer`] for one activation type: `x` is rounded to `T`, and the
/// reference takes the rounded values.
#[allow(clippy::too_many_arguments)]
fn check_versions<T: TestFloat>(
    kernels: &Kernels,
    layer: &int4_linear::DeviceInt4Linear,
    weights: &Int4Weights,
    x: &[f32],
    m: usize,
    bias: Option<&[f32]>,
    versions: &[Int4LinearVersion],
    what: &str,
) -> TestResult {
    if !versions.iter().any(|v| v.supports::<T>()) {
        return Ok(());
    }
    let n = weights.shape().n;
    let x = T::from_f32_slice(x);
    let expected = reference::int4_linear(&T::to_f32_vec(&x), m, weights, bias)?;
    let mass = scaled_activation_mass(weights, &T::to_f32_vec(&x), m);
    let dx = kernels.upload(&x)?;
    for &version in versions.iter().filter(|v| v.supports::<T>()) {
        let guard = 64;
        let y = poisoned::<T>(kernels, m * n + guard);
        let call = kernels.int4_linear_version(version, &dx, m, layer, &mut y.index(0..m * n), kernels.stream());
        let compute_capability = kernels.device().compute_capability;
        if !version.runs_on(compute_capability) {
            // Refused before launch, nothing written.
            let refused = Error::VersionNotOnDevice {
                kernel: "int4_linear",
                version: version.number(),
                target: "sm_90a",
                compute_capability,
            };
            expect_error(call, refused)?;
            let untouched = T::to_f32_vec(&download(kernels, &y)).iter().all(|v| v.is_nan());
            ensure(untouched, || format!("{version:?}: wrote y on a device it does not run on"))?;
            continue;
        }
        call?;
        let got = T::to_f32_vec(&download(kernels, &y));
        let what = || format!("{version:?} {} {what}", T::NAME);
        ensure(got[m * n..].iter().all(|v| v.is_nan()), || format!("{}: wrote past y", what()))?;
        let got = &got[..m * n];
        // The outputs of finite inputs are finite: a NaN is an unwritten element.
        let unwritten = first_failures(m * n, 3, |i| !got[i].is_nan());
        ensure(unwritten.is_empty(), || format!("{}: unwritten {unwritten:?}", what()))?;
        check_error::<T>(got, &expected, &mass, weights.shape().k, &what())?;
    }
    Ok(())
}

/// `sum_k s[n][k / G] |x[m][k]|` for every output: the scale of a dot
/// product's rounding errors (every `|w| <= 15 s`), whatever cancels in it.
fn scaled_activation_mass(weights: &Int4Weights, x: &[f32], m: usize) -> Vec<f64> {
    let Int4Shape { n, k, group_size, .. } = weights.shape();
    let mut mass = vec![0.0; m * n];
    for row in 0..m {
        for col in 0..n {
            mass[row * n + col] =
                (0..k).map(|i| weights.scale(col, i / group_size).to_f64().abs() * (x[row * k + i] as f64).abs()).sum();
        }
    }
    mass
}

/// The error bounds of host/int4_linear.rs for activations of type `T`:
/// for every output `|y - ref| <= u |ref| + 16 (u + K 2^-24) mass` (`u` the
/// type's unit roundoff: the output's rounding, and at most one rounding of
/// each weight times `|w| <= 15 s`; `K 2^-24` the worst case of f32 sums
/// of `K` terms; `mass` from [`scaled_activation_mass`]); and `||y - ref||
/// / ||ref||` within the type's bound over outputs of 256 elements or more
/// (below that, one output that cancels to near zero can dominate the norm).
fn check_error<T: Float>(got: &[f32], expected: &[f64], mass: &[f64], k: usize, what: &str) -> TestResult {
    let u = T::UNIT_ROUNDOFF;
    let per_mass = 16.0 * (u + k as f64 * 2f64.powi(-24));
    let outside = first_failures(got.len(), 3, |i| {
        (got[i] as f64 - expected[i]).abs() <= u * expected[i].abs() + per_mass * mass[i]
    });
    ensure(outside.is_empty(), || {
        let i = outside[0];
        format!("{what}: outputs {outside:?} outside the bound: {} against {} (mass {})", got[i], expected[i], mass[i])
    })?;
    let error = relative_l2_error(got, expected);
    ensure(got.len() < 256 || error <= BOUNDS.get::<T>(), || format!("{what}: relative error {error:e}"))
}

fn matches_reference_every_group_mode_and_batch(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    for mode in MODES {
        for group_size in [32, 64, 128] {
            for m in BATCHES {
                let n = WIDTHS[rng.below(WIDTHS.len())];
                let k = group_size * (1 + rng.below(24));
                let with_bias = rng.below(2) == 0;
                check_layer(
                    kernels,
                    rng,
                    m,
                    Int4Shape::new(n, k, group_size, mode)?,
                    with_bias,
                    &versions_under_test(),
                )?;
            }
        }
    }
    Ok(())
}

/// The producers of versions 13 and 22 to 24 read the group constants 8
/// steps at a time where a step is one group, every row holds whole
/// windows of 8 (`G = 128`, `k % 1024 == 0`), and the layer has zero
/// points or rows of more than 64 groups: one window (only with zero
/// points) and nine (both modes), whole and split into slices that start
/// inside a window, and `k = 9 * 128` (a scalar load a step) beside them;
/// versions 12 and 19, which always take the scalar loads, on the same
/// layers. Small enough for compute-sanitizer.
fn producers_read_constant_windows(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    use Int4LinearVersion::{V12, V13, V19, V22, V23, V24};
    let versions: Vec<Int4LinearVersion> = [1, 3]
        .into_iter()
        .flat_map(|split_k| {
            [V12 { split_k }, V13 { split_k }, V19 { split_k }, V22 { split_k }, V23 { split_k }, V24 { split_k }]
        })
        .collect();
    for k in [1024, 9 * 1024, 9 * 128] {
        for mode in MODES {
            for m in [1, 17] {
                let (n, with_bias) = (WIDTHS[rng.below(WIDTHS.len())], rng.below(2) == 0);
                check_layer(kernels, rng, m, Int4Shape::new(n, k, 128, mode)?, with_bias, &versions)?;
            }
        }
    }
    Ok(())
}

fn every_width_and_large_k(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    for n in WIDTHS {
        let m = 1 + rng.below(5);
        let shape = Int4Shape::new(n, 384, 128, Int4Mode::Asymmetric)?;
        check_layer(kernels, rng, m, shape, true, &versions_under_test())?;
    }
    // Model-sized K (the bound is stated up to these).
    for (k, group_size) in [(4096, 128), (8192, 64), (11008, 128), (14336, 32)] {
        for m in [1, 4] {
            let mode = MODES[rng.below(2)];
            let shape = Int4Shape::new(257, k, group_size, mode)?;
            check_layer(kernels, rng, m, shape, true, &versions_under_test())?;
        }
    }
    Ok(())
}

/// Versions 3 to 5 with every block size, on a shape whose `K` splits
/// unevenly among the warps (and ends in a partial step).
fn tensor_core_versions_every_block_size(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    let (m, n, k) = (3, 40, 32 * 67);
    let weights = Int4Weights::quantize(&rng.normals(n * k, 0.05), n, k, 32, Int4Mode::Asymmetric)?;
    let x = bf16::from_f32_slice(&rng.normals(m * k, 1.0));
    let expected = reference::int4_linear(&bf16::to_f32_vec(&x), m, &weights, None)?;
    let mass = scaled_activation_mass(&weights, &bf16::to_f32_vec(&x), m);
    let layer = kernels.upload_int4_linear(&weights, None)?;
    let dx = kernels.upload(&x)?;
    for warps in 1..=16 {
        for version in tensor_core_versions(warps) {
            let mut y = poisoned::<bf16>(kernels, m * n);
            match kernels.int4_linear_version(version, &dx, m, &layer, &mut y, kernels.stream()) {
                // A kernel whose registers do not allow the block: refused
                // before launching, never a failed launch.
                Err(Error::InvalidBlockThreads { threads, max }) if threads == 32 * warps && max < threads => {
                    let untouched = download(kernels, &y).iter().all(|v| v.to_f32().is_nan());
                    ensure(untouched, || format!("{version:?}: refused, but wrote y"))?;
                }
                result => {
                    result?;
                    let got = bf16::to_f32_vec(&download(kernels, &y));
                    check_error::<bf16>(&got, &expected, &mass, k, &format!("{version:?}"))?;
                }
            }
        }
    }
    Ok(())
}

/// Version 17 with every valid block on shapes that are ragged for each:
/// `N` not a multiple of its rows, `K` split unevenly between a group's
/// warps (ending in a partial step), one and several tiles of activation
/// rows of both widths (for one-warp groups too), every group size and
/// mode; and every invalid block refused before anything is written.
fn v17_every_block_shape(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    for (i, (groups, per_group, _)) in v17_blocks(1).enumerate() {
        let version = Int4LinearVersion::V17 { row_groups: groups, warps: groups * per_group };
        // Blocks go groups-major, 6 a count of groups: j mixes the group
        // sizes, modes, m and bias across each count, one-warp groups too.
        let j = i + i / 6;
        let (group_size, mode) = ([32, 64, 128][j % 3], MODES[j / 3 % 2]);
        let m = [1, 9, 16, 5, 40][j % 5];
        let valid = groups * per_group <= v17::MAX_WARPS[(m > 8) as usize];
        let n = 16 * groups as usize * (1 + i % 3) + [0, 5, 13][i % 3];
        let k = 128 * (per_group as usize * (1 + i % 2) + 1) + [0, group_size][i / 2 % 2];
        let shape = Int4Shape::new(n, k, group_size, mode)?;
        if valid {
            check_layer(kernels, rng, m, shape, j % 2 == 0, &[version])?;
            continue;
        }
        let weights = Int4Weights::quantize(&rng.normals(n * k, 0.05), n, k, group_size, mode)?;
        let layer = kernels.upload_int4_linear(&weights, None)?;
        let dx = kernels.upload(&f16::from_f32_slice(&rng.normals(m * k, 1.0)))?;
        let mut y = poisoned::<f16>(kernels, m * n);
        let call = kernels.int4_linear_version(version, &dx, m, &layer, &mut y, kernels.stream());
        let (threads, max) = (32 * groups * per_group, 32 * v17::MAX_WARPS[(m > 8) as usize]);
        expect_error(call, Error::InvalidBlockThreads { threads, max })?;
        let untouched = download(kernels, &y).iter().all(|v| v.to_f32().is_nan());
        ensure(untouched, || format!("{version:?}: refused, but wrote y"))?;
    }
    Ok(())
}

/// Version 7's tiles: `M` inside, at and past its 128-row tiles, `N` not a
/// multiple of its 128 weight rows, `K` of one group (one partial step) and
/// of several steps (the last partial unless G = 128), every group size and
/// mode, with and without bias; every version runs on each (check_layer).
fn gemm_tiles_ragged(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    for (i, m) in [17, 64, 130, 257].into_iter().enumerate() {
        for (j, mode) in MODES.into_iter().enumerate() {
            for (l, group_size) in [32, 64, 128].into_iter().enumerate() {
                let n = [200, 1000][(i + l) % 2];
                let k = if (i + j + l) % 2 == 0 { group_size } else { 3 * 128 + group_size };
                let shape = Int4Shape::new(n, k, group_size, mode)?;
                check_layer(kernels, rng, m, shape, (i + j) % 2 == 0, &versions_under_test())?;
            }
        }
    }
    Ok(())
}

/// Version 24's 32-row tile alone, unsplit and split 2 and 3 ways, small
/// enough for compute-sanitizer: `M` inside one tile, at it and past two
/// (17, 32, 75: its `ldmatrix` of rows 16-31 and the whole-line epilogue's
/// 32 rows); the rest as [`one_tile_ragged`].
fn thirty_two_row_tile_ragged(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    one_tile_ragged(kernels, rng, |split_k| Int4LinearVersion::V24 { split_k }, [17, 32, 75])
}

/// Version 23's 16-row tile alone, as [`thirty_two_row_tile_ragged`]: `M`
/// inside one tile, at it and past two (9, 16, 37: the activations'
/// tensor-map boxes past `m`, from run 55). Racecheck of
/// [`gemm_tiles_ragged`] stops with an internal sanitizer error on the H200
/// (run 55, call C, for every version it was filtered to); this test is
/// version 23's racecheck.
fn sixteen_row_tile_ragged(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    one_tile_ragged(kernels, rng, |split_k| Int4LinearVersion::V23 { split_k }, [9, 16, 37])
}

/// Version 19's 64-row tile alone, as [`thirty_two_row_tile_ragged`]: `M`
/// inside one tile, at it and past two (33, 64, 139: the activations'
/// tensor-map boxes past `m`, from run 54).
fn sixty_four_row_tile_ragged(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    one_tile_ragged(kernels, rng, |split_k| Int4LinearVersion::V19 { split_k }, [33, 64, 139])
}

/// Version 13's 128-row tile alone, in its clusters of two blocks, as
/// [`thirty_two_row_tile_ragged`]: `M` inside one tile, at it and past two
/// (65, 128, 259), `N` of one cluster (200 rows: its second block has none)
/// and of two (1000). Version 13's racecheck, where [`gemm_tiles_ragged`]'s
/// stops with the tool's internal error (added in run 56; racecheck,
/// synccheck and memcheck clean in run 57, call A).
fn hundred_twenty_eight_row_tile_ragged(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    one_tile_ragged(kernels, rng, |split_k| Int4LinearVersion::V13 { split_k }, [65, 128, 259])
}

/// Version 12's 128-row tile alone (version 13's without the cluster), as
/// [`hundred_twenty_eight_row_tile_ragged`]: its racecheck.
fn unclustered_hundred_twenty_eight_row_tile_ragged(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    one_tile_ragged(kernels, rng, |split_k| Int4LinearVersion::V12 { split_k }, [65, 128, 259])
}

/// One tiled version unsplit and split 2 and 3 ways (`version(split_k)`)
/// on `M` of `rows`, `N` inside and past its 256 weight rows, `K` with a
/// partial last step or of 8 whole ones (at `G = 128` with zero points one
/// window of constants, read a window at a time), every group size and
/// mode, with and without bias (check_layer).
fn one_tile_ragged(
    kernels: &Kernels,
    rng: &mut Rng,
    version: impl Fn(u32) -> Int4LinearVersion,
    rows: [usize; 3],
) -> TestResult {
    let versions = [1, 2, 3].map(version);
    for (i, m) in rows.into_iter().enumerate() {
        for (j, mode) in MODES.into_iter().enumerate() {
            for (l, group_size) in [32, 64, 128].into_iter().enumerate() {
                let n = [200, 1000][(i + j + l) % 2];
                let k = [3 * 128 + group_size, 8 * 128][(i + l) % 2];
                let shape = Int4Shape::new(n, k, group_size, mode)?;
                check_layer(kernels, rng, m, shape, (i + j) % 2 == 0, &versions)?;
            }
        }
    }
    Ok(())
}

/// The producer-consumer versions' tile order (`abi::int4_linear::tile_order`)
/// visits every tile of the grid once, with and without clusters, for grids
/// with a partial last group of activation tiles and grids narrower than
/// a wave; a cluster's blocks share their activation tile.
fn tile_order_visits_every_tile_once(_: &mut Rng) -> TestResult {
    for cluster in [1, 2] {
        for gx in (cluster..=40).step_by(cluster) {
            // The tallest grid only two units wide, to keep the test short.
            for gy in (1..=27).chain([64, 65]).chain((gx <= 2 * cluster).then_some(MAX_GRID_Y as usize)) {
                let mut seen = vec![false; gx * gy];
                for by in 0..gy {
                    let mut cluster_m_tile = None;
                    for bx in 0..gx {
                        let (n_tile, m_tile) = tile_order::tile_of_block(
                            (bx as u32, by as u32),
                            (gx as u32, gy as u32),
                            NonZeroU32::new(cluster as u32).unwrap(),
                        );
                        let (n_tile, m_tile) = (n_tile as usize, m_tile as usize);
                        ensure(n_tile < gx && m_tile < gy, || {
                            format!("{gx}x{gy} / {cluster}: ({bx}, {by}) off the grid")
                        })?;
                        let tile = &mut seen[m_tile * gx + n_tile];
                        ensure(!*tile, || format!("{gx}x{gy} / {cluster}: tile ({n_tile}, {m_tile}) twice"))?;
                        *tile = true;
                        if bx % cluster == 0 {
                            cluster_m_tile = Some(m_tile);
                        }
                        ensure(cluster_m_tile == Some(m_tile) && n_tile % cluster == bx % cluster, || {
                            format!("{gx}x{gy} / {cluster}: block ({bx}, {by}) leaves its cluster's activation tile")
                        })?;
                    }
                }
            }
        }
    }
    // The walk itself: 28672 x 8192 at M = 1024 in version 13 (112 x 8
    // blocks, clusters of 2): the first wave of 132 blocks holds 18 weight
    // tiles of all 8 activation tiles, not 112 of 2.
    let first_wave: Vec<_> = (0..132)
        .map(|b| tile_order::tile_of_block((b % 112, b / 112), (112, 8), NonZeroU32::new(v13::CLUSTER as u32).unwrap()))
        .collect();
    let count = |tiles: Vec<u32>| tiles.into_iter().collect::<std::collections::BTreeSet<_>>().len();
    let (n_tiles, m_tiles) =
        (count(first_wave.iter().map(|t| t.0).collect()), count(first_wave.iter().map(|t| t.1).collect()));
    ensure((n_tiles, m_tiles) == (18, 8), || format!("first wave: {n_tiles} weight tiles x {m_tiles} activation tiles"))
}

/// The producer-consumer versions on grids of more than one group of
/// activation tiles in their tile order, the last group partial (`M` of
/// 10, 19, 37 and 73 tiles of 128, 64, 32 and 16 rows), several clusters wide
/// (`N` of 4 and 8 tiles), split and not: every output once, against the
/// f64 reference.
fn tiled_gemms_many_tile_groups(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    use Int4LinearVersion::{V12, V13, V19, V22, V23, V24};
    let versions: Vec<_> = versions_under_test()
        .into_iter()
        .filter(|version| {
            matches!(version, V12 { .. } | V13 { .. } | V19 { .. } | V22 { .. } | V23 { .. } | V24 { .. })
        })
        .collect();
    for (n, mode) in [(1000, Int4Mode::Symmetric), (2000, Int4Mode::Asymmetric)] {
        let shape = Int4Shape::new(n, 3 * 128, 128, mode)?;
        check_layer(kernels, rng, 9 * 128 + 5, shape, n == 1000, &versions)?;
    }
    Ok(())
}

/// The tiled GEMMs, split and not, into a `y` and a caller's workspace
/// that are slices at odd element offsets (2- and 4-byte aligned only, as
/// a caller's slices may be): the same bits as into aligned buffers, and
/// the elements just outside `y` untouched. Whole tiles (`m` = 256, `n` =
/// 512) and `n` = 510, whose rows end mid-tile. Run 38 also ran it on an
/// epilogue that stored two outputs at a time where aligned (not kept):
/// the test guards any such change.
fn tiled_gemms_misaligned_outputs(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    let (m, k) = (256, 2 * 128);
    let x = kernels.upload(&bf16::from_f32_slice(&rng.normals(m * k, 1.0)))?;
    let versions: Vec<_> = versions_under_test()
        .into_iter()
        .filter(|v| v.split_k().is_some() && v.supports::<bf16>() && v.runs_on(kernels.device().compute_capability))
        .collect();
    for n in [512, 510] {
        let weights = Int4Weights::quantize(&rng.normals(n * k, 0.05), n, k, 128, Int4Mode::Symmetric)?;
        let layer = kernels.upload_int4_linear(&weights, Some(&rng.normals(n, 0.5)))?;
        for &version in &versions {
            let bits = |y: &DeviceBuffer<bf16>| download(kernels, y).iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            let len = int4_linear::workspace_len(version, m, n)?;
            let (mut aligned, odd) = (poisoned::<bf16>(kernels, m * n), poisoned::<bf16>(kernels, m * n + 2));
            let (mut workspace, odd_workspace) = (kernels.alloc::<f32>(len)?, kernels.alloc::<f32>(len + 1)?);
            kernels.int4_linear_version_with_workspace(
                version,
                &x,
                m,
                &layer,
                &mut aligned,
                &mut workspace,
                kernels.stream(),
            )?;
            kernels.int4_linear_version_with_workspace(
                version,
                &x,
                m,
                &layer,
                &mut odd.index(1..1 + m * n),
                &mut odd_workspace.index(1..1 + len),
                kernels.stream(),
            )?;
            let (expected, got) = (bits(&aligned), bits(&odd));
            ensure(expected.iter().all(|&b| bf16::from_bits(b).is_finite()), || {
                format!("{version:?} n={n}: unwritten")
            })?;
            ensure(got[1..1 + m * n] == expected[..], || format!("{version:?} n={n}: other outputs at an odd offset"))?;
            ensure([got[0], got[1 + m * n]].iter().all(|&b| bf16::from_bits(b).is_nan()), || {
                format!("{version:?} n={n}: wrote outside y")
            })?;
        }
    }
    Ok(())
}

/// Versions 7, 10 to 13, 18, 19 and 22 to 24 split along `K` on ragged shapes: `M` inside and
/// past their 128-row tiles (and inside and past version 11's 256), `N` not a multiple of 128 (nor, for 1001, of the reduction's 4 columns), `K` of 6 steps (the last
/// partial unless G = 128) split 2 ways (3 + 3 steps), 4 ways (2 + 2 + 2 +
/// an empty slice) and 9 ways (more slices than steps); every group size
/// and mode, with and without bias (check_layer: f64 reference, poisoned
/// output, guard); and unsplit, past one tile of activation rows. The
/// other GPU tests run a split of 3 besides.
fn split_k_ragged(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    let splits: Vec<_> = [1, 2, 4, 9]
        .into_iter()
        .flat_map(|split_k| {
            [
                Int4LinearVersion::V7 { split_k },
                Int4LinearVersion::V10 { split_k },
                Int4LinearVersion::V11 { split_k },
                Int4LinearVersion::V12 { split_k },
                Int4LinearVersion::V13 { split_k },
                Int4LinearVersion::V18 { split_k },
                Int4LinearVersion::V19 { split_k },
                Int4LinearVersion::V22 { split_k },
                Int4LinearVersion::V23 { split_k },
                Int4LinearVersion::V24 { split_k },
            ]
        })
        .collect();
    for (i, m) in [17, 130, 257].into_iter().enumerate() {
        for (j, mode) in MODES.into_iter().enumerate() {
            for (l, group_size) in [32, 64, 128].into_iter().enumerate() {
                // 1001: the reduction's element-wise path (n not a multiple of 4).
                let n = [200, 1001][(i + j + l) % 2];
                let shape = Int4Shape::new(n, 5 * 128 + group_size, group_size, mode)?;
                check_layer(kernels, rng, m, shape, (i + l) % 2 == 0, &splits)?;
            }
        }
    }
    Ok(())
}

/// The split-K workspace, allocated and freed in stream order: two calls
/// captured into a CUDA graph are 8 nodes (allocation, two kernels, free
/// each), run nothing until replayed, and replay correctly twice; and calls
/// interleaved on two streams, each with its own inputs, all compute their own.
fn split_k_workspace_in_graphs_and_streams(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    let (m, n, k) = (100, 300, 1024);
    let version = Int4LinearVersion::V7 { split_k: 4 };
    let weights = Int4Weights::quantize(&rng.normals(n * k, 0.05), n, k, 64, Int4Mode::Asymmetric)?;
    let bias = rng.normals(n, 0.5);
    let layer = kernels.upload_int4_linear(&weights, Some(&bias))?;
    let xs: Vec<Vec<bf16>> = (0..2).map(|_| bf16::from_f32_slice(&rng.normals(m * k, 1.0))).collect();
    let expected = xs
        .iter()
        .map(|x| reference::int4_linear(&bf16::to_f32_vec(x), m, &weights, Some(&bias)))
        .collect::<Result<Vec<_>, _>>()?;
    let dx = xs.iter().map(|x| kernels.upload(x)).collect::<Result<Vec<_>, _>>()?;
    let check = |y: &DeviceBuffer<bf16>, s: usize, what: &str| {
        let error = relative_l2_error(&bf16::to_f32_vec(&download(kernels, y)), &expected[s]);
        ensure(error <= BOUNDS.bf16, || format!("{what}, inputs {s}: relative error {error:e}"))
    };

    // A stream of this test's own: other test threads launch on the
    // library's stream, and work they put there during the capture would
    // be captured too (or fail).
    let own = Stream::new(StreamFlags::NON_BLOCKING, None)?;
    let stream = &own;
    let mut ys = [poisoned::<bf16>(kernels, m * n), poisoned::<bf16>(kernels, m * n)];
    // The poison is written on the legacy stream, which `own` does not wait for.
    CurrentContext::synchronize()?;
    let graph = kernels.capture(stream, || {
        let [y0, y1] = &mut ys;
        kernels.int4_linear_version(version, &dx[0], m, &layer, y0, stream)?;
        kernels.int4_linear_version(version, &dx[1], m, &layer, y1, stream)
    })?;
    ensure(graph.nodes()? == 8, || format!("{} nodes for 2 split-K calls", graph.nodes().unwrap_or(0)))?;
    let untouched = download(kernels, &ys[0]).iter().all(|v| v.to_f32().is_nan());
    ensure(untouched, || "capturing ran the launches".into())?;
    for _ in 0..2 {
        // SAFETY: the buffers outlive the graph; the host reads them only
        // after synchronizing the stream.
        unsafe { graph.launch(stream)? };
    }
    own.synchronize()?;
    for (s, y) in ys.iter().enumerate() {
        check(y, s, "graph")?;
    }

    let other = Stream::new(StreamFlags::NON_BLOCKING, None)?;
    let streams = [kernels.stream(), &other];
    let mut ys = [poisoned::<bf16>(kernels, m * n), poisoned::<bf16>(kernels, m * n)];
    // The poison is written on the legacy stream, which `other` does not wait for.
    CurrentContext::synchronize()?;
    for _ in 0..8 {
        for (s, y) in ys.iter_mut().enumerate() {
            kernels.int4_linear_version(version, &dx[s], m, &layer, y, streams[s])?;
        }
    }
    other.synchronize()?;
    for (s, y) in ys.iter().enumerate() {
        check(y, s, "two streams")?;
    }
    Ok(())
}

/// The split-K workspace from the caller: the same bits as a workspace
/// from the pool (the same kernels), for version 7 and, on compute
/// capability 9.0, version 23; a captured call is its two kernels (no
/// allocation and free nodes) and replays correctly; a workspace one float
/// short is refused before anything is written; an unsplit call takes an
/// empty one.
fn split_k_with_callers_workspace(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    let (m, n, k) = (16, 300, 1024);
    let weights = Int4Weights::quantize(&rng.normals(n * k, 0.05), n, k, 64, Int4Mode::Asymmetric)?;
    let layer = kernels.upload_int4_linear(&weights, Some(&rng.normals(n, 0.5)))?;
    let x = kernels.upload(&bf16::from_f32_slice(&rng.normals(m * k, 1.0)))?;
    let bits = |y: &DeviceBuffer<bf16>| download(kernels, y).iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    let v23 = Int4LinearVersion::V23 { split_k: 3 };
    let mut versions = vec![Int4LinearVersion::V7 { split_k: 4 }];
    versions.extend(v23.runs_on(kernels.device().compute_capability).then_some(v23));
    for version in versions {
        let len = int4_linear::workspace_len(version, m, n)?;
        let mut workspace = kernels.alloc::<f32>(len)?;
        let (mut from_pool, mut own) = (poisoned::<bf16>(kernels, m * n), poisoned::<bf16>(kernels, m * n));
        kernels.int4_linear_version(version, &x, m, &layer, &mut from_pool, kernels.stream())?;
        kernels.int4_linear_version_with_workspace(
            version,
            &x,
            m,
            &layer,
            &mut own,
            &mut workspace,
            kernels.stream(),
        )?;
        let expected = bits(&from_pool);
        ensure(bits(&own) == expected && expected.iter().all(|&b| bf16::from_bits(b).is_finite()), || {
            format!("{version:?}: the caller's workspace gave other outputs")
        })?;

        let stream = Stream::new(StreamFlags::NON_BLOCKING, None)?;
        let mut captured = poisoned::<bf16>(kernels, m * n);
        CurrentContext::synchronize()?;
        let graph = kernels.capture(&stream, || {
            kernels.int4_linear_version_with_workspace(version, &x, m, &layer, &mut captured, &mut workspace, &stream)
        })?;
        ensure(graph.nodes()? == 2, || format!("{version:?}: {} nodes", graph.nodes().unwrap_or(0)))?;
        // SAFETY: the buffers outlive the graph; read after synchronizing.
        unsafe { graph.launch(&stream)? };
        stream.synchronize()?;
        ensure(bits(&captured) == expected, || format!("{version:?}: the replayed graph gave other outputs"))?;

        let mut short = kernels.alloc::<f32>(len - 1)?;
        let mut untouched = poisoned::<bf16>(kernels, m * n);
        expect_error(
            kernels.int4_linear_version_with_workspace(
                version,
                &x,
                m,
                &layer,
                &mut untouched,
                &mut short,
                kernels.stream(),
            ),
            Error::LengthMismatch { argument: "workspace", expected: len, actual: len - 1 },
        )?;
        ensure(download(kernels, &untouched).iter().all(|v| v.to_f32().is_nan()), || "written on error".into())?;
    }
    let unsplit = Int4LinearVersion::V7 { split_k: 1 };
    ensure(int4_linear::workspace_len(unsplit, m, n)? == 0, || "an unsplit call needs a workspace".into())?;
    let mut y = poisoned::<bf16>(kernels, m * n);
    let mut empty = kernels.alloc::<f32>(0)?;
    kernels.int4_linear_version_with_workspace(unsplit, &x, m, &layer, &mut y, &mut empty, kernels.stream())?;
    ensure(download(kernels, &y).iter().all(|v| v.to_f32().is_finite()), || "the unsplit call left outputs".into())
}

/// Back-to-back layers on one stream, each reading the previous one's
/// output and writing the buffer the one before it read, for each kind of
/// kernel the library picks from M = 1 to 8192 (the decode GEMV, the tiled
/// GEMMs split or not, with the split's reduction, clusters and tensor
/// maps): with programmatic dependent launch (on by default on sm_90a,
/// where every kernel may start before the one before it ends), from a
/// stream and from a graph, the results equal bit for bit those of the
/// same layers launched one at a time (the stream synchronized after
/// each). A kernel that read its input or wrote its output before waiting
/// for the previous grid would see the previous layer's output half
/// written.
fn programmatic_launches_chain_layers(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    let programmatic = kernels.target().programmatic_launch();
    ensure(kernels.programmatic_launches() == programmatic, || {
        format!("programmatic launches {} on {}", kernels.programmatic_launches(), kernels.target().name())
    })?;
    // n == k, so that a layer's output is the next one's input; weights of
    // standard deviation 1 / sqrt(k) keep the activations near 1.
    let (n, k, layers) = (4096, 4096, 12);
    let weights = Int4Weights::quantize(&rng.normals(n * k, 1.0 / 64.0), n, k, 128, Int4Mode::Symmetric)?;
    let layer = kernels.upload_int4_linear(&weights, None)?;
    let own = Stream::new(StreamFlags::NON_BLOCKING, None)?;
    for m in [1, 16, 32, 64, 256, 8192] {
        let plan = int4_linear::plan::<bf16>(&layer.shape(), &buffers(m, &layer.shape(), false), kernels.device())?;
        let launches_a_layer = if plan.ok_or("no launch")?.split_k.is_some() { 2 } else { 1 };
        let x = bf16::from_f32_slice(&rng.normals(m * k, 1.0));
        // The layers from `x` into buffers [0] and [1], alternately; the
        // stream synchronized after each when `serial`. Downloads both.
        let chain = |serial: bool, graph: bool| -> Result<[Vec<bf16>; 2], Failed> {
            let mut buffers = [kernels.upload(&x)?, poisoned::<bf16>(kernels, m * n)];
            // The upload and the poison ran on the legacy stream, which `own` does not wait for.
            CurrentContext::synchronize()?;
            let enqueue = |buffers: &mut [DeviceBuffer<bf16>; 2]| -> Result<(), Error> {
                for i in 0..layers {
                    let [a, b] = buffers;
                    let (input, output) = if i % 2 == 0 { (a, b) } else { (b, a) };
                    kernels.int4_linear(input, m, &layer, output, &own)?;
                    if serial {
                        own.synchronize()?;
                    }
                }
                Ok(())
            };
            if graph {
                let graph = kernels.capture(&own, || enqueue(&mut buffers))?;
                // (A split's workspace adds allocation nodes.)
                ensure(graph.nodes()? >= layers * launches_a_layer, || {
                    format!("{} nodes for {layers} layers", graph.nodes().unwrap_or(0))
                })?;
                // SAFETY: the buffers outlive the graph; read after the stream is synchronized.
                unsafe { graph.launch(&own)? };
            } else {
                enqueue(&mut buffers)?;
            }
            Ok([kernels.download(&buffers[0], &own)?, kernels.download(&buffers[1], &own)?])
        };
        let serial = chain(true, false)?;
        if m <= 16 {
            // The last layer against the reference from its own (downloaded)
            // input: layer i reads buffer i % 2. (The other tests check every
            // kernel against the reference; this one compares launch orders.)
            let [even, odd] = &serial;
            let (input, output) = if (layers - 1) % 2 == 0 { (even, odd) } else { (odd, even) };
            let expected = reference::int4_linear(&bf16::to_f32_vec(input), m, &weights, None)?;
            let mass = scaled_activation_mass(&weights, &bf16::to_f32_vec(input), m);
            check_error::<bf16>(&bf16::to_f32_vec(output), &expected, &mass, k, &format!("m = {m}, layer {layers}"))?;
        }
        for (graph, how) in [(false, "stream"), (true, "graph")] {
            let overlapped = chain(false, graph)?;
            for (buffer, (got, expected)) in overlapped.iter().zip(&serial).enumerate() {
                let differ = first_failures(got.len(), 3, |i| got[i].to_bits() == expected[i].to_bits());
                ensure(differ.is_empty(), || {
                    format!("m = {m}, {how}: buffer {buffer} differs from the serial layers at {differ:?}")
                })?;
            }
        }
    }
    Ok(())
}

fn empty_k_gives_bias(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    let (m, n) = (3, 5);
    let shape = Int4Shape::new(n, 0, 32, Int4Mode::Symmetric)?;
    let weights = Int4Weights::quantize(&[], n, 0, 32, Int4Mode::Symmetric)?;
    let bias = rng.normals(n, 1.0);
    let x = kernels.alloc::<f32>(0)?;
    for with_bias in [true, false] {
        let layer = kernels.upload_int4_linear(&weights, with_bias.then_some(&bias[..]))?;
        for version in Int4LinearVersion::ALL.into_iter().filter(|v| v.supports::<f32>()) {
            let mut y = poisoned_f32(kernels, m * n);
            kernels.int4_linear_version(version, &x, m, &layer, &mut y, kernels.stream())?;
            let got = download(kernels, &y);
            let expected: Vec<f32> = (0..m * n).map(|i| if with_bias { bias[i % n] } else { 0.0 }).collect();
            ensure(got == expected, || format!("{version:?} {shape:?} bias={with_bias}: {got:?}"))?;
        }
        // The tensor-core versions (bf16): the bias rounded to bf16, or 0
        // (version 7 split: every slice empty).
        let x = kernels.alloc::<bf16>(0)?;
        for version in versions_under_test().into_iter().filter(|v| v.supports::<bf16>()) {
            let mut y = poisoned::<bf16>(kernels, m * n);
            kernels.int4_linear_version(version, &x, m, &layer, &mut y, kernels.stream())?;
            let got = download(kernels, &y);
            let expected = |i: usize| bf16::from_f32(if with_bias { bias[i % n] } else { 0.0 });
            ensure((0..m * n).all(|i| got[i] == expected(i)), || {
                format!("{version:?} {shape:?} bias={with_bias}: {got:?}")
            })?;
        }
    }
    Ok(())
}

fn rejects_bad_input_without_writing(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    let (m, n, k) = (2, 8, 64);
    let weights = Int4Weights::quantize(&rng.normals(n * k, 0.1), n, k, 32, Int4Mode::Symmetric)?;
    let layer = kernels.upload_int4_linear(&weights, None)?;
    let x = kernels.upload(&rng.normals(m * k + 1, 1.0))?;
    let mut y = poisoned_f32(kernels, m * n);
    expect_error(
        kernels.int4_linear(&x.index(1..), m, &layer, &mut y, kernels.stream()),
        Error::Misaligned { argument: "x", align: 16 },
    )?;
    expect_error(
        kernels.int4_linear(&x, m, &layer, &mut y, kernels.stream()),
        Error::LengthMismatch { argument: "x", expected: m * k, actual: m * k + 1 },
    )?;
    expect_error(
        kernels.upload_int4_linear(&weights, Some(&[0.0; 7])),
        Error::LengthMismatch { argument: "bias", expected: 8, actual: 7 },
    )?;
    ensure(download(kernels, &y).iter().all(|v| v.to_bits() == POISON_F32), || "output written on error".into())
}

/// Activation rows of the huge tests: a pattern of this prime length,
/// repeated, so that the reference needs only the pattern's rows.
const PATTERN_ROWS: usize = 97;

/// `m * k` past 2^31 activations and more m tiles than `gridDim.y` holds,
/// the rows repeating a pattern (`PATTERN_ROWS`).
fn huge_past_2_31_activations(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    let (m, n, k) = (262_147, 5, 8192);
    let weights = Int4Weights::quantize(&rng.normals(n * k, 0.05), n, k, 128, Int4Mode::Asymmetric)?;
    let pattern = rng.normals(PATTERN_ROWS * k, 1.0);
    let bias = rng.normals(n, 0.5);
    let pattern_y = reference::int4_linear(&pattern, PATTERN_ROWS, &weights, Some(&bias))?;
    let expected: Vec<f64> = (0..m * n).map(|i| pattern_y[(i / n) % PATTERN_ROWS * n + i % n]).collect();

    let x = repeated(kernels, &pattern, m * k);
    let layer = kernels.upload_int4_linear(&weights, Some(&bias))?;
    for version in Int4LinearVersion::ALL.into_iter().filter(|v| v.supports::<f32>()) {
        let mut y = poisoned_f32(kernels, m * n);
        kernels.int4_linear_version(version, &x, m, &layer, &mut y, kernels.stream())?;
        let error = relative_l2_error(&download(kernels, &y), &expected);
        ensure(error <= BOUNDS.f32, || format!("{version:?}: relative error {error:e}"))?;
    }
    drop(x);
    // Version 7 (bf16), whole and split: its copies' activation offsets
    // past 2^31 elements (2049 tiles of 128 rows, the last of 3).
    let pattern = bf16::from_f32_slice(&pattern);
    let x = repeated(kernels, &pattern, m * k);
    let versions = [Int4LinearVersion::V7 { split_k: 1 }, Int4LinearVersion::V7 { split_k: 2 }];
    check_repeated_rows(kernels, (&x, &pattern, m), &weights, Some(&bias), &versions)
}

/// `versions` (those the device runs) on `m` activation rows `x` that
/// repeat `pattern` (`PATTERN_ROWS` rows of `k`), in bf16, against the
/// reference of the pattern: every output written, within the bf16 bound.
fn check_repeated_rows(
    kernels: &Kernels,
    (x, pattern, m): (&DeviceBuffer<bf16>, &[bf16], usize),
    weights: &Int4Weights,
    bias: Option<&[f32]>,
    versions: &[Int4LinearVersion],
) -> TestResult {
    let n = weights.shape().n;
    let pattern_y = reference::int4_linear(&bf16::to_f32_vec(pattern), PATTERN_ROWS, weights, bias)?;
    let expected: Vec<f64> = (0..m * n).map(|i| pattern_y[(i / n) % PATTERN_ROWS * n + i % n]).collect();
    let layer = kernels.upload_int4_linear(weights, bias)?;
    let mode = weights.shape().mode;
    for &version in versions {
        if !version.runs_on(kernels.device().compute_capability) {
            continue;
        }
        let mut y = poisoned::<bf16>(kernels, m * n);
        kernels.int4_linear_version(version, x, m, &layer, &mut y, kernels.stream())?;
        let got = bf16::to_f32_vec(&download(kernels, &y));
        ensure(got.iter().all(|v| !v.is_nan()), || format!("{version:?} {mode:?}: outputs left unwritten ({m} rows)"))?;
        let error = relative_l2_error(&got, &expected);
        ensure(error <= BOUNDS.bf16, || format!("{version:?} {mode:?} {m} rows: relative error {error:e}"))?;
    }
    Ok(())
}

/// The tiled GEMMs (versions 7, 10, 12 and 13 of 128-row tiles, 19 of 64,
/// 24 of 32, 22 and 23 of 16, bf16) with more tiles than `gridDim.y`
/// holds, so that blocks take a second tile (version 19 a third, 24 a
/// fifth, 22 and 23 a ninth): `K` of 3 steps, so
/// that the rings of versions 12, 13 (4 stages) and 19 (5), counted across
/// a block's tiles, wrap inside a block's later tiles; and split 2 and 3
/// ways, where the reduction adds the slices of rows past `gridDim.y`.
/// 6.4 GB of activations.
fn huge_tiled_gemms_past_grid_y(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    let (m, n, k) = (MAX_GRID_Y as usize * v7::BLOCK_M + 130, 5, 3 * v7::STEP_K);
    let weights = Int4Weights::quantize(&rng.normals(n * k, 0.05), n, k, 64, Int4Mode::Asymmetric)?;
    let pattern = bf16::from_f32_slice(&rng.normals(PATTERN_ROWS * k, 1.0));
    let bias = rng.normals(n, 0.5);
    let x = repeated(kernels, &pattern, m * k);
    let versions = [
        Int4LinearVersion::V7 { split_k: 1 },
        Int4LinearVersion::V10 { split_k: 1 },
        Int4LinearVersion::V12 { split_k: 1 },
        Int4LinearVersion::V13 { split_k: 1 },
        Int4LinearVersion::V19 { split_k: 1 },
        Int4LinearVersion::V22 { split_k: 1 },
        Int4LinearVersion::V23 { split_k: 1 },
        Int4LinearVersion::V24 { split_k: 1 },
        Int4LinearVersion::V7 { split_k: 2 },
        Int4LinearVersion::V13 { split_k: 3 },
        Int4LinearVersion::V19 { split_k: 2 },
    ];
    check_repeated_rows(kernels, (&x, &pattern, m), &weights, Some(&bias), &versions)
}

/// Versions 22 and 23 (16-row tiles) and 24 (32-row tiles) with more
/// tiles than `gridDim.y` holds (version 24's past it, the others' twice
/// past it), at `G = 128` with two windows of 8 steps a row: with zero
/// points the producers read the constants a window at a time, and each
/// block's later tiles start again at the first window, which they
/// reload; without, a scalar load a step. 8.6 GB of activations.
fn huge_constant_windows_past_grid_y(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    let (m, n, k) = (MAX_GRID_Y as usize * v24::BLOCK_M + 130, 5, 16 * v23::STEP_K);
    let pattern = bf16::from_f32_slice(&rng.normals(PATTERN_ROWS * k, 1.0));
    let x = repeated(kernels, &pattern, m * k);
    let versions = [
        Int4LinearVersion::V22 { split_k: 1 },
        Int4LinearVersion::V23 { split_k: 1 },
        Int4LinearVersion::V24 { split_k: 1 },
    ];
    for mode in MODES {
        let weights = Int4Weights::quantize(&rng.normals(n * k, 0.05), n, k, 128, mode)?;
        check_repeated_rows(kernels, (&x, &pattern, m), &weights, None, &versions)?;
    }
    Ok(())
}

/// The kernels' bit-trick unpacking against plain shifts and masks, on
/// every nibble value in every position and every zero point.
fn device_unpacking_is_exact(rng: &mut Rng) -> TestResult {
    let mut words: Vec<u32> = (0..16u32).map(|u| u * 0x1111_1111).collect();
    words.extend((0..100_000).map(|_| rng.next_u64() as u32));
    for word in words {
        for zero in 0..16 {
            let levels = device_math::int4_levels(word, zero);
            for (i, &level) in levels.iter().enumerate() {
                let expected = ((word >> (4 * i)) & 0xF) as f32 - zero as f32;
                ensure(level == expected, || {
                    format!("word {word:#010x} zero {zero} nibble {i}: {level} != {expected}")
                })?;
            }
        }
    }
    Ok(())
}

fn main() {
    run(vec![
        cpu_test("cpu::plans_check_shapes", plans_check_shapes),
        cpu_test("cpu::plans_split_k", plans_split_k),
        cpu_test("cpu::plans_wgmma_versions", plans_wgmma_versions),
        cpu_test("cpu::plans_v17_blocks", plans_v17_blocks),
        cpu_test("cpu::device_unpacking_is_exact", device_unpacking_is_exact),
        cpu_test("cpu::tile_order_visits_every_tile_once", tile_order_visits_every_tile_once),
        gpu_test("gpu::matches_reference_every_group_mode_and_batch", matches_reference_every_group_mode_and_batch),
        gpu_test("gpu::every_width_and_large_k", every_width_and_large_k),
        gpu_test("gpu::producers_read_constant_windows", producers_read_constant_windows),
        gpu_test("gpu::tensor_core_versions_every_block_size", tensor_core_versions_every_block_size),
        gpu_test("gpu::v17_every_block_shape", v17_every_block_shape),
        gpu_test("gpu::gemm_tiles_ragged", gemm_tiles_ragged),
        gpu_test("gpu::sixteen_row_tile_ragged", sixteen_row_tile_ragged),
        gpu_test("gpu::thirty_two_row_tile_ragged", thirty_two_row_tile_ragged),
        gpu_test("gpu::sixty_four_row_tile_ragged", sixty_four_row_tile_ragged),
        gpu_test("gpu::hundred_twenty_eight_row_tile_ragged", hundred_twenty_eight_row_tile_ragged),
        gpu_test(
            "gpu::unclustered_hundred_twenty_eight_row_tile_ragged",
            unclustered_hundred_twenty_eight_row_tile_ragged,
        ),
        gpu_test("gpu::split_k_ragged", split_k_ragged),
        gpu_test("gpu::tiled_gemms_many_tile_groups", tiled_gemms_many_tile_groups),
        gpu_test("gpu::tiled_gemms_misaligned_outputs", tiled_gemms_misaligned_outputs),
        capturing_gpu_test("gpu::split_k_workspace_in_graphs_and_streams", split_k_workspace_in_graphs_and_streams),
        capturing_gpu_test("gpu::split_k_with_callers_workspace", split_k_with_callers_workspace),
        capturing_gpu_test("gpu::programmatic_launches_chain_layers", programmatic_launches_chain_layers),
        gpu_test("gpu::empty_k_gives_bias", empty_k_gives_bias),
        gpu_test("gpu::rejects_bad_input_without_writing", rejects_bad_input_without_writing),
        gpu_test("gpu::huge_past_2_31_activations", huge_past_2_31_activations),
        gpu_test("gpu::huge_tiled_gemms_past_grid_y", huge_tiled_gemms_past_grid_y),
        gpu_test("gpu::huge_constant_windows_past_grid_y", huge_constant_windows_past_grid_y),
    ]);
}
