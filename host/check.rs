//! What the tests, the report (`cargo run`) and the benchmarks use to check
//! kernels against the reference: a seeded generator for fresh inputs and
//! the error measures the error bounds are stated in.

use crate::parallel::for_each_part;

/// A small seeded generator (SplitMix64): the same seed gives the same inputs
/// on every machine, so a failure reproduces from its printed seed.
#[derive(Debug, Clone)]
pub struct Rng(u64);

/// SplitMix64's increment: the state after `d` draws is `seed + d * GAMMA`.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// A seed from the clock, for fresh inputs on every run.
    pub fn fresh_seed() -> u64 {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        now.as_nanos() as u64 ^ (std::process::id() as u64).rotate_left(32)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GAMMA);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `[low, high)`.
    pub fn uniform(&mut self, low: f32, high: f32) -> f32 {
        (low as f64 + (high as f64 - low as f64) * self.unit()) as f32
    }

    /// Standard normal (Box-Muller).
    pub fn normal(&mut self) -> f32 {
        let u = 1.0 - self.unit();
        let v = self.unit();
        ((-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()) as f32
    }

    /// An integer in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.unit() * n as f64) as usize
    }

    /// `n` standard normal values times `scale`: the values that `n` calls
    /// of [`normal`](Self::normal) would give, drawn on all cores when `n`
    /// is large (each normal takes two draws, so each part starts its own
    /// generator where the sequence reaches the part's first value).
    pub fn normals(&mut self, n: usize, scale: f32) -> Vec<f32> {
        let start = self.0;
        let mut out = vec![0.0f32; n];
        for_each_part(&mut out, 1, n, |first, part| {
            let mut rng = Rng(start.wrapping_add(GAMMA.wrapping_mul(2 * first as u64)));
            for value in part {
                *value = rng.normal() * scale;
            }
        });
        self.0 = start.wrapping_add(GAMMA.wrapping_mul(2 * n as u64));
        out
    }
}

/// `||y - reference|| / ||reference||` (Euclidean norms, in f64); 0 when both
/// are zero, infinite when only the reference is, NaN if `y` holds NaN.
pub fn relative_l2_error(y: &[f32], reference: &[f64]) -> f64 {
    let (mut diff, mut norm) = (0.0f64, 0.0f64);
    for (&a, &b) in y.iter().zip(reference) {
        diff += (a as f64 - b).powi(2);
        norm += b * b;
    }
    if diff == 0.0 { 0.0 } else { (diff / norm).sqrt() }
}

/// `|y - exact| / |exact|`.
pub fn relative_error(y: f32, exact: f64) -> f64 {
    ((y as f64 - exact) / exact).abs()
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn normals_on_all_cores_are_the_sequential_draws() {
        let (n, seed) = ((1 << 17) + 3, 0x5EED);
        let mut sequential = Rng::new(seed);
        let expected: Vec<f32> = (0..n).map(|_| sequential.normal() * 0.5).collect();
        let mut parallel = Rng::new(seed);
        let values = parallel.normals(n, 0.5);
        assert!(values.iter().zip(&expected).all(|(a, b)| a.to_bits() == b.to_bits()));
        assert_eq!(values.len(), n);
        // The generator goes on where the sequential one would.
        assert_eq!(parallel.next_u64(), sequential.next_u64());
    }
}
