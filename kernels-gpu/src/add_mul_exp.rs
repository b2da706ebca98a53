//! `out = exp((x + y) * 2)`, elementwise, for f32, f16 and bf16 storage: the
//! inputs widen exactly to f32, the math is f32 ([`math::add_mul_exp`]) and
//! the result is rounded once to the storage type.
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
//!   grid that covers the array once has twice v2's threads.

use crate::device::{
    Split, Strided, Tiles, for_each_element, for_each_vector_batch, is_aligned, load_vector, load_vector_streaming,
    store_vector, store_vector_streaming,
};
use crate::float::{Bf16, Float};
use crate::math;
use quant_kernels_abi::elementwise::v2::ADD_MUL_EXP_CHUNKS;

/// One element.
#[inline(always)]
fn one<T: Float>(x: T, y: T) -> T {
    T::from_f32(math::add_mul_exp(x.to_f32(), y.to_f32()))
}

/// One 16-byte vector of each input.
#[inline(always)]
fn vector<T: Float>(x: T::Lanes<T>, y: T::Lanes<T>) -> T::Lanes<T> {
    T::from_f32_lanes(T::lanes(|j| math::add_mul_exp(x.as_ref()[j].to_f32(), y.as_ref()[j].to_f32())))
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
export_per_float!(
    add_mul_exp_tiled [1] (x: *const T, y: *const T, out: *mut T, n: usize) as
    add_mul_exp_v3_f32 for f32, add_mul_exp_v3_f16 for f16, add_mul_exp_v3_bf16 for Bf16
);
