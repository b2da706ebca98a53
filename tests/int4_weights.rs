//! The packed int4 format and its quantizer (CPU only).

mod common;

use common::*;
use quant_kernels::check::Rng;
use quant_kernels::half::f16;
use quant_kernels::{Error, Int4Mode, Int4Shape, Int4Weights};

/// Bit offset of element `e` (0..8) within its word, transcribed from the
/// table in `quant_kernels_abi::int4` (element 0 at bits 3..0, 1 at 19..16, ...).
const BIT_OFFSET_OF_ELEMENT: [u32; 8] = [0, 16, 4, 20, 8, 24, 12, 28];

const MODES: [Int4Mode; 2] = [Int4Mode::Symmetric, Int4Mode::Asymmetric];

fn random_shape(rng: &mut Rng, mode: Int4Mode) -> Int4Shape {
    let group_size = [32, 64, 128][rng.below(3)];
    // Up to 3 bands of 16 rows, the last one often partial.
    let n = 1 + rng.below(40);
    let k = group_size * (1 + rng.below(7));
    Int4Shape::new(n, k, group_size, mode).expect("valid shape")
}

/// `[row][word]` -> index in `qweight`, by walking the order the layout's
/// documentation describes: bands of 16 rows (the last one padded), in each
/// band 128-column steps (16 words a row, the last one padded), in each
/// step the band's 16 rows, in each row the step's 16 words. Also returns
/// the words walked, padding included.
fn documented_word_order(n: usize, k: usize) -> (Vec<Vec<usize>>, usize) {
    let mut index = vec![vec![usize::MAX; k / 8]; n];
    let mut next = 0;
    for band in (0..n).step_by(16) {
        for step in (0..k / 8).step_by(16) {
            for row in band..band + 16 {
                for word in step..step + 16 {
                    // Padding (rows past n, words past k / 8) has no entry.
                    if let Some(slot) = index.get_mut(row).and_then(|words| words.get_mut(word)) {
                        *slot = next;
                    }
                    next += 1;
                }
            }
        }
    }
    (index, next)
}

fn codes_follow_the_documented_layout(rng: &mut Rng) -> TestResult {
    for mode in MODES {
        let shape = random_shape(rng, mode);
        let qweight: Vec<u32> = (0..shape.qweight_len()).map(|_| rng.next_u64() as u32).collect();
        let scales = vec![f16::ONE; shape.scales_len()];
        let zeros: Vec<u8> = (0..shape.zeros_len()).map(|_| rng.next_u64() as u8).collect();
        let w = Int4Weights::from_parts(shape, qweight.clone(), scales, zeros.clone())?;
        let (word_of, words) = documented_word_order(shape.n, shape.k);
        ensure(shape.qweight_len() == words, || format!("qweight_len {} of {words}", shape.qweight_len()))?;
        for row in 0..shape.n {
            for col in 0..shape.k {
                let word = qweight[word_of[row][col / 8]];
                let expected = (word >> BIT_OFFSET_OF_ELEMENT[col % 8]) & 0xF;
                ensure(w.code(row, col) == expected, || format!("code [{row}][{col}]"))?;
            }
            for group in 0..shape.groups_per_row() {
                let expected = match mode {
                    Int4Mode::Symmetric => 8,
                    Int4Mode::Asymmetric => {
                        let byte = zeros[row * shape.groups_per_row().div_ceil(2) + group / 2];
                        if group % 2 == 0 { byte & 0xF } else { byte >> 4 }
                    }
                };
                ensure(w.zero_point(row, group) == expected as u32, || format!("zero point [{row}][{group}]"))?;
            }
        }
        // The half2 property the layout exists for: pair (2t, 2t + 1) sits in
        // the low nibbles of the two half-words of `word >> 4t`.
        for &word in &qweight {
            for t in 0..4 {
                let pair = (word >> (4 * t)) & 0x000F_000F;
                let (even, odd) =
                    (word >> BIT_OFFSET_OF_ELEMENT[2 * t] & 0xF, word >> BIT_OFFSET_OF_ELEMENT[2 * t + 1] & 0xF);
                ensure(pair == even | odd << 16, || format!("pair {t} of {word:#010x}"))?;
            }
        }
    }
    Ok(())
}

/// Weights that are exactly `(code - zero) * scale` for a random scale and
/// zero point a group, with the extreme codes present in every group.
fn exact_weights(rng: &mut Rng, shape: Int4Shape) -> Vec<f32> {
    let (n, k, g, mode) = (shape.n, shape.k, shape.group_size, shape.mode);
    let mut weights = vec![0.0f32; n * k];
    for row in 0..n {
        for group in 0..k / g {
            let magnitude = f16::from_f32(rng.uniform(1e-3, 2.0));
            let (scale, zero) = match mode {
                // The scale's sign puts the largest magnitude at code 0 (level -8).
                Int4Mode::Symmetric => (if rng.below(2) == 0 { magnitude } else { -magnitude }, 8),
                Int4Mode::Asymmetric => (magnitude, rng.below(16) as i32),
            };
            for i in 0..g {
                let code = match (mode, i) {
                    (_, 0) => 0,
                    (Int4Mode::Asymmetric, 1) => 15,
                    _ => rng.below(16) as i32,
                };
                weights[row * k + group * g + i] = (code - zero) as f32 * scale.to_f32();
            }
        }
    }
    weights
}

/// Exact weights quantize back to the same codes and scales.
fn exact_weights_round_trip(rng: &mut Rng) -> TestResult {
    for mode in MODES {
        let shape = random_shape(rng, mode);
        let weights = exact_weights(rng, shape);
        let packed = Int4Weights::quantize(&weights, shape.n, shape.k, shape.group_size, mode)?;
        let back = packed.dequantize();
        let wrong = first_failures(weights.len(), 3, |i| back[i] == weights[i]);
        ensure(wrong.is_empty(), || format!("{mode:?} {shape:?}: round trip differs at {wrong:?}"))?;
    }
    Ok(())
}

/// A layer large enough that the quantizer and `dequantize` split it over
/// the cores (in parts of whole 16-row bands, the last one partial) gives
/// what the per-element accessors say, round trips exactly, and reports
/// the first bad weight in row order when two parts hold one.
fn large_layers_split_over_cores(rng: &mut Rng) -> TestResult {
    for mode in MODES {
        let shape = Int4Shape::new(16 * 9 + 5, 1024, [32, 64, 128][rng.below(3)], mode)?;
        let (n, k) = (shape.n, shape.k);
        let weights = exact_weights(rng, shape);
        let packed = Int4Weights::quantize(&weights, n, k, shape.group_size, mode)?;
        let back = packed.dequantize();
        let wrong = first_failures(n * k, 3, |i| back[i] == weights[i]);
        ensure(wrong.is_empty(), || format!("{mode:?} {shape:?}: round trip differs at {wrong:?}"))?;
        let wrong = first_failures(n * k, 3, |i| back[i].to_bits() == packed.dequantized(i / k, i % k).to_bits());
        ensure(wrong.is_empty(), || format!("{mode:?} {shape:?}: dequantize differs from dequantized at {wrong:?}"))?;
        let mut bad = weights;
        bad[(n - 3) * k + 7] = f32::NAN;
        bad[40 * k + 700] = f32::INFINITY;
        ensure(
            matches!(
                Int4Weights::quantize(&bad, n, k, shape.group_size, mode),
                Err(Error::InvalidWeight { row: 40, col: 700, .. })
            ),
            || format!("{mode:?}: not the first bad weight, [40][700]"),
        )?;
    }
    Ok(())
}

fn quantization_error_is_within_the_documented_bound(rng: &mut Rng) -> TestResult {
    // Int4Weights::quantize: half a step when rounded, one step when clamped,
    // both times 1 + 2^-8 for the f16 rounding of the scale.
    let slack = 1.0 + 1.0 / 256.0;
    let (n, k) = (64, 1024);
    let weights = rng.normals(n * k, 0.02);
    let norm = weights.iter().map(|&w| (w as f64).powi(2)).sum::<f64>().sqrt();
    for mode in MODES {
        for g in [32, 64, 128] {
            let packed = Int4Weights::quantize(&weights, n, k, g, mode)?;
            let back = packed.dequantize();
            let (mut diff, mut beyond_half_step) = (0.0f64, 0);
            for (i, (&w, &q)) in weights.iter().zip(&back).enumerate() {
                let step = packed.scale(i / k, i % k / g).to_f32().abs();
                let error = (w - q).abs();
                ensure(error <= step * slack, || format!("{mode:?} g={g}: |w - q| = {error} > step {step}"))?;
                beyond_half_step += usize::from(error > step / 2.0 * slack);
                diff += (w as f64 - q as f64).powi(2);
            }
            // Only weights within half a step of the far end are clamped: rare
            // on Gaussian data, well under one a group on average.
            ensure(beyond_half_step <= n * k / g, || format!("{mode:?} g={g}: {beyond_half_step} weights clamped"))?;
            // A uniform quantizer's RMS error is step / sqrt(12); for Gaussian
            // groups the step is about 2.5-3.5 sigma / 7.5, so the relative
            // error stays under 0.15.
            let relative = diff.sqrt() / norm;
            ensure(relative < 0.15, || format!("{mode:?} g={g}: relative error {relative}"))?;
        }
    }
    Ok(())
}

fn degenerate_groups(_: &mut Rng) -> TestResult {
    for mode in MODES {
        let zeros = Int4Weights::quantize(&[0.0; 64], 1, 64, 32, mode)?;
        ensure(zeros.dequantize().iter().all(|&v| v == 0.0), || format!("{mode:?}: zeros do not stay zero"))?;
        // Magnitudes whose scale is a normal f16 (see Int4Weights::quantize).
        for c in [0.3f32, -0.3, 1e-3] {
            let constant = Int4Weights::quantize(&[c; 32], 1, 32, 32, mode)?;
            let worst = constant.dequantize().iter().map(|&v| ((v - c) / c).abs()).fold(0.0, f32::max);
            // Only the f16 rounding of the scale is lost (2^-11 relative).
            ensure(worst <= 1.0 / 2048.0, || format!("{mode:?}: constant {c} comes back {worst} off"))?;
        }
    }
    Ok(())
}

/// Layers with no rows or no columns quantize to arrays of the shape's
/// lengths (all empty when `k == 0`) and dequantize to nothing.
fn empty_layers(_: &mut Rng) -> TestResult {
    for mode in MODES {
        for (n, k) in [(0, 0), (5, 0), (0, 64), (17, 0)] {
            let weights = Int4Weights::quantize(&[], n, k, 32, mode)?;
            let shape = weights.shape();
            let lengths = [weights.qweight().len(), weights.scales().len(), weights.zeros().len()];
            ensure(lengths == [shape.qweight_len(), shape.scales_len(), shape.zeros_len()], || {
                format!("{mode:?} {n}x{k}: lengths {lengths:?}")
            })?;
            ensure(weights.dequantize().is_empty(), || format!("{mode:?} {n}x{k}: dequantized values"))?;
        }
    }
    Ok(())
}

fn memory_ratio(_: &mut Rng) -> TestResult {
    let shape = Int4Shape::new(4096, 4096, 128, Int4Mode::Symmetric)?;
    let ratio = (4 * 4096 * 4096) as f64 / shape.packed_bytes() as f64;
    ensure((ratio - 32.0 / 4.125).abs() < 1e-12, || format!("symmetric G=128 ratio {ratio}"))?;
    let shape = Int4Shape::new(4096, 4096, 128, Int4Mode::Asymmetric)?;
    let ratio = (4 * 4096 * 4096) as f64 / shape.packed_bytes() as f64;
    ensure((ratio - 32.0 / 4.15625).abs() < 1e-12, || format!("asymmetric G=128 ratio {ratio}"))
}

fn rejects_bad_input(_: &mut Rng) -> TestResult {
    let w = vec![0.5f32; 4 * 256];
    for g in [0, 16, 96, 256] {
        expect_error(Int4Weights::quantize(&w, 4, 256, g, Int4Mode::Symmetric), Error::InvalidGroupSize(g))?;
    }
    expect_error(
        Int4Weights::quantize(&w[..4 * 160], 4, 160, 64, Int4Mode::Symmetric),
        Error::KNotMultipleOfGroup { k: 160, group_size: 64 },
    )?;
    expect_error(
        Int4Weights::quantize(&w[1..], 4, 256, 32, Int4Mode::Symmetric),
        Error::LengthMismatch { argument: "weights", expected: 1024, actual: 1023 },
    )?;
    for (bad, mode) in
        [(f32::NAN, Int4Mode::Symmetric), (f32::INFINITY, Int4Mode::Asymmetric), (1e6, Int4Mode::Symmetric)]
    {
        let mut w = w.clone();
        w[256 + 37] = bad;
        ensure(
            matches!(Int4Weights::quantize(&w, 4, 256, 32, mode), Err(Error::InvalidWeight { row: 1, col: 37, .. })),
            || format!("weight {bad} at [1][37] accepted ({mode:?})"),
        )?;
    }
    // 2 rows of 64 columns: one band of 16 rows of one 16-word step.
    let shape = Int4Shape::new(2, 64, 32, Int4Mode::Asymmetric)?;
    expect_error(
        Int4Weights::from_parts(shape, vec![0; 256], vec![f16::ONE; 4], vec![0; 3]),
        Error::LengthMismatch { argument: "zeros", expected: 2, actual: 3 },
    )?;
    expect_error(
        Int4Weights::from_parts(shape, vec![0; 255], vec![f16::ONE; 4], vec![0; 2]),
        Error::LengthMismatch { argument: "qweight", expected: 256, actual: 255 },
    )
}

/// The constants converted for versions 12, 13, 19, 23 and 24 (`Int4Weights::packed_constants`),
/// read back by the layout `quant_kernels_abi::int4::packed_constants`
/// documents: `u16` halves, `[group][row]` with rows padded with zeros to
/// a multiple of 256, a row's scale as `T` and, with zero points only,
/// `-(MAGIC + z)` as `T` after it (`MAGIC` 1024 in f16 and 128 in bf16).
/// Only at G = 128, only for half types.
fn packed_constants_follow_the_documented_layout(rng: &mut Rng) -> TestResult {
    use quant_kernels::half::bf16;
    for mode in MODES {
        let n = 1 + rng.below(300);
        let shape = Int4Shape::new(n, 128 * (1 + rng.below(4)), 128, mode)?;
        let qweight = vec![0u32; shape.qweight_len()];
        // Scales of every f16 exponent the quantizer gives and random
        // mantissas, so that rounding to bf16 matters.
        let scales: Vec<f16> =
            (0..shape.scales_len()).map(|_| f16::from_bits(0x0400 + (rng.next_u64() % 0x7000) as u16)).collect();
        let zeros: Vec<u8> = (0..shape.zeros_len()).map(|_| rng.next_u64() as u8).collect();
        let w = Int4Weights::from_parts(shape, qweight, scales, zeros)?;
        let (rows, halves) = (n.div_ceil(256) * 256, if mode == Int4Mode::Symmetric { 1 } else { 2 });
        for half in ["f16", "bf16"] {
            let (packed, magic) = match half {
                "f16" => (w.packed_constants::<f16>(), 1024.0),
                _ => (w.packed_constants::<bf16>(), 128.0),
            };
            let packed = packed.ok_or("no packed constants at G = 128")?;
            let value = |bits: u16| match half {
                "f16" => f16::from_bits(bits).to_f32(),
                _ => bf16::from_bits(bits).to_f32(),
            };
            ensure(packed.len() == shape.k / 128 * rows * halves, || format!("{half}: {} halves", packed.len()))?;
            for group in 0..shape.k / 128 {
                for row in 0..rows {
                    let first = (group * rows + row) * halves;
                    let constants = &packed[first..first + halves];
                    if row >= n {
                        ensure(constants.iter().all(|&h| h == 0), || {
                            format!("{half}: padding row {row}: {constants:x?}")
                        })?;
                        continue;
                    }
                    let scale = w.scale(row, group).to_f32();
                    let rounded = if half == "f16" { scale } else { bf16::from_f32(scale).to_f32() };
                    let offset = -(magic + w.zero_point(row, group) as f32);
                    ensure(
                        value(constants[0]) == rounded && constants[1..].iter().all(|&h| value(h) == offset),
                        || {
                            format!(
                                "{half} {mode:?} row {row} group {group}: {constants:x?} for scale {scale}, offset {offset}"
                            )
                        },
                    )?;
                }
            }
        }
        ensure(w.packed_constants::<f32>().is_none(), || "f32 has no packed constants".into())?;
    }
    let w = Int4Weights::quantize(&[0.5; 64 * 4], 4, 64, 64, Int4Mode::Symmetric)?;
    ensure(w.packed_constants::<f16>().is_none(), || "packed constants at G = 64".into())
}

fn main() {
    run(vec![
        cpu_test("cpu::codes_follow_the_documented_layout", codes_follow_the_documented_layout),
        cpu_test("cpu::packed_constants_follow_the_documented_layout", packed_constants_follow_the_documented_layout),
        cpu_test("cpu::exact_weights_round_trip", exact_weights_round_trip),
        cpu_test("cpu::large_layers_split_over_cores", large_layers_split_over_cores),
        cpu_test(
            "cpu::quantization_error_is_within_the_documented_bound",
            quantization_error_is_within_the_documented_bound,
        ),
        cpu_test("cpu::degenerate_groups", degenerate_groups),
        cpu_test("cpu::empty_layers", empty_layers),
        cpu_test("cpu::memory_ratio", memory_ratio),
        cpu_test("cpu::rejects_bad_input", rejects_bad_input),
    ]);
}
