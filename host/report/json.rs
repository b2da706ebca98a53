//! The report as JSON, the file `scripts/compare.py` reads beside the
//! PyTorch peers' (which write the same row shape, with `impl` in place of
//! `kernel` and `version`). Times are in microseconds a call; a figure is
//! `{"median", "min", "max"}` or null where it was not taken.
//!
//! ```text
//! {"source": "quant-kernels", "device", "date" (UTC), "compute_capability": "9.0", "ptx_target": "sm_90a",
//!  "copy_bandwidth_gbs", "l2_bytes", "programmatic_launches" (bool, null without a GPU), ..., "rows": [{
//!    "op": "copy" | "add_mul_exp" | "quantize_int8" | "linear", "kernel" (PTX name), "version": "v1", "dtype",
//!    "elements" | null, "m", "n", "k", "group", "mode": "sym" | "asym" | null, "block" | null,
//!    "bytes", "flops", "fits_l2",
//!    "cold_us" (the headline: graph where captured, else stream), "hot_us" (likewise, null unless in L2),
//!    "graph_us" (cold, graph), "stream_us" (cold, stream), "stream_hot_us", "enqueue_us" (host, per call),
//!    "cold_method": "graph" | "stream" | "cpu", "launches", "gbs", "copy_fraction", "error" (the check), "ok"}]}
//! ```
//!
//! [`from_json`] reads such a file back, so that `quant-kernels chart`
//! redraws a run's chart without a GPU.

use crate::model::{Case, Dtype, LinearShape, Op, Report, Row, Size, Stats, Timing, mode_name};
use quant_kernels::Int4Mode;
use serde_json::{Value, json};

/// The whole report.
pub fn to_json(report: &Report) -> Value {
    json!({
        "source": "quant-kernels",
        "device": report.device,
        "date": report.date,
        "compute_capability": report.compute_capability.map(|(major, minor)| format!("{major}.{minor}")),
        "ptx_target": report.ptx_target,
        "copy_bandwidth_gbs": report.copy_bandwidth().map(|b| b / 1e9),
        "l2_bytes": report.l2_bytes,
        "multiprocessors": report.multiprocessors,
        "driver": report.driver,
        "programmatic_launches": report.programmatic_launches,
        "seed": report.seed,
        "samples": report.samples,
        "timing": "per call, microseconds: median and range over the samples; a sample spans `launches` \
                   back-to-back launches between two CUDA events. cold: buffer sets rotating over > 2x L2; \
                   hot: one set, only where the data fits in L2. graph: replays of a CUDA graph of the launches \
                   (the kernel's own time); stream: the launches issued from the host. enqueue: host time to \
                   issue one launch. gbs and copy_fraction use cold_us.",
        "rows": report.rows.iter().map(|row| row_json(report, row)).collect::<Vec<_>>(),
    })
}

fn row_json(report: &Report, row: &Row) -> Value {
    let case = &row.case;
    let (elements, linear) = match case.size {
        Size::Elements(n) => (Some(n), None),
        Size::Linear(shape) => (None, Some(shape)),
    };
    let t = &row.timing;
    json!({
        "op": case.op.name(),
        "kernel": case.kernel,
        "version": case.version,
        "dtype": case.dtype.name(),
        "elements": elements,
        "m": linear.map(|s| s.m),
        "n": linear.map(|s| s.n),
        "k": linear.map(|s| s.k),
        "group": linear.map(|s| s.group),
        "mode": linear.map(|s| mode_name(s.mode)),
        "block": case.block,
        "bytes": case.bytes(),
        "flops": case.flops(),
        "fits_l2": row.fits_l2,
        "cold_us": micros(t.cold()),
        "hot_us": micros(t.hot()),
        "graph_us": micros(t.graph_cold),
        "stream_us": micros(t.stream_cold),
        "stream_hot_us": micros(t.stream_hot),
        "enqueue_us": t.enqueue.map(|s| s * 1e6),
        "cold_method": t.cold_method(),
        "launches": (t.launches > 0).then_some(t.launches),
        "gbs": row.bandwidth().map(|b| b / 1e9),
        "copy_fraction": report.copy_fraction(row),
        "graph_error": t.graph_error,
        "error": row.check,
        "ok": row.ok,
    })
}

fn micros(stats: Option<Stats>) -> Value {
    stats.map_or(Value::Null, |s| json!({"median": s.median * 1e6, "min": s.min * 1e6, "max": s.max * 1e6}))
}

/// The report [`to_json`] wrote, as far as it wrote it: every figure the
/// table and the chart read.
pub fn from_json(value: &Value) -> Result<Report, String> {
    let rows = value["rows"].as_array().ok_or("no `rows` array")?;
    let text = |key: &str| value[key].as_str().map(String::from);
    let number = |key: &str| value[key].as_u64();
    Ok(Report {
        device: text("device").unwrap_or_default(),
        date: text("date").unwrap_or_default(),
        compute_capability: text("compute_capability").and_then(|c| {
            let (major, minor) = c.split_once('.')?;
            Some((major.parse().ok()?, minor.parse().ok()?))
        }),
        ptx_target: text("ptx_target"),
        l2_bytes: number("l2_bytes").map(|b| b as usize),
        multiprocessors: number("multiprocessors").map(|n| n as u32),
        driver: text("driver"),
        programmatic_launches: value["programmatic_launches"].as_bool(),
        seed: number("seed").unwrap_or_default(),
        samples: number("samples").unwrap_or_default() as usize,
        rows: rows
            .iter()
            .enumerate()
            .map(|(i, row)| row_from_json(row).map_err(|e| format!("row {i}: {e}")))
            .collect::<Result<_, _>>()?,
    })
}

fn row_from_json(row: &Value) -> Result<Row, String> {
    let text = |key: &str| row[key].as_str().ok_or(format!("`{key}` is not a string"));
    let count = |key: &str| row[key].as_u64().map(|n| n as usize).ok_or(format!("`{key}` is not a count"));
    let op = named([Op::Copy, Op::AddMulExp, Op::QuantizeInt8, Op::Linear], Op::name, text("op")?)?;
    let size = match op {
        Op::Linear => Size::Linear(LinearShape {
            m: count("m")?,
            n: count("n")?,
            k: count("k")?,
            group: count("group")?,
            mode: named([Int4Mode::Symmetric, Int4Mode::Asymmetric], mode_name, text("mode")?)?,
        }),
        _ => Size::Elements(count("elements")?),
    };
    let stats = |key: &str| {
        let us = |bound: &str| row[key][bound].as_f64().map(|us| us * 1e-6);
        Some(Stats { median: us("median")?, min: us("min")?, max: us("max")? })
    };
    // `hot_us` and `cold_us` are the graph's figures or another's: the method says which.
    let method = text("cold_method")?;
    let timing = Timing {
        graph_cold: stats("graph_us"),
        graph_hot: stats("hot_us").filter(|_| method == "graph"),
        stream_cold: stats("stream_us"),
        stream_hot: stats("stream_hot_us"),
        enqueue: row["enqueue_us"].as_f64().map(|us| us * 1e-6),
        launches: row["launches"].as_u64().unwrap_or_default() as usize,
        graph_error: row["graph_error"].as_str().map(String::from),
        cpu: stats("cold_us").filter(|_| method == "cpu"),
    };
    let case = Case {
        op,
        // `Case::kernel` names one of the binary's own PTX kernels; a name read
        // back is leaked instead, a few bytes a row in a command that then exits.
        kernel: String::leak(text("kernel")?.to_string()),
        version: text("version")?.to_string(),
        dtype: named([Dtype::F32, Dtype::F16, Dtype::Bf16], Dtype::name, text("dtype")?)?,
        block: row["block"].as_u64().map(|b| b as u32),
        size,
    };
    let ok = row["ok"].as_bool().ok_or("`ok` is not a boolean")?;
    Ok(Row {
        case,
        fits_l2: row["fits_l2"].as_bool().unwrap_or_default(),
        timing,
        check: text("error")?.to_string(),
        ok,
    })
}

/// The one of `all` called `text`.
fn named<T: Copy>(all: impl IntoIterator<Item = T>, name: fn(T) -> &'static str, text: &str) -> Result<T, String> {
    all.into_iter().find(|&t| name(t) == text).ok_or(format!("unknown name `{text}`"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::tests::sample_report;
    use crate::table;

    #[test]
    fn the_schema_compare_py_reads() {
        let report = sample_report();
        let value: Value = serde_json::from_str(&to_json(&report).to_string()).unwrap();
        assert_eq!(value["source"], "quant-kernels");
        assert_eq!(value["compute_capability"], "9.0");
        assert_eq!(value["ptx_target"], "sm_90");
        assert!((value["copy_bandwidth_gbs"].as_f64().unwrap() - 3000.0).abs() < 1e-6);
        let rows = value["rows"].as_array().unwrap();
        assert_eq!(rows.len(), report.rows.len());
        let keys = [
            "op",
            "kernel",
            "version",
            "dtype",
            "elements",
            "m",
            "n",
            "k",
            "group",
            "mode",
            "block",
            "bytes",
            "flops",
            "fits_l2",
            "cold_us",
            "hot_us",
            "graph_us",
            "stream_us",
            "enqueue_us",
            "error",
            "ok",
        ];
        for row in rows {
            for key in keys {
                assert!(row.get(key).is_some(), "{key} missing from {row}");
            }
            assert!(row["cold_us"]["median"].as_f64().unwrap() > 0.0);
        }
        let add = rows.iter().find(|r| r["op"] == "add_mul_exp").unwrap();
        assert_eq!((add["elements"].as_u64(), add["m"].is_null(), add["mode"].is_null()), (Some(100_000), true, true));
        let linear = rows.iter().find(|r| r["op"] == "linear").unwrap();
        assert_eq!(
            (linear["m"].as_u64(), linear["mode"].as_str(), linear["group"].as_u64()),
            (Some(1), Some("sym"), Some(128))
        );
        assert!(linear["elements"].is_null());
    }

    /// What the chart and the tables show survives the trip through JSON.
    #[test]
    fn reads_back_what_it_wrote() {
        let report = sample_report();
        let back = from_json(&serde_json::from_str(&to_json(&report).to_string()).unwrap()).unwrap();
        assert_eq!(table::render(&back), table::render(&report));
        for (back, row) in back.rows.iter().zip(&report.rows) {
            assert_eq!((&back.case, &back.check, back.ok, back.fits_l2), (&row.case, &row.check, row.ok, row.fits_l2));
        }
        assert_eq!(
            (back.device, back.compute_capability, back.l2_bytes, back.programmatic_launches),
            (report.device, Some((9, 0)), Some(50 << 20), Some(true))
        );
        assert!(from_json(&json!({"rows": [{"op": "divide"}]})).unwrap_err().contains("row 0"));
    }
}
