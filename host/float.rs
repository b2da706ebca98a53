//! The element types of activations and outputs: f32, f16 and bf16.
//!
//! Every kernel that takes floating-point activations exists once per type in
//! the PTX, its name ending in the type's [`Float::NAME`]
//! (`add_mul_exp_bf16`, say). Arithmetic inside the kernels is f32 whatever
//! the storage type; each kernel's module states its error bound per type.
//!
//! The half types are those of [`half`] 1.8 (re-exported as
//! `quant_kernels::half`), the version for which cust implements `DeviceCopy`,
//! so `DeviceBuffer<half::f16>` and `DeviceBuffer<half::bf16>` exist.

use half::{bf16, f16};

/// A storage type of activations and outputs. Sealed: implemented for `f32`,
/// [`half::f16`] and [`half::bf16`], the types the kernels are compiled for.
pub trait Float:
    Copy + Default + PartialEq + PartialOrd + core::fmt::Debug + Send + Sync + 'static + sealed::Sealed
{
    /// The suffix of the kernels' names for this type.
    const NAME: &'static str;
    /// This type's entry of `per_type` (a kernel's name in the PTX, say).
    fn select<V: Copy>(per_type: &PerFloat<V>) -> V;
    /// The unit roundoff `2^-p` (`p` significand bits): the largest relative
    /// error of one rounding to this type, subnormals aside.
    const UNIT_ROUNDOFF: f64;
    /// The largest finite value.
    const MAX: f64;
    /// The smallest positive normal value; below it values are subnormal,
    /// spaced `2 * UNIT_ROUNDOFF * MIN_POSITIVE` apart (the smallest subnormal).
    const MIN_POSITIVE: f64;
    /// Rounds to nearest, ties to even; NaN stays NaN, overflow gives inf.
    fn from_f32(value: f32) -> Self;
    /// Exact.
    fn to_f32(self) -> f32;
    /// Rounds once to nearest, ties to even (not through f32, which could
    /// round twice): NaN stays NaN, values that round past [`MAX`](Self::MAX)
    /// give inf, subnormal results keep what the type's subnormals can hold.
    fn round_from_f64(value: f64) -> Self {
        if !value.is_finite() {
            return Self::from_f32(value as f32);
        }
        // The spacing of this type's values around |value|: 2u times the
        // power of two at or below it, or the subnormal spacing below MIN_POSITIVE.
        let exponent = |v: f64| ((v.to_bits() >> 52) & 0x7FF) as i64 - 1023;
        let floor = exponent(value.abs()).max(exponent(Self::MIN_POSITIVE));
        let spacing = f64::from_bits(((floor + 1023) as u64) << 52) * 2.0 * Self::UNIT_ROUNDOFF;
        // Both steps are exact: division by a power of two, and an integer
        // multiple of the spacing below 2^p of it.
        let rounded = (value.abs() / spacing).round_ties_even() * spacing;
        let magnitude = if rounded > Self::MAX { f32::INFINITY } else { rounded as f32 };
        Self::from_f32(magnitude.copysign(value as f32))
    }
    /// `values` rounded to this type.
    fn from_f32_slice(values: &[f32]) -> Vec<Self> {
        values.iter().map(|&v| Self::from_f32(v)).collect()
    }
    /// `values` widened to f32 (exact).
    fn to_f32_vec(values: &[Self]) -> Vec<f32> {
        values.iter().map(|v| v.to_f32()).collect()
    }
}

impl Float for f32 {
    const NAME: &'static str = "f32";
    fn select<V: Copy>(per_type: &PerFloat<V>) -> V {
        per_type.f32
    }
    const UNIT_ROUNDOFF: f64 = 1.0 / (1u64 << 24) as f64;
    const MAX: f64 = f32::MAX as f64;
    const MIN_POSITIVE: f64 = f32::MIN_POSITIVE as f64;
    fn from_f32(value: f32) -> Self {
        value
    }
    fn to_f32(self) -> f32 {
        self
    }
}

impl Float for f16 {
    const NAME: &'static str = "f16";
    fn select<V: Copy>(per_type: &PerFloat<V>) -> V {
        per_type.f16
    }
    const UNIT_ROUNDOFF: f64 = 1.0 / (1u64 << 11) as f64;
    const MAX: f64 = 65504.0;
    const MIN_POSITIVE: f64 = 1.0 / (1u64 << 14) as f64;
    fn from_f32(value: f32) -> Self {
        f16::from_f32(value)
    }
    fn to_f32(self) -> f32 {
        f16::to_f32(self)
    }
}

impl Float for bf16 {
    const NAME: &'static str = "bf16";
    fn select<V: Copy>(per_type: &PerFloat<V>) -> V {
        per_type.bf16
    }
    const UNIT_ROUNDOFF: f64 = 1.0 / (1u64 << 8) as f64;
    const MAX: f64 = 255.0 * (1u128 << 120) as f64; // (2 - 2^-7) * 2^127
    const MIN_POSITIVE: f64 = f32::MIN_POSITIVE as f64;
    fn from_f32(value: f32) -> Self {
        bf16::from_f32(value)
    }
    fn to_f32(self) -> f32 {
        bf16::to_f32(self)
    }
}

/// One value per [`Float`] type, such as the names of one kernel's three
/// instantiations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PerFloat<V> {
    pub f32: V,
    pub f16: V,
    pub bf16: V,
}

impl<V: Copy> PerFloat<V> {
    /// The entry for `T`.
    pub fn get<T: Float>(&self) -> V {
        T::select(self)
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for half::f16 {}
    impl Sealed for half::bf16 {}
}
