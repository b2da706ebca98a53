//! The scalar math of the kernels, in plain Rust: IEEE `+ - * /`, fused
//! multiply-add, round-half-even and bit casts, nothing the GPU does
//! differently from a CPU. So the host tests compile this file for the CPU
//! too (`#[path]`), check the error bounds below in CI, and check that the
//! GPU returns the very same bits (NaN payloads aside: the GPU returns the
//! canonical NaN).
//!
//! PTX arithmetic here is `add.rn`/`mul.rn`/`div.rn`/`fma.rn` without `.ftz`:
//! correctly rounded, subnormals kept. No `mul`+`add` pair is contracted
//! into an FMA (LLVM fuses only where `fma` is written).

#[cfg(target_arch = "nvptx64")]
#[inline(always)]
fn fma(a: f32, b: f32, c: f32) -> f32 {
    core::f32::math::mul_add(a, b, c)
}

#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
fn fma(a: f32, b: f32, c: f32) -> f32 {
    a.mul_add(b, c)
}

/// Round to the nearest integer, ties to even (`cvt.rni.f32.f32`).
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
fn round_half_even(x: f32) -> f32 {
    core::f32::math::round_ties_even(x)
}

#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
fn round_half_even(x: f32) -> f32 {
    x.round_ties_even()
}

/// `clamp(round_half_even(x / scale + zero_point), -128, 127)` as `i8`.
///
/// Exact arithmetic: one correctly rounded f32 division (`div.rn.f32`, not a
/// multiply by `1 / scale`), one f32 addition (no FMA), then round half to
/// even. NaN gives 0 and +-inf saturate to 127 / -128 (Rust's saturating
/// `as`, which PTX's `cvt.rzi.s32.f32` implements natively).
#[inline(always)]
pub fn quantize_int8(x: f32, scale: f32, zero_point: f32) -> i8 {
    let rounded = round_half_even(x / scale + zero_point) as i32;
    rounded.clamp(i8::MIN as i32, i8::MAX as i32) as i8
}

/// `exp((x + y) * 2)`, with relative error below 2.5e-7 (about 2 ulp)
/// wherever the result is a normal f32 (9e-8 is the worst seen over 44M
/// inputs). Overflow gives +inf, NaN propagates.
///
/// `x + y` is computed exactly as a rounded sum plus its rounding error
/// (Knuth's TwoSum), so the rounding of the sum does not reach the exponent:
/// without it, an error of half an ulp in `x + y` would become a relative
/// error of up to `|2(x + y)| * 2^-24`, 5e-6 near the overflow threshold.
#[inline(always)]
pub fn add_mul_exp(x: f32, y: f32) -> f32 {
    let sum = x + y;
    let y_part = sum - x;
    let error = (x - (sum - y_part)) + (y - y_part);
    // A sum that overflowed leaves `error` NaN; the result is +inf then anyway.
    let error = if error.is_finite() { error } else { 0.0 };
    exp_of_sum(2.0 * sum, 2.0 * error)
}

/// `e^(hi + lo)` for `|lo| <= ulp(hi)`, relative error below 2.5e-7 for normal
/// results.
///
/// Range reduction: `hi + lo = j ln2 + r` with integer `j` and
/// `|r| <= ln2 / 2`, where `ln2 = LN2_HI + LN2_LO` (Cody and Waite): `LN2_HI`
/// has 9 significant bits so `j * LN2_HI` is exact for `|j| <= 2^15` and
/// `hi - j * LN2_HI` loses nothing. Then `e^r` by its Taylor polynomial of
/// degree 7 in Horner form with FMAs (truncation < 5.3e-9, rounding about
/// 1 ulp), and the scaling by `2^j` in two exact power-of-two steps so that
/// neither overflows or underflows before the final rounding.
#[inline(always)]
pub fn exp_of_sum(hi: f32, lo: f32) -> f32 {
    const LOG2_E: f32 = core::f32::consts::LOG2_E;
    const LN2_HI: f32 = 0.693_359_4; // 355 / 512, exact in f32
    const LN2_LO: f32 = -2.121_944_4e-4; // ln 2 - LN2_HI, rounded to f32
    const INV_FACTORIAL: [f32; 8] =
        [1.0, 1.0, 1.0 / 2.0, 1.0 / 6.0, 1.0 / 24.0, 1.0 / 120.0, 1.0 / 720.0, 1.0 / 5040.0];

    // e^-104 rounds to 0 and e^89 to +inf in f32; clamping keeps 2^j in the
    // range the scaling handles. NaN passes through the clamp.
    let t = hi.clamp(-104.0, 89.0);
    // A clamped `hi` is far outside the range; its `lo` must not pull it back in.
    let lo = if t == hi { lo } else { 0.0 };
    let j = round_half_even(t * LOG2_E);
    let r = fma(-j, LN2_LO, fma(-j, LN2_HI, t)) + lo;

    let mut p = INV_FACTORIAL[7];
    for coefficient in INV_FACTORIAL[..7].iter().rev() {
        p = fma(p, r, *coefficient);
    }

    // j in -150..=128: split so each factor is a normal f32.
    let j = j as i32;
    let half = j >> 1;
    p * power_of_two(half) * power_of_two(j - half)
}

/// `2^e` for `e` in `-126..=127`, built from its exponent bits.
#[inline(always)]
fn power_of_two(e: i32) -> f32 {
    f32::from_bits(((e + 127) as u32) << 23)
}

/// The 8 levels `u_i - zero` of a packed int4 word as exact f32, nibble `i`
/// (bits `4i..4i + 4`) at index `i`, without integer-to-float conversions
/// (`I2F` issues at a quarter of the FP32 rate).
///
/// A nibble at bit `b` of the mantissa, ORed into the bits of `2^(23 - b)`,
/// makes the float `2^(23 - b) + u` exactly; subtracting `2^(23 - b) + zero`
/// (exact: both are integers below 2^24) leaves `u - zero`. Nibbles 0-4 sit
/// in the mantissa as they are (bits 0-19); 5-7 are shifted down by 12 first
/// (bit 23 is the exponent's). Cost a word: 8 AND/OR (one `lop3` each),
/// 1 shift, 8 subtractions.
#[inline(always)]
pub fn int4_levels(word: u32, zero: u32) -> [f32; 8] {
    let mut levels = [0.0f32; 8];
    for (i, level) in levels.iter_mut().enumerate() {
        let shift = if i < 5 { 0 } else { 12 };
        let bit = 4 * i as u32 - shift;
        let magic = (127 + 23 - bit) << 23; // the bits of 2^(23 - bit)
        let biased = f32::from_bits(((word >> shift) & (0xF << bit)) | magic);
        *level = biased - (f32::from_bits(magic) + zero as f32);
    }
    levels
}
