//! The harness shared by the test files (each a `harness = false` target run
//! by libtest-mimic).
//!
//! - A GPU test runs when a CUDA device is present. Without one it reports
//!   itself *ignored*, with the reason, never passed; `REQUIRE_GPU=1` turns
//!   that into a failure (set it on GPU machines).
//! - Every test draws fresh inputs from a seed it prints on failure;
//!   `TEST_SEED=<seed>` replays it.
#![allow(dead_code)] // each test file uses its own subset

use libtest_mimic::{Arguments, Completion, Failed, Trial};
use quant_kernels::check::Rng;
use quant_kernels::cust::memory::{DeviceBuffer, DeviceCopy, DeviceSlice};
use quant_kernels::half::{bf16, f16};
use quant_kernels::{ElementwiseLaunch, ElementwiseVersion, Error, Float, Kernels};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{OnceLock, RwLock};

pub type TestResult = Result<(), Failed>;

/// Sizes that are not multiples of anything: below, at and past warp, block
/// and vector boundaries.
pub const RAGGED_SIZES: [usize; 12] = [1, 2, 3, 4, 5, 31, 33, 255, 1023, 1025, 65_537, 1_000_003];

/// f32 poison for outputs: a signalling NaN no kernel produces (arithmetic
/// yields the canonical quiet NaN), so a survivor means an unwritten element.
pub const POISON_F32: u32 = 0x7FA5_A5A5;

/// f16 poison: a signalling NaN (quiet bit 9 clear, payload 0xA5), which no
/// conversion produces (they give quiet NaNs).
pub const POISON_F16: u16 = 0x7CA5;

/// bf16 poison: a signalling NaN (quiet bit 6 clear), the high half of
/// [`POISON_F32`].
pub const POISON_BF16: u16 = 0x7FA5;

/// A storage type under test, with what the tests need beyond [`Float`].
pub trait TestFloat: Float + DeviceCopy + bytemuck::Pod {
    /// The output poison: a signalling NaN no kernel writes.
    const POISON: u32;
    fn bits(self) -> u32;
    fn from_bits(bits: u32) -> Self;
}

impl TestFloat for f32 {
    const POISON: u32 = POISON_F32;
    fn bits(self) -> u32 {
        self.to_bits()
    }
    fn from_bits(bits: u32) -> Self {
        f32::from_bits(bits)
    }
}

impl TestFloat for f16 {
    const POISON: u32 = POISON_F16 as u32;
    fn bits(self) -> u32 {
        self.to_bits() as u32
    }
    fn from_bits(bits: u32) -> Self {
        f16::from_bits(bits as u16)
    }
}

impl TestFloat for bf16 {
    const POISON: u32 = POISON_BF16 as u32;
    fn bits(self) -> u32 {
        self.to_bits() as u32
    }
    fn from_bits(bits: u32) -> Self {
        bf16::from_bits(bits as u16)
    }
}

/// The same value: identical bits, or NaN for NaN (the GPU returns the
/// canonical NaN, the CPU may keep an input NaN's payload).
pub fn same<T: TestFloat>(a: T, b: T) -> bool {
    a.bits() == b.bits() || (a.to_f32().is_nan() && b.to_f32().is_nan())
}

/// Every bit pattern of a 16-bit type (65536 values).
pub fn every_16_bit_pattern<T: TestFloat>() -> Vec<T> {
    (0..=u16::MAX as u32).map(T::from_bits).collect()
}

/// The launch shapes every elementwise GPU test runs: each version with the
/// default block and the extremes a block-size sweep may pick, and the
/// default (the version chosen by size).
pub fn elementwise_launches() -> Vec<ElementwiseLaunch> {
    let shapes = [(ElementwiseVersion::V1, 256), (ElementwiseVersion::V1, 1024)].into_iter().chain([
        (ElementwiseVersion::V2, 256),
        (ElementwiseVersion::V2, 32),
        (ElementwiseVersion::V2, 1024),
        (ElementwiseVersion::V3, 256),
        (ElementwiseVersion::V3, 32),
        (ElementwiseVersion::V3, 1024),
    ]);
    let fixed = shapes.map(|(version, threads)| ElementwiseLaunch::new(version, threads).expect("valid block"));
    fixed.chain([ElementwiseLaunch::default()]).collect()
}

/// The process-wide handle, created by the first GPU test.
pub fn gpu() -> Result<&'static Kernels, String> {
    static GPU: OnceLock<Result<Kernels, String>> = OnceLock::new();
    GPU.get_or_init(|| Kernels::new().map_err(|e| e.to_string())).as_ref().map_err(Clone::clone)
}

fn require_gpu() -> bool {
    std::env::var("REQUIRE_GPU").is_ok_and(|v| v == "1")
}

/// Runs `test` with a fresh (or `TEST_SEED`) generator; a failure or panic
/// carries the seed.
fn seeded(test: impl FnOnce(&mut Rng) -> TestResult) -> TestResult {
    let seed = std::env::var("TEST_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(Rng::fresh_seed);
    let mut rng = Rng::new(seed);
    let outcome = catch_unwind(AssertUnwindSafe(|| test(&mut rng))).unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        Err(format!("panicked: {message}").into())
    });
    outcome.map_err(|e| format!("{} [seed {seed}; replay with TEST_SEED={seed}]", e.message().unwrap_or("")).into())
}

/// A test that needs no GPU.
pub fn cpu_test(name: &str, test: fn(&mut Rng) -> TestResult) -> Trial {
    Trial::test(name, move || seeded(test))
}

/// The body of a GPU test.
pub type GpuTest = fn(&Kernels, &mut Rng) -> TestResult;

/// Held shared by every GPU test, and alone by those that capture a graph:
/// while a stream captures, another thread's `cuMemFree` (which may
/// synchronize the device) fails and invalidates the capture (seen in run
/// 12: a test's download failed and the split-K capture with it).
static CAPTURE_ALONE: RwLock<()> = RwLock::new(());

/// A test that needs a GPU.
pub fn gpu_test(name: &str, test: GpuTest) -> Trial {
    gpu_trial(name, test, false)
}

/// A test that needs a GPU and captures a graph: it runs while no other
/// GPU test of the binary does.
pub fn capturing_gpu_test(name: &str, test: GpuTest) -> Trial {
    gpu_trial(name, test, true)
}

fn gpu_trial(name: &str, test: GpuTest, alone: bool) -> Trial {
    Trial::ignorable_test(name, move || match gpu() {
        Ok(kernels) => {
            // Held to the end of the test. A test that panicked holding the
            // lock poisons it; the lock still works.
            let (_alone, _shared);
            if alone {
                _alone = CAPTURE_ALONE.write().unwrap_or_else(|poisoned| poisoned.into_inner());
            } else {
                _shared = CAPTURE_ALONE.read().unwrap_or_else(|poisoned| poisoned.into_inner());
            }
            seeded(|rng| test(kernels, rng)).map(|()| Completion::Completed)
        }
        Err(reason) if require_gpu() => Err(format!("REQUIRE_GPU=1 but no usable GPU: {reason}").into()),
        Err(reason) => Ok(Completion::ignored_with(format!("needs a CUDA device: {reason}"))),
    })
}

/// GPU tests for storage type `T`, named `gpu::<type>::<name>`; those in
/// `only_16_bit` run for f16 and bf16 only (exhaustive over bit patterns).
pub fn typed_gpu_tests<T: TestFloat>(tests: &[(&str, GpuTest)], only_16_bit: &[(&str, GpuTest)]) -> Vec<Trial> {
    let extra = if size_of::<T>() == 2 { only_16_bit } else { &[] };
    tests.iter().chain(extra).map(|&(name, test)| gpu_test(&format!("gpu::{}::{name}", T::NAME), test)).collect()
}

/// Runs `test` for every elementwise version with its default block, and
/// names the version in a failure.
pub fn for_each_version(mut test: impl FnMut(ElementwiseLaunch) -> TestResult) -> TestResult {
    for version in ElementwiseVersion::ALL {
        test(version.into()).map_err(|e| format!("{version:?}: {}", e.message().unwrap_or("")))?;
    }
    Ok(())
}

/// Runs the trials with libtest's command line (filters, `--skip`, ...).
pub fn run(trials: Vec<Trial>) -> ! {
    libtest_mimic::run(&Arguments::from_args(), trials).exit()
}

/// `Err` with `message` unless `condition`.
pub fn ensure(condition: bool, message: impl FnOnce() -> String) -> TestResult {
    if condition { Ok(()) } else { Err(message().into()) }
}

/// `Ok` when `result` is exactly the error `expected`.
pub fn expect_error<T: std::fmt::Debug>(result: Result<T, Error>, expected: Error) -> TestResult {
    match result {
        Err(e) if e == expected => Ok(()),
        other => Err(format!("expected Err({expected:?}), got {other:?}").into()),
    }
}

/// A device buffer of `len` elements, each [`TestFloat::POISON`].
pub fn poisoned<T: TestFloat>(kernels: &Kernels, len: usize) -> DeviceBuffer<T> {
    let mut buffer: DeviceBuffer<T> = kernels.alloc(len).expect("alloc");
    if len > 0 {
        match size_of::<T>() {
            4 => buffer.set_32(T::POISON).expect("poison"),
            _ => buffer.set_16(T::POISON as u16).expect("poison"),
        }
    }
    buffer
}

/// A device buffer of `len` f32 with every element set to [`POISON_F32`].
pub fn poisoned_f32(kernels: &Kernels, len: usize) -> DeviceBuffer<f32> {
    poisoned(kernels, len)
}

/// A device buffer of `len` bytes, each set to `poison`.
pub fn poisoned_i8(kernels: &Kernels, len: usize, poison: u8) -> DeviceBuffer<i8> {
    let mut buffer = kernels.alloc(len).expect("alloc");
    buffer.set_8(poison).expect("poison");
    buffer
}

/// Copies a device slice to the host (waiting for the handle's stream).
pub fn download<T: quant_kernels::cust::memory::DeviceCopy + Default + Clone>(
    kernels: &Kernels,
    slice: &DeviceSlice<T>,
) -> Vec<T> {
    kernels.download(slice, kernels.stream()).expect("download")
}

/// The first `limit` indices where `ok(i)` fails, for failure messages.
pub fn first_failures(len: usize, limit: usize, ok: impl Fn(usize) -> bool) -> Vec<usize> {
    (0..len).filter(|&i| !ok(i)).take(limit).collect()
}

/// Checks a device output of any size chunk by chunk (host memory stays
/// small): `ok(i, value)` for every element `i`.
pub fn check_in_chunks<T: quant_kernels::cust::memory::DeviceCopy + Default + Clone>(
    kernels: &Kernels,
    out: &DeviceSlice<T>,
    ok: impl Fn(usize, &T) -> bool,
) -> TestResult {
    const CHUNK: usize = 1 << 26;
    for start in (0..out.len()).step_by(CHUNK) {
        let got = download(kernels, &out.index(start..(start + CHUNK).min(out.len())));
        let wrong = first_failures(got.len(), 3, |i| ok(start + i, &got[i]));
        ensure(wrong.is_empty(), || {
            format!("wrong elements at {:?}", wrong.iter().map(|i| start + i).collect::<Vec<_>>())
        })?;
    }
    Ok(())
}

/// A device buffer of `len` elements that repeats `pattern` (uploaded once,
/// then copied on the device): inputs past 2^31 elements without generating
/// them on the host. Element `i` is `pattern[i % pattern.len()]`.
pub fn repeated<T: quant_kernels::cust::memory::DeviceCopy + bytemuck::Zeroable>(
    kernels: &Kernels,
    pattern: &[T],
    len: usize,
) -> DeviceBuffer<T> {
    use quant_kernels::cust::memory::CopyDestination;
    let source = kernels.upload(pattern).expect("upload");
    let buffer: DeviceBuffer<T> = kernels.alloc(len).expect("alloc");
    let mut start = 0;
    while start < len {
        let count = pattern.len().min(len - start);
        buffer.index(start..start + count).copy_from(&source.index(0..count)).expect("device copy");
        start += count;
    }
    buffer
}
