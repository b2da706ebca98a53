//! Tensor-core matrix multiply-accumulate (`mma.sync.m16n8k16`) and the
//! packed half-precision arithmetic that feeds it, for f16 and bf16 operands.
//!
//! Fragments (PTX ISA, "Matrix Fragments for mma.m16n8k16"): lane `l` of the
//! warp has `g = l / 4` and `t = l % 4`. Each register holds two 16-bit
//! values, the lower-numbered column (of A) or row (of B) in the low half.
//!
//! | operand | register | element(s) |
//! |---|---|---|
//! | A (16x16, row-major) | `a[0]` | `A[g][2t..2t+2]` |
//! | | `a[1]` | `A[g + 8][2t..2t+2]` |
//! | | `a[2]` | `A[g][2t + 8..2t + 10]` |
//! | | `a[3]` | `A[g + 8][2t + 8..2t + 10]` |
//! | B (16x8, column-major) | `b[0]` | `B[2t..2t+2][g]` |
//! | | `b[1]` | `B[2t + 8..2t + 10][g]` |
//! | C, D (16x8 f32) | `c[0]`, `c[1]` | `C[g][2t]`, `C[g][2t + 1]` |
//! | | `c[2]`, `c[3]` | `C[g + 8][2t]`, `C[g + 8][2t + 1]` |

use crate::float::{Bf16, Float};
use core::arch::asm;
use quant_kernels_abi::int4::packed_constants::{BF16_NEG_MAGIC_BITS, F16_NEG_MAGIC_BITS};

/// A 16-bit type the tensor cores multiply (f16 or bf16), with the packed
/// two-lane (`x2`) arithmetic on it. `u32` arguments hold two values.
pub trait MmaHalf: Float {
    /// The bits of `MAGIC`, a power of two whose last significand bit is
    /// worth 1: OR-ing a 4-bit code `u` into its low bits gives `MAGIC + u`
    /// exactly (1024 in f16, 128 in bf16).
    const MAGIC_BITS: u16;
    /// `MAGIC` as a number.
    const MAGIC: f32;
    /// The bits of 1.
    const ONE_BITS: u16;
    /// The bits of `-(MAGIC + z)` are `NEG_MAGIC_BITS | z` for `z` in `0..16`.
    const NEG_MAGIC_BITS: u16;
    /// `round(a * b + c)` lane by lane, one rounding.
    fn fma2(a: u32, b: u32, c: u32) -> u32;
    /// `d = a * b + c`: A 16x16 (4 registers), B 16x8 (2), C and D 16x8 f32.
    fn mma(d: &mut [f32; 4], a: [u32; 4], b: [u32; 2]);
    /// This type's value nearest the f16 `bits` (exact for f16).
    fn from_f16_bits(bits: u16) -> u16;
    /// The value of this type's `bits`, widened to f32 (exact).
    fn widen_bits(bits: u16) -> f32;
}

macro_rules! mma_half {
    (
        $type:ty, $ptx:literal, $magic:literal, $magic_value:literal, $neg_magic:expr, $one:literal,
        $from_f16:expr, $from_bits:expr
    ) => {
        impl MmaHalf for $type {
            const MAGIC_BITS: u16 = $magic;
            const MAGIC: f32 = $magic_value;
            const ONE_BITS: u16 = $one;
            const NEG_MAGIC_BITS: u16 = $neg_magic;

            #[inline(always)]
            fn fma2(a: u32, b: u32, c: u32) -> u32 {
                let d: u32;
                // SAFETY: register-only arithmetic.
                unsafe {
                    asm!(concat!("fma.rn.", $ptx, "x2 {d}, {a}, {b}, {c};"), d = out(reg32) d, a = in(reg32) a,
                        b = in(reg32) b, c = in(reg32) c)
                };
                d
            }

            #[inline(always)]
            fn mma(d: &mut [f32; 4], a: [u32; 4], b: [u32; 2]) {
                // SAFETY: the whole warp executes it together (callers keep it
                // out of divergent code); registers only.
                unsafe {
                    asm!(
                        concat!("mma.sync.aligned.m16n8k16.row.col.f32.", $ptx, ".", $ptx, ".f32 ",
                            "{{{d0}, {d1}, {d2}, {d3}}}, {{{a0}, {a1}, {a2}, {a3}}}, {{{b0}, {b1}}}, ",
                            "{{{d0}, {d1}, {d2}, {d3}}};"),
                        d0 = inout(reg32) d[0], d1 = inout(reg32) d[1], d2 = inout(reg32) d[2],
                        d3 = inout(reg32) d[3], a0 = in(reg32) a[0], a1 = in(reg32) a[1], a2 = in(reg32) a[2],
                        a3 = in(reg32) a[3], b0 = in(reg32) b[0], b1 = in(reg32) b[1],
                    )
                };
            }

            #[inline(always)]
            fn from_f16_bits(bits: u16) -> u16 {
                $from_f16(bits)
            }

            #[inline(always)]
            fn widen_bits(bits: u16) -> f32 {
                $from_bits(bits).to_f32()
            }
        }
    };
}

mma_half!(f16, "f16", 0x6400, 1024.0, F16_NEG_MAGIC_BITS, 0x3C00, |bits| bits, f16::from_bits);
mma_half!(Bf16, "bf16", 0x4300, 128.0, BF16_NEG_MAGIC_BITS, 0x3F80, |bits| Bf16::from_f32(f16::from_bits(bits) as f32).0, Bf16);

/// `MAGIC + u` for the two 4-bit codes `u` in bits `0..4` and `16..20` of
/// `codes`, packed as two `T` (the other bits are ignored): the form in which
/// the tensor-core versions take a weight pair from a packed word shifted by
/// `4 * pair`.
///
/// One `lop3` computing `(codes & 0x000F_000F) | MAGIC`. Written as AND and
/// OR, ptxas emits two: a SASS `LOP3` takes one immediate, and it does not
/// keep the second constant in a register by itself.
#[inline(always)]
pub fn magic_plus_codes<T: MmaHalf>(codes: u32) -> u32 {
    let pair: u32;
    // SAFETY: register-only arithmetic. 0xEA is the truth table of `(a & b) | c`.
    unsafe {
        asm!("lop3.b32 {d}, {a}, 0x000F000F, {magic}, 0xEA;", d = out(reg32) pair, a = in(reg32) codes,
            magic = in(reg32) splat2(T::MAGIC_BITS), options(pure, nomem, nostack))
    };
    pair
}

/// Two copies of a 16-bit value, one in each half of a register.
#[inline(always)]
pub fn splat2(bits: u16) -> u32 {
    bits as u32 * 0x0001_0001
}

/// `ldmatrix.x4`: four 8 x 8 matrices of 16-bit values from shared memory.
/// Lane `8 j + i` gives the address of row `i` of matrix `j` (16 bytes,
/// 16-byte aligned); lane `(g, t)` gets row `g`, elements `2t, 2t + 1` of
/// matrix `j` in register `j`. Matrices whose rows are B's columns
/// (K-major) so become B fragments of [`MmaHalf::mma`].
///
/// # Safety
/// The whole warp executes it together, each lane's address as above,
/// inside the block's shared memory.
#[inline(always)]
pub unsafe fn load_matrices_x4(address: u32) -> [u32; 4] {
    let (a, b, c, d): (u32, u32, u32, u32);
    // SAFETY: the caller guarantees the addresses.
    unsafe {
        asm!("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {{{a}, {b}, {c}, {d}}}, [{p}];", a = out(reg32) a,
            b = out(reg32) b, c = out(reg32) c, d = out(reg32) d, p = in(reg32) address)
    };
    [a, b, c, d]
}
