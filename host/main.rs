//! The main job: run every kernel on fresh random inputs, check it against
//! the CPU reference and print a table (kernel, size, time, GB/s, error).
//! Without a GPU it says so and runs the CPU reference path instead.
//!
//! ```text
//! cargo run --release                 # the check-and-time table
//! cargo run --release -- ptx DIR      # write the embedded PTX, one file per target
//! ```

use quant_kernels::check::{Rng, relative_error, relative_l2_error};
use quant_kernels::{Int4Mode, Int4Weights, Int8Params, reference};
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        [] => run_all(),
        ["ptx", dir] => write_ptx(dir),
        _ => {
            eprintln!("usage: quant-kernels [ptx DIR]");
            ExitCode::FAILURE
        }
    }
}

fn write_ptx(dir: &str) -> ExitCode {
    let dir = std::path::Path::new(dir);
    for target in quant_kernels::ptx::targets() {
        let path = dir.join(format!("quant_kernels_{}.ptx", target.name()));
        if let Err(e) = std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&path, target.ptx)) {
            eprintln!("{}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        println!("{}", path.display());
    }
    ExitCode::SUCCESS
}

/// Seconds per call: median and range over the samples.
#[derive(Clone, Copy)]
struct Seconds {
    median: f64,
    min: f64,
    max: f64,
}

impl Seconds {
    fn of(mut samples: Vec<f64>) -> Self {
        samples.sort_by(f64::total_cmp);
        Self { median: samples[samples.len() / 2], min: samples[0], max: samples[samples.len() - 1] }
    }
}

/// One row of the table.
struct Row {
    kernel: String,
    size: String,
    /// With the inputs out of L2 (the figure the bandwidth columns use).
    cold: Seconds,
    /// With the inputs left in L2 by the previous call, where they fit.
    hot: Option<Seconds>,
    /// Minimum bytes a call must move (inputs read once, outputs written once).
    bytes: f64,
    error: String,
    ok: bool,
}

/// Prints the table; `copy_bandwidth` (bytes/s, read + written) adds a
/// column with each row's cold bandwidth as a fraction of it.
fn print_table(rows: &[Row], title: &str, copy_bandwidth: Option<f64>) {
    println!("\n{title}");
    println!(
        "{:<19} {:>22} {:>10} {:>17} {:>9} {:>8} {:>7}  {:<22} status",
        "kernel", "size", "cold (us)", "cold range", "hot (us)", "GB/s", "% copy", "error"
    );
    for r in rows {
        let bandwidth = r.bytes / r.cold.median;
        let fraction = copy_bandwidth.map_or("-".into(), |copy| format!("{:.0}%", 100.0 * bandwidth / copy));
        let hot = r.hot.map_or("-".into(), |h| format!("{:.2}", h.median * 1e6));
        println!(
            "{:<19} {:>22} {:>10.2} {:>17} {:>9} {:>8.1} {:>7}  {:<22} {}",
            r.kernel,
            r.size,
            r.cold.median * 1e6,
            format!("{:.2}-{:.2}", r.cold.min * 1e6, r.cold.max * 1e6),
            hot,
            bandwidth / 1e9,
            fraction,
            r.error,
            if r.ok { "ok" } else { "FAIL" }
        );
    }
}

fn run_all() -> ExitCode {
    let seed = Rng::fresh_seed();
    println!("seed {seed}");
    let mut rng = Rng::new(seed);
    print_quantization_error(&mut rng);

    let rows = match quant_kernels::Kernels::new() {
        Ok(kernels) => gpu::run(&kernels, &mut rng),
        Err(e) => {
            println!("\nno usable CUDA device ({e}): running the CPU reference path instead");
            cpu_reference(&mut rng)
        }
    };
    let failed = rows.iter().filter(|r| !r.ok).count();
    if failed > 0 {
        eprintln!("{failed} check(s) failed (seed {seed})");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// Memory ratio and quantization error of the int4 format on Gaussian weights.
fn print_quantization_error(rng: &mut Rng) {
    let (n, k) = (256, 4096);
    let weights = rng.normals(n * k, 0.02);
    let norm: f64 = weights.iter().map(|&w| (w as f64).powi(2)).sum::<f64>().sqrt();
    println!("\nint4 weights, {n}x{k} Gaussian: size against f32, and ||W - dequant(W)|| / ||W||");
    for mode in [Int4Mode::Symmetric, Int4Mode::Asymmetric] {
        for group in [32, 64, 128] {
            let packed = Int4Weights::quantize(&weights, n, k, group, mode).expect("valid shape");
            let diff: f64 = packed
                .dequantize()
                .iter()
                .zip(&weights)
                .map(|(&q, &w)| (q as f64 - w as f64).powi(2))
                .sum::<f64>()
                .sqrt();
            let ratio = (4 * n * k) as f64 / packed.shape().packed_bytes() as f64;
            println!("  {mode:?} G={group:<3}  {ratio:.2}x smaller  error {:.4}", diff / norm);
        }
    }
}

/// The table without a GPU: the reference implementations, timed on the CPU.
fn cpu_reference(rng: &mut Rng) -> Vec<Row> {
    /// Times one call of a reference implementation.
    fn timed(kernel: &str, size: String, bytes: usize, mut run: impl FnMut()) -> Row {
        let start = Instant::now();
        run();
        let seconds = start.elapsed().as_secs_f64();
        let cold = Seconds { median: seconds, min: seconds, max: seconds };
        Row { kernel: kernel.into(), size, cold, hot: None, bytes: bytes as f64, error: "reference".into(), ok: true }
    }
    let n = 1 << 20;
    let (x, y) = (rng.normals(n, 1.0), rng.normals(n, 1.0));
    let params = Int8Params::new(0.05, 3.0).expect("valid parameters");
    let (m, rows_n, k) = (1, 1024, 4096);
    let weights = Int4Weights::quantize(&rng.normals(rows_n * k, 0.02), rows_n, k, 128, Int4Mode::Symmetric)
        .expect("valid shape");
    let activations = rng.normals(m * k, 1.0);
    let linear_bytes = weights.shape().packed_bytes() + 4 * m * (k + rows_n);
    let rows = vec![
        timed("add_mul_exp (cpu)", format!("{n}"), 12 * n, || drop(reference::add_mul_exp(&x, &y))),
        timed("quantize_int8 (cpu)", format!("{n}"), 5 * n, || drop(reference::quantize_int8(&x, params))),
        timed("int4_linear (cpu)", format!("m={m} n={rows_n} k={k}"), linear_bytes, || {
            drop(reference::int4_linear(&activations, m, &weights, None))
        }),
    ];
    print_table(&rows, "CPU reference (no GPU), one call each", None);
    rows
}

mod gpu {
    use super::*;
    use quant_kernels::Kernels;
    use quant_kernels::cust::device::{Device, DeviceAttribute};
    use quant_kernels::cust::event::{Event, EventFlags};
    use quant_kernels::cust::memory::{DeviceBuffer, DeviceCopy};
    use quant_kernels::half::{bf16, f16};
    use quant_kernels::int4_linear::Int4LinearVersion;

    /// Timed samples per figure, and launches per sample.
    const SAMPLES: usize = 15;
    const LAUNCHES: usize = 20;

    /// What the timing needs to know about the device.
    pub struct Bench<'a> {
        kernels: &'a Kernels,
        l2_bytes: usize,
    }

    impl Bench<'_> {
        /// Buffer sets a call of `bytes` needs so that, launched in turn, each
        /// finds its data evicted: together more than twice the L2.
        fn cold_sets(&self, bytes: usize) -> usize {
            (2 * self.l2_bytes).div_ceil(bytes.max(1)).max(1)
        }

        /// `sets` device copies of `host`.
        fn copies<T: DeviceCopy>(&self, host: &[T], sets: usize) -> Vec<DeviceBuffer<T>> {
            (0..sets).map(|_| self.kernels.upload(host).unwrap()).collect()
        }

        /// Zeroed device buffers, `sets` of `len` elements.
        fn outputs<T: DeviceCopy + bytemuck::Zeroable>(&self, len: usize, sets: usize) -> Vec<DeviceBuffer<T>> {
            (0..sets).map(|_| self.kernels.alloc(len).unwrap()).collect()
        }

        /// Seconds per call of `launch(set)`: each sample spans `LAUNCHES`
        /// back-to-back launches between two events (no host round trip
        /// inside), rotating over `sets` buffer sets. One warm-up pass first.
        fn seconds(&self, sets: usize, mut launch: impl FnMut(usize)) -> Seconds {
            let stream = self.kernels.stream();
            let (start, stop) = (Event::new(EventFlags::DEFAULT).unwrap(), Event::new(EventFlags::DEFAULT).unwrap());
            (0..sets).for_each(&mut launch);
            let samples = (0..SAMPLES)
                .map(|sample| {
                    start.record(stream).unwrap();
                    for i in 0..LAUNCHES {
                        launch((sample * LAUNCHES + i) % sets);
                    }
                    stop.record(stream).unwrap();
                    stop.synchronize().unwrap();
                    stop.elapsed_time_f32(&start).unwrap() as f64 * 1e-3 / LAUNCHES as f64
                })
                .collect();
            Seconds::of(samples)
        }

        /// Cold (rotating over `sets`) and hot (set 0 again and again) timings.
        fn cold_and_hot(&self, sets: usize, mut launch: impl FnMut(usize)) -> (Seconds, Option<Seconds>) {
            let cold = self.seconds(sets, &mut launch);
            let hot = (sets > 1).then(|| self.seconds(1, &mut launch));
            (cold, hot)
        }
    }

    pub fn run(kernels: &Kernels, rng: &mut Rng) -> Vec<Row> {
        let device = Device::get_device(0).unwrap();
        let l2_bytes = device.get_attribute(DeviceAttribute::L2CacheSize).unwrap() as usize;
        let bench = Bench { kernels, l2_bytes };
        let mut rows = vec![device_copy(&bench)];
        for n in [1 << 20, 50_000_000] {
            rows.push(add_mul_exp(&bench, rng, n));
            rows.push(quantize_int8(&bench, rng, n));
        }
        for (m, n, k) in
            [(1, 4096, 4096), (1, 11008, 4096), (1, 4096, 11008), (1, 8192, 28672), (16, 4096, 4096), (16, 8192, 28672)]
        {
            for mode in [Int4Mode::Symmetric, Int4Mode::Asymmetric] {
                for version in Int4LinearVersion::ALL {
                    if version.supports::<f32>() && (m == 1 || version == Int4LinearVersion::V1) {
                        rows.push(int4_linear::<f32>(&bench, rng, version, m, n, k, mode));
                    }
                    if version.supports::<f16>() {
                        rows.push(int4_linear::<f16>(&bench, rng, version, m, n, k, mode));
                        rows.push(int4_linear::<bf16>(&bench, rng, version, m, n, k, mode));
                    }
                }
            }
        }
        let (major, minor) = kernels.device().compute_capability;
        let title = format!(
            "{} (sm_{major}{minor}, {} SMs, {} MB L2), PTX {}. Per call: median over {SAMPLES} samples of \
             {LAUNCHES} back-to-back launches (CUDA events); cold: rotating over buffer sets > 2x L2, hot: one set",
            device.name().unwrap_or_default(),
            kernels.device().multiprocessors,
            l2_bytes >> 20,
            kernels.target().name()
        );
        let copy_bandwidth = rows[0].bytes / rows[0].cold.median;
        print_table(&rows, &title, Some(copy_bandwidth));
        rows
    }

    /// The device's copy bandwidth, the ceiling for memory-bound kernels:
    /// a 1 GiB device-to-device copy, counting bytes read and written.
    fn device_copy(bench: &Bench) -> Row {
        use quant_kernels::cust::memory::AsyncCopyDestination;
        let n = 1 << 28;
        let source: DeviceBuffer<f32> = bench.kernels.alloc(n).unwrap();
        let mut destination: DeviceBuffer<f32> = bench.kernels.alloc(n).unwrap();
        let stream = bench.kernels.stream();
        // SAFETY: both buffers stay alive and untouched by the host until the stream is synchronized.
        let cold = bench.seconds(1, |_| unsafe { destination.async_copy_from(&source, stream).unwrap() });
        let bytes = 2.0 * (4 * n) as f64;
        Row { kernel: "device copy".into(), size: "1 GiB".into(), cold, hot: None, bytes, error: "-".into(), ok: true }
    }

    fn add_mul_exp(bench: &Bench, rng: &mut Rng, n: usize) -> Row {
        let kernels = bench.kernels;
        let (x, y) = (rng.normals(n, 1.0), rng.normals(n, 1.0));
        let sets = bench.cold_sets(12 * n);
        let (dx, dy) = (bench.copies(&x, sets), bench.copies(&y, sets));
        let mut out = bench.outputs::<f32>(n, sets);
        let (cold, hot) =
            bench.cold_and_hot(sets, |s| kernels.add_mul_exp(&dx[s], &dy[s], &mut out[s], kernels.stream()).unwrap());
        let got = kernels.download(&out[0], kernels.stream()).unwrap();
        let worst =
            (0..n).map(|i| relative_error(got[i], reference::add_mul_exp_exact(x[i], y[i]))).fold(0.0, f64::max);
        Row {
            kernel: "add_mul_exp".into(),
            size: format!("{n}"),
            cold,
            hot,
            bytes: 12.0 * n as f64,
            error: format!("max rel {worst:.2e}"),
            ok: worst <= 1e-5,
        }
    }

    fn quantize_int8(bench: &Bench, rng: &mut Rng, n: usize) -> Row {
        let kernels = bench.kernels;
        let x = rng.normals(n, 3.0);
        let params = Int8Params::new(0.05, -1.5).unwrap();
        let sets = bench.cold_sets(5 * n);
        let dx = bench.copies(&x, sets);
        let mut out = bench.outputs::<i8>(n, sets);
        let (cold, hot) =
            bench.cold_and_hot(sets, |s| kernels.quantize_int8(&dx[s], params, &mut out[s], kernels.stream()).unwrap());
        let got = kernels.download(&out[0], kernels.stream()).unwrap();
        let mismatches = got.iter().zip(reference::quantize_int8(&x, params)).filter(|(g, r)| **g != *r).count();
        Row {
            kernel: "quantize_int8".into(),
            size: format!("{n}"),
            cold,
            hot,
            bytes: 5.0 * n as f64,
            error: format!("{mismatches} mismatches"),
            ok: mismatches == 0,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn int4_linear<T: quant_kernels::Float + DeviceCopy + bytemuck::Pod>(
        bench: &Bench,
        rng: &mut Rng,
        version: Int4LinearVersion,
        m: usize,
        n: usize,
        k: usize,
        mode: Int4Mode,
    ) -> Row {
        let kernels = bench.kernels;
        let weights = Int4Weights::quantize(&rng.normals(n * k, 0.02), n, k, 128, mode).unwrap();
        let (x, bias) = (T::from_f32_slice(&rng.normals(m * k, 1.0)), rng.normals(n, 0.1));
        let element = size_of::<T>();
        let bytes = weights.shape().packed_bytes() + element * (m * k + m * n) + 4 * n;
        let sets = bench.cold_sets(bytes);
        let layers: Vec<_> = (0..sets).map(|_| kernels.upload_int4_linear(&weights, Some(&bias)).unwrap()).collect();
        let dx = bench.copies(&x, sets);
        let mut y = bench.outputs::<T>(m * n, sets);
        let (cold, hot) = bench.cold_and_hot(sets, |s| {
            kernels.int4_linear_version(version, &dx[s], m, &layers[s], &mut y[s], kernels.stream()).unwrap()
        });
        let got = T::to_f32_vec(&kernels.download(&y[0], kernels.stream()).unwrap());
        let expected = reference::int4_linear(&T::to_f32_vec(&x), m, &weights, Some(&bias)).unwrap();
        let error = relative_l2_error(&got, &expected);
        let mode = match mode {
            Int4Mode::Symmetric => "sym",
            Int4Mode::Asymmetric => "asym",
        };
        let bound = quant_kernels::PerFloat { f32: 1e-5, f16: 2e-3, bf16: 1e-2 }.get::<T>();
        Row {
            kernel: format!("int4 v{} {}", version.number(), T::NAME),
            size: format!("{m}x{n}x{k} {mode} g128"),
            cold,
            hot,
            bytes: bytes as f64,
            error: format!("rel l2 {error:.2e}"),
            ok: error <= bound,
        }
    }
}
