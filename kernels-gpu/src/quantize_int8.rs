//! `q = clamp(round_half_even(x / scale + zero_point), -128, 127)` as `i8`,
//! with one scale and zero point for the whole tensor or one per row, from
//! f32, f16 or bf16 input (widened exactly to f32 first; the arithmetic is
//! [`math::quantize_int8`]).
//!
//! Two versions, each exported once per type: `quantize_int8_{f32,f16,bf16}`
//! and `quantize_int8_rows_*` (v1), `quantize_int8_v2_*` and
//! `quantize_int8_rows_v2_*` (v2). Both work for any 1-D launch shape.
//!
//! - v1: a grid-stride loop (per tensor) or a block-stride loop over each row
//!   (per row); one 16-byte load and one 4- or 8-byte store per thread and
//!   step when `x` is 16-byte aligned and `out` aligned to the vector's
//!   element count, else one element per step.
//! - v2: each thread loads `QUANTIZE_ELEMENTS` elements (4 vectors of f32,
//!   2 of f16/bf16) before quantizing any,
//!   with cache hints for data used once; scalar elements up to the first
//!   16-byte boundary of `x`, so rows whose length is not a multiple of the
//!   vector still take the vector path.

use crate::device::{
    Split, Strided, Tiles, block_idx_x, for_each_element, for_each_vector_batch, grid_dim_x, is_aligned, load_vector,
    load_vector_streaming, store_bytes, store_bytes_streaming,
};
use crate::float::{Bf16, Float};
use crate::math;
use quant_kernels_abi::elementwise::v2::QUANTIZE_ELEMENTS;

/// Version 1, per tensor: quantizes `x[..n]` into `out[..n]` with one
/// `scale` and `zero_point`, grid-stride.
///
/// # Safety
/// `x` points to `n` elements and `out` to `n` writable bytes.
#[inline(always)]
unsafe fn quantize_int8_v1<T: Float>(x: *const T, out: *mut i8, n: usize, scale: f32, zero_point: f32) {
    // SAFETY: forwarded from the caller.
    unsafe { span_v1(Strided::grid(), x, out, n, scale, zero_point) }
}

/// Version 1, per row: quantizes the row-major `x[rows][cols]` into
/// `out[rows][cols]`, row `r` with `scales[r]` and `zero_points[r]`; each
/// block takes rows `blockIdx.x, blockIdx.x + gridDim.x, ...` and its threads
/// share a row.
///
/// # Safety
/// `x` and `out` hold `rows * cols` elements, `scales` and `zero_points` `rows`.
#[inline(always)]
unsafe fn quantize_int8_rows_v1<T: Float>(
    x: *const T,
    scales: *const f32,
    zero_points: *const f32,
    out: *mut i8,
    rows: usize,
    cols: usize,
) {
    // SAFETY: forwarded from the caller.
    unsafe {
        by_rows(x, scales, zero_points, out, rows, cols, |x, out, scale, zp| {
            span_v1(Strided::block(), x, out, cols, scale, zp)
        })
    }
}

export_per_float!(
    quantize_int8_v1(x: *const T, out: *mut i8, n: usize, scale: f32, zero_point: f32) as
    quantize_int8_f32 for f32, quantize_int8_f16 for f16, quantize_int8_bf16 for Bf16
);
export_per_float!(
    quantize_int8_rows_v1(
        x: *const T, scales: *const f32, zero_points: *const f32, out: *mut i8, rows: usize, cols: usize
    ) as
    quantize_int8_rows_f32 for f32, quantize_int8_rows_f16 for f16, quantize_int8_rows_bf16 for Bf16
);

/// Version 2, per tensor: as [`quantize_int8_v1`], in tiles of
/// `QUANTIZE_ELEMENTS * blockDim.x` elements shared by the grid.
///
/// # Safety
/// As for [`quantize_int8_v1`], with both buffers in global memory and not
/// overlapping.
#[inline(always)]
unsafe fn quantize_int8_v2<T: Float>(x: *const T, out: *mut i8, n: usize, scale: f32, zero_point: f32) {
    // SAFETY: forwarded from the caller.
    unsafe { span_v2(Tiles::grid(), Strided::grid(), x, out, n, scale, zero_point) }
}

/// Version 2, per row: as [`quantize_int8_rows_v1`], each block walking its
/// row in tiles of `QUANTIZE_ELEMENTS * blockDim.x` elements.
///
/// # Safety
/// As for [`quantize_int8_rows_v1`], with all buffers in global memory and
/// `out` overlapping none of the others.
#[inline(always)]
unsafe fn quantize_int8_rows_v2<T: Float>(
    x: *const T,
    scales: *const f32,
    zero_points: *const f32,
    out: *mut i8,
    rows: usize,
    cols: usize,
) {
    // SAFETY: forwarded from the caller.
    unsafe {
        by_rows(x, scales, zero_points, out, rows, cols, |x, out, scale, zp| {
            span_v2(Tiles::block(), Strided::block(), x, out, cols, scale, zp)
        })
    }
}

export_per_float!(
    quantize_int8_v2(x: *const T, out: *mut i8, n: usize, scale: f32, zero_point: f32) as
    quantize_int8_v2_f32 for f32, quantize_int8_v2_f16 for f16, quantize_int8_v2_bf16 for Bf16
);
export_per_float!(
    quantize_int8_rows_v2(
        x: *const T, scales: *const f32, zero_points: *const f32, out: *mut i8, rows: usize, cols: usize
    ) as
    quantize_int8_rows_v2_f32 for f32, quantize_int8_rows_v2_f16 for f16, quantize_int8_rows_v2_bf16 for Bf16
);

/// One element.
#[inline(always)]
fn one<T: Float>(x: T, scale: f32, zero_point: f32) -> i8 {
    math::quantize_int8(x.to_f32(), scale, zero_point)
}

/// One 16-byte vector of `x`: `T::LANES` bytes.
#[inline(always)]
fn vector<T: Float>(x: T::Lanes<T>, scale: f32, zero_point: f32) -> T::Lanes<i8> {
    T::lanes(|j| one(x.as_ref()[j], scale, zero_point))
}

/// Block `blockIdx.x` quantizes rows `blockIdx.x, blockIdx.x + gridDim.x, ...`,
/// each by `span(x_row, out_row, scale, zero_point)`.
///
/// # Safety
/// As for [`quantize_int8_rows_v1`]; `span` quantizes `cols` elements.
#[inline(always)]
unsafe fn by_rows<T: Float>(
    x: *const T,
    scales: *const f32,
    zero_points: *const f32,
    out: *mut i8,
    rows: usize,
    cols: usize,
    mut span: impl FnMut(*const T, *mut i8, f32, f32),
) {
    for row in (block_idx_x() as usize..rows).step_by(grid_dim_x() as usize) {
        // SAFETY: row < rows, so the row's offsets and parameters are in bounds.
        unsafe { span(x.add(row * cols), out.add(row * cols), *scales.add(row), *zero_points.add(row)) }
    }
}

/// Version 1's loop: quantizes `x[..n]` into `out[..n]`, shared among `threads`.
///
/// # Safety
/// `x` points to `n` elements and `out` to `n` writable bytes.
#[inline(always)]
unsafe fn span_v1<T: Float>(threads: Strided, x: *const T, out: *mut i8, n: usize, scale: f32, zero_point: f32) {
    for_each_element(
        threads,
        n,
        T::LANES,
        is_aligned(x, 16) && is_aligned(out, T::LANES),
        // SAFETY: i + LANES <= n; x is 16-byte and out LANES-byte aligned.
        |i| unsafe { store_bytes(out.add(i), vector::<T>(load_vector(x.add(i)), scale, zero_point)) },
        // SAFETY: i < n.
        |i| unsafe { *out.add(i) = one(*x.add(i), scale, zero_point) },
    );
}

/// Version 2's loop: quantizes `x[..n]` into `out[..n]`; `tiles` share the
/// vectors, `threads` the scalar head and tail.
///
/// # Safety
/// `x` points to `n` elements and `out` to `n` writable bytes, both in global
/// memory and not overlapping.
#[inline(always)]
unsafe fn span_v2<T: Float>(
    tiles: Tiles,
    threads: Strided,
    x: *const T,
    out: *mut i8,
    n: usize,
    scale: f32,
    zero_point: f32,
) {
    // SAFETY (all offsets below): head <= n, and the vectors end at or before n.
    let split = Split::new(x, n, |head| unsafe { is_aligned(out.add(head), T::LANES) });
    let (xs, outs) = unsafe { (x.add(split.head()), out.add(split.head())) };
    // SAFETY: v < vectors; x's vector part is 16-byte aligned, out's LANES-byte aligned.
    let load = |v: usize| unsafe { load_vector_streaming(xs.add(v * T::LANES)) };
    let compute = |a| vector::<T>(a, scale, zero_point);
    let store = |v: usize, codes, keep| unsafe { store_bytes_streaming(outs.add(v * T::LANES), codes, keep) };
    // QUANTIZE_ELEMENTS / T::LANES vectors a thread, spelled as constants.
    const { assert!(QUANTIZE_ELEMENTS == 4 * f32::LANES && QUANTIZE_ELEMENTS == 2 * f16::LANES) };
    if T::LANES == f32::LANES {
        for_each_vector_batch::<4, _, _>(tiles, split.vectors(), load, compute, store);
    } else {
        for_each_vector_batch::<2, _, _>(tiles, split.vectors(), load, compute, store);
    }
    for s in threads.over(split.scalars()) {
        let i = split.scalar(s);
        // SAFETY: i < n.
        unsafe { *out.add(i) = one(*x.add(i), scale, zero_point) };
    }
}
