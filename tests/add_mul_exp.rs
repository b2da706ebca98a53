//! `add_mul_exp`: the device math run on the CPU against the f64 reference
//! (CI), and the kernel against both on the GPU.

mod common;

// The kernels' own math, compiled for the CPU: its error bound is checked
// here without a GPU, and the GPU must return the very same bits (any NaN
// for NaN).
#[path = "../kernels-gpu/src/math.rs"]
#[allow(dead_code)]
mod device_math;

use common::*;
use quant_kernels::check::{Rng, relative_error};
use quant_kernels::launch::DeviceInfo;
use quant_kernels::{Error, Kernels, add_mul_exp, reference};

/// The bound for normal results.
const REQUIRED_BOUND: f64 = 1e-5;
/// The bound the device math documents (kernels-gpu/src/math.rs).
const DOCUMENTED_BOUND: f64 = 2.5e-7;

/// Values where exp((x + y) * 2) is special or changes regime.
const EDGE_VALUES: [f32; 20] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    1e-8,
    -1e-30,
    f32::MIN_POSITIVE,
    1e-45, // the smallest subnormal
    44.0,
    44.361_4, // 2x is near ln(f32::MAX) = 88.7228
    44.4,
    -43.6, // results near the smallest normal
    -51.9, // results near the smallest subnormal
    -60.0,
    f32::MAX,
    -f32::MAX,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
];

/// Checks one result against the exact value: NaN for NaN, +inf past
/// overflow, `bound` relative error for normal results (either bound or +inf
/// within `bound` of `f32::MAX`), and one subnormal step for results below
/// the normal range.
fn check(x: f32, y: f32, got: f32, bound: f64) -> Result<(), String> {
    let exact = reference::add_mul_exp_exact(x, y);
    let max = f32::MAX as f64;
    let ok = if exact.is_nan() {
        got.is_nan()
    } else if exact > max * (1.0 + bound) {
        got == f32::INFINITY
    } else if exact >= max * (1.0 - bound) {
        got == f32::INFINITY || relative_error(got, exact) <= bound
    } else if exact >= f32::MIN_POSITIVE as f64 {
        relative_error(got, exact) <= bound
    } else {
        (got as f64 - exact).abs() <= f64::from(f32::from_bits(1)) + bound * exact
    };
    if ok { Ok(()) } else { Err(format!("x={x:e} y={y:e}: got {got:e}, exact {exact:e}")) }
}

/// The same result: identical bits, or NaN for NaN (the GPU returns the
/// canonical NaN, the CPU passes an input NaN's payload through).
fn same(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

/// `n` inputs: mostly uniform in [-30, 30] (so 2(x + y) spans underflow to
/// overflow), some normal, and edge values at random places.
fn inputs(rng: &mut Rng, n: usize) -> Vec<f32> {
    (0..n)
        .map(|_| match rng.below(10) {
            0 => EDGE_VALUES[rng.below(EDGE_VALUES.len())],
            1..=3 => rng.normal(),
            _ => rng.uniform(-30.0, 30.0),
        })
        .collect()
}

fn device_math_meets_documented_bound(rng: &mut Rng) -> TestResult {
    // x over every 97th f32 bit pattern (all exponents, both signs), y a
    // random fraction of x (exercising the exact sum), ~44M points.
    let mut worst = 0.0f64;
    for bits in (0..=u32::MAX).step_by(97) {
        let x = f32::from_bits(bits);
        let y = x * rng.uniform(-1.0, 1.0) * f32::powi(2.0, -(rng.below(30) as i32));
        let got = device_math::add_mul_exp(x, y);
        check(x, y, got, DOCUMENTED_BOUND)?;
        let exact = reference::add_mul_exp_exact(x, y);
        if exact >= f32::MIN_POSITIVE as f64 && exact <= f32::MAX as f64 * (1.0 - DOCUMENTED_BOUND) {
            worst = worst.max(relative_error(got, exact));
        }
    }
    for &x in &EDGE_VALUES {
        for &y in &EDGE_VALUES {
            check(x, y, device_math::add_mul_exp(x, y), DOCUMENTED_BOUND)?;
        }
    }
    println!("device math: worst relative error {worst:.3e} on normal results");
    Ok(())
}

fn reference_special_values(_: &mut Rng) -> TestResult {
    let r = |x, y| reference::add_mul_exp(&[x], &[y]).unwrap()[0];
    ensure(r(0.0, 0.0) == 1.0, || "exp(0) != 1".into())?;
    ensure(r(0.5, 0.0) == std::f32::consts::E, || "exp(1) != e".into())?;
    ensure(r(45.0, 0.0) == f32::INFINITY, || "no overflow to inf".into())?;
    ensure(r(-60.0, 0.0) == 0.0, || "no underflow to 0".into())?;
    ensure(r(f32::NAN, 1.0).is_nan() && r(1.0, f32::NAN).is_nan(), || "NaN does not propagate".into())?;
    expect_error(reference::add_mul_exp(&[1.0], &[]), Error::LengthMismatch { argument: "y", expected: 1, actual: 0 })
}

fn plan_checks_lengths(_: &mut Rng) -> TestResult {
    let device = DeviceInfo { compute_capability: (9, 0), multiprocessors: 132 };
    expect_error(
        add_mul_exp::plan(10, 9, 10, &device),
        Error::LengthMismatch { argument: "y", expected: 10, actual: 9 },
    )?;
    expect_error(
        add_mul_exp::plan(10, 10, 11, &device),
        Error::LengthMismatch { argument: "out", expected: 10, actual: 11 },
    )?;
    ensure(add_mul_exp::plan(0, 0, 0, &device) == Ok(None), || "empty input must launch nothing".into())?;
    let launch = add_mul_exp::plan(50_000_000, 50_000_000, 50_000_000, &device)?.expect("a launch");
    ensure(launch.config.grid[0] == 132 * 8, || format!("grid {:?} is not one device-full", launch.config.grid))
}

/// Runs the kernel on `x`, `y` through (possibly offset) sub-slices and
/// checks every element against the device math bitwise and the bound.
fn run_and_check(kernels: &Kernels, x: &[f32], y: &[f32], offsets: [usize; 3]) -> TestResult {
    let n = x.len();
    let pad = |v: &[f32], offset: usize| [vec![0.0; offset], v.to_vec()].concat();
    let (dx, dy) = (kernels.upload(&pad(x, offsets[0]))?, kernels.upload(&pad(y, offsets[1]))?);
    let out = poisoned_f32(kernels, n + offsets[2] + 8);
    kernels.add_mul_exp(
        &dx.index(offsets[0]..),
        &dy.index(offsets[1]..),
        &mut out.index(offsets[2]..offsets[2] + n),
        kernels.stream(),
    )?;
    let got = download(kernels, &out);
    let untouched = |i: usize| got[i].to_bits() == POISON_F32;
    ensure((0..offsets[2]).chain(offsets[2] + n..got.len()).all(untouched), || "wrote outside `out`".into())?;
    let got = &got[offsets[2]..offsets[2] + n];
    let wrong = first_failures(n, 5, |i| {
        same(got[i], device_math::add_mul_exp(x[i], y[i])) && check(x[i], y[i], got[i], REQUIRED_BOUND).is_ok()
    });
    ensure(wrong.is_empty(), || {
        let detail: Vec<String> = wrong
            .iter()
            .map(|&i| {
                format!("[{i}] {}", check(x[i], y[i], got[i], REQUIRED_BOUND).err().unwrap_or("bits differ".into()))
            })
            .collect();
        format!("n={n} offsets={offsets:?}: {}", detail.join("; "))
    })
}

fn matches_reference_on_ragged_sizes(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    for n in RAGGED_SIZES {
        let (x, y) = (inputs(rng, n), inputs(rng, n));
        run_and_check(kernels, &x, &y, [0, 0, 0])?;
    }
    Ok(())
}

fn every_pair_of_edge_values(kernels: &Kernels, _: &mut Rng) -> TestResult {
    let pairs: Vec<(f32, f32)> = EDGE_VALUES.iter().flat_map(|&x| EDGE_VALUES.map(|y| (x, y))).collect();
    let (x, y): (Vec<f32>, Vec<f32>) = pairs.into_iter().unzip();
    run_and_check(kernels, &x, &y, [0, 0, 0])
}

fn misaligned_slices(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    for offsets in [[1, 0, 0], [0, 3, 0], [0, 0, 2], [1, 2, 3], [4, 4, 4]] {
        let n = 1000 + rng.below(100);
        run_and_check(kernels, &inputs(rng, n), &inputs(rng, n), offsets)?;
    }
    Ok(())
}

fn rejects_bad_lengths_without_writing(kernels: &Kernels, _: &mut Rng) -> TestResult {
    let (x, y) = (kernels.upload(&[1.0f32; 8])?, kernels.upload(&[1.0f32; 7])?);
    let mut out = poisoned_f32(kernels, 8);
    expect_error(
        kernels.add_mul_exp(&x, &y, &mut out, kernels.stream()),
        Error::LengthMismatch { argument: "y", expected: 8, actual: 7 },
    )?;
    ensure(download(kernels, &out).iter().all(|v| v.to_bits() == POISON_F32), || "output written on error".into())?;
    let mut empty = poisoned_f32(kernels, 0);
    kernels.add_mul_exp(&x.index(0..0), &y.index(0..0), &mut empty, kernels.stream()).map_err(|e| e.to_string())?;
    Ok(())
}

/// Past 2^31 elements (byte offsets past 2^33): inputs repeat a pattern of
/// prime length, so an index that wrapped at any power of two reads the
/// wrong pattern element.
fn huge_past_2_31_elements(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    const PERIOD: usize = 1_000_003;
    let n = (1usize << 31) + 1027;
    let (px, py) = (inputs(rng, PERIOD), inputs(rng, PERIOD));
    let (x, y) = (repeated(kernels, &px, n), repeated(kernels, &py, n));
    let mut out = poisoned_f32(kernels, n);
    kernels.add_mul_exp(&x, &y, &mut out, kernels.stream())?;
    let expected: Vec<f32> = px.iter().zip(&py).map(|(&a, &b)| device_math::add_mul_exp(a, b)).collect();
    check_in_chunks(kernels, &out, |i, &got| same(got, expected[i % PERIOD]))
}

fn main() {
    run(vec![
        cpu_test("cpu::device_math_meets_documented_bound", device_math_meets_documented_bound),
        cpu_test("cpu::reference_special_values", reference_special_values),
        cpu_test("cpu::plan_checks_lengths", plan_checks_lengths),
        gpu_test("gpu::matches_reference_on_ragged_sizes", matches_reference_on_ragged_sizes),
        gpu_test("gpu::every_pair_of_edge_values", every_pair_of_edge_values),
        gpu_test("gpu::misaligned_slices", misaligned_slices),
        gpu_test("gpu::rejects_bad_lengths_without_writing", rejects_bad_lengths_without_writing),
        gpu_test("gpu::huge_past_2_31_elements", huge_past_2_31_elements),
    ]);
}
