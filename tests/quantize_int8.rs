//! `quantize_int8`: parameter checks, plans and the device math against the
//! reference for every input type (CI), and the kernels of every version
//! and input type bit for bit against the reference (GPU).

mod common;

#[path = "../kernels-gpu/src/math.rs"]
#[allow(dead_code)]
mod device_math;

use common::*;
use quant_kernels::check::Rng;
use quant_kernels::half::{bf16, f16};
use quant_kernels::launch::DeviceInfo;
use quant_kernels::quantize_int8::{self, check_row_params};
use quant_kernels::{ElementwiseLaunch, ElementwiseVersion, Error, Float, Int8Params, Kernels, reference};

const DEVICE: DeviceInfo = DeviceInfo { compute_capability: (9, 0), multiprocessors: 132 };

/// (scale, zero point) pairs: ordinary, tiny and huge scales, a subnormal
/// scale, a zero point far outside the int8 range, and one that puts many
/// inputs on exact ties.
const PARAMS: [(f32, f32); 7] =
    [(0.05, -1.5), (1.0, 0.0), (0.25, 0.5), (1e-30, 3.0), (1e30, 0.0), (1e-40, 0.0), (3.7, 1e6)];

/// Inputs that hit the special cases: NaN, infinities, zeros, subnormals,
/// values that saturate, and exact ties of `x / scale + zp` for scale 0.25.
const EDGE_VALUES: [f32; 18] = [
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    0.0,
    -0.0,
    1e-45,
    -1e-45,
    f32::MIN_POSITIVE,
    f32::MAX,
    -f32::MAX,
    0.125,   // 0.5 at scale 0.25: tie -> 0 (even)
    0.375,   // 1.5 -> 2
    -0.625,  // -2.5 -> -2
    31.875,  // 127.5 -> 127 after the tie rounds to 128 and clamps
    -32.125, // -128.5 -> -128
    6.35,
    -6.45,
    1e20,
];

/// `n` inputs of type `T`: normal values spread over the int8 range of the
/// parameters in use, with edge values at random places (all rounded to `T`).
fn inputs<T: Float>(rng: &mut Rng, n: usize, scale: f32) -> Vec<T> {
    (0..n)
        .map(|_| match rng.below(16) {
            0 => EDGE_VALUES[rng.below(EDGE_VALUES.len())],
            1 => rng.uniform(-1e3, 1e3),
            _ => rng.normal() * 50.0 * scale,
        })
        .map(T::from_f32)
        .collect()
}

fn reference_follows_the_definition(_: &mut Rng) -> TestResult {
    let params = Int8Params::new(0.25, 0.0)?;
    let got = reference::quantize_int8(&EDGE_VALUES, params);
    let expected: [i8; 18] = [0, 127, -128, 0, 0, 0, 0, 0, 127, -128, 0, 2, -2, 127, -128, 25, -26, 127];
    ensure(got == expected, || format!("got {got:?}"))
}

fn device_math_matches_reference_bitwise(rng: &mut Rng) -> TestResult {
    // Every 251st f32 bit pattern (all classes of value) for each parameter pair.
    for (scale, zero_point) in PARAMS {
        let params = Int8Params::new(scale, zero_point)?;
        let x: Vec<f32> = (0..=u32::MAX).step_by(251 + rng.below(8)).map(f32::from_bits).collect();
        let expected = reference::quantize_int8(&x, params);
        let wrong = first_failures(x.len(), 3, |i| device_math::quantize_int8(x[i], scale, zero_point) == expected[i]);
        ensure(wrong.is_empty(), || {
            format!(
                "scale {scale} zp {zero_point}: differs at x = {:?}",
                wrong.iter().map(|&i| x[i]).collect::<Vec<_>>()
            )
        })?;
    }
    Ok(())
}

/// Every f16 and every bf16 bit pattern, widened, for each parameter pair:
/// the kernels' arithmetic equals the reference bit for bit.
fn device_math_matches_reference_on_every_half_pattern(_: &mut Rng) -> TestResult {
    fn for_type<T: TestFloat>() -> TestResult {
        let x = every_16_bit_pattern::<T>();
        for (scale, zero_point) in PARAMS {
            let expected = reference::quantize_int8(&x, Int8Params::new(scale, zero_point)?);
            let wrong = first_failures(x.len(), 3, |i| {
                device_math::quantize_int8(x[i].to_f32(), scale, zero_point) == expected[i]
            });
            ensure(wrong.is_empty(), || {
                let at: Vec<T> = wrong.iter().map(|&i| x[i]).collect();
                format!("{} scale {scale} zp {zero_point}: differs at x = {at:?}", T::NAME)
            })?;
        }
        Ok(())
    }
    for_type::<f16>()?;
    for_type::<bf16>()
}

fn rejects_bad_parameters(_: &mut Rng) -> TestResult {
    for scale in [0.0, -0.0, -1.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        ensure(matches!(Int8Params::new(scale, 0.0), Err(Error::InvalidScale { row: None, .. })), || {
            format!("scale {scale} accepted")
        })?;
    }
    for zero_point in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        ensure(matches!(Int8Params::new(1.0, zero_point), Err(Error::InvalidZeroPoint { row: None, .. })), || {
            format!("zero point {zero_point} accepted")
        })?;
    }
    expect_error(check_row_params(&[1.0, 2.0, 0.0], &[0.0; 3]), Error::InvalidScale { row: Some(2), scale: 0.0 })?;
    ensure(
        matches!(check_row_params(&[1.0, 2.0], &[0.0, f32::NAN]), Err(Error::InvalidZeroPoint { row: Some(1), .. })),
        || "NaN zero point of row 1 accepted".into(),
    )?;
    expect_error(
        check_row_params(&[1.0; 3], &[0.0; 2]),
        Error::LengthMismatch { argument: "zero_points", expected: 3, actual: 2 },
    )
}

fn plans_check_shapes(_: &mut Rng) -> TestResult {
    fn for_type<T: Float>() -> TestResult {
        let launch = ElementwiseLaunch::default();
        expect_error(
            quantize_int8::plan::<T>(5, 4, launch, &DEVICE),
            Error::LengthMismatch { argument: "out", expected: 5, actual: 4 },
        )?;
        ensure(quantize_int8::plan::<T>(0, 0, launch, &DEVICE) == Ok(None), || {
            "empty input must launch nothing".into()
        })?;
        expect_error(
            quantize_int8::plan_rows::<T>(3, 4, 11, 12, launch, &DEVICE),
            Error::LengthMismatch { argument: "x", expected: 12, actual: 11 },
        )?;
        ensure(
            matches!(quantize_int8::plan_rows::<T>(usize::MAX, 2, 0, 0, launch, &DEVICE), Err(Error::TooLarge { .. })),
            || "rows * cols overflow accepted".into(),
        )?;
        ensure(quantize_int8::plan_rows::<T>(0, 7, 0, 0, launch, &DEVICE) == Ok(None), || {
            "no rows must launch nothing".into()
        })?;
        for threads in [128, 256, 512, 1024] {
            for version in ElementwiseVersion::ALL {
                let launch = ElementwiseLaunch::new(version, threads)?;
                let (n, rows) = (50_000_000, 100_000);
                let tensor = quantize_int8::plan::<T>(n, n, launch, &DEVICE)?.expect("a launch");
                let per_row = quantize_int8::plan_rows::<T>(rows, 64, rows * 64, rows * 64, launch, &DEVICE)?;
                let per_row = per_row.expect("a launch");
                let (tensor_grid, row_grid) = match version {
                    // One device-full.
                    ElementwiseVersion::V1 => (132 * 2048 / threads as usize, 132 * 2048 / threads as usize),
                    // One pass: 16 elements a thread; a block a row.
                    ElementwiseVersion::V2 => (n.div_ceil(16 * threads as usize), rows),
                };
                let got = [
                    (tensor.kernel, tensor.config.grid, tensor.config.block),
                    (per_row.kernel, per_row.config.grid, per_row.config.block),
                ];
                let expected = [
                    (quantize_int8::KERNELS.name::<T>(version), [tensor_grid as u32, 1, 1], [threads, 1, 1]),
                    (quantize_int8::ROWS_KERNELS.name::<T>(version), [row_grid as u32, 1, 1], [threads, 1, 1]),
                ];
                ensure(got == expected, || {
                    format!("{} {version:?}/{threads}: {got:?}, expected {expected:?}", T::NAME)
                })?;
            }
        }
        Ok(())
    }
    for_type::<f32>()?;
    for_type::<f16>()?;
    for_type::<bf16>()
}

/// Quantizes `x` (through sub-slices at `offsets`) twice with `launch`,
/// into outputs poisoned with two different bytes, and requires both to
/// equal the reference: an element the kernel did not write keeps its
/// poison, which cannot match in both runs.
fn run_and_check<T: TestFloat>(
    kernels: &Kernels,
    launch: ElementwiseLaunch,
    x: &[T],
    params: Int8Params,
    offsets: [usize; 2],
) -> TestResult {
    let n = x.len();
    let expected = reference::quantize_int8(x, params);
    let dx = kernels.upload(&[vec![T::from_f32(0.0); offsets[0]], x.to_vec()].concat())?;
    for poison in [0x55, 0xAA] {
        let out = poisoned_i8(kernels, n + offsets[1] + 8, poison);
        kernels.quantize_int8_with(
            launch,
            &dx.index(offsets[0]..),
            params,
            &mut out.index(offsets[1]..offsets[1] + n),
            kernels.stream(),
        )?;
        let got = download(kernels, &out);
        let outside = (0..offsets[1]).chain(offsets[1] + n..got.len());
        ensure(outside.into_iter().all(|i| got[i] as u8 == poison), || "wrote outside `out`".into())?;
        let got = &got[offsets[1]..offsets[1] + n];
        let wrong = first_failures(n, 5, |i| got[i] == expected[i]);
        ensure(wrong.is_empty(), || {
            let detail: Vec<String> =
                wrong.iter().map(|&i| format!("x[{i}]={:?}: got {} want {}", x[i], got[i], expected[i])).collect();
            let (name, scale, zp) = (T::NAME, params.scale(), params.zero_point());
            format!("{name} {launch:?} n={n} offsets={offsets:?} scale={scale} zp={zp}: {}", detail.join("; "))
        })?;
    }
    Ok(())
}

fn matches_reference_bitwise<T: TestFloat>(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    for launch in elementwise_launches() {
        for n in RAGGED_SIZES {
            let (scale, zero_point) = PARAMS[rng.below(PARAMS.len())];
            run_and_check(kernels, launch, &inputs::<T>(rng, n, scale), Int8Params::new(scale, zero_point)?, [0, 0])?;
        }
        for (scale, zero_point) in PARAMS {
            let x = inputs::<T>(rng, 100_003, scale);
            run_and_check(kernels, launch, &x, Int8Params::new(scale, zero_point)?, [0, 0])?;
        }
    }
    Ok(())
}

/// Every bit pattern of a 16-bit input type, for every parameter pair and launch.
fn every_bit_pattern<T: TestFloat>(kernels: &Kernels, _: &mut Rng) -> TestResult {
    let x = every_16_bit_pattern::<T>();
    for launch in elementwise_launches() {
        for (scale, zero_point) in PARAMS {
            run_and_check(kernels, launch, &x, Int8Params::new(scale, zero_point)?, [0, 0])?;
        }
    }
    Ok(())
}

fn every_f32_class_and_tie(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    // Every 4099th bit pattern: NaNs with payloads, subnormals, huge values.
    let x: Vec<f32> = (0..=u32::MAX).step_by(4099 + rng.below(16)).map(f32::from_bits).collect();
    // All exact ties (k + 0.5) / 4 over the whole int8 range and beyond.
    let ties: Vec<f32> = (-140..140).map(|k| (k as f32 + 0.5) / 4.0).collect();
    for launch in elementwise_launches() {
        run_and_check(kernels, launch, &x, Int8Params::new(0.05, -1.5)?, [0, 0])?;
        run_and_check(kernels, launch, &ties, Int8Params::new(0.25, 0.0)?, [0, 0])?;
    }
    Ok(())
}

/// Slices at element offsets that misalign them: `x` and `out` by the same
/// amount (v2 keeps its vector path after a scalar head) or differently.
fn misaligned_slices<T: TestFloat>(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    for launch in elementwise_launches() {
        for offsets in [[1, 1], [3, 3], [7, 7], [1, 0], [0, 1], [2, 3], [4, 4], [0, 4], [8, 8]] {
            for n in [1, 6, 1000 + rng.below(100), 70_001] {
                let x = inputs::<T>(rng, n, 0.05);
                run_and_check(kernels, launch, &x, Int8Params::new(0.05, 2.0)?, offsets)?;
            }
        }
    }
    Ok(())
}

/// Rows of every length class: shorter than a vector, not a multiple of
/// one (so rows after the first start misaligned), many short rows, and
/// rows longer than a block's tile.
fn per_row_matches_reference<T: TestFloat>(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    for (rows, cols) in [(1, 1), (3, 31), (33, 1023), (7, 1025), (1000, 3), (2, 65_537), (1500, 1), (40, 4100)] {
        let scales: Vec<f32> = (0..rows).map(|_| PARAMS[rng.below(PARAMS.len())].0).collect();
        let zero_points: Vec<f32> = (0..rows).map(|_| rng.uniform(-20.0, 20.0)).collect();
        let x: Vec<T> = (0..rows).flat_map(|r| inputs::<T>(rng, cols, scales[r])).collect();
        let expected = reference::quantize_int8_rows(&x, cols, &scales, &zero_points)?;
        let params = kernels.upload_row_params(&scales, &zero_points)?;
        let dx = kernels.upload(&x)?;
        for launch in elementwise_launches() {
            for poison in [0x55, 0xAA] {
                let mut out = poisoned_i8(kernels, rows * cols, poison);
                kernels.quantize_int8_rows_with(launch, &dx, cols, &params, &mut out, kernels.stream())?;
                let got = download(kernels, &out);
                let wrong = first_failures(got.len(), 3, |i| got[i] == expected[i]);
                ensure(wrong.is_empty(), || format!("{} {launch:?} {rows}x{cols}: wrong at {wrong:?}", T::NAME))?;
            }
        }
    }
    Ok(())
}

fn rejects_bad_input_without_writing<T: TestFloat>(kernels: &Kernels, _: &mut Rng) -> TestResult {
    let x = kernels.upload(&[T::from_f32(1.0); 12])?;
    let mut out = poisoned_i8(kernels, 11, 0x55);
    let params = Int8Params::new(1.0, 0.0)?;
    expect_error(
        kernels.quantize_int8(&x, params, &mut out, kernels.stream()),
        Error::LengthMismatch { argument: "out", expected: 12, actual: 11 },
    )?;
    ensure(
        matches!(kernels.upload_row_params(&[1.0, -1.0], &[0.0, 0.0]), Err(Error::InvalidScale { row: Some(1), .. })),
        || "negative row scale accepted".into(),
    )?;
    let rows = kernels.upload_row_params(&[1.0; 3], &[0.0; 3])?;
    expect_error(
        kernels.quantize_int8_rows(&x, 5, &rows, &mut out, kernels.stream()),
        Error::LengthMismatch { argument: "x", expected: 15, actual: 12 },
    )?;
    ensure(download(kernels, &out).iter().all(|&v| v as u8 == 0x55), || "output written on error".into())
}

/// Past 2^31 elements, input repeating a pattern of prime length (see
/// add_mul_exp's test of the same name). Both versions.
fn huge_past_2_31_elements(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    const PERIOD: usize = 1_000_003;
    let n = (1usize << 31) + 1027;
    let params = Int8Params::new(0.05, -1.5)?;
    let pattern = inputs::<f32>(rng, PERIOD, 0.05);
    let expected = reference::quantize_int8(&pattern, params);
    let x = repeated(kernels, &pattern, n);
    for_each_version(|launch| {
        let mut out = poisoned_i8(kernels, n, 0x55);
        kernels.quantize_int8_with(launch, &x, params, &mut out, kernels.stream())?;
        check_in_chunks(kernels, &out, |i, &got| got == expected[i % PERIOD])
    })
}

/// The GPU tests for one input type.
fn gpu_tests<T: TestFloat>() -> Vec<libtest_mimic::Trial> {
    typed_gpu_tests::<T>(
        &[
            ("matches_reference_bitwise", matches_reference_bitwise::<T>),
            ("misaligned_slices", misaligned_slices::<T>),
            ("per_row_matches_reference", per_row_matches_reference::<T>),
            ("rejects_bad_input_without_writing", rejects_bad_input_without_writing::<T>),
        ],
        &[("every_bit_pattern", every_bit_pattern::<T>)],
    )
}

fn main() {
    let mut trials = vec![
        cpu_test("cpu::reference_follows_the_definition", reference_follows_the_definition),
        cpu_test("cpu::f32::device_math_matches_reference_bitwise", device_math_matches_reference_bitwise),
        cpu_test(
            "cpu::half::device_math_matches_reference_on_every_pattern",
            device_math_matches_reference_on_every_half_pattern,
        ),
        cpu_test("cpu::rejects_bad_parameters", rejects_bad_parameters),
        cpu_test("cpu::plans_check_shapes", plans_check_shapes),
        gpu_test("gpu::f32::every_f32_class_and_tie", every_f32_class_and_tie),
        gpu_test("gpu::f32::huge_past_2_31_elements", huge_past_2_31_elements),
    ];
    trials.extend(gpu_tests::<f32>());
    trials.extend(gpu_tests::<f16>());
    trials.extend(gpu_tests::<bf16>());
    run(trials)
}
