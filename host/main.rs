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

/// One row of the table.
struct Row {
    kernel: &'static str,
    size: String,
    /// Median seconds per call.
    seconds: f64,
    /// Minimum bytes a call must move (inputs read once, outputs written once).
    bytes: f64,
    error: String,
    ok: bool,
}

/// Prints the table; `copy_bandwidth` (bytes/s, read + written) adds a
/// column with each row's bandwidth as a fraction of it.
fn print_table(rows: &[Row], device: &str, copy_bandwidth: Option<f64>) {
    println!("\n{device}");
    println!(
        "{:<22} {:>22} {:>11} {:>9} {:>7}  {:<24} status",
        "kernel", "size", "time (us)", "GB/s", "% copy", "error"
    );
    for r in rows {
        let bandwidth = r.bytes / r.seconds;
        let fraction = copy_bandwidth.map_or("-".into(), |copy| format!("{:.0}%", 100.0 * bandwidth / copy));
        println!(
            "{:<22} {:>22} {:>11.2} {:>9.1} {:>7}  {:<24} {}",
            r.kernel,
            r.size,
            r.seconds * 1e6,
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
    fn timed(kernel: &'static str, size: String, bytes: usize, mut run: impl FnMut()) -> Row {
        let start = Instant::now();
        run();
        let seconds = start.elapsed().as_secs_f64();
        Row { kernel, size, seconds, bytes: bytes as f64, error: "reference".into(), ok: true }
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
    print_table(&rows, "CPU reference (no GPU)", None);
    rows
}

mod gpu {
    use super::*;
    use quant_kernels::Kernels;
    use quant_kernels::cust::event::{Event, EventFlags};
    use quant_kernels::cust::memory::DeviceBuffer;

    /// Median seconds of `launch` over `REPEATS` timed calls after warm-up,
    /// each bracketed by CUDA events on the handle's stream.
    fn median_seconds(kernels: &Kernels, mut launch: impl FnMut()) -> f64 {
        const REPEATS: usize = 25;
        let stream = kernels.stream();
        let (start, stop) = (Event::new(EventFlags::DEFAULT).unwrap(), Event::new(EventFlags::DEFAULT).unwrap());
        launch();
        let mut times: Vec<f64> = (0..REPEATS)
            .map(|_| {
                start.record(stream).unwrap();
                launch();
                stop.record(stream).unwrap();
                stop.synchronize().unwrap();
                stop.elapsed_time_f32(&start).unwrap() as f64 * 1e-3
            })
            .collect();
        times.sort_by(f64::total_cmp);
        times[REPEATS / 2]
    }

    pub fn run(kernels: &Kernels, rng: &mut Rng) -> Vec<Row> {
        let mut rows = vec![device_copy(kernels)];
        for n in [1 << 20, 50_000_000] {
            rows.push(add_mul_exp(kernels, rng, n));
            rows.push(quantize_int8(kernels, rng, n));
        }
        for (m, n, k) in [(1, 4096, 4096), (1, 11008, 4096), (1, 4096, 11008), (16, 4096, 4096)] {
            for mode in [Int4Mode::Symmetric, Int4Mode::Asymmetric] {
                rows.push(int4_linear(kernels, rng, m, n, k, mode));
            }
        }
        let (major, minor) = kernels.device().compute_capability;
        let device = format!(
            "{} (sm_{major}{minor}, {} SMs), PTX {}; times: median of 25 launches, CUDA events",
            quant_kernels::cust::device::Device::get_device(0).and_then(|d| d.name()).unwrap_or_default(),
            kernels.device().multiprocessors,
            kernels.target().name()
        );
        let copy_bandwidth = rows[0].bytes / rows[0].seconds;
        print_table(&rows, &device, Some(copy_bandwidth));
        rows
    }

    /// The device's copy bandwidth, the ceiling for memory-bound kernels:
    /// a 1 GiB device-to-device copy, counting bytes read and written.
    fn device_copy(kernels: &Kernels) -> Row {
        use quant_kernels::cust::memory::AsyncCopyDestination;
        let n = 1 << 28;
        let source: DeviceBuffer<f32> = kernels.alloc(n).unwrap();
        let mut destination: DeviceBuffer<f32> = kernels.alloc(n).unwrap();
        // SAFETY: both buffers stay alive and untouched by the host until the stream is synchronized.
        let seconds =
            median_seconds(kernels, || unsafe { destination.async_copy_from(&source, kernels.stream()).unwrap() });
        Row {
            kernel: "device copy",
            size: "1 GiB".into(),
            seconds,
            bytes: 2.0 * (4 * n) as f64,
            error: "-".into(),
            ok: true,
        }
    }

    fn add_mul_exp(kernels: &Kernels, rng: &mut Rng, n: usize) -> Row {
        let (x, y) = (rng.normals(n, 1.0), rng.normals(n, 1.0));
        let (dx, dy) = (kernels.upload(&x).unwrap(), kernels.upload(&y).unwrap());
        let mut out: DeviceBuffer<f32> = kernels.alloc(n).unwrap();
        let seconds = median_seconds(kernels, || kernels.add_mul_exp(&dx, &dy, &mut out, kernels.stream()).unwrap());
        let got = kernels.download(&out, kernels.stream()).unwrap();
        let worst = x
            .iter()
            .zip(&y)
            .zip(&got)
            .map(|((&a, &b), &g)| relative_error(g, reference::add_mul_exp_exact(a, b)))
            .fold(0.0, f64::max);
        Row {
            kernel: "add_mul_exp",
            size: format!("{n}"),
            seconds,
            bytes: 12.0 * n as f64,
            error: format!("max rel {worst:.2e}"),
            ok: worst <= 1e-5,
        }
    }

    fn quantize_int8(kernels: &Kernels, rng: &mut Rng, n: usize) -> Row {
        let x = rng.normals(n, 3.0);
        let params = Int8Params::new(0.05, -1.5).unwrap();
        let dx = kernels.upload(&x).unwrap();
        let mut out: DeviceBuffer<i8> = kernels.alloc(n).unwrap();
        let seconds =
            median_seconds(kernels, || kernels.quantize_int8(&dx, params, &mut out, kernels.stream()).unwrap());
        let got = kernels.download(&out, kernels.stream()).unwrap();
        let mismatches = got.iter().zip(reference::quantize_int8(&x, params)).filter(|(g, r)| **g != *r).count();
        Row {
            kernel: "quantize_int8",
            size: format!("{n}"),
            seconds,
            bytes: 5.0 * n as f64,
            error: format!("{mismatches} mismatches"),
            ok: mismatches == 0,
        }
    }

    fn int4_linear(kernels: &Kernels, rng: &mut Rng, m: usize, n: usize, k: usize, mode: Int4Mode) -> Row {
        let weights = Int4Weights::quantize(&rng.normals(n * k, 0.02), n, k, 128, mode).unwrap();
        let (x, bias) = (rng.normals(m * k, 1.0), rng.normals(n, 0.1));
        let layer = kernels.upload_int4_linear(&weights, Some(&bias)).unwrap();
        let dx = kernels.upload(&x).unwrap();
        let mut y: DeviceBuffer<f32> = kernels.alloc(m * n).unwrap();
        let seconds =
            median_seconds(kernels, || kernels.int4_linear(&dx, m, &layer, &mut y, kernels.stream()).unwrap());
        let got = kernels.download(&y, kernels.stream()).unwrap();
        let error = relative_l2_error(&got, &reference::int4_linear(&x, m, &weights, Some(&bias)).unwrap());
        let mode = match mode {
            Int4Mode::Symmetric => "sym",
            Int4Mode::Asymmetric => "asym",
        };
        Row {
            kernel: "int4_linear",
            size: format!("{m}x{n}x{k} {mode} g128"),
            seconds,
            bytes: (weights.shape().packed_bytes() + 4 * (m * k + m * n + n)) as f64,
            error: format!("rel l2 {error:.2e}"),
            ok: error <= 1e-5,
        }
    }
}
