//! The storage types of activations and outputs (f32, f16, bf16). Kernels
//! load them, compute in f32 and store them back through [`Float`].

/// A bf16 value (the high 16 bits of an f32), as stored in memory. Rust has
/// no bf16 primitive; the conversions are bit operations.
#[repr(transparent)]
#[derive(Clone, Copy, Default)]
pub struct Bf16(pub u16);

/// A floating-point storage type: widened to f32 exactly, narrowed back with
/// one round to nearest even.
pub trait Float: Copy {
    fn to_f32(self) -> f32;
    fn from_f32(value: f32) -> Self;
}

impl Float for f32 {
    #[inline(always)]
    fn to_f32(self) -> f32 {
        self
    }
    #[inline(always)]
    fn from_f32(value: f32) -> Self {
        value
    }
}

impl Float for f16 {
    #[inline(always)]
    fn to_f32(self) -> f32 {
        self as f32 // cvt.f32.f16
    }
    #[inline(always)]
    fn from_f32(value: f32) -> Self {
        value as f16 // cvt.rn.f16.f32
    }
}

impl Float for Bf16 {
    #[inline(always)]
    fn to_f32(self) -> f32 {
        f32::from_bits((self.0 as u32) << 16)
    }
    #[inline(always)]
    fn from_f32(value: f32) -> Self {
        let bits = value.to_bits();
        if value.is_nan() {
            // Keep it a NaN whatever its payload (truncation could give inf).
            return Bf16(((bits >> 16) | 0x0040) as u16);
        }
        // Round to nearest even: add half an ulp of bf16, plus one if the
        // kept part is odd, and truncate. Overflow carries into inf.
        let rounded = bits + 0x7FFF + ((bits >> 16) & 1);
        Bf16((rounded >> 16) as u16)
    }
}
