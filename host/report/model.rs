//! What the report measures and writes: cases, their figures, rows and the
//! run's metadata. The table, the JSON and the chart all read these types;
//! nothing here touches the GPU.

use quant_kernels::{Int4Mode, Int4Shape};

/// The operation a row measures, named as in the JSON (the PyTorch peers
/// write the same names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Op {
    /// The device-to-device copy that sets the bandwidth ceiling.
    Copy,
    AddMulExp,
    QuantizeInt8,
    Linear,
}

impl Op {
    pub fn name(self) -> &'static str {
        match self {
            Op::Copy => "copy",
            Op::AddMulExp => "add_mul_exp",
            Op::QuantizeInt8 => "quantize_int8",
            Op::Linear => "linear",
        }
    }

    /// What it computes, for section headings.
    pub fn formula(self) -> &'static str {
        match self {
            Op::Copy => "copy of a buffer, bytes read + written",
            Op::AddMulExp => "out = exp((x + y) * 2)",
            Op::QuantizeInt8 => "q = clamp(round(x / s + zp), -128, 127), per tensor",
            Op::Linear => "y[M][N] = x[M][K] * dequant(W)^T + bias, int4 weights",
        }
    }
}

/// The storage type of activations and outputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dtype {
    F32,
    F16,
    Bf16,
}

impl Dtype {
    pub fn name(self) -> &'static str {
        match self {
            Dtype::F32 => "f32",
            Dtype::F16 => "f16",
            Dtype::Bf16 => "bf16",
        }
    }

    pub fn bytes(self) -> u64 {
        match self {
            Dtype::F32 => 4,
            Dtype::F16 | Dtype::Bf16 => 2,
        }
    }
}

/// The shape of a linear-layer case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinearShape {
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub group: usize,
    pub mode: Int4Mode,
}

impl LinearShape {
    /// The weights' shape (errors on a group size the format lacks).
    pub fn weights(&self) -> Result<Int4Shape, quant_kernels::Error> {
        Int4Shape::new(self.n, self.k, self.group, self.mode)
    }
}

pub fn mode_name(mode: Int4Mode) -> &'static str {
    match mode {
        Int4Mode::Symmetric => "sym",
        Int4Mode::Asymmetric => "asym",
    }
}

/// How big a case is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Size {
    /// Elements of an elementwise operation (f32 words for the copy).
    Elements(usize),
    Linear(LinearShape),
}

/// One measured configuration: an operation at one size, in one kernel
/// version, storage type and block size.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    pub op: Op,
    /// The kernel's name in the PTX, what `ncu -k` takes (the driver call for
    /// the copy, `cpu_reference` on the CPU path).
    pub kernel: &'static str,
    /// `v1`, `v2`, ...
    pub version: String,
    pub dtype: Dtype,
    /// Threads per block of the launch, where there is one.
    pub block: Option<u32>,
    pub size: Size,
}

impl Case {
    /// The fewest bytes a call must move: each input read once, each output
    /// written once (the copy: read + written).
    pub fn bytes(&self) -> u64 {
        let t = self.dtype.bytes();
        match self.size {
            Size::Elements(n) => {
                let n = n as u64;
                match self.op {
                    Op::Copy => 2 * t * n,
                    Op::AddMulExp => 3 * t * n,
                    Op::QuantizeInt8 => (t + 1) * n,
                    Op::Linear => unreachable!("a linear case has a linear shape"),
                }
            }
            Size::Linear(s) => {
                let weights = s.weights().map_or(0, |w| w.packed_bytes()) as u64;
                // x[m][k] and y[m][n] in the activation type; the bias is f32.
                weights + t * (s.m * s.k + s.m * s.n) as u64 + 4 * s.n as u64
            }
        }
    }

    /// Operations of the defining formula, each counted once (exp and round
    /// included): add_mul_exp 3 an element, quantize_int8 4 (divide, add,
    /// round, clamp), linear 2·M·N·K plus M·N for the bias, the copy 0. The
    /// PyTorch peers count the same way.
    pub fn flops(&self) -> u64 {
        match (self.op, self.size) {
            (Op::AddMulExp, Size::Elements(n)) => 3 * n as u64,
            (Op::QuantizeInt8, Size::Elements(n)) => 4 * n as u64,
            (Op::Linear, Size::Linear(s)) => (2 * s.m * s.n * s.k + s.m * s.n) as u64,
            _ => 0,
        }
    }

    /// Flops per byte moved.
    pub fn intensity(&self) -> f64 {
        self.flops() as f64 / self.bytes().max(1) as f64
    }

    /// `1M`, `1x4096x4096 sym g128` (M x N x K).
    pub fn size_label(&self) -> String {
        match self.size {
            Size::Elements(_) if self.op == Op::Copy => format!("{} MiB", (self.bytes() / 2) >> 20),
            Size::Elements(n) => count(n),
            Size::Linear(s) => format!("{}x{}x{} {} g{}", s.m, s.n, s.k, mode_name(s.mode), s.group),
        }
    }

    /// What `--kernel` matches: kernel name, version, block and size.
    pub fn label(&self) -> String {
        let block = self.block.map(|b| format!(" b{b}")).unwrap_or_default();
        format!("{} {}{block} {}", self.kernel, self.version, self.size_label())
    }

    /// Whether every whitespace-separated word of `pattern` occurs in the label.
    pub fn matches(&self, pattern: &str) -> bool {
        let label = self.label();
        pattern.split_whitespace().all(|word| label.contains(word))
    }
}

/// `100K`, `1M`, `50M`, or the number itself.
pub fn count(n: usize) -> String {
    match n {
        n if n >= 1_000_000 && n % 1_000_000 == 0 => format!("{}M", n / 1_000_000),
        n if n >= 1_000 && n % 1_000 == 0 => format!("{}K", n / 1_000),
        n => n.to_string(),
    }
}

/// Seconds per call over the samples of one figure: median and range.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stats {
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

impl Stats {
    /// Of at least one sample.
    pub fn of(mut samples: Vec<f64>) -> Self {
        assert!(!samples.is_empty(), "a figure needs samples");
        samples.sort_by(f64::total_cmp);
        let mid = samples.len() / 2;
        let median = if samples.len() % 2 == 1 { samples[mid] } else { 0.5 * (samples[mid - 1] + samples[mid]) };
        Self { median, min: samples[0], max: samples[samples.len() - 1] }
    }
}

/// Every figure of one row (see timing.rs for how each is taken). Cold:
/// rotating over buffer sets that together exceed twice the L2; hot: one set
/// again and again (only where the data fits in L2). Graph: replays of the
/// launches captured in a CUDA graph, the kernel's own time; stream: the
/// same launches issued one by one from the host.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Timing {
    pub graph_cold: Option<Stats>,
    pub graph_hot: Option<Stats>,
    pub stream_cold: Option<Stats>,
    pub stream_hot: Option<Stats>,
    /// Host seconds to enqueue one launch (median over the stream samples).
    pub enqueue: Option<f64>,
    /// Launches a sample spans (cold).
    pub launches: usize,
    /// Why the graph figures are missing, where the capture failed.
    pub graph_error: Option<String>,
    /// The CPU reference on the host clock (the path without a GPU).
    pub cpu: Option<Stats>,
}

impl Timing {
    /// The headline cold figure: graph-timed, else stream-timed (or CPU).
    pub fn cold(&self) -> Option<Stats> {
        self.graph_cold.or(self.stream_cold).or(self.cpu)
    }

    /// The hot figure, graph-timed where the capture worked.
    pub fn hot(&self) -> Option<Stats> {
        if self.graph_cold.is_some() { self.graph_hot } else { self.stream_hot }
    }

    /// How the cold figure was taken.
    pub fn cold_method(&self) -> &'static str {
        match (self.graph_cold, self.stream_cold, self.cpu) {
            (Some(_), _, _) => "graph",
            (None, Some(_), _) => "stream",
            (None, None, Some(_)) => "cpu",
            _ => "-",
        }
    }
}

/// One case with its figures and its check against the CPU reference.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub case: Case,
    /// Whether the bytes a call moves fit in the L2 at all.
    pub fits_l2: bool,
    pub timing: Timing,
    /// What the check measured, e.g. `max rel 8.4e-8`.
    pub check: String,
    pub ok: bool,
}

impl Row {
    /// Bytes per second at the cold median.
    pub fn bandwidth(&self) -> Option<f64> {
        self.timing.cold().map(|t| self.case.bytes() as f64 / t.median)
    }
}

/// A whole run: where it ran and its rows.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The GPU's name, or what ran instead.
    pub device: String,
    /// UTC, ISO 8601.
    pub date: String,
    pub compute_capability: Option<(u32, u32)>,
    /// The embedded PTX target that was loaded, e.g. `sm_90a`.
    pub ptx_target: Option<String>,
    pub l2_bytes: Option<usize>,
    pub multiprocessors: Option<u32>,
    /// The driver's CUDA version, e.g. `13.0`.
    pub driver: Option<String>,
    /// Whether the kernels were launched as programmatic
    /// dependents of the kernel before them (`None`: no GPU).
    pub programmatic_launches: Option<bool>,
    pub seed: u64,
    /// Samples per figure.
    pub samples: usize,
    pub rows: Vec<Row>,
}

impl Report {
    /// Bytes per second of the copy row: the ceiling memory-bound kernels are
    /// measured against.
    ///
    /// The faster of its two timings: a memcpy captured in a graph runs on a
    /// copy engine (2.44 TB/s on the H100, 2026-11-21), one issued on a
    /// stream on the SMs (3.01 TB/s); the ceiling is what the device can do.
    pub fn copy_bandwidth(&self) -> Option<f64> {
        let row = self.rows.iter().find(|r| r.case.op == Op::Copy)?;
        let fastest = [row.timing.graph_cold, row.timing.stream_cold].into_iter().flatten().map(|t| t.median);
        fastest.min_by(f64::total_cmp).map(|seconds| row.case.bytes() as f64 / seconds).or_else(|| row.bandwidth())
    }

    /// A row's cold bandwidth as a fraction of the copy's.
    pub fn copy_fraction(&self, row: &Row) -> Option<f64> {
        Some(row.bandwidth()? / self.copy_bandwidth()?)
    }

    pub fn failures(&self) -> usize {
        self.rows.iter().filter(|r| !r.ok).count()
    }
}

/// `seconds` since the Unix epoch as `YYYY-MM-DDTHH:MM:SSZ` (proleptic
/// Gregorian calendar, days to civil date as in Howard Hinnant's algorithm).
pub fn utc_date_time(seconds: u64) -> String {
    let (days, rest) = ((seconds / 86_400) as i64, seconds % 86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 { month_index + 3 } else { month_index - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", rest / 3_600, rest / 60 % 60, rest % 60)
}

/// Now, as [`utc_date_time`].
pub fn utc_now() -> String {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    utc_date_time(now.as_secs())
}

/// A fabricated report with H100-like figures, for the tests of the table,
/// the JSON and the chart (and for looking at the chart without a GPU).
#[cfg(test)]
pub mod tests {
    use super::*;

    pub fn sample_report() -> Report {
        let copy_bandwidth = 3.0e12;
        let stats = |seconds: f64| Stats { median: seconds, min: 0.98 * seconds, max: 1.05 * seconds };
        let timing = |cold: f64, hot: Option<f64>| Timing {
            graph_cold: Some(stats(cold)),
            graph_hot: hot.map(stats),
            stream_cold: Some(stats(cold * 1.03)),
            stream_hot: hot.map(|h| stats(h * 1.04)),
            enqueue: Some(2.1e-6),
            launches: 20,
            ..Timing::default()
        };
        let row = |case: Case, fraction: f64| {
            let cold = case.bytes() as f64 / (fraction * copy_bandwidth);
            let fits_l2 = case.bytes() <= 50 << 20;
            let hot = fits_l2.then_some(0.7 * cold);
            Row { case, fits_l2, timing: timing(cold, hot), check: "max rel 8.4e-8".into(), ok: true }
        };
        let case = |op, kernel, version: &str, size| Case {
            op,
            kernel,
            version: version.into(),
            dtype: Dtype::F32,
            block: Some(256),
            size,
        };
        let mut rows = vec![row(case(Op::Copy, "cuMemcpyDtoDAsync", "driver", Size::Elements(1 << 28)), 1.0)];
        for (op, kernel, ceiling) in
            [(Op::AddMulExp, "add_mul_exp_f32", 0.92), (Op::QuantizeInt8, "quantize_int8_f32", 0.93)]
        {
            for n in [100_000, 300_000, 500_000, 1_000_000, 5_000_000, 10_000_000, 20_000_000, 50_000_000] {
                let fraction = ceiling * n as f64 / (n as f64 + 1.2e6);
                rows.push(row(case(op, kernel, "v1", Size::Elements(n)), fraction));
            }
        }
        for m in [1, 16, 128] {
            for (n, k) in [(4096, 4096), (11008, 4096), (4096, 11008), (28672, 8192), (8192, 28672)] {
                for (version, kernel, dtype, fraction) in [
                    ("v1", "int4_linear_v1_m1_f32", Dtype::F32, 0.30),
                    ("v2", "int4_linear_v2_f32", Dtype::F32, 0.33),
                    ("v5", "int4_linear_v5_m8_g128_f16", Dtype::F16, 0.62),
                    ("v5", "int4_linear_v5_m8_g128_bf16", Dtype::Bf16, 0.60),
                ] {
                    let shape = LinearShape { m, n, k, group: 128, mode: Int4Mode::Symmetric };
                    let fraction = fraction / (1.0 + m as f64 / 4.0) * (n * k) as f64 / ((n * k) as f64 + 2e7);
                    // As the library tunes it: version 5's block differs by shape.
                    let block = if version == "v5" && k > n { 64 } else { 256 };
                    let tuned =
                        Case { dtype, block: Some(block), ..case(Op::Linear, kernel, version, Size::Linear(shape)) };
                    rows.push(row(tuned, fraction));
                }
            }
        }
        rows[3].ok = false;
        rows[3].check = "max rel 3.1e-2".into();
        Report {
            device: "NVIDIA H100 80GB HBM3 (fabricated figures)".into(),
            date: utc_date_time(1_795_000_000),
            compute_capability: Some((9, 0)),
            ptx_target: Some("sm_90".into()),
            l2_bytes: Some(50 << 20),
            multiprocessors: Some(132),
            driver: Some("13.0".into()),
            programmatic_launches: Some(true),
            seed: 42,
            samples: 15,
            rows,
        }
    }

    fn linear(m: usize) -> Case {
        let shape = LinearShape { m, n: 4096, k: 4096, group: 128, mode: Int4Mode::Symmetric };
        Case {
            op: Op::Linear,
            kernel: "int4_linear_v2_f32",
            version: "v2".into(),
            dtype: Dtype::F32,
            block: Some(256),
            size: Size::Linear(shape),
        }
    }

    #[test]
    fn dates() {
        assert_eq!(utc_date_time(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc_date_time(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(utc_date_time(1_700_000_000), "2023-11-14T22:13:20Z");
    }

    #[test]
    fn bytes_and_flops() {
        let add = Case {
            op: Op::AddMulExp,
            kernel: "add_mul_exp_f32",
            version: "v1".into(),
            dtype: Dtype::F32,
            block: Some(256),
            size: Size::Elements(1_000_000),
        };
        assert_eq!(add.bytes(), 12_000_000);
        assert_eq!(add.flops(), 3_000_000);
        // README: 8.70 MB and 33.6 MFLOP for M = 1, N = K = 4096, G = 128.
        let gemv = linear(1);
        assert_eq!(gemv.bytes(), 4096 * 4096 / 2 + 2 * 4096 * 32 + 4 * (4096 + 4096) + 4 * 4096);
        assert_eq!(gemv.flops(), 2 * 4096 * 4096 + 4096);
        assert!((gemv.intensity() - 3.86).abs() < 0.01, "{}", gemv.intensity());
    }

    #[test]
    fn labels_and_matching() {
        let case = linear(16);
        assert_eq!(case.label(), "int4_linear_v2_f32 v2 b256 16x4096x4096 sym g128");
        assert!(case.matches("int4_linear_v2_f32"));
        assert!(case.matches("16x4096x4096 v2"));
        assert!(!case.matches("int4_linear_v1"));
        assert_eq!(count(100_000), "100K");
        assert_eq!(count(50_000_000), "50M");
        assert_eq!(count(1 << 20), "1048576");
    }

    #[test]
    fn stats() {
        assert_eq!(Stats::of(vec![3.0, 1.0, 2.0]), Stats { median: 2.0, min: 1.0, max: 3.0 });
        assert_eq!(Stats::of(vec![4.0, 1.0, 2.0, 3.0]).median, 2.5);
    }
}
