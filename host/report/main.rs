//! The main job: every kernel, version and size checked against the CPU
//! reference and timed, printed as tables and written as JSON and a PNG
//! chart; `--kernel NAME --iters N` launches one kernel for a profiler.
//! Without a GPU it says so and runs the CPU reference path instead.
//!
//! ```text
//! cargo run --release                      # = bench: check and time everything
//! cargo run --release -- bench --quick     # fewer cases; --help lists the options
//! cargo run --release -- ptx DIR           # write the embedded PTX, one file per target
//! cargo run --release -- chart JSON PNG    # redraw a saved report's chart (no GPU)
//! ```
//!
//! One concern a file: `cli` (arguments), `cases` (what runs, as data),
//! `api` (the library calls), `workloads` (buffers, launch and check per
//! op), `timing` (CUDA graphs, streams and events), `gpu` and `cpu` (the
//! runs), `model` (rows), `table`, `json` and `chart` (the outputs),
//! `format` (the int4 format's own error).

mod api;
mod cases;
mod chart;
mod cli;
mod cpu;
mod format;
mod gpu;
mod json;
mod model;
mod table;
mod timing;
mod workloads;

use cli::{Command, Options};
use quant_kernels::Kernels;
use quant_kernels::check::Rng;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

/// The report's fallible calls: library, driver and I/O errors, or a message.
pub type Result<T, E = Box<dyn std::error::Error>> = std::result::Result<T, E>;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match cli::parse(&args) {
        Ok(Command::Help) => {
            print!("{}", cli::USAGE);
            ExitCode::SUCCESS
        }
        Ok(Command::Ptx(dir)) => exit(write_ptx(&dir)),
        Ok(Command::Chart(json, png)) => exit(redraw(&json, &png)),
        Ok(Command::Bench(options)) => exit(bench(&options)),
        Err(message) => {
            eprintln!("{message}\n\n{}", cli::USAGE);
            ExitCode::from(2)
        }
    }
}

/// Success, or failure with the error printed.
fn exit(result: Result<bool>) -> ExitCode {
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn write_ptx(dir: &Path) -> Result<bool> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for target in quant_kernels::ptx::targets() {
        let path = dir.join(format!("quant_kernels_{}.ptx", target.name()));
        std::fs::write(&path, target.ptx).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("{}", path.display());
    }
    Ok(true)
}

/// Draws the chart of a saved report again: after a change to the chart,
/// without a GPU.
fn redraw(json: &Path, png: &Path) -> Result<bool> {
    let read = || -> Result<model::Report> {
        let value = serde_json::from_str(&std::fs::read_to_string(json)?)?;
        Ok(json::from_json(&value)?)
    };
    let report = read().map_err(|e| format!("{}: {e}", json.display()))?;
    write(png, |path| chart::draw(&report, path))?;
    println!("wrote {}", png.display());
    Ok(true)
}

/// Runs the bench; `Ok(false)` when a check failed.
fn bench(options: &Options) -> Result<bool> {
    let seed = options.seed.unwrap_or_else(Rng::fresh_seed);
    println!("seed {seed} (replay with --seed {seed})");
    let mut rng = Rng::new(seed);
    if options.iters.is_none() {
        format::print_quantization_error(&mut rng);
    }
    let started = Instant::now();
    let report = match Kernels::new() {
        Ok(kernels) => {
            kernels.set_programmatic_launches(!options.serialized);
            gpu::run(&kernels, options, &mut rng, seed)?
        }
        Err(e) if std::env::var("REQUIRE_GPU").is_ok_and(|v| v == "1") => {
            return Err(format!("REQUIRE_GPU=1 but no usable CUDA device: {e}").into());
        }
        Err(e) if options.iters.is_some() => {
            return Err(format!("--iters launches kernels: no CUDA device ({e})").into());
        }
        Err(e) => {
            println!("\nno usable CUDA device ({e}): running the CPU reference path instead");
            cpu::run(options, &mut rng, seed, format!("CPU only (no CUDA device: {e})"))?
        }
    };
    let matched = |pattern: &String| report.rows.iter().any(|r| r.case.matches(pattern));
    if let Some(pattern) = options.kernel.as_ref().filter(|p| !matched(p)) {
        return Err(format!("no case matches --kernel {pattern:?}; the progress lines show the labels").into());
    }
    let failed = report.failures();
    if let Some(iters) = options.iters {
        println!("\n{} case(s) launched {iters} time(s) each, {failed} check(s) failed", report.rows.len());
        return Ok(failed == 0);
    }
    print!("{}", table::render(&report));
    write(&options.json, |path| Ok(std::fs::write(path, serde_json::to_string_pretty(&json::to_json(&report))?)?))?;
    write(&options.png, |path| chart::draw(&report, path))?;
    println!(
        "\n{:.0} s; wrote {} and {}",
        started.elapsed().as_secs_f64(),
        options.json.display(),
        options.png.display()
    );
    Ok(failed == 0)
}

/// Creates `path`'s folder, then writes it.
fn write(path: &Path, writer: impl FnOnce(&Path) -> Result<()>) -> Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    writer(path).map_err(|e| format!("{}: {e}", path.display()).into())
}
