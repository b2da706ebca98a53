//! The report as a PNG: on top, each elementwise kernel's achieved
//! bandwidth as a fraction of the device copy's against the number of
//! elements (log scale), with the L2 capacity marked and its legend
//! underneath; below, one panel per M, two abreast, with the int4 linear
//! layer's fraction per weight shape, version and activation type, the
//! fastest bar of each shape marked and labelled with its time, and one
//! legend for them all underneath. Every figure is cold and graph-timed.
//!
//! Text is drawn by plotters' pure-Rust `ab_glyph` backend from the font in
//! `font/` (a subset of DejaVu Sans, see `font/LICENSE`): no system font
//! libraries are needed.

use crate::model::{Dtype, LinearShape, Op, Report, Row, Size, count, mode_name};
use crate::table::micros;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{FontStyle, register_font};
use std::path::Path;
use std::sync::Once;

const WIDTH: u32 = 1600;
const TITLE: u32 = 78;
/// The elementwise plot and its legend.
const ELEMENTWISE: u32 = 620;
/// A row of int4 panels.
const PANEL: u32 = 430;
/// The int4 legend under the panels: two lines.
const LEGEND: u32 = 60;
/// Int4 panels abreast: two, so that a shape's up to 16 bars stay apart.
const COLUMNS: usize = 2;
const FONT: &str = "sans-serif";
/// Distinct series colours (Tableau 10).
const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];
/// The elementwise curves' strokes, one per version in first-seen order:
/// long dashes, dots, solid.
const STROKES: [Swatch; 3] = [Swatch::Dashed(8, 5), Swatch::Dashed(2, 4), Swatch::Line];

type Area<'a> = DrawingArea<BitMapBackend<'a>, Shift>;

/// Draws the chart of `report` into the PNG file `path`.
pub fn draw(report: &Report, path: &Path) -> crate::Result<()> {
    static FONT_ONCE: Once = Once::new();
    FONT_ONCE.call_once(|| {
        let bytes = include_bytes!("font/DejaVuSans-subset.ttf");
        if register_font(FONT, FontStyle::Normal, bytes).is_err() {
            eprintln!("the chart's font did not load: text will be missing");
        }
    });
    let ms = linear_ms(report);
    let panel_rows = ms.len().div_ceil(COLUMNS).max(1);
    // A report of int4 cases alone (`--kernel int4_linear`) has no
    // elementwise plot, not an empty one.
    let elementwise_rows = report.rows.iter().any(|r| matches!(r.case.op, Op::AddMulExp | Op::QuantizeInt8));
    let elementwise_height = if elementwise_rows || ms.is_empty() { ELEMENTWISE } else { 0 };
    let height = TITLE + elementwise_height + panel_rows as u32 * PANEL + LEGEND;
    let root = BitMapBackend::new(path, (WIDTH, height)).into_drawing_area();
    root.fill(&WHITE)?;
    let (title, body) = root.split_vertically(TITLE);
    heading(&title, report)?;
    let (top, bottom) = body.split_vertically(elementwise_height);
    if elementwise_height > 0 {
        elementwise(&top.margin(5, 10, 10, 25), report)?;
    }
    if ms.is_empty() {
        empty(&bottom, "no int4 linear rows")?;
    } else {
        let series = linear_series(report);
        let entries: Vec<_> =
            series.iter().map(|s| Entry { label: s.label(), color: s.color, swatch: Swatch::Bar }).collect();
        let panels = legend(&bottom, &entries)?;
        for (area, &m) in panels.split_evenly((panel_rows, ms.len().min(COLUMNS))).iter().zip(&ms) {
            linear(&area.margin(5, 10, 10, 10), report, m, &series)?;
        }
    }
    root.present()?;
    Ok(())
}

fn heading(area: &Area, report: &Report) -> crate::Result<()> {
    let cpu = report.rows.iter().any(|r| r.timing.cpu.is_some());
    let copy = match (report.copy_bandwidth(), cpu) {
        (Some(b), false) => format!("100% = the device-to-device copy, {:.0} GB/s (bytes read + written)", b / 1e9),
        (Some(b), true) => format!("100% = a host memcpy, {:.0} GB/s (bytes read + written)", b / 1e9),
        (None, _) => "no copy measured: bandwidth in GB/s".into(),
    };
    let method = if cpu {
        "CPU reference on the host clock (no GPU)"
    } else {
        "cold: buffer sets rotated over > 2x L2; timed as CUDA-graph replays"
    };
    area.draw_text(
        &format!("quant-kernels on {}, {}", report.device, report.date),
        &(FONT, 26).into_font().color(&BLACK),
        (20, 10),
    )?;
    area.draw_text(&format!("{method}; {copy}"), &(FONT, 18).into_font().color(&RGBColor(70, 70, 70)), (20, 46))?;
    Ok(())
}

fn empty(area: &Area, message: &str) -> crate::Result<()> {
    area.draw_text(message, &(FONT, 18).into_font().color(&BLACK), (40, 40))?;
    Ok(())
}

/// What the y axes show for a row: % of the copy bandwidth, or GB/s when no
/// copy was measured.
fn metric(report: &Report, row: &Row) -> Option<f64> {
    match report.copy_fraction(row) {
        Some(fraction) => Some(100.0 * fraction),
        None if report.copy_bandwidth().is_none() => row.bandwidth().map(|b| b / 1e9),
        None => None,
    }
}

/// Which figures the chart shows.
fn figures(report: &Report) -> &'static str {
    if report.rows.iter().any(|r| r.timing.cpu.is_some()) { "CPU reference" } else { "cold" }
}

fn y_description(report: &Report) -> &'static str {
    if report.copy_bandwidth().is_some() { "% of copy bandwidth" } else { "GB/s" }
}

/// An elementwise row's series: everything but its size.
fn series_label(row: &Row) -> String {
    let case = &row.case;
    let block = case.block.map(|b| format!(" b{b}")).unwrap_or_default();
    match case.op {
        // GPU kernels carry the op in their name; the CPU reference does not.
        op if case.kernel.starts_with(op.name()) => format!("{} {}{block}", case.kernel, case.version),
        op => format!("{} ({} {}){block}", op.name(), case.kernel, case.version),
    }
}

/// Labels in first-seen order.
fn distinct<T: PartialEq>(items: impl Iterator<Item = T>) -> Vec<T> {
    let mut seen = Vec::new();
    for item in items {
        if !seen.contains(&item) {
            seen.push(item);
        }
    }
    seen
}

/// `100K`, `1M`, `2.5M`: an axis position in elements.
fn short(x: f64) -> String {
    let rounded = x.round() as usize;
    if rounded >= 1000 && (x - rounded as f64).abs() < 1e-6 * x {
        let label = count(rounded);
        if label.len() <= 5 {
            return label;
        }
    }
    match x {
        x if x >= 1e6 => format!("{}M", (x / 1e5).round() / 10.0),
        x if x >= 1e3 => format!("{}K", (x / 1e2).round() / 10.0),
        x => format!("{x:.0}"),
    }
}

fn elementwise(area: &Area, report: &Report) -> crate::Result<()> {
    let rows: Vec<&Row> = report
        .rows
        .iter()
        .filter(|r| matches!(r.case.op, Op::AddMulExp | Op::QuantizeInt8) && metric(report, r).is_some())
        .collect();
    if rows.is_empty() {
        return empty(area, "no elementwise rows");
    }
    let elements = |row: &Row| match row.case.size {
        Size::Elements(n) => n as f64,
        Size::Linear(_) => 0.0,
    };
    let (low, high) = rows.iter().fold((f64::MAX, 0.0f64), |(lo, hi), r| (lo.min(elements(r)), hi.max(elements(r))));
    let top = rows.iter().filter_map(|r| metric(report, r)).fold(0.0, f64::max);
    let y_max = if report.copy_bandwidth().is_some() { (top * 1.1).max(110.0) } else { top * 1.15 };
    // One colour per op and type, one stroke per version.
    let kinds = distinct(rows.iter().map(|r| (r.case.op, r.case.dtype)));
    let versions = distinct(rows.iter().map(|r| r.case.version.as_str()));
    let (mut entries, mut curves) = (Vec::new(), Vec::new());
    for label in distinct(rows.iter().map(|r| series_label(r))) {
        let series: Vec<&Row> = rows.iter().copied().filter(|r| series_label(r) == label).collect();
        let kind = kinds.iter().position(|&k| k == (series[0].case.op, series[0].case.dtype)).unwrap_or(0);
        let version = versions.iter().position(|&v| v == series[0].case.version).unwrap_or(0);
        let swatch = STROKES[version % STROKES.len()];
        let mut points: Vec<(f64, f64)> =
            series.iter().filter_map(|r| Some((elements(r), metric(report, r)?))).collect();
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        entries.push(Entry { label, color: PALETTE[kind % PALETTE.len()], swatch });
        curves.push(points);
    }
    // Underneath, as the int4 panels', so that it covers no curve.
    let plot = legend(area, &entries)?;
    let mut chart = ChartBuilder::on(&plot)
        .caption(format!("Elementwise kernels: achieved bandwidth ({}) against size", figures(report)), (FONT, 22))
        .x_label_area_size(52)
        .y_label_area_size(70)
        .margin_right(20)
        .build_cartesian_2d((low / 1.4..high * 1.4).log_scale(), 0.0..y_max)?;
    chart
        .configure_mesh()
        .x_desc("elements (log scale)")
        .y_desc(y_description(report))
        .x_label_formatter(&|x| short(*x))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .label_style((FONT, 16))
        .axis_desc_style((FONT, 17))
        .light_line_style(WHITE.mix(0.0))
        .bold_line_style(BLACK.mix(0.12))
        .draw()?;
    if report.copy_bandwidth().is_some() {
        let ceiling =
            DashedLineSeries::new([(low / 1.4, 100.0), (high * 1.4, 100.0)], 6, 4, BLACK.mix(0.5).stroke_width(1));
        chart.draw_series(ceiling)?;
    }
    // Where each op's data stops fitting in L2.
    if let Some(l2) = report.l2_bytes {
        for op in distinct(rows.iter().map(|r| r.case.op)) {
            let Some(row) = rows.iter().find(|r| r.case.op == op) else { continue };
            let x = l2 as f64 * elements(row) / row.case.bytes() as f64;
            if !(low / 1.4..high * 1.4).contains(&x) {
                continue;
            }
            let grey = RGBColor(110, 110, 110);
            chart.draw_series(DashedLineSeries::new([(x, 0.0), (x, y_max)], 5, 5, grey.stroke_width(1)))?;
            // Along the line, low on the plot where the curves have risen.
            let note = format!("L2 ({} MB): {}", l2 >> 20, op.name());
            let style = (FONT, 15).into_font().transform(FontTransform::Rotate270).color(&grey);
            chart.draw_series([Text::new(note, (x / 1.09, y_max * 0.03), style)])?;
        }
    }
    for (Entry { color, swatch, .. }, points) in entries.iter().zip(&curves) {
        if let Swatch::Dashed(dash, gap) = *swatch {
            chart.draw_series(DashedLineSeries::new(points.iter().copied(), dash, gap, color.stroke_width(2)))?;
        } else {
            chart.draw_series(LineSeries::new(points.iter().copied(), color.stroke_width(2)))?;
        }
        chart.draw_series(points.iter().map(|&p| Circle::new(p, 4, color.filled())))?;
    }
    Ok(())
}

fn linear_shape(row: &Row) -> Option<LinearShape> {
    match row.case.size {
        Size::Linear(s) => Some(s),
        Size::Elements(_) => None,
    }
}

/// The Ms of the linear rows, ascending.
fn linear_ms(report: &Report) -> Vec<usize> {
    let mut ms = distinct(report.rows.iter().filter_map(|r| linear_shape(r).map(|s| s.m)));
    ms.sort_unstable();
    ms
}

/// A bar series of the int4 panels: one version in one activation type.
/// Not the block: the library tunes it per shape, and a series per block
/// would split one kernel's bars over several (the table and JSON keep it).
struct Series<'a> {
    version: &'a str,
    dtype: Dtype,
    color: RGBColor,
}

impl Series<'_> {
    fn label(&self) -> String {
        format!("{} {}", self.version, self.dtype.name())
    }

    fn holds(&self, row: &Row) -> bool {
        row.case.version == self.version && row.case.dtype == self.dtype
    }
}

/// Every panel's series, a version's types side by side. The colours are the
/// same in every panel, so one legend serves them all: a hue per version,
/// lighter for bf16 than for f16 and f32.
fn linear_series(report: &Report) -> Vec<Series<'_>> {
    let linear = || report.rows.iter().filter(|r| r.case.op == Op::Linear);
    let versions = distinct(linear().map(|r| r.case.version.as_str()));
    let mut keys =
        distinct(linear().filter_map(|r| Some((versions.iter().position(|&v| v == r.case.version)?, r.case.dtype))));
    keys.sort();
    keys.into_iter()
        .map(|(i, dtype)| {
            let hue = PALETTE[i % PALETTE.len()];
            Series { version: versions[i], dtype, color: if dtype == Dtype::Bf16 { lighter(hue) } else { hue } }
        })
        .collect()
}

/// `color` halfway to white.
fn lighter(RGBColor(r, g, b): RGBColor) -> RGBColor {
    let half = |c: u8| c / 2 + 128;
    RGBColor(half(r), half(g), half(b))
}

/// A series in a legend.
struct Entry {
    label: String,
    color: RGBColor,
    swatch: Swatch,
}

/// How a legend entry shows its series.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Swatch {
    Bar,
    Line,
    /// Dash and gap lengths in pixels.
    Dashed(u32, u32),
}

/// Draws a legend along the bottom of `area`, outside the plot so that it
/// covers no data, and returns the area above it. Column-major, so that a
/// version's f16 and bf16, or a kernel's versions, stand one above the other.
fn legend<'a>(area: &Area<'a>, entries: &[Entry]) -> crate::Result<Area<'a>> {
    const LINE: u32 = 22;
    // Between the plot's axis description and the first line.
    const GAP: u32 = 12;
    let style = (FONT, 15).into_font().color(&BLACK);
    let mut widest = 0;
    for entry in entries {
        widest = widest.max(area.estimate_text_size(&entry.label, &style)?.0);
    }
    // Swatch, gap and the space to the next column.
    let column = widest + 55;
    let (width, height) = area.dim_in_pixel();
    let rows = entries.len().div_ceil((width / column).max(1) as usize).max(1);
    let (plot, strip) = area.split_vertically(height.saturating_sub(rows as u32 * LINE + GAP + 4));
    let left = width.saturating_sub(entries.len().div_ceil(rows) as u32 * column) as i32 / 2;
    for (i, Entry { label, color, swatch }) in entries.iter().enumerate() {
        let (x, y) = (left + (i / rows) as i32 * column as i32, (i % rows) as i32 * LINE as i32 + GAP as i32);
        match *swatch {
            Swatch::Bar => strip.draw(&Rectangle::new([(x, y + 3), (x + 24, y + 15)], color.filled()))?,
            Swatch::Line => strip.draw(&PathElement::new([(x, y + 9), (x + 24, y + 9)], color.stroke_width(3)))?,
            Swatch::Dashed(dash, gap) => {
                for start in (x..x + 24).step_by((dash + gap) as usize) {
                    let end = (start + dash as i32).min(x + 24);
                    strip.draw(&PathElement::new([(start, y + 9), (end, y + 9)], color.stroke_width(3)))?;
                }
            }
        }
        strip.draw_text(label, &style, (x + 30, y))?;
    }
    Ok(plot)
}

/// The row a bar shows and its height: the fastest of `series` at `(n, k)`,
/// as `--sweep` times a series at every block.
fn fastest<'r>(report: &Report, rows: &[&'r Row], series: &Series, (n, k): (usize, usize)) -> Option<(&'r Row, f64)> {
    rows.iter()
        .filter(|r| series.holds(r) && linear_shape(r).is_some_and(|s| (s.n, s.k) == (n, k)))
        .filter_map(|&r| Some((r, metric(report, r)?)))
        .max_by(|a, b| a.1.total_cmp(&b.1))
}

fn linear(area: &Area, report: &Report, m: usize, series: &[Series]) -> crate::Result<()> {
    // One weight format a panel: the first mode and group measured.
    let Some(first) = report.rows.iter().filter_map(linear_shape).find(|s| s.m == m) else {
        return empty(area, "no rows");
    };
    let rows: Vec<&Row> = report
        .rows
        .iter()
        .filter(|r| linear_shape(r).is_some_and(|s| s.m == m && s.mode == first.mode && s.group == first.group))
        .filter(|r| metric(report, r).is_some())
        .collect();
    let shapes = distinct(rows.iter().filter_map(|r| linear_shape(r).map(|s| (s.n, s.k))));
    let present: Vec<&Series> = series.iter().filter(|s| rows.iter().any(|r| s.holds(r))).collect();
    let top = rows.iter().filter_map(|r| metric(report, r)).fold(0.0, f64::max);
    // Headroom for the marks and time labels.
    let y_max = (top * 1.18).max(if report.copy_bandwidth().is_some() { 10.0 } else { 1.0 });
    let caption = format!("int4 linear, M = {m} ({}, G = {}): {}", mode_name(first.mode), first.group, figures(report));
    let mut chart = ChartBuilder::on(area)
        .caption(caption, (FONT, 20))
        .x_label_area_size(52)
        .y_label_area_size(62)
        .build_cartesian_2d(-0.5..shapes.len() as f64 - 0.5, 0.0..y_max)?;
    let names: Vec<String> = shapes.iter().map(|(n, k)| format!("{n}×{k}")).collect();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(shapes.len().max(2))
        .x_label_formatter(&|x| {
            let i = x.round();
            let on_shape = (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < names.len();
            if on_shape { names[i as usize].clone() } else { String::new() }
        })
        .x_desc("N × K (output × input features); the fastest bar of each shape marked, with its µs")
        .y_desc(y_description(report))
        .y_label_formatter(&|y| if y_max < 20.0 { format!("{y:.1}") } else { format!("{y:.0}") })
        .label_style((FONT, 14))
        .axis_desc_style((FONT, 16))
        .light_line_style(WHITE.mix(0.0))
        .bold_line_style(BLACK.mix(0.12))
        .draw()?;
    let width = 0.8 / present.len().max(1) as f64;
    let mut bars = Vec::new();
    for (j, s) in present.iter().enumerate() {
        for (shape, &nk) in shapes.iter().enumerate() {
            let Some((row, y)) = fastest(report, &rows, s, nk) else { continue };
            let Some(time) = row.timing.cold() else { continue };
            let x = shape as f64 - 0.4 + j as f64 * width;
            bars.push(Bar { shape, x, y, seconds: time.median, color: s.color });
        }
    }
    chart
        .draw_series(bars.iter().map(|b| Rectangle::new([(b.x, 0.0), (b.x + width * 0.92, b.y)], b.color.filled())))?;
    // A label on every bar would overlap its neighbours' (up to 16 bars share
    // a shape): only the fastest of each shape is marked, its time above the
    // shape's tallest bar, as near the mark as the shape's width allows.
    let style = TextStyle::from((FONT, 14).into_font()).pos(Pos::new(HPos::Center, VPos::Bottom));
    let pixels_per_shape = chart.plotting_area().dim_in_pixel().0 as f64 / shapes.len().max(1) as f64;
    for shape in 0..shapes.len() {
        let group = || bars.iter().filter(|b| b.shape == shape);
        let Some(best) = group().min_by(|a, b| a.seconds.total_cmp(&b.seconds)) else { continue };
        let tallest = group().map(|b| b.y).fold(0.0, f64::max);
        let label = format!("{} µs", micros(best.seconds));
        let half = f64::from(area.estimate_text_size(&label, &style)?.0) / 2.0 / pixels_per_shape;
        let centre = best.x + width * 0.46;
        let slack = (0.5 - half).max(0.0);
        let x = centre.clamp(shape as f64 - slack, shape as f64 + slack);
        let mark = Polygon::new(vec![(-5, -11), (5, -11), (0, -3)], BLACK.filled());
        chart.draw_series([EmptyElement::at((centre, best.y)) + mark])?;
        chart.draw_series([EmptyElement::at((x, tallest)) + Text::new(label, (0, -13), style.clone())])?;
    }
    Ok(())
}

/// A bar of an int4 panel, in the panel's coordinates.
struct Bar {
    /// The index of its shape on the x axis.
    shape: usize,
    /// Left edge.
    x: f64,
    y: f64,
    /// Its cold median.
    seconds: f64,
    color: RGBColor,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Stats;
    use crate::model::tests::sample_report;

    /// Draws the fabricated report. `CHART_OUT=path.png` keeps the picture
    /// for a look; otherwise it goes to the temporary folder.
    #[test]
    fn draws_a_png() {
        let path = std::env::var_os("CHART_OUT")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| std::env::temp_dir().join(format!("quant-kernels-chart-{}.png", std::process::id())));
        draw(&sample_report(), &path).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        if std::env::var_os("CHART_OUT").is_none() {
            std::fs::remove_file(&path).unwrap();
        }
    }

    /// One series per version and type whatever the blocks, and with
    /// `--sweep`'s several blocks at a shape, the fastest drawn.
    #[test]
    fn int4_series_leave_out_the_block() {
        let mut report = sample_report();
        let series = linear_series(&report);
        let labels: Vec<String> = series.iter().map(Series::label).collect();
        assert_eq!(labels, ["v1 f32", "v2 f32", "v5 f16", "v5 bf16"]);
        assert_eq!(series[3].color, lighter(series[2].color));

        let tuned = report.rows.iter().find(|r| series[2].holds(r)).unwrap();
        let shape = linear_shape(tuned).unwrap();
        let mut swept = tuned.clone();
        swept.case.block = Some(1024);
        swept.timing.graph_cold = swept.timing.graph_cold.map(|t| Stats { median: 0.5 * t.median, ..t });
        report.rows.push(swept);
        let series = linear_series(&report);
        let panel: Vec<&Row> = report.rows.iter().filter(|r| linear_shape(r).is_some_and(|s| s == shape)).collect();
        let (row, _) = fastest(&report, &panel, &series[2], (shape.n, shape.k)).unwrap();
        assert_eq!(row.case.block, Some(1024));
    }

    #[test]
    fn axis_labels() {
        assert_eq!(short(100_000.0), "100K");
        assert_eq!(short(1e6), "1M");
        assert_eq!(short(4_369_066.7), "4.4M");
    }
}
