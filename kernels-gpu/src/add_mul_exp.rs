//! `out = exp((x + y) * 2)`, elementwise, for f32, f16 and bf16 storage: the
//! inputs widen exactly to f32, the math is f32 ([`math::add_mul_exp`] for
//! f32, [`exp_for_16_bits`] for f16 and bf16) and the result is rounded once
//! to the storage type.
//!
//! Three versions, each exported once per type (`add_mul_exp_{f32,f16,bf16}`,
//! `add_mul_exp_v2_*`, `add_mul_exp_v3_*`); all work for any 1-D launch
//! shape.
//!
//! - v1: a grid-stride loop; each thread handles one 16-byte vector of each
//!   input per step when all three buffers are 16-byte aligned, else one
//!   element per step.
//! - v2: each thread loads `ADD_MUL_EXP_CHUNKS` vectors of each input before
//!   using any, with cache hints for data used once; scalar elements before
//!   the first 16-byte boundary, so slices that share their misalignment
//!   still take the vector path; meant to be launched with a grid that covers
//!   the array in one pass.
//! - v3, for small arrays: v2 with one vector of each input a thread, so a
//!   grid that covers the array once has twice v2's threads, and a short
//!   prologue when all buffers are 16-byte aligned.

use core::arch::asm;

use crate::device::{
    Split, Strided, Tiles, for_each_aligned_vector, for_each_element, for_each_vector_batch, is_aligned, load_vector,
    load_vector_streaming, store_vector, store_vector_streaming,
};
use crate::float::{Bf16, Float};
use crate::math;
use quant_kernels_abi::elementwise::v2::ADD_MUL_EXP_CHUNKS;

/// One element.
#[inline(always)]
fn one<T: Float>(x: T, y: T) -> T {
    T::from_f32(in_f32::<T>(x.to_f32(), y.to_f32()))
}

/// One 16-byte vector of each input.
#[inline(always)]
fn vector<T: Float>(x: T::Lanes<T>, y: T::Lanes<T>) -> T::Lanes<T> {
    T::from_f32_lanes(T::lanes(|j| in_f32::<T>(x.as_ref()[j].to_f32(), y.as_ref()[j].to_f32())))
}

/// The f32 value that is rounded to `T`: for f32, [`math::add_mul_exp`]
/// (2.5e-7, the same bits as on the CPU); for the 16-bit types, whose
/// rounding dwarfs that, [`exp_for_16_bits`] at a fifth of the instructions.
#[inline(always)]
fn in_f32<T: Float>(x: f32, y: f32) -> f32 {
    if size_of::<T>() == 2 { exp_for_16_bits::<T>(x, y) } else { math::add_mul_exp(x, y) }
}

/// `exp((x + y) * 2)` as `2^((x + y) * 2 log2(e))` by `ex2.approx.f32`
/// (the multifunction unit's `MUFU.EX2`): 3 instructions where
/// [`math::add_mul_exp`] takes 34, for a result that is then rounded to 11
/// (f16) or 8 (bf16) bits. For bf16, which keeps f32 subnormal results,
/// without `.ftz` (ptxas then squares the power of half the exponent below
/// 2^-126: 3 more instructions); for f16, whose smallest value is 2^-24,
/// with it.
///
/// Error, relative to the exact value where the result is normal: the sum
/// and the product are each rounded once (relative `2^-24`), an absolute
/// error of `|t| 2^-23` in the exponent `t`, which becomes a relative
/// `ln 2 |t| 2^-23` in the result; `|t| <= 25` for results that round to
/// a nonzero finite f16 and `|t| <= 134` for bf16, so at most `2.1e-6` and
/// `1.1e-5`; `ex2.approx.f32` adds about `2^-22` (2 ulp). The stated bound
/// for both types is `2^-16` (1.5e-5) before the rounding to `T`, checked on
/// the GPU for every 16-bit `x` (there is no CPU copy of `MUFU.EX2`).
/// NaN gives NaN, +inf +inf, -inf +0.
#[inline(always)]
fn exp_for_16_bits<T: Float>(x: f32, y: f32) -> f32 {
    const TWO_LOG2_E: f32 = 2.0 * core::f32::consts::LOG2_E;
    let exponent = (x + y) * TWO_LOG2_E;
    let power: f32;
    // SAFETY: register-to-register instructions; no memory, no side effects.
    unsafe {
        if T::HOLDS_F32_SUBNORMALS {
            asm!("ex2.approx.f32 {p}, {e};", p = out(reg32) power, e = in(reg32) exponent,
                options(pure, nomem, nostack))
        } else {
            asm!("ex2.approx.ftz.f32 {p}, {e};", p = out(reg32) power, e = in(reg32) exponent,
                options(pure, nomem, nostack))
        }
    };
    power
}

/// Version 1: `out[i] = exp((x[i] + y[i]) * 2)` for `i < n`, grid-stride.
///
/// # Safety
/// `x`, `y` and `out` point to `n` elements each; `out` overlaps neither input
/// unless it is identical to it.
#[inline(always)]
unsafe fn add_mul_exp_v1<T: Float>(x: *const T, y: *const T, out: *mut T, n: usize) {
    let vectorized = is_aligned(x, 16) && is_aligned(y, 16) && is_aligned(out, 16);
    for_each_element(
        Strided::grid(),
        n,
        T::LANES,
        vectorized,
        // SAFETY: i + LANES <= n and the pointers are 16-byte aligned (checked above).
        |i| unsafe { store_vector(out.add(i), vector::<T>(load_vector(x.add(i)), load_vector(y.add(i)))) },
        // SAFETY: i < n.
        |i| unsafe { *out.add(i) = one(*x.add(i), *y.add(i)) },
    );
}

export_per_float!(
    add_mul_exp_v1(x: *const T, y: *const T, out: *mut T, n: usize) as
    add_mul_exp_f32 for f32, add_mul_exp_f16 for f16, add_mul_exp_bf16 for Bf16
);

/// Versions 2 and 3: `out[i] = exp((x[i] + y[i]) * 2)` for `i < n`, tiles
/// of `CHUNKS * blockDim.x` vectors shared by the grid (v2: `CHUNKS =
/// ADD_MUL_EXP_CHUNKS`, v3: 1).
///
/// # Safety
/// `x`, `y` and `out` point to `n` elements each in global memory; `out`
/// overlaps neither input unless it is identical to it (every element is
/// read by the thread that then writes it, before it writes it, so the
/// read-only cache path of the loads never returns a value that is used
/// stale; the extra loads of the last vector that clamping makes are
/// discarded).
#[inline(always)]
unsafe fn add_mul_exp_tiled<T: Float, const CHUNKS: usize>(x: *const T, y: *const T, out: *mut T, n: usize) {
    // SAFETY (all offsets below): head <= n, and the vectors end at or before n.
    let split = Split::new(x, n, |head| unsafe { is_aligned(y.add(head), 16) && is_aligned(out.add(head), 16) });
    let (xs, ys, outs) = unsafe { (x.add(split.head()), y.add(split.head()), out.add(split.head())) };
    for_each_vector_batch::<CHUNKS, _, _>(
        Tiles::grid(),
        split.vectors(),
        // SAFETY: v < vectors; the vector part is 16-byte aligned in all three buffers.
        |v| unsafe { (load_vector_streaming(xs.add(v * T::LANES)), load_vector_streaming(ys.add(v * T::LANES))) },
        |(a, b)| vector::<T>(a, b),
        |v, result, keep| unsafe { store_vector_streaming(outs.add(v * T::LANES), result, keep) },
    );
    for s in Strided::grid().over(split.scalars()) {
        let i = split.scalar(s);
        // SAFETY: i < n.
        unsafe { *out.add(i) = one(*x.add(i), *y.add(i)) };
    }
}

export_per_float!(
    add_mul_exp_tiled [ADD_MUL_EXP_CHUNKS] (x: *const T, y: *const T, out: *mut T, n: usize) as
    add_mul_exp_v2_f32 for f32, add_mul_exp_v2_f16 for f16, add_mul_exp_v2_bf16 for Bf16
);

/// Version 3: version 2 with one vector a thread, and when all three
/// buffers are 16-byte aligned, the short loop of
/// [`for_each_aligned_vector`] in place of the head split and tiles.
///
/// # Safety
/// As for [`add_mul_exp_tiled`].
#[inline(always)]
unsafe fn add_mul_exp_v3<T: Float>(x: *const T, y: *const T, out: *mut T, n: usize) {
    if !(is_aligned(x, 16) && is_aligned(y, 16) && is_aligned(out, 16)) {
        // SAFETY: forwarded from the caller.
        return unsafe { add_mul_exp_tiled::<T, 1>(x, y, out, n) };
    }
    for_each_aligned_vector(
        n,
        T::LANES,
        // SAFETY: i + LANES <= n and the buffers are 16-byte aligned.
        |i| unsafe {
            let result = vector::<T>(load_vector_streaming(x.add(i)), load_vector_streaming(y.add(i)));
            store_vector_streaming(out.add(i), result, true)
        },
        // SAFETY: i < n.
        |i| unsafe { *out.add(i) = one(*x.add(i), *y.add(i)) },
    );
}

export_per_float!(
    add_mul_exp_v3(x: *const T, y: *const T, out: *mut T, n: usize) as
    add_mul_exp_v3_f32 for f32, add_mul_exp_v3_f16 for f16, add_mul_exp_v3_bf16 for Bf16
);
