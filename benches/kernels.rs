//! Criterion benches of every kernel, timed on the GPU with CUDA events:
//! `iter_custom` enqueues `iters` back-to-back launches between two events
//! on the handle's stream and returns the time between the events, never a
//! host clock around asynchronous launches. One buffer set (hot: the smaller
//! sizes stay in L2); `cargo run --release -- bench` has the cold figures,
//! the graph/stream split and the checks. Without a CUDA device the bench
//! says so and exits 0 (1 with `REQUIRE_GPU=1`, as on the GPU machine).
//!
//! ```text
//! cargo bench                     # every group
//! cargo bench -- int4_linear      # the groups and benches whose name contains int4_linear
//! ```

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, Throughput};
use quant_kernels::check::Rng;
use quant_kernels::cust::event::{Event, EventFlags};
use quant_kernels::cust::memory::DeviceCopy;
use quant_kernels::half::bf16;
use quant_kernels::int4_linear::{DeviceInt4Linear, Int4LinearVersion};
use quant_kernels::{Error, Float, Int4Mode, Int4Weights, Int8Params, Kernels};
use std::time::Duration;

/// The handle and the two events every measurement uses (dropped first,
/// while the handle's context is alive).
struct Gpu {
    start: Event,
    stop: Event,
    kernels: Kernels,
}

impl Gpu {
    /// The event time of `iters` launches of `launch`.
    fn time(&self, iters: u64, mut launch: impl FnMut() -> Result<(), Error>) -> Duration {
        let stream = self.kernels.stream();
        stream.synchronize().expect("stream");
        self.start.record(stream).expect("event");
        for _ in 0..iters {
            launch().expect("launch");
        }
        self.stop.record(stream).expect("event");
        self.stop.synchronize().expect("event");
        let ms = self.stop.elapsed_time_f32(&self.start).expect("event time");
        Duration::from_secs_f64(f64::from(ms) * 1e-3)
    }
}

fn add_mul_exp(c: &mut Criterion, gpu: &Gpu, rng: &mut Rng) {
    let k = &gpu.kernels;
    let mut group = c.benchmark_group("add_mul_exp");
    for n in [1_000_000, 50_000_000] {
        let (x, y) = (k.upload(&rng.normals(n, 1.0)).unwrap(), k.upload(&rng.normals(n, 1.0)).unwrap());
        let mut out = k.alloc::<f32>(n).unwrap();
        group.throughput(Throughput::Bytes(12 * n as u64));
        group.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter_custom(|iters| gpu.time(iters, || k.add_mul_exp(&x, &y, &mut out, k.stream())))
        });
    }
    group.finish();
}

fn quantize_int8(c: &mut Criterion, gpu: &Gpu, rng: &mut Rng) {
    let k = &gpu.kernels;
    let params = Int8Params::new(0.05, -1.5).unwrap();
    let mut group = c.benchmark_group("quantize_int8");
    for n in [1_000_000, 50_000_000] {
        let x = k.upload(&rng.normals(n, 3.0)).unwrap();
        let mut out = k.alloc::<i8>(n).unwrap();
        group.throughput(Throughput::Bytes(5 * n as u64));
        group.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter_custom(|iters| gpu.time(iters, || k.quantize_int8(&x, params, &mut out, k.stream())))
        });
    }
    group.finish();
}

fn quantize_int8_rows(c: &mut Criterion, gpu: &Gpu, rng: &mut Rng) {
    let k = &gpu.kernels;
    let mut group = c.benchmark_group("quantize_int8_rows");
    for (rows, cols) in [(16, 4096), (4096, 4096)] {
        let x = k.upload(&rng.normals(rows * cols, 3.0)).unwrap();
        let scales: Vec<f32> = (0..rows).map(|_| rng.uniform(0.01, 0.1)).collect();
        let params = k.upload_row_params(&scales, &vec![0.0; rows]).unwrap();
        let mut out = k.alloc::<i8>(rows * cols).unwrap();
        group.throughput(Throughput::Bytes(5 * (rows * cols) as u64 + 8 * rows as u64));
        group.bench_function(BenchmarkId::from_parameter(format!("{rows}x{cols}")), |b| {
            b.iter_custom(|iters| gpu.time(iters, || k.quantize_int8_rows(&x, cols, &params, &mut out, k.stream())))
        });
    }
    group.finish();
}

/// Every int4 version, each with the activation type it takes (f32 for
/// versions 1-2, bf16 for 3-7) and the library's launch choice for the
/// shape (the block of versions 3-6, the split of K of version 7).
fn int4_linear(c: &mut Criterion, gpu: &Gpu, rng: &mut Rng) {
    let k = &gpu.kernels;
    let mut group = c.benchmark_group("int4_linear");
    for (n, kk) in [(4096, 4096), (11008, 4096)] {
        let weights = Int4Weights::quantize(&rng.normals(n * kk, 0.02), n, kk, 128, Int4Mode::Symmetric).unwrap();
        let layer = k.upload_int4_linear(&weights, Some(&rng.normals(n, 0.1))).unwrap();
        for m in [1, 16, 128] {
            let x = rng.normals(m * kk, 1.0);
            for version in Int4LinearVersion::ALL {
                let version = version.tuned(m, n, kk, k.device());
                let id = BenchmarkId::new(format!("v{}", version.number()), format!("{m}x{n}x{kk}"));
                if version.supports::<f32>() {
                    bench_int4::<f32>(&mut group, gpu, id, version, &x, m, &layer);
                } else {
                    bench_int4::<bf16>(&mut group, gpu, id, version, &x, m, &layer);
                }
            }
        }
    }
    group.finish();
}

/// One int4 bench with activations and output of type `T`.
fn bench_int4<T: Float + DeviceCopy + bytemuck::Zeroable>(
    group: &mut BenchmarkGroup<WallTime>,
    gpu: &Gpu,
    id: BenchmarkId,
    version: Int4LinearVersion,
    x: &[f32],
    m: usize,
    layer: &DeviceInt4Linear,
) {
    let k = &gpu.kernels;
    let (n, kk) = (layer.shape().n, layer.shape().k);
    let x = k.upload(&T::from_f32_slice(x)).unwrap();
    let mut y = k.alloc::<T>(m * n).unwrap();
    let bytes = layer.shape().packed_bytes() + size_of::<T>() * (m * kk + m * n) + 4 * n;
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function(id, |b| {
        b.iter_custom(|iters| gpu.time(iters, || k.int4_linear_version(version, &x, m, layer, &mut y, k.stream())))
    });
}

fn main() {
    let kernels = match Kernels::new() {
        Ok(kernels) => kernels,
        Err(e) if std::env::var("REQUIRE_GPU").is_ok_and(|v| v == "1") => {
            eprintln!("REQUIRE_GPU=1 but no usable CUDA device: {e}");
            std::process::exit(1);
        }
        Err(e) => {
            println!("no usable CUDA device ({e}): nothing to benchmark");
            return;
        }
    };
    let event = || Event::new(EventFlags::DEFAULT).expect("event");
    let gpu = Gpu { start: event(), stop: event(), kernels };
    let mut rng = Rng::new(Rng::fresh_seed());
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    add_mul_exp(&mut c, &gpu, &mut rng);
    quantize_int8(&mut c, &gpu, &mut rng);
    quantize_int8_rows(&mut c, &gpu, &mut rng);
    int4_linear(&mut c, &gpu, &mut rng);
    c.final_summary();
}
