//! `add_mul_exp`: the f32 device math run on the CPU against the f64
//! reference, the 16-bit types' formula with an exact `2^t` in place of the
//! GPU's `ex2.approx`, the reference's rounding and the plans (CI); the
//! kernels of every version and type against the reference (and for f32
//! the device math's bits) on the GPU.

mod common;

// The kernels' own f32 math, compiled for the CPU: its error bound is
// checked here without a GPU, and for f32 the GPU must return the very
// same bits (any NaN for NaN).
#[path = "../kernels-gpu/src/math.rs"]
#[allow(dead_code)]
mod device_math;

use common::*;
use quant_kernels::check::{Rng, relative_error};
use quant_kernels::elementwise::V3_MAX_ELEMENTS;
use quant_kernels::half::{bf16, f16};
use quant_kernels::launch::DeviceInfo;
use quant_kernels::{ElementwiseLaunch, ElementwiseVersion, Error, Float, Kernels, add_mul_exp, reference};

/// The bound the f32 device math documents (kernels-gpu/src/math.rs).
const F32_BOUND: f64 = 2.5e-7;

/// The bound kernels-gpu/src/add_mul_exp.rs states for the f32 value that
/// f16 and bf16 results are rounded from (`ex2.approx`): `2^-16`.
const SHORT_F32_BOUND: f64 = 1.0 / 65536.0;

/// The f32 math's bound for results of type `T`.
fn f32_bound<T: Float>() -> f64 {
    if T::NAME == "f32" { F32_BOUND } else { SHORT_F32_BOUND }
}

const DEVICE: DeviceInfo = DeviceInfo { compute_capability: (9, 0), multiprocessors: 132 };

/// The relative error bound host/add_mul_exp.rs states for normal results
/// in `T`: the f32 math's, plus one rounding to `T` for f16 and bf16.
fn stated_bound<T: Float>() -> f64 {
    let f32_bound = f32_bound::<T>();
    if T::NAME == "f32" { f32_bound } else { T::UNIT_ROUNDOFF + f32_bound * (1.0 + T::UNIT_ROUNDOFF) }
}

/// Where rounding to `T` goes past `T::MAX` to inf: `MAX` plus half an ulp.
fn overflow_threshold<T: Float>() -> f64 {
    let u = T::UNIT_ROUNDOFF;
    T::MAX * (2.0 - u) / (2.0 - 2.0 * u)
}

/// What the f16 and bf16 kernels compute, with the exact `2^t` (rounded to
/// f32) in place of `ex2.approx.f32`: widen, `t = RN(RN(x + y) * 2 log2 e)`,
/// round to `T`. The GPU's result differs by `ex2.approx`'s own error.
fn short_formula<T: Float>(x: T, y: T) -> T {
    let t = (x.to_f32() + y.to_f32()) * (2.0 * std::f32::consts::LOG2_E);
    T::from_f32(2f64.powf(t as f64) as f32)
}

/// Checks one result against the exact value, as the module docs state the
/// bounds: NaN for NaN; +inf past the overflow threshold, either the bound
/// or +inf near it; `bound` relative error for normal results; the smallest
/// subnormal plus `bound` relative below the normal range.
fn check<T: Float>(x: T, y: T, got: T, bound: f64) -> Result<(), String> {
    let exact = reference::add_mul_exp_exact(x.to_f32(), y.to_f32());
    let value = got.to_f32() as f64;
    let inf = value == f64::INFINITY;
    let overflow = overflow_threshold::<T>();
    // The f32 result lies within f32_bound of `exact`; it rounds to inf in
    // `T` at or past `overflow`.
    let f32_bound = f32_bound::<T>();
    let ok = if exact.is_nan() {
        value.is_nan()
    } else if exact * (1.0 - f32_bound) > overflow {
        inf
    } else if exact >= T::MAX * (1.0 - bound) {
        (inf && exact * (1.0 + f32_bound) >= overflow) || (value - exact).abs() <= bound * exact
    } else if exact >= T::MIN_POSITIVE {
        (value - exact).abs() <= bound * exact
    } else {
        (value - exact).abs() <= 2.0 * T::UNIT_ROUNDOFF * T::MIN_POSITIVE + bound * exact
    };
    let name = T::NAME;
    if ok { Ok(()) } else { Err(format!("{name}: x={x:?} y={y:?}: got {got:?}, exact {exact:e}")) }
}

/// Values where exp((x + y) * 2) is special or changes regime in f32.
const F32_EDGES: [f32; 20] = [
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

/// Edge values in `T`: the f32 ones rounded to `T`, and arguments around
/// `T`'s overflow threshold, smallest normal and smallest subnormal (for
/// f16: results near 65520, 6.1e-5 and 6e-8).
fn edges<T: Float>() -> Vec<T> {
    let smallest = 2.0 * T::UNIT_ROUNDOFF * T::MIN_POSITIVE;
    let around = [overflow_threshold::<T>(), T::MAX, T::MIN_POSITIVE, smallest, smallest / 2.0]
        .into_iter()
        .flat_map(|result| [0.999, 1.0, 1.001].map(|f| T::round_from_f64(result.ln() / 2.0 * f)));
    F32_EDGES.iter().map(|&v| T::from_f32(v)).chain(around).collect()
}

/// `n` inputs: mostly uniform over arguments whose results span underflow
/// to overflow in `T`, some normal, and edge values at random places.
fn inputs<T: Float>(rng: &mut Rng, n: usize) -> Vec<T> {
    let (edges, reach) = (edges::<T>(), (T::MAX.ln() / 2.0 * 0.7) as f32);
    (0..n)
        .map(|_| match rng.below(10) {
            0 => edges[rng.below(edges.len())],
            1..=3 => T::from_f32(rng.normal()),
            _ => T::from_f32(rng.uniform(-reach, reach)),
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
        check(x, y, got, F32_BOUND)?;
        let exact = reference::add_mul_exp_exact(x, y);
        if exact >= f32::MIN_POSITIVE as f64 && exact <= f32::MAX as f64 * (1.0 - F32_BOUND) {
            worst = worst.max(relative_error(got, exact));
        }
    }
    for &x in &F32_EDGES {
        for &y in &F32_EDGES {
            check(x, y, device_math::add_mul_exp(x, y), F32_BOUND)?;
        }
    }
    println!("device math: worst relative error {worst:.3e} on normal results");
    Ok(())
}

/// Every `T` bit pattern for `x`, each with several `y` (zero, a random
/// fraction of `x`, random values), and every pair of edge values: the
/// 16-bit kernels' formula with an exact power of two meets the stated
/// bound less `2^-21`, the share left for `ex2.approx` (whose own error,
/// about `2^-22`, only the GPU tests see).
fn short_formula_meets_stated_bound<T: TestFloat>(rng: &mut Rng) -> TestResult {
    let bound = stated_bound::<T>() - 2f64.powi(-21);
    let mut worst = 0.0f64;
    for x in every_16_bit_pattern::<T>() {
        let fraction = T::from_f32(x.to_f32() * rng.uniform(-1.0, 1.0));
        for y in [T::from_f32(0.0), fraction, T::from_f32(rng.normal()), T::from_f32(rng.uniform(-8.0, 8.0))] {
            let got = short_formula::<T>(x, y);
            check(x, y, got, bound)?;
            let exact = reference::add_mul_exp_exact(x.to_f32(), y.to_f32());
            if exact >= T::MIN_POSITIVE && exact <= T::MAX {
                worst = worst.max(relative_error(got.to_f32(), exact));
            }
        }
    }
    let edges = edges::<T>();
    for &x in &edges {
        for &y in &edges {
            check(x, y, short_formula::<T>(x, y), bound)?;
        }
    }
    println!("{}: worst relative error {worst:.3e} on normal results (bound {bound:.3e})", T::NAME);
    ensure(worst > T::UNIT_ROUNDOFF / 2.0, || format!("worst error {worst:e}: the rounding was not exercised"))
}

fn reference_special_values(_: &mut Rng) -> TestResult {
    let r = |x, y| reference::add_mul_exp(&[x], &[y]).unwrap()[0];
    ensure(r(0.0f32, 0.0) == 1.0, || "exp(0) != 1".into())?;
    ensure(r(0.5f32, 0.0) == std::f32::consts::E, || "exp(1) != e".into())?;
    ensure(r(45.0f32, 0.0) == f32::INFINITY, || "no overflow to inf".into())?;
    ensure(r(-60.0f32, 0.0) == 0.0, || "no underflow to 0".into())?;
    ensure(r(f32::NAN, 1.0).is_nan() && r(1.0, f32::NAN).is_nan(), || "NaN does not propagate".into())?;
    expect_error(
        reference::add_mul_exp::<f32>(&[1.0], &[]),
        Error::LengthMismatch { argument: "y", expected: 1, actual: 0 },
    )
}

/// Overflow, underflow and NaN in f16 and bf16, `(x, exp(2 x))` with
/// `y = 0`: f16 overflows at 65520 (exp(2 * 5.55) = 66171), exp(2 * 5.5) =
/// 59874 rounds to 59872; bf16 overflows at (2 - 2^-8) 2^127. Each result
/// is far enough from a rounding boundary of `T` that `ex2.approx`'s error
/// cannot move it.
fn half_special_cases<T: Float>() -> Vec<(T, f32)> {
    let cases: &[(f32, f32)] = if T::NAME == "f16" {
        &[
            (5.5, 59872.0),
            (5.55, f32::INFINITY),
            (-3.0, 0.002_479_553_2),
            (-9.0, 0.0),
            (f32::NAN, f32::NAN),
            (-8.5, 5.960_464_5e-8),
            (f32::NEG_INFINITY, 0.0),
            (f32::INFINITY, f32::INFINITY),
        ]
    } else {
        &[(44.25, 2.724_917_4e38), (44.4, f32::INFINITY), (0.5, 2.718_75), (-52.0, 0.0)]
    };
    cases.iter().map(|&(x, expected)| (T::from_f32(x), expected)).collect()
}

/// `got` is `expected` (any NaN for NaN) for case `x`.
fn special_value<T: Float>(what: &str, x: T, got: T, expected: f32) -> TestResult {
    let got = got.to_f32();
    ensure(got == expected || (got.is_nan() && expected.is_nan()), || {
        format!("{} {what}: exp(2 * {x:?}) = {got}, expected {expected}", T::NAME)
    })
}

/// The reference on [`half_special_cases`].
fn half_special_values(_: &mut Rng) -> TestResult {
    fn for_type<T: Float>() -> TestResult {
        for (x, expected) in half_special_cases::<T>() {
            special_value("reference", x, reference::add_mul_exp(&[x], &[T::from_f32(0.0)])?[0], expected)?;
        }
        Ok(())
    }
    for_type::<f16>()?;
    for_type::<bf16>()
}

/// Every version on [`half_special_cases`].
fn half_special_values_on_gpu<T: TestFloat>(kernels: &Kernels, _: &mut Rng) -> TestResult {
    let (x, expected): (Vec<T>, Vec<f32>) = half_special_cases::<T>().into_iter().unzip();
    let (dx, dy) = (kernels.upload(&x)?, kernels.upload(&vec![T::from_f32(0.0); x.len()])?);
    for_each_version(|launch| {
        let mut out = poisoned::<T>(kernels, x.len());
        kernels.add_mul_exp_with(launch, &dx, &dy, &mut out, kernels.stream())?;
        let got = download(kernels, &out);
        (0..x.len()).try_for_each(|i| special_value(&format!("{launch:?}"), x[i], got[i], expected[i]))
    })
}

/// `Float::round_from_f64`, which the reference rounds with, rounds once:
/// it agrees with `from_f32` on f32 values, and differs from rounding
/// through f32 where that rounds twice.
fn round_from_f64_rounds_once(rng: &mut Rng) -> TestResult {
    fn for_type<T: TestFloat>(rng: &mut Rng) -> TestResult {
        for bits in (0..=u32::MAX).step_by(4099 + rng.below(16)) {
            let v = f32::from_bits(bits);
            let (once, direct) = (T::round_from_f64(v as f64), T::from_f32(v));
            ensure(same(once, direct), || format!("{}: {v:e} gives {once:?}, from_f32 {direct:?}", T::NAME))?;
        }
        // 1 + u + 2^-40 is just above a tie of T, so it rounds up to 1 + 2u;
        // through f32 (for f16 and bf16) the 2^-40 is lost and the tie
        // rounds to even, 1.
        let u = T::UNIT_ROUNDOFF;
        let v = 1.0 + u + 2f64.powi(-40);
        let (once, twice) = (T::round_from_f64(v).to_f32() as f64, T::from_f32(v as f32).to_f32() as f64);
        ensure(once == 1.0 + 2.0 * u && (T::NAME == "f32" || twice == 1.0), || {
            format!("{}: {v} rounds to {once}, through f32 to {twice}", T::NAME)
        })
    }
    for_type::<f32>(rng)?;
    for_type::<f16>(rng)?;
    for_type::<bf16>(rng)
}

fn launch_validates_block_threads(_: &mut Rng) -> TestResult {
    for threads in [32, 64, 128, 256, 512, 1024] {
        ElementwiseLaunch::new(ElementwiseVersion::V1, threads)?;
    }
    for threads in [0, 16, 100, 1056, 2048] {
        expect_error(
            ElementwiseLaunch::new(ElementwiseVersion::V2, threads),
            Error::InvalidBlockThreads { threads, max: 1024 },
        )?;
    }
    let default = ElementwiseLaunch::default();
    ensure((default.version(), default.block_threads()) == (None, 256), || format!("{default:?}"))?;
    let by_size = [V3_MAX_ELEMENTS, V3_MAX_ELEMENTS + 1].map(|n| default.version_for(n));
    ensure(by_size == [ElementwiseVersion::V3, ElementwiseVersion::V2], || format!("by size: {by_size:?}"))?;
    let fixed = ElementwiseLaunch::new(ElementwiseVersion::V1, 128)?;
    ensure(fixed.version_for(10) == ElementwiseVersion::V1, || "an explicit version must stay".into())
}

fn plan_checks_lengths_and_shapes(_: &mut Rng) -> TestResult {
    fn for_type<T: Float>() -> TestResult {
        let launch = ElementwiseLaunch::default();
        expect_error(
            add_mul_exp::plan::<T>(10, 9, 10, launch, &DEVICE),
            Error::LengthMismatch { argument: "y", expected: 10, actual: 9 },
        )?;
        expect_error(
            add_mul_exp::plan::<T>(10, 10, 11, launch, &DEVICE),
            Error::LengthMismatch { argument: "out", expected: 10, actual: 11 },
        )?;
        ensure(add_mul_exp::plan::<T>(0, 0, 0, launch, &DEVICE) == Ok(None), || {
            "empty input must launch nothing".into()
        })?;
        let lanes = 16 / size_of::<T>();
        for threads in [128, 256, 512, 1024] {
            for version in ElementwiseVersion::ALL {
                let n = 50_000_000;
                let launch = ElementwiseLaunch::new(version, threads)?;
                let got = add_mul_exp::plan::<T>(n, n, n, launch, &DEVICE)?.expect("a launch");
                let grid = match version {
                    ElementwiseVersion::V1 => 132 * 2048 / threads as usize, // one device-full
                    ElementwiseVersion::V2 => n.div_ceil(lanes).div_ceil(2 * threads as usize), // one pass
                    ElementwiseVersion::V3 => n.div_ceil(lanes).div_ceil(threads as usize), // a vector a thread
                };
                let expected = (add_mul_exp::KERNELS.name::<T>(version), [grid as u32, 1, 1], [threads, 1, 1]);
                let got = (got.kernel, got.config.grid, got.config.block);
                ensure(got == expected, || {
                    format!("{} {version:?}/{threads}: {got:?}, expected {expected:?}", T::NAME)
                })?;
            }
        }
        let small = add_mul_exp::plan::<T>(3, 3, 3, launch, &DEVICE)?.expect("a launch");
        ensure(small.config.grid == [1, 1, 1], || format!("3 elements: grid {:?}", small.config.grid))
    }
    for_type::<f32>()?;
    for_type::<f16>()?;
    for_type::<bf16>()
}

/// Runs `launch` on `x`, `y` through (possibly offset) sub-slices of padded
/// buffers, into a poisoned output, and checks that every element was
/// written within the stated bound (for f32 with the device math's bits),
/// and nothing outside `out`.
fn run_and_check<T: TestFloat>(
    kernels: &Kernels,
    launch: ElementwiseLaunch,
    x: &[T],
    y: &[T],
    offsets: [usize; 3],
) -> TestResult {
    let n = x.len();
    let pad = |v: &[T], offset: usize| [vec![T::from_f32(0.0); offset], v.to_vec()].concat();
    let (dx, dy) = (kernels.upload(&pad(x, offsets[0]))?, kernels.upload(&pad(y, offsets[1]))?);
    let out = poisoned::<T>(kernels, n + offsets[2] + 8);
    kernels.add_mul_exp_with(
        launch,
        &dx.index(offsets[0]..),
        &dy.index(offsets[1]..),
        &mut out.index(offsets[2]..offsets[2] + n),
        kernels.stream(),
    )?;
    let got = download(kernels, &out);
    let untouched = |i: usize| got[i].bits() == T::POISON;
    ensure((0..offsets[2]).chain(offsets[2] + n..got.len()).all(untouched), || "wrote outside `out`".into())?;
    let got = &got[offsets[2]..offsets[2] + n];
    let bound = stated_bound::<T>();
    let bitwise = |i: usize| {
        T::NAME != "f32" || same(got[i], T::from_f32(device_math::add_mul_exp(x[i].to_f32(), y[i].to_f32())))
    };
    let wrong = first_failures(n, 5, |i| bitwise(i) && check(x[i], y[i], got[i], bound).is_ok());
    ensure(wrong.is_empty(), || {
        let detail: Vec<String> = wrong
            .iter()
            .map(|&i| {
                let poisoned = if untouched(offsets[2] + i) { " (never written)" } else { "" };
                let check = check(x[i], y[i], got[i], bound).err().unwrap_or("bits differ".into());
                format!("[{i}] {check}{poisoned}")
            })
            .collect();
        format!("{} {launch:?} n={n} offsets={offsets:?}: {}", T::NAME, detail.join("; "))
    })
}

fn matches_reference_on_ragged_sizes<T: TestFloat>(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    for launch in elementwise_launches() {
        for n in RAGGED_SIZES {
            let (x, y) = (inputs::<T>(rng, n), inputs::<T>(rng, n));
            run_and_check(kernels, launch, &x, &y, [0, 0, 0])?;
        }
    }
    Ok(())
}

fn every_pair_of_edge_values<T: TestFloat>(kernels: &Kernels, _: &mut Rng) -> TestResult {
    let edges = edges::<T>();
    let (x, y): (Vec<T>, Vec<T>) = edges.iter().flat_map(|&x| edges.iter().map(move |&y| (x, y))).unzip();
    for launch in elementwise_launches() {
        run_and_check(kernels, launch, &x, &y, [0, 0, 0])?;
    }
    Ok(())
}

/// Every bit pattern of a 16-bit type as `x`, with random and zero `y`.
fn every_bit_pattern<T: TestFloat>(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    let x = every_16_bit_pattern::<T>();
    let zeros = vec![T::from_f32(0.0); x.len()];
    for launch in elementwise_launches() {
        run_and_check(kernels, launch, &x, &inputs::<T>(rng, x.len()), [0, 0, 0])?;
        run_and_check(kernels, launch, &x, &zeros, [0, 0, 0])?;
    }
    Ok(())
}

/// Slices at element offsets that misalign them: all by the same amount (v2
/// keeps its vector path after a scalar head) or by different amounts
/// (every version goes element by element).
fn misaligned_slices<T: TestFloat>(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    for launch in elementwise_launches() {
        for offsets in [[1, 1, 1], [3, 3, 3], [7, 7, 7], [1, 0, 0], [0, 3, 0], [0, 0, 2], [1, 2, 3], [4, 4, 4]] {
            for n in [1, 5, 1000 + rng.below(100), 70_001] {
                run_and_check(kernels, launch, &inputs::<T>(rng, n), &inputs::<T>(rng, n), offsets)?;
            }
        }
    }
    Ok(())
}

fn rejects_bad_input_without_writing<T: TestFloat>(kernels: &Kernels, _: &mut Rng) -> TestResult {
    let one = T::from_f32(1.0);
    let (x, y) = (kernels.upload(&[one; 8])?, kernels.upload(&[one; 7])?);
    let mut out = poisoned::<T>(kernels, 8);
    expect_error(
        kernels.add_mul_exp(&x, &y, &mut out, kernels.stream()),
        Error::LengthMismatch { argument: "y", expected: 8, actual: 7 },
    )?;
    ensure(download(kernels, &out).iter().all(|v| v.bits() == T::POISON), || "output written on error".into())?;
    let mut empty = poisoned::<T>(kernels, 0);
    kernels.add_mul_exp(&x.index(0..0), &y.index(0..0), &mut empty, kernels.stream()).map_err(|e| e.to_string())?;
    Ok(())
}

/// Past 2^31 elements (byte offsets past 2^33): inputs repeat a pattern of
/// prime length, so an index that wrapped at any power of two reads the
/// wrong pattern element. Every version.
fn huge_past_2_31_elements(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    const PERIOD: usize = 1_000_003;
    let n = (1usize << 31) + 1027;
    let (px, py) = (inputs::<f32>(rng, PERIOD), inputs::<f32>(rng, PERIOD));
    let (x, y) = (repeated(kernels, &px, n), repeated(kernels, &py, n));
    let expected: Vec<f32> = px.iter().zip(&py).map(|(&a, &b)| device_math::add_mul_exp(a, b)).collect();
    for_each_version(|launch| {
        let mut out = poisoned_f32(kernels, n);
        kernels.add_mul_exp_with(launch, &x, &y, &mut out, kernels.stream())?;
        check_in_chunks(kernels, &out, |i, &got| same(got, expected[i % PERIOD]))
    })
}

/// The GPU tests for one storage type.
fn gpu_tests<T: TestFloat>() -> Vec<libtest_mimic::Trial> {
    typed_gpu_tests::<T>(
        &[
            ("matches_reference_on_ragged_sizes", matches_reference_on_ragged_sizes::<T>),
            ("every_pair_of_edge_values", every_pair_of_edge_values::<T>),
            ("misaligned_slices", misaligned_slices::<T>),
            ("rejects_bad_input_without_writing", rejects_bad_input_without_writing::<T>),
        ],
        &[("every_bit_pattern", every_bit_pattern::<T>), ("half_special_values", half_special_values_on_gpu::<T>)],
    )
}

fn main() {
    let mut trials = vec![
        cpu_test("cpu::f32::device_math_meets_documented_bound", device_math_meets_documented_bound),
        cpu_test("cpu::f16::short_formula_meets_stated_bound", short_formula_meets_stated_bound::<f16>),
        cpu_test("cpu::bf16::short_formula_meets_stated_bound", short_formula_meets_stated_bound::<bf16>),
        cpu_test("cpu::reference_special_values", reference_special_values),
        cpu_test("cpu::half_special_values", half_special_values),
        cpu_test("cpu::round_from_f64_rounds_once", round_from_f64_rounds_once),
        cpu_test("cpu::launch_validates_block_threads", launch_validates_block_threads),
        cpu_test("cpu::plan_checks_lengths_and_shapes", plan_checks_lengths_and_shapes),
        gpu_test("gpu::f32::huge_past_2_31_elements", huge_past_2_31_elements),
    ];
    trials.extend(gpu_tests::<f32>());
    trials.extend(gpu_tests::<f16>());
    trials.extend(gpu_tests::<bf16>());
    run(trials)
}
