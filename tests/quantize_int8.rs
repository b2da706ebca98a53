//! `quantize_int8`: parameter checks and the device math against the
//! reference (CI), and the kernels bit for bit against the reference (GPU).

mod common;

#[path = "../kernels-gpu/src/math.rs"]
#[allow(dead_code)]
mod device_math;

use common::*;
use quant_kernels::check::Rng;
use quant_kernels::launch::DeviceInfo;
use quant_kernels::quantize_int8::{self, check_row_params};
use quant_kernels::{Error, Int8Params, Kernels, reference};

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

/// `n` inputs: normal values spread over the int8 range of the parameters
/// in use, with edge values at random places.
fn inputs(rng: &mut Rng, n: usize, scale: f32) -> Vec<f32> {
    (0..n)
        .map(|_| match rng.below(16) {
            0 => EDGE_VALUES[rng.below(EDGE_VALUES.len())],
            1 => rng.uniform(-1e3, 1e3),
            _ => rng.normal() * 50.0 * scale,
        })
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
    expect_error(
        quantize_int8::plan(5, 4, &DEVICE),
        Error::LengthMismatch { argument: "out", expected: 5, actual: 4 },
    )?;
    ensure(quantize_int8::plan(0, 0, &DEVICE) == Ok(None), || "empty input must launch nothing".into())?;
    expect_error(
        quantize_int8::plan_rows(3, 4, 11, 12, &DEVICE),
        Error::LengthMismatch { argument: "x", expected: 12, actual: 11 },
    )?;
    ensure(matches!(quantize_int8::plan_rows(usize::MAX, 2, 0, 0, &DEVICE), Err(Error::TooLarge { .. })), || {
        "rows * cols overflow accepted".into()
    })?;
    ensure(quantize_int8::plan_rows(0, 7, 0, 0, &DEVICE) == Ok(None), || "no rows must launch nothing".into())?;
    let launch = quantize_int8::plan_rows(100_000, 64, 6_400_000, 6_400_000, &DEVICE)?.expect("a launch");
    ensure(launch.config.grid[0] == 132 * 8, || format!("grid {:?}", launch.config.grid))
}

/// Quantizes `x` (through sub-slices at `offsets`) twice, into outputs
/// poisoned with two different bytes, and requires both to equal the
/// reference: an element the kernel did not write keeps its poison, which
/// cannot match in both runs.
fn run_and_check(kernels: &Kernels, x: &[f32], params: Int8Params, offsets: [usize; 2]) -> TestResult {
    let n = x.len();
    let expected = reference::quantize_int8(x, params);
    let dx = kernels.upload(&[vec![0.0; offsets[0]], x.to_vec()].concat())?;
    for poison in [0x55, 0xAA] {
        let out = poisoned_i8(kernels, n + offsets[1] + 4, poison);
        kernels.quantize_int8(
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
                wrong.iter().map(|&i| format!("x[{i}]={:e}: got {} want {}", x[i], got[i], expected[i])).collect();
            format!("n={n} scale={} zp={}: {}", params.scale(), params.zero_point(), detail.join("; "))
        })?;
    }
    Ok(())
}

fn matches_reference_bitwise(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    for n in RAGGED_SIZES {
        let (scale, zero_point) = PARAMS[rng.below(PARAMS.len())];
        run_and_check(kernels, &inputs(rng, n, scale), Int8Params::new(scale, zero_point)?, [0, 0])?;
    }
    for (scale, zero_point) in PARAMS {
        run_and_check(kernels, &inputs(rng, 100_003, scale), Int8Params::new(scale, zero_point)?, [0, 0])?;
    }
    Ok(())
}

fn every_f32_class_and_tie(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    // Every 4099th bit pattern: NaNs with payloads, subnormals, huge values.
    let x: Vec<f32> = (0..=u32::MAX).step_by(4099 + rng.below(16)).map(f32::from_bits).collect();
    run_and_check(kernels, &x, Int8Params::new(0.05, -1.5)?, [0, 0])?;
    // All exact ties (k + 0.5) / 4 over the whole int8 range and beyond.
    let ties: Vec<f32> = (-140..140).map(|k| (k as f32 + 0.5) / 4.0).collect();
    run_and_check(kernels, &ties, Int8Params::new(0.25, 0.0)?, [0, 0])
}

fn misaligned_slices(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    for offsets in [[1, 0], [0, 1], [2, 3], [4, 4], [0, 4]] {
        let n = 1000 + rng.below(100);
        run_and_check(kernels, &inputs(rng, n, 0.05), Int8Params::new(0.05, 2.0)?, offsets)?;
    }
    Ok(())
}

fn per_row_matches_reference(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    for (rows, cols) in [(1, 1), (3, 31), (33, 1023), (7, 1025), (1000, 3), (2, 65_537), (1500, 1)] {
        let scales: Vec<f32> = (0..rows).map(|_| PARAMS[rng.below(PARAMS.len())].0).collect();
        let zero_points: Vec<f32> = (0..rows).map(|_| rng.uniform(-20.0, 20.0)).collect();
        let x: Vec<f32> = (0..rows).flat_map(|r| inputs(rng, cols, scales[r])).collect();
        let expected = reference::quantize_int8_rows(&x, cols, &scales, &zero_points)?;
        let params = kernels.upload_row_params(&scales, &zero_points)?;
        let dx = kernels.upload(&x)?;
        for poison in [0x55, 0xAA] {
            let mut out = poisoned_i8(kernels, rows * cols, poison);
            kernels.quantize_int8_rows(&dx, cols, &params, &mut out, kernels.stream())?;
            let got = download(kernels, &out);
            let wrong = first_failures(got.len(), 3, |i| got[i] == expected[i]);
            ensure(wrong.is_empty(), || format!("{rows}x{cols}: wrong at {wrong:?}"))?;
        }
    }
    Ok(())
}

fn rejects_bad_input_without_writing(kernels: &Kernels, _: &mut Rng) -> TestResult {
    let x = kernels.upload(&[1.0f32; 12])?;
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
/// add_mul_exp's test of the same name).
fn huge_past_2_31_elements(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    const PERIOD: usize = 1_000_003;
    let n = (1usize << 31) + 1027;
    let params = Int8Params::new(0.05, -1.5)?;
    let pattern = inputs(rng, PERIOD, 0.05);
    let expected = reference::quantize_int8(&pattern, params);
    let x = repeated(kernels, &pattern, n);
    let mut out = poisoned_i8(kernels, n, 0x55);
    kernels.quantize_int8(&x, params, &mut out, kernels.stream())?;
    check_in_chunks(kernels, &out, |i, &got| got == expected[i % PERIOD])
}

fn main() {
    run(vec![
        cpu_test("cpu::reference_follows_the_definition", reference_follows_the_definition),
        cpu_test("cpu::device_math_matches_reference_bitwise", device_math_matches_reference_bitwise),
        cpu_test("cpu::rejects_bad_parameters", rejects_bad_parameters),
        cpu_test("cpu::plans_check_shapes", plans_check_shapes),
        gpu_test("gpu::matches_reference_bitwise", matches_reference_bitwise),
        gpu_test("gpu::every_f32_class_and_tie", every_f32_class_and_tie),
        gpu_test("gpu::misaligned_slices", misaligned_slices),
        gpu_test("gpu::per_row_matches_reference", per_row_matches_reference),
        gpu_test("gpu::rejects_bad_input_without_writing", rejects_bad_input_without_writing),
        gpu_test("gpu::huge_past_2_31_elements", huge_past_2_31_elements),
    ]);
}
