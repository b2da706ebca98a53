//! CPU reference implementations, written from each operation's definition
//! and independently of the kernels (f64 where rounding matters). They are
//! what the tests compare against, and the CPU fallback: they check their
//! inputs exactly as the GPU wrappers do.

use crate::int4_weights::Int4Weights;
use crate::launch::{checked_product, expect_len};
use crate::parallel::for_each_part;
use crate::quantize_int8::{Int8Params, check_row_params};
use crate::{Error, Float};

/// `exp((x + y) * 2)` in f64: the exact value up to f64 rounding.
pub fn add_mul_exp_exact(x: f32, y: f32) -> f64 {
    ((x as f64 + y as f64) * 2.0).exp()
}

/// `exp((x + y) * 2)` elementwise on the widened inputs, computed in f64 and
/// rounded once to `T` ([`Float::round_from_f64`]).
pub fn add_mul_exp<T: Float>(x: &[T], y: &[T]) -> Result<Vec<T>, Error> {
    expect_len("y", x.len(), y.len())?;
    Ok(x.iter().zip(y).map(|(&a, &b)| T::round_from_f64(add_mul_exp_exact(a.to_f32(), b.to_f32()))).collect())
}

/// One element of int8 quantization, from the definition: NaN is 0, the
/// rest rounds half to even and clamps.
fn quantize_one(x: f32, scale: f32, zero_point: f32) -> i8 {
    let shifted = x / scale + zero_point;
    if shifted.is_nan() { 0 } else { shifted.round_ties_even().clamp(-128.0, 127.0) as i8 }
}

/// `clamp(round_half_even(x / scale + zero_point), -128, 127)` per element,
/// on the widened (exact) input.
pub fn quantize_int8<T: Float>(x: &[T], params: Int8Params) -> Vec<i8> {
    x.iter().map(|&v| quantize_one(v.to_f32(), params.scale(), params.zero_point())).collect()
}

/// Per-row quantization of the row-major `x[rows][cols]`, `rows = scales.len()`.
pub fn quantize_int8_rows<T: Float>(
    x: &[T],
    cols: usize,
    scales: &[f32],
    zero_points: &[f32],
) -> Result<Vec<i8>, Error> {
    check_row_params(scales, zero_points)?;
    expect_len("x", checked_product("rows * cols", scales.len(), cols)?, x.len())?;
    Ok(x.iter().enumerate().map(|(i, &v)| quantize_one(v.to_f32(), scales[i / cols], zero_points[i / cols])).collect())
}

/// `y[m][n] = sum_k x[m][k] * W[n][k] + bias[n]` in f64, with `W` the packed
/// weights' dequantized values (exact in f32, see [`Int4Weights::dequantized`]).
/// The weight rows are split over all cores; each is dequantized once and
/// serves every row of `x`.
pub fn int4_linear(x: &[f32], m: usize, weights: &Int4Weights, bias: Option<&[f32]>) -> Result<Vec<f64>, Error> {
    let shape = weights.shape();
    let (n, k) = (shape.n, shape.k);
    expect_len("x", checked_product("m * k", m, k)?, x.len())?;
    if let Some(bias) = bias {
        expect_len("bias", n, bias.len())?;
    }
    // Transposed, `[n][m]`: a part of whole weight rows is one stretch.
    let mut y_by_row = vec![0.0f64; checked_product("m * n", m, n)?];
    for_each_part(&mut y_by_row, m, n * k * m.max(1), |first_row, part| {
        let mut w = vec![0.0f32; k];
        for (i, outputs) in part.chunks_mut(m.max(1)).enumerate() {
            let j = first_row + i;
            weights.dequantize_row(j, &mut w);
            for (x_row, out) in outputs.iter_mut().enumerate() {
                let dot: f64 = x[x_row * k..][..k].iter().zip(&w).map(|(&a, &b)| a as f64 * b as f64).sum();
                *out = dot + bias.map_or(0.0, |b| b[j] as f64);
            }
        }
    });
    let mut y = vec![0.0f64; m * n];
    for (j, outputs) in y_by_row.chunks(m.max(1)).enumerate() {
        for (i, &value) in outputs.iter().enumerate() {
            y[i * n + j] = value;
        }
    }
    Ok(y)
}

#[cfg(test)]
mod tests {
    use super::int4_linear;
    use crate::check::Rng;
    use crate::{Int4Mode, Int4Weights};

    /// Split over the cores by weight rows, the reference is still each
    /// output's plain f64 sum, in column order, of the dequantized weights.
    #[test]
    fn int4_linear_is_the_plain_sum_of_each_output() {
        let (m, n, k) = (3, 16 * 9 + 5, 512);
        let mut rng = Rng::new(7);
        let weights = Int4Weights::quantize(&rng.normals(n * k, 0.02), n, k, 64, Int4Mode::Asymmetric).unwrap();
        let (x, bias) = (rng.normals(m * k, 1.0), rng.normals(n, 0.1));
        let y = int4_linear(&x, m, &weights, Some(&bias)).unwrap();
        for i in 0..m {
            for j in 0..n {
                let dot: f64 = (0..k).map(|c| x[i * k + c] as f64 * weights.dequantized(j, c) as f64).sum();
                assert_eq!(y[i * n + j].to_bits(), (dot + bias[j] as f64).to_bits(), "y[{i}][{j}]");
            }
        }
    }

    /// With no columns every output is its bias (or 0).
    #[test]
    fn int4_linear_of_empty_rows_is_the_bias() {
        let (m, n) = (3, 5);
        let weights = Int4Weights::quantize(&[], n, 0, 32, Int4Mode::Symmetric).unwrap();
        let bias = [1.0, -2.0, 3.5, 0.25, -0.5];
        let y = int4_linear(&[], m, &weights, Some(&bias)).unwrap();
        assert_eq!(y, (0..m * n).map(|i| bias[i % n] as f64).collect::<Vec<_>>());
        assert_eq!(int4_linear(&[], m, &weights, None).unwrap(), vec![0.0; m * n]);
    }
}
