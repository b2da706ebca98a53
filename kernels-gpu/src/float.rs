//! The storage types of activations and outputs (f32, f16, bf16). Kernels
//! load them, compute in f32 and store them back through [`Float`], and move
//! them 16 bytes at a time ([`Float::LANES`] values: 4 f32 or 8 f16/bf16).

use core::arch::asm;

/// A bf16 value (the high 16 bits of an f32), as stored in memory. Rust has
/// no bf16 primitive; the conversions are bit operations.
#[repr(transparent)]
#[derive(Clone, Copy, Default)]
pub struct Bf16(pub u16);

/// A floating-point storage type: widened to f32 exactly, narrowed back with
/// one round to nearest even (overflow gives inf, subnormals are kept).
pub trait Float: Copy {
    /// Values of this type in one 16-byte vector access.
    const LANES: usize;
    /// Whether this type has values that are f32 subnormals (f32, bf16; not
    /// f16, whose smallest value is 2^-24), so that math producing them may
    /// not flush them to zero.
    const HOLDS_F32_SUBNORMALS: bool;
    /// One `E` per value of a 16-byte vector of this type: `[E; LANES]`
    /// (the values themselves, their f32 widenings, their int8 codes, ...).
    type Lanes<E: Copy>: Copy + AsRef<[E]> + AsMut<[E]>;
    /// `[f(0), f(1), .., f(LANES - 1)]`.
    fn lanes<E: Copy>(f: impl FnMut(usize) -> E) -> Self::Lanes<E>;
    fn to_f32(self) -> f32;
    fn from_f32(value: f32) -> Self;
    /// A vector of f32 rounded to this type lane by lane, as [`from_f32`](Self::from_f32)
    /// does (f16 and bf16 round two lanes an instruction).
    #[inline(always)]
    fn from_f32_lanes(values: Self::Lanes<f32>) -> Self::Lanes<Self> {
        Self::lanes(|j| Self::from_f32(values.as_ref()[j]))
    }
}

impl Float for f32 {
    const LANES: usize = 4;
    const HOLDS_F32_SUBNORMALS: bool = true;
    type Lanes<E: Copy> = [E; 4];
    #[inline(always)]
    fn lanes<E: Copy>(f: impl FnMut(usize) -> E) -> [E; 4] {
        core::array::from_fn(f)
    }
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
    const LANES: usize = 8;
    const HOLDS_F32_SUBNORMALS: bool = false;
    type Lanes<E: Copy> = [E; 8];
    #[inline(always)]
    fn lanes<E: Copy>(f: impl FnMut(usize) -> E) -> [E; 8] {
        core::array::from_fn(f)
    }
    #[inline(always)]
    fn to_f32(self) -> f32 {
        self as f32 // cvt.f32.f16
    }
    #[inline(always)]
    fn from_f32(value: f32) -> Self {
        value as f16 // cvt.rn.f16.f32
    }
    #[inline(always)]
    fn from_f32_lanes(values: [f32; 8]) -> [f16; 8] {
        // SAFETY: 16 bytes of f16 bit patterns.
        unsafe { core::mem::transmute::<[u32; 4], [f16; 8]>(pairs(values, cvt_f16x2)) }
    }
}

impl Float for Bf16 {
    const LANES: usize = 8;
    const HOLDS_F32_SUBNORMALS: bool = true;
    type Lanes<E: Copy> = [E; 8];
    #[inline(always)]
    fn lanes<E: Copy>(f: impl FnMut(usize) -> E) -> [E; 8] {
        core::array::from_fn(f)
    }
    #[inline(always)]
    fn to_f32(self) -> f32 {
        f32::from_bits((self.0 as u32) << 16)
    }
    /// One `cvt.rn.bf16.f32` (sm_80 and newer): round to nearest even,
    /// subnormals kept, overflow to inf, any NaN to the canonical NaN.
    #[inline(always)]
    fn from_f32(value: f32) -> Self {
        let bits: u16;
        // SAFETY: a register-to-register conversion; no memory, no side effects.
        unsafe {
            asm!("cvt.rn.bf16.f32 {b}, {v};", b = out(reg16) bits, v = in(reg32) value, options(pure, nomem, nostack))
        };
        Bf16(bits)
    }
    #[inline(always)]
    fn from_f32_lanes(values: [f32; 8]) -> [Bf16; 8] {
        // SAFETY: 16 bytes of bf16 bit patterns.
        unsafe { core::mem::transmute::<[u32; 4], [Bf16; 8]>(pairs(values, cvt_bf16x2)) }
    }
}

/// 8 f32 rounded to a 16-bit type two at a time by `convert(high, low)`,
/// lane `2i` in the low half of word `i` (the memory order).
#[inline(always)]
fn pairs(values: [f32; 8], convert: impl Fn(f32, f32) -> u32) -> [u32; 4] {
    core::array::from_fn(|i| convert(values[2 * i + 1], values[2 * i]))
}

/// `cvt.rn.f16x2.f32`: `high` and `low` rounded to f16, in the high and low
/// halves of the result.
#[inline(always)]
fn cvt_f16x2(high: f32, low: f32) -> u32 {
    let pair: u32;
    // SAFETY: a register-to-register conversion; no memory, no side effects.
    unsafe {
        asm!("cvt.rn.f16x2.f32 {d}, {h}, {l};", d = out(reg32) pair, h = in(reg32) high, l = in(reg32) low,
            options(pure, nomem, nostack))
    };
    pair
}

/// `cvt.rn.bf16x2.f32`, as [`cvt_f16x2`] for bf16.
#[inline(always)]
fn cvt_bf16x2(high: f32, low: f32) -> u32 {
    let pair: u32;
    // SAFETY: as above.
    unsafe {
        asm!("cvt.rn.bf16x2.f32 {d}, {h}, {l};", d = out(reg32) pair, h = in(reg32) high, l = in(reg32) low,
            options(pure, nomem, nostack))
    };
    pair
}
