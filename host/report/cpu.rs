//! The report without a GPU: the CPU reference implementations on the
//! smaller cases, timed on the host clock, so that the table, the JSON and
//! the chart still come out (and say what ran).

use crate::cases::{ELEMENTWISE_OPS, LINEAR_GROUP};
use crate::cli::Options;
use crate::model::{Case, Dtype, LinearShape, Op, Report, Row, Size, Stats, Timing, utc_now};
use quant_kernels::check::Rng;
use quant_kernels::{Int4Mode, Int4Weights, Int8Params, reference};
use std::hint::black_box;
use std::time::Instant;

/// Calls timed per case.
const CALLS: usize = 3;
/// The largest elementwise case the CPU runs.
const MAX_ELEMENTS: usize = 5_000_000;
/// The one linear shape, and the largest M, the CPU runs.
const LINEAR_SHAPE: (usize, usize) = (4096, 4096);
const MAX_M: usize = 16;
/// f32 words of the host copy: 256 MiB.
const COPY_WORDS: usize = 1 << 26;

/// Host seconds per call over [`CALLS`] calls.
fn timed(mut call: impl FnMut()) -> Stats {
    Stats::of(
        (0..CALLS)
            .map(|_| {
                let clock = Instant::now();
                call();
                clock.elapsed().as_secs_f64()
            })
            .collect(),
    )
}

fn case(op: Op, kernel: &'static str, size: Size) -> Case {
    Case { op, kernel, version: "ref".into(), dtype: Dtype::F32, block: None, size }
}

fn row(case: Case, cpu: Stats) -> Row {
    let timing = Timing { cpu: Some(cpu), ..Timing::default() };
    Row { case, fits_l2: false, timing, check: "reference".into(), ok: true }
}

/// Runs the selected CPU cases; `device` says why there is no GPU.
pub fn run(options: &Options, rng: &mut Rng, seed: u64, device: String) -> crate::Result<Report> {
    let date = utc_now();
    let selected = |case: &Case| options.kernel.as_deref().is_none_or(|p| case.matches(p));
    let selection = options.selection;
    let source = vec![1.0f32; COPY_WORDS];
    let mut destination = vec![0.0f32; COPY_WORDS];
    let copy = timed(|| {
        destination.copy_from_slice(black_box(&source));
        black_box(&mut destination);
    });
    let mut rows = vec![row(case(Op::Copy, "memcpy", Size::Elements(COPY_WORDS)), copy)];
    for op in ELEMENTWISE_OPS {
        for &n in selection.elementwise_sizes().iter().filter(|&&n| n <= MAX_ELEMENTS) {
            let case = case(op, "cpu_reference", Size::Elements(n));
            if !selected(&case) {
                continue;
            }
            let x = rng.normals(n, 1.0);
            let stats = match op {
                Op::AddMulExp => {
                    let y = rng.normals(n, 1.0);
                    timed(|| drop(black_box(reference::add_mul_exp(&x, &y))))
                }
                _ => {
                    let params = Int8Params::new(0.05, -1.5)?;
                    timed(|| drop(black_box(reference::quantize_int8(&x, params))))
                }
            };
            rows.push(row(case, stats));
        }
    }
    let (n, k) = LINEAR_SHAPE;
    let weights = Int4Weights::quantize(&rng.normals(n * k, 0.02), n, k, LINEAR_GROUP, Int4Mode::Symmetric)?;
    let bias = rng.normals(n, 0.1);
    for &m in selection.linear_ms().iter().filter(|&&m| m <= MAX_M) {
        let shape = LinearShape { m, n, k, group: LINEAR_GROUP, mode: Int4Mode::Symmetric };
        let case = case(Op::Linear, "cpu_reference", Size::Linear(shape));
        if !selected(&case) {
            continue;
        }
        let x = rng.normals(m * k, 1.0);
        rows.push(row(case, timed(|| drop(black_box(reference::int4_linear(&x, m, &weights, Some(&bias)))))));
    }
    Ok(Report {
        device,
        date,
        compute_capability: None,
        ptx_target: None,
        l2_bytes: None,
        multiprocessors: None,
        driver: None,
        programmatic_launches: None,
        seed,
        samples: CALLS,
        rows,
    })
}
