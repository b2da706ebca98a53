//! The report on a GPU: every selected case checked against the CPU
//! reference and then timed (timing.rs), or, with `--iters N`, launched N
//! times on the stream for a profiler and checked.

use crate::api::{self, Activation, Variant};
use crate::cases::{DTYPES, ELEMENTWISE_OPS, ELEMENTWISE_VERSIONS, LINEAR_GROUP, linear_variant_timed};
use crate::cli::Options;
use crate::model::{Case, Dtype, LinearShape, Op, Report, Row, Size, Timing, utc_now};
use crate::timing::{SAMPLES, Timer};
use crate::workloads::{AddMulExp, Linear, LinearInputs, MemCopy, QuantizeInt8, Workload};
use quant_kernels::check::Rng;
use quant_kernels::cust::CudaApiVersion;
use quant_kernels::cust::device::{Device, DeviceAttribute};
use quant_kernels::half::{bf16, f16};
use quant_kernels::int4_linear::Int4LinearVersion;
use quant_kernels::{Int4Weights, Int8Params, Kernels, reference};
use std::time::Instant;

/// f32 words of the device copy: 1 GiB.
const COPY_WORDS: usize = 1 << 28;

/// Runs the selected cases on `kernels`' device.
pub fn run(kernels: &Kernels, options: &Options, rng: &mut Rng, seed: u64) -> crate::Result<Report> {
    let date = utc_now();
    let device = Device::get_device(0)?;
    let l2_bytes = device.get_attribute(DeviceAttribute::L2CacheSize)? as usize;
    let mut runner =
        Runner { kernels, timer: Timer::new(kernels, l2_bytes)?, options, rows: Vec::new(), started: Instant::now() };
    runner.copy()?;
    runner.elementwise(rng)?;
    runner.linear(rng)?;
    Ok(Report {
        device: device.name()?,
        date,
        compute_capability: Some(kernels.device().compute_capability),
        ptx_target: Some(kernels.target().name()),
        l2_bytes: Some(l2_bytes),
        multiprocessors: Some(kernels.device().multiprocessors),
        driver: CudaApiVersion::get().ok().map(|v| format!("{}.{}", v.major(), v.minor())),
        programmatic_launches: Some(kernels.programmatic_launches()),
        seed,
        samples: SAMPLES,
        rows: runner.rows,
    })
}

/// A variant and the case it makes.
type Cases<V> = Vec<(Variant<V>, Case)>;

struct Runner<'k, 'o> {
    kernels: &'k Kernels,
    timer: Timer<'k>,
    options: &'o Options,
    rows: Vec<Row>,
    started: Instant,
}

impl Runner<'_, '_> {
    /// The cases of `variants` that `--kernel` selects.
    fn cases<V: Copy>(
        &self,
        variants: Vec<Variant<V>>,
        case: impl Fn(Variant<V>) -> crate::Result<Case>,
    ) -> crate::Result<Cases<V>> {
        let pattern = self.options.kernel.as_deref();
        let mut cases = Vec::new();
        for variant in variants {
            let case = case(variant)?;
            // A swept block larger than the compiled kernel takes (its
            // registers allow fewer threads) is not a case; the library's
            // own choice always runs, so that a wrong one fails.
            let kernel_takes = |threads| self.kernels.max_block_threads(case.kernel).is_none_or(|max| threads <= max);
            let swept_too_large = variant.block.is_some() && !case.block.is_none_or(kernel_takes);
            if pattern.is_none_or(|p| case.matches(p)) && !swept_too_large {
                cases.push((variant, case));
            }
        }
        Ok(cases)
    }

    /// Buffer sets for a case moving `bytes`: enough to run cold, or one
    /// when only launching.
    fn sets(&self, bytes: u64) -> usize {
        if self.options.iters.is_some() { 1 } else { self.timer.cold_sets(bytes) }
    }

    /// The bandwidth ceiling, measured whenever timing (the `% copy` column
    /// needs it), launched with `--iters` only when `--kernel` selects it.
    fn copy(&mut self) -> crate::Result<()> {
        let case = Case {
            op: Op::Copy,
            kernel: MemCopy::KERNEL,
            version: "driver".into(),
            dtype: Dtype::F32,
            block: None,
            size: Size::Elements(COPY_WORDS),
        };
        let selected = self.options.kernel.as_deref().is_none_or(|p| case.matches(p));
        if self.options.iters.is_some() && !selected {
            return Ok(());
        }
        let mut copy = MemCopy::new(self.kernels, COPY_WORDS)?;
        self.run(case, 1, &mut copy);
        Ok(())
    }

    fn elementwise(&mut self, rng: &mut Rng) -> crate::Result<()> {
        let selection = self.options.selection;
        for op in ELEMENTWISE_OPS {
            for &n in selection.elementwise_sizes() {
                for dtype in DTYPES {
                    let variants = selection.variants(op, &ELEMENTWISE_VERSIONS, dtype);
                    let cases = self.cases(variants, |v| api::elementwise_case(op, n, v, self.kernels.device()))?;
                    if cases.is_empty() {
                        continue;
                    }
                    match dtype {
                        Dtype::F32 => self.elementwise_in::<f32>(op, n, &cases, rng)?,
                        Dtype::F16 => self.elementwise_in::<f16>(op, n, &cases, rng)?,
                        Dtype::Bf16 => self.elementwise_in::<bf16>(op, n, &cases, rng)?,
                    }
                }
            }
        }
        Ok(())
    }

    /// Every variant of one elementwise op and size in `T`, on one set of
    /// fresh inputs.
    fn elementwise_in<T: Activation>(
        &mut self,
        op: Op,
        n: usize,
        cases: &Cases<u32>,
        rng: &mut Rng,
    ) -> crate::Result<()> {
        let (first, sets) = (cases[0].0, self.sets(cases[0].1.bytes()));
        match op {
            Op::AddMulExp => {
                // sigma 0.5: exp(2 (x + y)) stays inside f16's range (about
                // 6e-5 to 65504) over 50M draws, so every type checks finite results.
                let (x, y) = (rng.normals(n, 0.5), rng.normals(n, 0.5));
                let mut workload = AddMulExp::<T>::new(self.kernels, first, &x, &y, sets)?;
                self.run_variants(cases, sets, &mut workload, |w, v| w.variant = v);
            }
            Op::QuantizeInt8 => {
                let x = rng.normals(n, 3.0);
                let params = Int8Params::new(0.05, -1.5)?;
                let mut workload = QuantizeInt8::<T>::new(self.kernels, first, &x, params, sets)?;
                self.run_variants(cases, sets, &mut workload, |w, v| w.variant = v);
            }
            Op::Copy | Op::Linear => return Err(format!("{} is not elementwise", op.name()).into()),
        }
        Ok(())
    }

    fn linear(&mut self, rng: &mut Rng) -> crate::Result<()> {
        let selection = self.options.selection;
        for &(n, k) in selection.linear_shapes() {
            // The selected cases of this shape by mode and type, then by M.
            let mut groups = Vec::new();
            for &mode in selection.linear_modes() {
                for dtype in DTYPES {
                    let mut per_m = Vec::new();
                    for &m in selection.linear_ms() {
                        let shape = LinearShape { m, n, k, group: LINEAR_GROUP, mode };
                        let versions = api::linear_versions(dtype, shape, self.kernels.device());
                        let mut variants = selection.variants(Op::Linear, &versions, dtype);
                        variants
                            .retain(|v| api::linear_block_applies(v, m) && linear_variant_timed(m, mode, v.version));
                        let cases = self.cases(variants, |v| api::linear_case(shape, v))?;
                        if !cases.is_empty() {
                            per_m.push((m, cases));
                        }
                    }
                    if !per_m.is_empty() {
                        groups.push((mode, dtype, per_m));
                    }
                }
            }
            let Some(max_m) = groups.iter().flat_map(|(_, _, per_m)| per_m.iter().map(|(m, _)| *m)).max() else {
                continue;
            };
            // One draw of weights, bias and activations serves every mode,
            // type and M of the shape (each M takes the first M rows).
            let weights = rng.normals(n * k, 0.02);
            let bias = rng.normals(n, 0.1);
            let x = rng.normals(max_m * k, 1.0);
            for (mode, dtype, per_m) in groups {
                let packed = Int4Weights::quantize(&weights, n, k, LINEAR_GROUP, mode)?;
                match dtype {
                    Dtype::F32 => self.linear_in::<f32>(&packed, &bias, &x, &per_m)?,
                    Dtype::F16 => self.linear_in::<f16>(&packed, &bias, &x, &per_m)?,
                    Dtype::Bf16 => self.linear_in::<bf16>(&packed, &bias, &x, &per_m)?,
                }
            }
        }
        Ok(())
    }

    /// Every M and variant of one weight matrix in `T`: the f64 reference is
    /// computed once, for the largest M, and each M checks its first rows.
    fn linear_in<T: Activation>(
        &mut self,
        weights: &Int4Weights,
        bias: &[f32],
        x: &[f32],
        per_m: &[(usize, Cases<Int4LinearVersion>)],
    ) -> crate::Result<()> {
        let (n, k) = (weights.shape().n, weights.shape().k);
        let max_m = per_m.iter().map(|(m, _)| *m).max().unwrap_or(0);
        let x = T::from_f32_slice(&x[..max_m * k]);
        // The f64 reference of every row would take minutes at M = 1024 on
        // the large shapes: it takes the rows of `checked_rows` only.
        let rows = checked_rows(per_m.iter().map(|(m, _)| *m));
        let x_rows: Vec<f32> = rows.iter().flat_map(|&r| T::to_f32_vec(&x[r * k..(r + 1) * k])).collect();
        let expected = reference::int4_linear(&x_rows, rows.len(), weights, Some(bias))?;
        for (m, cases) in per_m {
            let m = *m;
            let sets = self.sets(cases[0].1.bytes());
            // `rows` is sorted: those below m come first.
            let checked = rows.partition_point(|&r| r < m);
            let (rows, expected) = (&rows[..checked], &expected[..checked * n]);
            let inputs = LinearInputs { weights, bias, x: &x[..m * k], m, rows, expected };
            let variants: Vec<_> = cases.iter().map(|(variant, _)| *variant).collect();
            let mut workload = Linear::<T>::new(self.kernels, &variants, inputs, sets)?;
            self.run_variants(cases, sets, &mut workload, |w, v| w.variant = v);
        }
        Ok(())
    }

    /// Runs each case on the same workload, `select` switching its variant.
    fn run_variants<V: Copy, W: Workload>(
        &mut self,
        cases: &Cases<V>,
        sets: usize,
        workload: &mut W,
        select: impl Fn(&mut W, Variant<V>),
    ) {
        for (variant, case) in cases {
            select(workload, *variant);
            self.run(case.clone(), sets, workload);
        }
    }

    /// Checks and times one case (or launches it `--iters` times), prints a
    /// progress line and keeps the row: a failed row when anything failed.
    fn run(&mut self, case: Case, sets: usize, workload: &mut dyn Workload) {
        let label = case.label();
        let measured = match self.options.iters {
            Some(iters) => self.launch_only(case.clone(), iters, workload),
            None => self.check_and_time(case.clone(), sets, workload),
        };
        // A failed case is a failed row; the rest still run, unless the
        // failure broke the context, when they fail in turn.
        let row = measured.unwrap_or_else(|error| Row {
            fits_l2: self.timer.fits_l2(case.bytes()),
            case,
            timing: Timing::default(),
            check: format!("error: {error}"),
            ok: false,
        });
        let figure = match (row.timing.cold(), self.options.iters) {
            (Some(cold), _) => format!("{:.2} us {} cold", cold.median * 1e6, row.timing.cold_method()),
            (None, Some(iters)) => format!("launched {iters} times"),
            (None, None) => "not timed".into(),
        };
        let status = if row.ok { "ok" } else { "FAIL" };
        eprintln!("[{:6.1} s] {label}: {figure}, {} {status}", self.started.elapsed().as_secs_f64(), row.check);
        if let Some(error) = &row.timing.graph_error {
            eprintln!("           no graph figures: {error}");
        }
        self.rows.push(row);
    }

    /// The check comes first, on one launch into a poisoned output; the
    /// same launch, timed, sizes the samples.
    fn check_and_time(&self, case: Case, sets: usize, workload: &mut dyn Workload) -> crate::Result<Row> {
        workload.poison()?;
        let once = self.timer.once(&mut |set| workload.launch(set))?;
        let (check, ok) = workload.check()?;
        let fits_l2 = self.timer.fits_l2(case.bytes());
        let timing = self.timer.measure(sets, fits_l2, once, &mut |set| workload.launch(set))?;
        Ok(Row { case, fits_l2, timing, check, ok })
    }

    /// `iters` plain launches on the stream (no graph, no events), then the
    /// check, so that a profiler sees ordinary launches.
    fn launch_only(&self, case: Case, iters: usize, workload: &mut dyn Workload) -> crate::Result<Row> {
        workload.poison()?;
        for _ in 0..iters {
            workload.launch(0)?;
        }
        let (check, ok) = workload.check()?;
        Ok(Row { fits_l2: self.timer.fits_l2(case.bytes()), case, timing: Timing::default(), check, ok })
    }
}

/// The activation rows whose outputs the report checks, for cases of the
/// given `M`s (each takes the first `M` rows): all of the first 16, then
/// every 61st up to row 1024 (a stride that visits every position in a
/// 128-row tile), every 509th past it (the f64 reference of every 61st row
/// of M = 8192 would take minutes), and the last row of each `M`; sorted,
/// without repeats. (The tests check every row, on smaller shapes.)
fn checked_rows(ms: impl Iterator<Item = usize> + Clone) -> Vec<usize> {
    const ALL_BELOW: usize = 16;
    const DENSE_BELOW: usize = 1024;
    let max_m = ms.clone().max().unwrap_or(0);
    let mut rows: Vec<usize> = (0..max_m.min(ALL_BELOW))
        .chain((ALL_BELOW..max_m.min(DENSE_BELOW)).step_by(61))
        .chain((DENSE_BELOW..max_m).step_by(509))
        .chain(ms.map(|m| m - 1))
        .collect();
    rows.sort_unstable();
    rows.dedup();
    rows
}

#[cfg(test)]
mod tests {
    use super::checked_rows;

    #[test]
    fn checked_rows_cover_every_tile_position_and_last_row() {
        let rows = checked_rows([1, 16, 128, 1024].into_iter());
        assert!(rows.windows(2).all(|w| w[0] < w[1]) && rows.len() == 35);
        assert!(rows.starts_with(&(0..16).collect::<Vec<_>>()));
        for last in [127, 1023] {
            assert!(rows.contains(&last));
        }
        // 61 and 128 are coprime: the rows past 16 fall on distinct places in a tile.
        let places: std::collections::HashSet<_> = rows.iter().filter(|&&r| r >= 16).map(|r| r % 128).collect();
        assert!(places.len() >= 17);
    }

    #[test]
    fn checked_rows_thin_out_past_1024() {
        let rows = checked_rows([1, 16, 128, 256, 1024, 8192].into_iter());
        assert!(rows.contains(&8191) && rows.contains(&1024) && rows.contains(&255));
        assert_eq!(rows.iter().filter(|&&r| r >= 1024).count(), 8192_usize.div_ceil(509) - 2 + 1);
    }
}
