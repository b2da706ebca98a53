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

/// The kernels' vector path (`Int8Quantizer::quantize_all`, one test for
/// the fast division of 4 or 8 inputs) gives each input the code that the
/// one-input path gives it, in vectors that take the fast path and in
/// vectors where one edge value sends all of them the slow way.
fn vector_path_matches_one_input_path(rng: &mut Rng) -> TestResult {
    for (scale, zero_point) in PARAMS {
        let quantizer = device_math::Int8Quantizer::new(scale, zero_point);
        for lanes in [4, 8] {
            for _ in 0..20_000 {
                let x: Vec<f32> = inputs::<f32>(rng, lanes, scale);
                let mut codes = vec![0i8; lanes];
                quantizer.quantize_all(&x, &mut codes);
                let expected: Vec<i8> = x.iter().map(|&x| quantizer.quantize(x)).collect();
                ensure(codes == expected, || {
                    format!("scale {scale} zp {zero_point}: x {x:?} gave {codes:?}, one at a time {expected:?}")
                })?;
            }
        }
    }
    Ok(())
}

/// The definition with true division, written here independently of the
/// library's reference and of the kernels' math.
fn by_definition(x: f32, scale: f32, zero_point: f32) -> i8 {
    let shifted = x / scale + zero_point;
    if shifted.is_nan() { 0 } else { shifted.round_ties_even().clamp(-128.0, 127.0) as i8 }
}

/// Scales for the fast division's tests: ordinary and random ones, powers of
/// two, the ends of the fast range and their neighbours, near-overflow,
/// subnormal, negative, zero, infinite and NaN (the kernels' math takes any
/// f32, even those the host refuses).
fn division_scales(rng: &mut Rng) -> Vec<f32> {
    let (low, high) = device_math::FAST_SCALE_RANGE;
    let next = |v: f32, up: bool| f32::from_bits(if up { v.to_bits() + 1 } else { v.to_bits() - 1 });
    let mut scales = vec![
        0.05,
        3.7,
        0.1,
        1.0 / 3.0,
        1.0,
        2.0,
        0.5,
        0.25,
        1024.0,
        2f32.powi(-20),
        low,
        high,
        next(low, false),
        next(low, true),
        next(high, false),
        next(high, true),
        1e-30,
        1e30,
        3e38,
        f32::MAX,
        f32::MIN_POSITIVE,
        1e-40,
        1e-45,
        -0.05,
        -3.7,
        -1.0,
        -high,
        0.0,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        f32::from_bits(0x3FFF_FFFF),
        f32::from_bits(0x3F80_0001), // significands all ones, and 1 + ulp
    ];
    scales.extend((0..12).map(|_| rng.uniform(1e-4, 1e2) * if rng.below(2) == 0 { 1.0 } else { -1.0 }));
    scales.extend((0..4).map(|_| f32::from_bits((rng.next_u64() as u32) & 0x7FFF_FFFF)));
    scales
}

/// Zero points: zero, ties, outside int8, huge, tiny, and random.
fn division_zero_points(rng: &mut Rng) -> Vec<f32> {
    let mut zero_points = vec![0.0, -0.0, -1.5, 0.5, 127.5, -128.5, 1e6, -1e30, 1e-40, 0.25];
    zero_points.extend((0..2).map(|_| rng.uniform(-200.0, 200.0)));
    zero_points
}

fn check_quantizer(x: impl Iterator<Item = f32> + Clone, scale: f32, zero_point: f32) -> TestResult {
    let quantizer = device_math::Int8Quantizer::new(scale, zero_point);
    let wrong: Vec<f32> = x.filter(|&x| quantizer.quantize(x) != by_definition(x, scale, zero_point)).take(3).collect();
    ensure(wrong.is_empty(), || format!("scale {scale:e} zp {zero_point:e}: differs at x = {wrong:?}"))
}

/// Every f16 and bf16 bit pattern, for every scale and zero point above:
/// the kernels' division and rounding against true division.
fn fast_division_on_every_half_pattern(rng: &mut Rng) -> TestResult {
    let halves: Vec<f32> =
        (0..=u16::MAX).flat_map(|bits| [f16::from_bits(bits).to_f32(), bf16::from_bits(bits).to_f32()]).collect();
    let (scales, zero_points) = (division_scales(rng), division_zero_points(rng));
    // Scales that put the halves near the int8 range, so ties are hit.
    let scales = scales.into_iter().chain([1.0 / 64.0, 1e-3, 512.0]);
    for scale in scales {
        for &zero_point in &zero_points {
            check_quantizer(halves.iter().copied(), scale, zero_point)?;
        }
    }
    Ok(())
}

/// Random f32 bit patterns (every class: NaN, inf, subnormal, huge), f32
/// edge values, and inputs near the int8 range and its ties, for random
/// scale and zero point pairs: 32M inputs.
fn fast_division_on_random_f32(rng: &mut Rng) -> TestResult {
    let (scales, zero_points) = (division_scales(rng), division_zero_points(rng));
    let edges = [EDGE_VALUES.as_slice(), &[device_math::FAST_INPUT_MAX, 2f32.powi(-100), 1e-45, -3e38]].concat();
    for _ in 0..256 {
        let (scale, zero_point) = (scales[rng.below(scales.len())], zero_points[rng.below(zero_points.len())]);
        let x: Vec<f32> = (0..125_000)
            .map(|i| match i % 4 {
                0 => f32::from_bits(rng.next_u64() as u32),
                1 => edges[rng.below(edges.len())] * if rng.below(2) == 0 { 1.0 } else { -1.0 },
                // Near ties of x / scale + zero_point.
                2 => ((rng.below(400) as f32 - 200.0) / 2.0 - zero_point) * scale,
                _ => rng.normal() * 100.0 * scale.abs(),
            })
            .collect();
        check_quantizer(x.iter().copied(), scale, zero_point)?;
        let next = |v: f32, k: u32| f32::from_bits(v.to_bits().wrapping_add(k));
        check_quantizer(x.iter().flat_map(|&v| [next(v, 1), next(v, u32::MAX)]), scale, zero_point)?;
    }
    Ok(())
}

/// The division itself is correctly rounded on the fast path: every
/// significand of `x` in one binade, for random scales (the result only
/// shifts with x's exponent while nothing overflows or underflows), plus
/// the scales whose significand is all ones or 1 + ulp.
fn fast_division_is_correctly_rounded(rng: &mut Rng) -> TestResult {
    let mut scales: Vec<f32> =
        (0..6).map(|_| f32::from_bits(0x3F80_0000 | ((rng.next_u64() as u32) & 0x7F_FFFF))).collect();
    scales.extend([f32::from_bits(0x3FFF_FFFF), f32::from_bits(0x3F80_0001), 1.0]);
    for scale in scales {
        let quantizer = device_math::Int8Quantizer::new(scale, 0.0);
        let x = (0..1u32 << 23).map(|m| f32::from_bits(0x3F80_0000 | m));
        let wrong: Vec<f32> = x.filter(|&x| quantizer.quotient(x).to_bits() != (x / scale).to_bits()).take(3).collect();
        ensure(wrong.is_empty(), || format!("scale {scale:e}: x / scale wrong at x = {wrong:?}"))?;
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
                let lanes = 16 / size_of::<T>();
                let (tensor_grid, row_grid) = match version {
                    // One device-full.
                    ElementwiseVersion::V1 => (132 * 2048 / threads, [132 * 2048 / threads, 1]),
                    // One pass: 4 vectors a thread; a block a row.
                    ElementwiseVersion::V2 => (n.div_ceil(4 * lanes * threads as usize) as u32, [rows as u32, 1]),
                    // One pass, a vector a thread; per row, the row's vectors (and a
                    // head) along x, as many rows as gridDim.y takes along y.
                    ElementwiseVersion::V3 => {
                        let along_row = (64 / lanes + 1).div_ceil(threads as usize) as u32;
                        (n.div_ceil(lanes * threads as usize) as u32, [along_row, 65_535])
                    }
                };
                let got = [
                    (tensor.kernel, tensor.config.grid, tensor.config.block),
                    (per_row.kernel, per_row.config.grid, per_row.config.block),
                ];
                let expected = [
                    (quantize_int8::KERNELS.name::<T>(version), [tensor_grid, 1, 1], [threads, 1, 1]),
                    (quantize_int8::ROWS_KERNELS.name::<T>(version), [row_grid[0], row_grid[1], 1], [threads, 1, 1]),
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
                match kernels.quantize_int8_rows_with(launch, &dx, cols, &params, &mut out, kernels.stream()) {
                    // A kernel whose registers do not allow the block (the
                    // per-row v2/v3 kernels past 64 registers at 1024
                    // threads): refused before launching, nothing written.
                    Err(Error::InvalidBlockThreads { threads, max })
                        if threads == launch.block_threads() && max < threads =>
                    {
                        let untouched = download(kernels, &out).iter().all(|&v| v as u8 == poison);
                        ensure(untouched, || format!("{launch:?}: refused, yet output written"))?;
                        continue;
                    }
                    result => result?,
                }
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
/// add_mul_exp's test of the same name). Every version.
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
        cpu_test("cpu::fast_division_on_every_half_pattern", fast_division_on_every_half_pattern),
        cpu_test("cpu::fast_division_on_random_f32", fast_division_on_random_f32),
        cpu_test("cpu::fast_division_is_correctly_rounded", fast_division_is_correctly_rounded),
        cpu_test("cpu::vector_path_matches_one_input_path", vector_path_matches_one_input_path),
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
