//! The report as text: a heading that says how the figures were taken, the
//! kernel-time table (graph-timed), the launch-path table (graph against
//! stream, and the host's enqueue cost), and the launch-overhead verdict for
//! the 4096x4096 GEMV.

use crate::api::library_linear_case;
use crate::model::{Op, Report, Row, Size, Stats};
use quant_kernels::launch::DeviceInfo;

/// The whole text report.
pub fn render(report: &Report) -> String {
    let mut text = heading(report);
    let gpu = report.rows.iter().any(|r| r.timing.graph_cold.is_some() || r.timing.stream_cold.is_some());
    text += if gpu {
        "\nKernel time, CUDA-graph replays (cold: data from DRAM; hot: data in L2)\n"
    } else {
        "\nCPU reference time\n"
    };
    text += &sections(report, kernel_table(report));
    if gpu {
        text += "\nLaunch path: the same launches replayed from a graph and issued one by one from the host\n";
        text += &sections(report, launch_table(report));
        text += &launch_overhead(report);
    }
    let failed = report.failures();
    if failed > 0 {
        text += &format!("\n{failed} check(s) FAILED (seed {}; replay with --seed {})\n", report.seed, report.seed);
    }
    text
}

fn heading(report: &Report) -> String {
    let mut text = String::new();
    let mut device = report.device.clone();
    if let Some((major, minor)) = report.compute_capability {
        device += &format!(", compute capability {major}.{minor}");
    }
    if let Some(sms) = report.multiprocessors {
        device += &format!(", {sms} SMs");
    }
    if let Some(l2) = report.l2_bytes {
        device += &format!(", {} MB L2", l2 >> 20);
    }
    if let Some(driver) = &report.driver {
        device += &format!(", driver CUDA {driver}");
    }
    if let Some(ptx) = &report.ptx_target {
        device += &format!(", PTX {ptx}");
    }
    if let Some(on) = report.programmatic_launches {
        device += if on { ", programmatic dependent launch on" } else { ", programmatic dependent launch off" };
    }
    text += &format!("\n{device}\n{}, seed {}\n", report.date, report.seed);
    if let Some(copy) = report.copy_bandwidth() {
        let method = report.rows.iter().find(|r| r.case.op == Op::Copy).map_or("-", |r| r.timing.cold_method());
        text += &format!(
            "copy bandwidth {:.0} GB/s ({}, bytes read + written, {method}-timed): the 100% of `% copy`\n",
            copy / 1e9,
            report.rows.iter().find(|r| r.case.op == Op::Copy).map_or(String::new(), |r| r.case.size_label()),
        );
    }
    if report.rows.iter().any(|r| r.timing.cpu.is_some()) {
        text += "CPU reference, host clock: median [min-max] over the calls\n";
    } else {
        text += &format!(
            "Each figure: median [min-max] over {} samples; a sample spans L back-to-back launches between two CUDA \
             events (L <= 20, fewer for long kernels), per call = elapsed / L.\n\
             cold: the launches rotate over buffer sets that together exceed twice the L2, so data comes from DRAM; \
             hot: one set again and again (only where the data fits in L2).\n\
             graph: the L launches captured in a CUDA graph and replayed, the kernel's own time; \
             stream: the same launches issued one by one from the host; enqueue: host time to issue one.\n\
             GB/s and % copy use the cold graph median. flop/B: flops of the formula per byte moved.\n",
            report.samples
        );
    }
    text
}

/// `3.05`, `215.9`, `7127`: microseconds with three or four significant digits.
pub fn micros(seconds: f64) -> String {
    let us = seconds * 1e6;
    match us {
        us if us < 10.0 => format!("{us:.2}"),
        us if us < 1000.0 => format!("{us:.1}"),
        us => format!("{us:.0}"),
    }
}

/// `3.05 [3.01-3.12]`, or `-`.
fn figure(stats: Option<Stats>) -> String {
    stats.map_or("-".into(), |s| format!("{} [{}-{}]", micros(s.median), micros(s.min), micros(s.max)))
}

fn median(stats: Option<Stats>) -> String {
    stats.map_or("-".into(), |s| micros(s.median))
}

/// A table: headers (a leading `<` aligns the column left) and cells.
struct Table {
    headers: Vec<&'static str>,
    cells: Vec<Vec<String>>,
}

fn kernel_table(report: &Report) -> Table {
    let headers = vec![
        "<kernel", "<ver", "<dtype", "block", "size", "<L2", "MB", "flop/B", "cold µs", "hot µs", "GB/s", "% copy",
        "<check",
    ];
    let cells = report
        .rows
        .iter()
        .map(|row| {
            let case = &row.case;
            let mut cold = figure(row.timing.cold());
            if row.timing.graph_cold.is_none() && row.timing.stream_cold.is_some() {
                cold += " (stream)";
            }
            vec![
                case.kernel.to_string(),
                case.version.clone(),
                case.dtype.name().to_string(),
                case.block.map_or("-".into(), |b| b.to_string()),
                case.size_label(),
                if row.fits_l2 { "fits" } else { "-" }.to_string(),
                format!("{:.2}", case.bytes() as f64 / 1e6),
                format!("{:.2}", case.intensity()),
                cold,
                figure(row.timing.hot()),
                row.bandwidth().map_or("-".into(), |b| format!("{:.0}", b / 1e9)),
                report.copy_fraction(row).map_or("-".into(), |f| format!("{:.0}%", 100.0 * f)),
                format!("{} {}", if row.ok { "ok  " } else { "FAIL" }, row.check),
            ]
        })
        .collect();
    Table { headers, cells }
}

fn launch_table(report: &Report) -> Table {
    let headers = vec![
        "<kernel",
        "<ver",
        "size",
        "cold graph",
        "cold stream µs",
        "hot graph",
        "hot stream µs",
        "enqueue µs",
        "stream/graph",
    ];
    let cells = report
        .rows
        .iter()
        .map(|row| {
            let t = &row.timing;
            let ratio = match (t.stream_cold, t.graph_cold) {
                (Some(s), Some(g)) => format!("{:.2}x", s.median / g.median),
                _ => "-".into(),
            };
            vec![
                row.case.kernel.to_string(),
                row.case.version.clone(),
                row.case.size_label(),
                median(t.graph_cold),
                figure(t.stream_cold),
                median(t.graph_hot),
                figure(t.stream_hot),
                t.enqueue.map_or("-".into(), micros),
                ratio,
            ]
        })
        .collect();
    Table { headers, cells }
}

/// The table with a heading line before each op's rows.
fn sections(report: &Report, table: Table) -> String {
    let width = |column: usize| {
        let cells = table.cells.iter().map(|row| row[column].chars().count());
        cells.chain([table.headers[column].trim_start_matches('<').chars().count()]).max().unwrap_or(0)
    };
    let widths: Vec<usize> = (0..table.headers.len()).map(width).collect();
    let line = |cells: &mut dyn Iterator<Item = (&str, bool)>| {
        let cells: Vec<String> = cells
            .zip(&widths)
            .map(|((cell, left), &w)| if left { format!("{cell:<w$}") } else { format!("{cell:>w$}") })
            .collect();
        cells.join("  ").trim_end().to_string() + "\n"
    };
    let left: Vec<bool> = table.headers.iter().map(|h| h.starts_with('<')).collect();
    let mut text = line(&mut table.headers.iter().map(|h| h.trim_start_matches('<')).zip(left.iter().copied()));
    let mut op = None;
    for (row, cells) in report.rows.iter().zip(&table.cells) {
        if op != Some(row.case.op) {
            op = Some(row.case.op);
            text += &format!("-- {}: {}\n", row.case.op.name(), row.case.op.formula());
        }
        text += &line(&mut cells.iter().map(String::as_str).zip(left.iter().copied()));
    }
    text
}

/// Whether back-to-back launches of the 4096x4096 decode GEMV sustain its
/// kernel time: the host's enqueue cost against the kernel's own time, and
/// the stream figure against the graph figure. Each line names its version
/// and block, and the library's pick says so (run 50 quoted a block the
/// library does not launch).
fn launch_overhead(report: &Report) -> String {
    let gemv = |row: &&Row| matches!(row.case.size, Size::Linear(s) if (s.m, s.n, s.k) == (1, 4096, 4096));
    let mut text = String::new();
    for row in report.rows.iter().filter(gemv) {
        let t = &row.timing;
        // Hot where measured (the shorter kernel time, where overhead shows most).
        let (kind, graph, stream) = if t.graph_hot.is_some() {
            ("hot", t.graph_hot, t.stream_hot)
        } else {
            ("cold", t.graph_cold, t.stream_cold)
        };
        let (Some(enqueue), Some(graph), Some(stream)) = (t.enqueue, graph, stream) else {
            continue;
        };
        let verdict = launch_verdict(enqueue, graph.median, stream.median);
        let pick = if is_library_pick(report, row) { "; the library's pick" } else { "" };
        text += &format!(
            "{} ({}, block {}{pick}) {}: enqueue {} µs a call against a kernel time of {} µs ({kind}, graph); back \
             to back from the host {} µs: {verdict}\n",
            row.case.kernel,
            row.case.version,
            row.case.block.unwrap_or(0),
            row.case.size_label(),
            micros(enqueue),
            micros(graph.median),
            micros(stream.median),
        );
    }
    if text.is_empty() { text } else { format!("\nLaunch overhead, the 4096x4096 decode GEMV:\n{text}") }
}

/// Whether `row` is the launch (kernel and block) that the library makes
/// for its layer, type and batch on the report's device.
fn is_library_pick(report: &Report, row: &Row) -> bool {
    let (Some(compute_capability), Some(multiprocessors), Size::Linear(shape)) =
        (report.compute_capability, report.multiprocessors, row.case.size)
    else {
        return false;
    };
    let device = DeviceInfo { compute_capability, multiprocessors };
    library_linear_case(shape, row.case.dtype, &device)
        .is_ok_and(|case| case.kernel == row.case.kernel && case.block == row.case.block)
}

/// Whether launches back to back from the host (`stream` seconds a call)
/// sustain the kernel's own time (`graph`, within 5%), and if not, which
/// side shows: the host's `enqueue` cost, or, when the host keeps ahead,
/// the GPU's gap between kernels launched on a stream, which a graph
/// removes.
fn launch_verdict(enqueue: f64, graph: f64, stream: f64) -> &'static str {
    if stream <= 1.05 * graph {
        "sustained: the host issues launches faster than the GPU runs them"
    } else if enqueue >= graph {
        "NOT sustained: the host's enqueue takes longer than the kernel"
    } else {
        "NOT sustained: the host keeps ahead, and the gap between stream launches shows (a graph removes it)"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::tests::sample_report;
    use crate::model::{Case, Dtype, LinearShape};
    use quant_kernels::Int4Mode;

    #[test]
    fn the_launch_verdict_names_what_shows() {
        assert!(launch_verdict(4.4e-6, 5.5e-6, 5.6e-6).starts_with("sustained"));
        assert!(launch_verdict(6.0e-6, 5.5e-6, 6.6e-6).contains("enqueue takes longer"));
        assert!(launch_verdict(4.4e-6, 5.5e-6, 6.6e-6).contains("gap between stream launches"));
    }

    #[test]
    fn every_row_and_the_verdict_appear() {
        let text = render(&sample_report());
        for needle in ["add_mul_exp_f32", "int4_linear_v2_f32", "cuMemcpyDtoDAsync", "Launch overhead", "sustained"] {
            assert!(text.contains(needle), "{needle} missing from\n{text}");
        }
        assert!(text.contains("-- linear: "), "{text}");
    }

    #[test]
    fn the_launch_overhead_names_the_library_pick() {
        let mut report = sample_report();
        let template = report.rows.iter().find(|row| row.case.op == Op::Linear).unwrap().clone();
        let shape = LinearShape { m: 1, n: 4096, k: 4096, group: 128, mode: Int4Mode::Symmetric };
        let device = DeviceInfo { compute_capability: (9, 0), multiprocessors: 132 };
        let pick = library_linear_case(shape, Dtype::Bf16, &device).unwrap();
        let other_block = Case { block: pick.block.map(|threads| 2 * threads), ..pick.clone() };
        report.rows = vec![Row { case: other_block, ..template.clone() }, Row { case: pick.clone(), ..template }];
        let text = launch_overhead(&report);
        let marked: Vec<&str> = text.lines().filter(|line| line.contains("the library's pick")).collect();
        assert_eq!(marked.len(), 1, "{text}");
        assert!(marked[0].contains(&format!("block {};", pick.block.unwrap())), "{text}");
    }

    #[test]
    fn micros_keep_three_or_four_digits() {
        assert_eq!(micros(3.046e-6), "3.05");
        assert_eq!(micros(215.92e-6), "215.9");
        assert_eq!(micros(7127.4e-6), "7127");
    }
}
