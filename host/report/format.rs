//! The int4 format on Gaussian weights: how much smaller than f32, and the
//! quantization error itself (the kernels' error bounds are against the
//! dequantized weights; this is the error of the dequantized weights).

use quant_kernels::check::Rng;
use quant_kernels::{Int4Mode, Int4Weights};

/// Prints size ratio and `||W - dequant(W)|| / ||W||` per mode and group.
pub fn print_quantization_error(rng: &mut Rng) {
    let (n, k) = (256, 4096);
    let weights = rng.normals(n * k, 0.02);
    let norm: f64 = weights.iter().map(|&w| (w as f64).powi(2)).sum::<f64>().sqrt();
    println!("\nint4 weights, {n}x{k} Gaussian: size against f32, and ||W - dequant(W)|| / ||W||");
    for mode in [Int4Mode::Symmetric, Int4Mode::Asymmetric] {
        for group in [32, 64, 128] {
            let packed = Int4Weights::quantize(&weights, n, k, group, mode).expect("valid shape");
            let diff: f64 = packed
                .dequantize()
                .iter()
                .zip(&weights)
                .map(|(&q, &w)| (q as f64 - w as f64).powi(2))
                .sum::<f64>()
                .sqrt();
            let ratio = (4 * n * k) as f64 / packed.shape().packed_bytes() as f64;
            println!("  {mode:?} G={group:<3}  {ratio:.2}x smaller  error {:.4}", diff / norm);
        }
    }
}
