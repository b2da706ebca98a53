//! The command line.

use crate::cases::Selection;
use std::path::PathBuf;

pub const USAGE: &str = "\
quant-kernels: checks every kernel against the CPU reference and times it.

Usage:
  quant-kernels [bench] [OPTIONS]   check and time every case (the default)
  quant-kernels ptx DIR             write the embedded PTX, one file per target
  quant-kernels chart JSON PNG      draw the chart of a saved report.json again
                                    (no GPU needed)
  quant-kernels --help

Options:
  --out DIR       folder of report.json and report.png [default: target/report]
  --json PATH     write the JSON here instead
  --png PATH      write the PNG chart here instead
  --kernel NAME   only the cases whose label (PTX kernel name, version, block,
                  size) contains every word of NAME, e.g. int4_linear_v2_f32,
                  add_mul_exp, \"int4_linear_v1 16x4096x4096 sym\"
  --iters N       launch each selected case N times on the stream (no graph,
                  no timing), check the result and exit: for profilers
  --sweep         also sweep the block size, where a launch takes one
                  (skipping blocks larger than a kernel's registers allow)
  --quick         fewer cases: 3 elementwise sizes, 2 linear shapes,
                  M = 1, 16 and 128, symmetric weights only
  --seed S        draw the inputs from seed S (default: fresh, printed)
  --serialized    launch every kernel after the previous one has ended (no
                  programmatic dependent launch, which every kernel uses by
                  default on sm_90a): the times without the overlap

Without a CUDA device the bench runs the CPU reference instead (set
REQUIRE_GPU=1 to make that an error). Exit status 1 when a check fails.

Profile one launch with Nsight Compute (the first selected case):
  ncu -k int4_linear_v2_f32 -c 1 --set full \\
      target/release/quant-kernels bench --kernel int4_linear_v2_f32 --iters 1
";

/// What to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    Bench(Options),
    Ptx(PathBuf),
    /// A saved report.json and the PNG to draw it into.
    Chart(PathBuf, PathBuf),
    Help,
}

/// The options of `bench`.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub json: PathBuf,
    pub png: PathBuf,
    pub kernel: Option<String>,
    pub iters: Option<usize>,
    pub selection: Selection,
    pub seed: Option<u64>,
    /// Programmatic dependent launch off.
    pub serialized: bool,
}

/// Parses the arguments after the program name.
pub fn parse(args: &[String]) -> Result<Command, String> {
    let mut args = args.iter().map(String::as_str).peekable();
    match args.peek() {
        Some(&"ptx") => {
            args.next();
            return match (args.next(), args.next()) {
                (Some(dir), None) => Ok(Command::Ptx(dir.into())),
                _ => Err("ptx takes one folder".into()),
            };
        }
        Some(&"chart") => {
            args.next();
            return match (args.next(), args.next(), args.next()) {
                (Some(json), Some(png), None) => Ok(Command::Chart(json.into(), png.into())),
                _ => Err("chart takes a report.json and the PNG to write".into()),
            };
        }
        Some(&("help" | "-h" | "--help")) => return Ok(Command::Help),
        Some(&"bench") => {
            args.next();
        }
        _ => {}
    }
    let (mut out, mut json, mut png) = (PathBuf::from("target/report"), None, None);
    let mut options = Options {
        json: PathBuf::new(),
        png: PathBuf::new(),
        kernel: None,
        iters: None,
        selection: Selection::default(),
        seed: None,
        serialized: false,
    };
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag, Some(value)),
            _ => (arg, None),
        };
        let mut value = || inline.or_else(|| args.next()).ok_or(format!("{flag} needs a value"));
        match flag {
            "--out" => out = value()?.into(),
            "--json" => json = Some(PathBuf::from(value()?)),
            "--png" => png = Some(PathBuf::from(value()?)),
            "--kernel" => options.kernel = Some(value()?.to_string()),
            "--iters" => options.iters = Some(number(flag, value()?)?),
            "--seed" => options.seed = Some(value()?.parse().map_err(|_| "--seed takes an integer".to_string())?),
            "--sweep" => options.selection.sweep = true,
            "--quick" => options.selection.quick = true,
            "--serialized" => options.serialized = true,
            "-h" | "--help" => return Ok(Command::Help),
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    options.json = json.unwrap_or_else(|| out.join("report.json"));
    options.png = png.unwrap_or_else(|| out.join("report.png"));
    Ok(Command::Bench(options))
}

/// A count of 1 or more.
fn number(flag: &str, value: &str) -> Result<usize, String> {
    match value.parse() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("{flag} takes a count of 1 or more, not `{value}`")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(line: &str) -> Result<Command, String> {
        parse(&line.split_whitespace().map(String::from).collect::<Vec<_>>())
    }

    fn bench(line: &str) -> Options {
        match parse_str(line) {
            Ok(Command::Bench(options)) => options,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn defaults() {
        for line in ["", "bench"] {
            let options = bench(line);
            assert_eq!(options.json, PathBuf::from("target/report/report.json"));
            assert_eq!(options.png, PathBuf::from("target/report/report.png"));
            assert_eq!((options.kernel, options.iters, options.selection), (None, None, Selection::default()));
            assert!(!options.serialized);
        }
    }

    #[test]
    fn options() {
        let options = bench(
            "bench --out o --png p.png --kernel int4_linear_v2_f32 --iters=3 --sweep --quick --seed 7 --serialized",
        );
        assert_eq!(options.json, PathBuf::from("o/report.json"));
        assert_eq!(options.png, PathBuf::from("p.png"));
        assert_eq!(options.kernel.as_deref(), Some("int4_linear_v2_f32"));
        assert_eq!(options.iters, Some(3));
        assert_eq!(options.selection, Selection { quick: true, sweep: true });
        assert_eq!(options.seed, Some(7));
        assert!(options.serialized);
    }

    #[test]
    fn other_commands_and_errors() {
        assert_eq!(parse_str("ptx dir"), Ok(Command::Ptx("dir".into())));
        assert_eq!(parse_str("chart r.json c.png"), Ok(Command::Chart("r.json".into(), "c.png".into())));
        assert_eq!(parse_str("--help"), Ok(Command::Help));
        assert_eq!(parse_str("bench -h"), Ok(Command::Help));
        for bad in ["ptx", "ptx a b", "chart r.json", "--iters 0", "--iters", "--frobnicate", "bench --seed x"] {
            assert!(parse_str(bad).is_err(), "{bad}");
        }
    }
}
