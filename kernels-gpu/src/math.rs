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

/// `clamp(round_half_even(x / scale + zero_point), -128, 127)` as `i8`.
///
/// Exact arithmetic: the result of one correctly rounded f32 division (as
/// `div.rn.f32` gives, not a multiply by `1 / scale`), one f32 addition (no
/// FMA), then round half to even. NaN gives 0 and +-inf saturate to 127 /
/// -128 (as Rust's saturating `as` does, and PTX's `cvt.rni.s8.f32`).
///
/// This is the one-element form of [`Int8Quantizer`], which the kernels use
/// with its division prepared once.
#[inline(always)]
pub fn quantize_int8(x: f32, scale: f32, zero_point: f32) -> i8 {
    Int8Quantizer::new(scale, zero_point).quantize(x)
}

/// [`quantize_int8`] with one scale and zero point, its division prepared
/// once (per launch or row) so that each element costs a multiply and three
/// FMAs instead of a correctly rounded division (`div.rn.f32`: a reciprocal,
/// a Newton sequence and a check for its slow path). The result is the same
/// `i8` as true division for every `x`, `scale` and `zero_point`, NaN and
/// infinities included.
///
/// **The division.** With `h = RN(1/s)` (one `div.rn`, once) and
/// `l = RN(e h)`, `e = fma(-s, h, 1) = 1 - s h` (exact: `h` is within an ulp
/// of `1/s`), each element computes
///
/// ```text
/// q0 = fma(x, h, RN(x l))     // x (h + l) = x/s (1 + d), |d| < 2^-46
/// r  = fma(-q0, s, x)          // x - s q0, exact
/// q  = fma(r, h, q0)           // = RN(x/s)
/// ```
///
/// Markstein's theorem (P. Markstein, IBM J. Res. Dev. 34(1), 1990; in
/// Muller et al., *Handbook of Floating-Point Arithmetic*, the chapter on
/// division with an FMA): in binary floating point with round to nearest,
/// if `h` is within half an ulp of `1/s` and `q0` within one ulp of `x/s`
/// (a faithful rounding), and nothing overflows or underflows, then
/// `r = x - s q0` is representable, so the FMA computes it exactly, and
/// `RN(q0 + r h) = RN(x/s)`. Here `h = RN(1/s)` meets the first hypothesis.
/// The second needs the low part `l`: `h + l` is `1/s` to a relative
/// `2^-47` (`e^2 + |e| 2^-24` with `|e| < 2^-24`), `RN(x l)` adds
/// `2^-48 |x/s|`, so `q0` is `x/s` to within half an ulp plus `2^-46 |x/s|`:
/// faithful. The shorter `q0 = RN(x h)` is not: it can be 1.5 ulp off
/// (`|x h - x/s| < |x| 2^-25` and `|x/s| < 1` when `|x| < |s|` in
/// significand), and was for about 1.3% of significand pairs in a test;
/// the final result was still right in every case tried, but the theorem
/// does not cover it.
///
/// **Where the theorem's "no overflow or underflow" holds.** The fast path
/// is taken when `2^-64 <= |s| <= 2^64` (decided once, so `h`, `l`, `e`
/// are normal and `e h` does not underflow) and `|x| <= 2^32` (one compare
/// an element, which NaN fails). Then `|x/s| <= 2^96`, so nothing
/// overflows. If also `|x| >= 2^-100` and `|x/s| >= 2^-100`, the quotient
/// is normal, `RN(x l)` is off by at most `2^-150 <= 2^-50 |x/s|` even if
/// subnormal, and `r`, a multiple of `2^-147` of at most 24 bits, is
/// representable: the theorem applies and `q = RN(x/s)`. Otherwise
/// (`|x| < 2^-100`, or `|x/s| < 2^-100`) both `x/s` and `q` are below
/// `2^-33` (`|q0| <= 1.01 |x/s|`, `|r| <= 2.1 |x|`, `|q| <= 3.2 |x/s|`),
/// and any two values that small give the same result after
/// `+ zero_point` and rounding: for `|zero_point| >= 1/4` the sum rounds to
/// `zero_point` itself (less than a quarter ulp away), else `|sum| < 1/2`
/// rounds to 0. Zeros go through the fast path exactly.
///
/// **Everything else divides truly** (`x / s`): scales outside the range
/// above (subnormal, huge, 0, inf, NaN), and inputs beyond `2^32` in
/// magnitude, infinite or NaN, where `x h` could overflow and `inf - inf`
/// make a NaN of a quotient that should saturate. The kernels' scales
/// (finite, > 0, checked by the host) and their inputs (f16 is below
/// 65520; f32/bf16 activations far below 2^32) take the fast path.
#[derive(Clone, Copy)]
pub struct Int8Quantizer {
    scale: f32,
    zero_point: f32,
    /// `RN(1/scale)`.
    hi: f32,
    /// `RN((1 - scale hi) hi)`: `hi + lo` is `1/scale` to 2^-47.
    lo: f32,
    /// Inputs up to this magnitude take the fast path: [`FAST_INPUT_MAX`],
    /// or -1 (none) when the scale is out of its range.
    fast_input_max: f32,
}

/// The largest `|x|` of the fast division: `2^32`.
pub const FAST_INPUT_MAX: f32 = f32::from_bits((127 + 32) << 23);
/// The scales of the fast division: `2^-64 <= |scale| <= 2^64`.
pub const FAST_SCALE_RANGE: (f32, f32) = (f32::from_bits((127 - 64) << 23), f32::from_bits((127 + 64) << 23));

/// The preparation of the division by `scale`: `[hi, lo]` with
/// `hi = RN(1/scale)` (one correctly rounded reciprocal) and
/// `lo = RN((1 - scale hi) hi)`. The host computes it once for a per-tensor
/// launch (this very function, compiled for the CPU) and passes it to the
/// kernel, whose threads would otherwise each spend a reciprocal, its
/// Newton steps and a slow-path test before their first load.
#[inline(always)]
pub fn scale_inverse(scale: f32) -> [f32; 2] {
    let hi = 1.0 / scale;
    [hi, fma(-scale, hi, 1.0) * hi]
}

impl Int8Quantizer {
    /// Prepares the division by `scale` (one correctly rounded reciprocal).
    #[inline(always)]
    pub fn new(scale: f32, zero_point: f32) -> Self {
        Self::prepared(scale, zero_point, scale_inverse(scale))
    }

    /// As [`new`](Self::new), with `inverse` = [`scale_inverse`]`(scale)`
    /// computed beforehand (any other value gives wrong codes).
    #[inline(always)]
    pub fn prepared(scale: f32, zero_point: f32, inverse: [f32; 2]) -> Self {
        let fast = (FAST_SCALE_RANGE.0..=FAST_SCALE_RANGE.1).contains(&scale.abs()); // false for NaN
        let [hi, lo] = inverse;
        Self { scale, zero_point, hi, lo, fast_input_max: if fast { FAST_INPUT_MAX } else { -1.0 } }
    }

    /// The code of one input.
    #[inline(always)]
    pub fn quantize(&self, x: f32) -> i8 {
        round_to_i8(self.quotient(x) + self.zero_point)
    }

    /// `codes[i]` = the code of `xs[i]`, as [`quantize`](Self::quantize)
    /// gives it, with one test for all of them: if every input takes the fast
    /// division, no true division is in the way. (With a test per input,
    /// LLVM computes both quotients of every input and selects one, as if
    /// the branch were free: a full `div.rn` an element on the GPU.) The
    /// length is a multiple of 4: the codes are rounded 4 at a time.
    #[inline(always)]
    pub fn quantize_all(&self, xs: &[f32], codes: &mut [i8]) {
        let fast = xs.iter().fold(true, |all, &x| all & self.is_fast(x));
        for (codes, xs) in codes.chunks_exact_mut(4).zip(xs.chunks_exact(4)) {
            let quotients: [f32; 4] = if fast {
                core::array::from_fn(|i| self.fast_quotient(xs[i]))
            } else {
                core::array::from_fn(|i| self.quotient(xs[i]))
            };
            codes.copy_from_slice(&round_to_i8x4(quotients.map(|q| q + self.zero_point)).map(|code| code as i8));
        }
    }

    /// `x / scale` correctly rounded, except where `|x| < 2^-100` or
    /// `|x / scale| < 2^-100` on the fast path: there a value below `2^-33`
    /// in magnitude, which [`quantize`](Self::quantize) rounds as it would
    /// the true quotient (see the type's docs).
    #[inline(always)]
    pub fn quotient(&self, x: f32) -> f32 {
        if self.is_fast(x) { self.fast_quotient(x) } else { x / self.scale }
    }

    /// Whether `x` takes the fast division (false for NaN).
    #[inline(always)]
    fn is_fast(&self, x: f32) -> bool {
        x.abs() <= self.fast_input_max
    }

    /// The fast division, for an `x` that [`is_fast`](Self::is_fast).
    #[inline(always)]
    fn fast_quotient(&self, x: f32) -> f32 {
        let q0 = fma(x, self.hi, x * self.lo);
        fma(fma(-q0, self.scale, x), self.hi, q0)
    }
}

/// `clamp(round_half_even(v), -128, 127)`, NaN to 0: one `cvt.rni.s8.f32`
/// (float-to-integer conversions saturate and turn NaN into 0 in PTX).
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
fn round_to_i8(v: f32) -> i8 {
    let code: i16;
    // SAFETY: a register-to-register conversion; no memory, no side effects.
    unsafe {
        core::arch::asm!("cvt.rni.s8.f32 {c}, {v};", c = out(reg16) code, v = in(reg32) v,
            options(pure, nomem, nostack))
    };
    code as i8
}

#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
fn round_to_i8(v: f32) -> i8 {
    (v.round_ties_even() as i32).clamp(i8::MIN as i32, i8::MAX as i32) as i8
}

/// [`round_to_i8`] of 4 values, as the bytes of a little-endian word (`v[0]`
/// lowest): 4 `cvt.rni.s32.f32` (NaN to 0, saturating to i32) and 2
/// `cvt.pack.sat.s8.s32.b32` (saturating to i8, packing two codes above the
/// low half of a third word), where 4 `cvt.rni.s8.f32` leave each code in
/// its own register and cost ~14 more instructions to pack.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
fn round_to_i8x4(v: [f32; 4]) -> [u8; 4] {
    let codes: u32;
    // SAFETY: register-to-register conversions; no memory, no side effects.
    unsafe {
        core::arch::asm!(
            "{{",
            ".reg .s32 %i<4>;",
            ".reg .b32 %high;",
            "cvt.rni.s32.f32 %i0, {v0};",
            "cvt.rni.s32.f32 %i1, {v1};",
            "cvt.rni.s32.f32 %i2, {v2};",
            "cvt.rni.s32.f32 %i3, {v3};",
            "cvt.pack.sat.s8.s32.b32 %high, %i3, %i2, 0;",
            "cvt.pack.sat.s8.s32.b32 {c}, %i1, %i0, %high;",
            "}}",
            c = out(reg32) codes,
            v0 = in(reg32) v[0], v1 = in(reg32) v[1], v2 = in(reg32) v[2], v3 = in(reg32) v[3],
            options(pure, nomem, nostack)
        )
    };
    codes.to_le_bytes()
}

#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
fn round_to_i8x4(v: [f32; 4]) -> [u8; 4] {
    v.map(|v| round_to_i8(v) as u8)
}

/// `exp((x + y) * 2)`, with relative error below 2.5e-7 (about 2 ulp)
/// wherever the result is a normal f32 (9e-8 is the worst seen over 44M
/// inputs). Overflow gives +inf, NaN propagates.
///
/// `x + y` is computed exactly as a rounded sum plus its rounding error
/// (Knuth's TwoSum), so the rounding of the sum does not reach the exponent:
/// without it, an error of half an ulp in `x + y` would become a relative
/// error of up to `|2(x + y)| * 2^-24`, 5e-6 near the overflow threshold.
/// (Where the sum overflows the error is NaN; [`exp_of_twice`] drops it
/// with every other out-of-range argument's.)
#[inline(always)]
pub fn add_mul_exp(x: f32, y: f32) -> f32 {
    let sum = x + y;
    let y_part = sum - x;
    let error = (x - (sum - y_part)) + (y - y_part);
    exp_of_twice(sum, error)
}

/// `e^(2 (hi + lo))` for `|lo| <= ulp(hi)`, relative error below 2.5e-7 for
/// normal results.
///
/// Range reduction: `2 (hi + lo) = j ln2 + r` with integer `j` and
/// `|r| <= ln2 / 2`, where `ln2 = LN2_HI + LN2_LO` (Cody and Waite): `LN2_HI`
/// has 9 significant bits so `j * LN2_HI` is exact for `|j| <= 2^15` and
/// `2 hi - j * LN2_HI` loses nothing. Then `e^r` by its Taylor polynomial of
/// degree 7 in Horner form with FMAs (truncation < 5.3e-9, rounding about
/// 1 ulp), and the scaling by `2^j` in two exact power-of-two steps so that
/// neither overflows or underflows before the final rounding.
///
/// `j` is rounded by adding `1.5 * 2^23`, which leaves `j` in the low bits
/// of the sum's significand: the same `j` as rounding `t * LOG2_E` half to
/// even (`|t * LOG2_E| < 2^22`), without the GPU's quarter-rate `FRND` and
/// `F2I` or a saturating float-to-integer cast.
#[inline(always)]
fn exp_of_twice(hi: f32, lo: f32) -> f32 {
    const LOG2_E: f32 = core::f32::consts::LOG2_E;
    const LN2_HI: f32 = 0.693_359_4; // 355 / 512, exact in f32
    const LN2_LO: f32 = -2.121_944_4e-4; // ln 2 - LN2_HI, rounded to f32
    const ROUNDER: f32 = 12_582_912.0; // 1.5 * 2^23: ulp 1, and j's sign stays inside the significand
    const INV_FACTORIAL: [f32; 8] =
        [1.0, 1.0, 1.0 / 2.0, 1.0 / 6.0, 1.0 / 24.0, 1.0 / 120.0, 1.0 / 720.0, 1.0 / 5040.0];

    // e^-104 rounds to 0 and e^89 to +inf in f32; clamping keeps 2^j in the
    // range the scaling handles. NaN passes through the clamp.
    let twice = 2.0 * hi;
    let t = twice.clamp(-104.0, 89.0);
    // A clamped argument (or an infinite or NaN one, whose `lo` may be NaN)
    // is far outside the range; its `lo` must not pull it back in.
    let lo = if t == twice { lo } else { 0.0 };
    let rounded = t * LOG2_E + ROUNDER;
    let j = rounded - ROUNDER;
    // `+ 2 lo` in one rounding: `2 lo` is exact.
    let r = fma(lo, 2.0, fma(-j, LN2_LO, fma(-j, LN2_HI, t)));

    let mut p = INV_FACTORIAL[7];
    for coefficient in INV_FACTORIAL[..7].iter().rev() {
        p = fma(p, r, *coefficient);
    }

    // j in -150..=128 (garbage for a NaN t, whose p is NaN): split so each
    // factor is a normal f32.
    let j = rounded.to_bits().wrapping_sub(ROUNDER.to_bits()) as i32;
    let half = j >> 1;
    p * power_of_two(half) * power_of_two(j.wrapping_sub(half))
}

/// `2^e` for `e` in `-126..=127`, built from its exponent bits (any bits
/// for other `e`).
#[inline(always)]
fn power_of_two(e: i32) -> f32 {
    f32::from_bits((e.wrapping_add(127) as u32) << 23)
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
