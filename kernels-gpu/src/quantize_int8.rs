//! `q = clamp(round_half_even(x / scale + zero_point), -128, 127)` as `i8`,
//! with one scale and zero point for the whole tensor or one per row, from
//! f32, f16 or bf16 input (widened exactly to f32 first; the arithmetic is
//! [`math::quantize_int8`]).
//!
//! Three versions, each exported once per type: `quantize_int8_{f32,f16,bf16}`
//! and `quantize_int8_rows_*` (v1), `quantize_int8_v2_*` and
//! `quantize_int8_rows_v2_*` (v2), `quantize_int8_v3_*` and
//! `quantize_int8_rows_v3_*` (v3). All work for any launch shape (1-D, and
//! for v3 per row 2-D); every version divides through [`Int8Quantizer`],
//! prepared by the host for a per-tensor launch and once per row on the
//! GPU for the per-row kernels.
//!
//! - v1: a grid-stride loop (per tensor) or a block-stride loop over each row
//!   (per row); one 16-byte load and one 4- or 8-byte store per thread and
//!   step when `x` is 16-byte aligned and `out` aligned to the vector's
//!   element count, else one element per step.
//! - v2: each thread loads `QUANTIZE_VECTORS` 16-byte vectors before
//!   quantizing any, with cache hints for data used once; scalar elements
//!   up to the first 16-byte boundary of `x`, so rows whose length is not a
//!   multiple of the vector still take the vector path.
//! - v3: v2 with one vector a thread (per row, the blocks along x sharing a
//!   row); per tensor with aligned buffers, the short prologue of
//!   [`for_each_aligned_vector`].
//!
//! Every vector takes the fast division for all its lanes after one test
//! ([`Int8Quantizer::quantize_all`]).

use crate::device::{
    Split, Strided, Tiles, block_idx_x, block_idx_y, for_each_aligned_vector, for_each_element, for_each_vector_batch,
    grid_dim_x, grid_dim_y, is_aligned, load_vector, load_vector_streaming, store_bytes, store_bytes_streaming,
};
use crate::float::{Bf16, Float};
use crate::math::Int8Quantizer;
use quant_kernels_abi::elementwise::v2::QUANTIZE_VECTORS;

/// Per row, version `VERSION`: quantizes the row-major `x[rows][cols]` into
/// `out[rows][cols]`, row `r` with `scales[r]` and `zero_points[r]`.
/// Versions 1 and 2: each block takes rows `blockIdx.x, blockIdx.x +
/// gridDim.x, ...` and its threads share a row (v2 in tiles of
/// `QUANTIZE_VECTORS * blockDim.x` vectors). Version 3: row `blockIdx.y`
/// (and `+ gridDim.y, ...` past the grid), shared by the blocks along x,
/// one vector a thread.
///
/// # Safety
/// `x` and `out` hold `rows * cols` elements, `scales` and `zero_points`
/// `rows`; for versions 2 and 3 all in global memory, `out` overlapping
/// none of the others.
#[inline(always)]
unsafe fn quantize_int8_rows<T: Float, const VERSION: u32>(
    x: *const T,
    scales: *const f32,
    zero_points: *const f32,
    out: *mut i8,
    rows: usize,
    cols: usize,
) {
    let blocks = if VERSION == 3 { Rows::blocks_y() } else { Rows::blocks_x() };
    // SAFETY: forwarded from the caller.
    unsafe {
        by_rows(blocks, x, scales, zero_points, out, rows, cols, |x, out, quantizer| match VERSION {
            1 => span_v1(Strided::block(), x, out, cols, quantizer),
            2 => {
                let (tiles, threads) = (Tiles::block(), Strided::block());
                span_tiled::<T, QUANTIZE_VECTORS>(tiles, threads, x, out, cols, quantizer)
            }
            _ => span_tiled::<T, 1>(Tiles::grid(), Strided::grid(), x, out, cols, quantizer),
        })
    }
}

export_per_float!(
    quantize_int8_rows [1] (
        x: *const T, scales: *const f32, zero_points: *const f32, out: *mut i8, rows: usize, cols: usize
    ) as
    quantize_int8_rows_f32 for f32, quantize_int8_rows_f16 for f16, quantize_int8_rows_bf16 for Bf16
);

/// Per tensor, version `VERSION`: quantizes `x[..n]` into `out[..n]` with
/// one `scale` and `zero_point`, the division prepared by the host:
/// `[inverse_hi, inverse_lo]` = `math::scale_inverse(scale)`. Version 1: a
/// grid-stride loop. Version 2: tiles of `QUANTIZE_VECTORS * blockDim.x`
/// vectors shared by the grid, a thread loading `QUANTIZE_VECTORS` vectors
/// at a time. Version 3: one vector a thread, through
/// [`for_each_aligned_vector`]'s short loop when `x` is 16-byte aligned
/// and `out` aligned to a vector's codes, else as version 2 with one
/// vector a tile.
///
/// # Safety
/// `x` points to `n` elements and `out` to `n` writable bytes; for versions
/// 2 and 3 both in global memory and not overlapping.
#[inline(always)]
#[allow(clippy::too_many_arguments)] // the kernel's own parameters
unsafe fn quantize_int8_per_tensor<T: Float, const VERSION: u32>(
    x: *const T,
    out: *mut i8,
    n: usize,
    scale: f32,
    zero_point: f32,
    inverse_hi: f32,
    inverse_lo: f32,
) {
    let quantizer = Int8Quantizer::prepared(scale, zero_point, [inverse_hi, inverse_lo]);
    // The grid's indices are worked out in each arm: computed before the
    // branch, they would delay version 3's first load.
    // SAFETY (every arm): forwarded from the caller.
    match VERSION {
        1 => unsafe { span_v1(Strided::grid(), x, out, n, &quantizer) },
        2 => unsafe { span_tiled::<T, QUANTIZE_VECTORS>(Tiles::grid(), Strided::grid(), x, out, n, &quantizer) },
        _ if !(is_aligned(x, 16) && is_aligned(out, T::LANES)) => unsafe {
            span_tiled::<T, 1>(Tiles::grid(), Strided::grid(), x, out, n, &quantizer)
        },
        _ => for_each_aligned_vector(
            n,
            T::LANES,
            // SAFETY: i + LANES <= n; x is 16-byte and out LANES-byte aligned.
            |i| unsafe {
                store_bytes_streaming(out.add(i), vector::<T>(load_vector_streaming(x.add(i)), &quantizer), true)
            },
            // SAFETY: i < n.
            |i| unsafe { *out.add(i) = one(*x.add(i), &quantizer) },
        ),
    }
}

export_per_float!(
    quantize_int8_per_tensor [1] (
        x: *const T, out: *mut i8, n: usize, scale: f32, zero_point: f32, inverse_hi: f32, inverse_lo: f32
    ) as
    quantize_int8_f32 for f32, quantize_int8_f16 for f16, quantize_int8_bf16 for Bf16
);
export_per_float!(
    quantize_int8_per_tensor [2] (
        x: *const T, out: *mut i8, n: usize, scale: f32, zero_point: f32, inverse_hi: f32, inverse_lo: f32
    ) as
    quantize_int8_v2_f32 for f32, quantize_int8_v2_f16 for f16, quantize_int8_v2_bf16 for Bf16
);
export_per_float!(
    quantize_int8_rows [2] (
        x: *const T, scales: *const f32, zero_points: *const f32, out: *mut i8, rows: usize, cols: usize
    ) as
    quantize_int8_rows_v2_f32 for f32, quantize_int8_rows_v2_f16 for f16, quantize_int8_rows_v2_bf16 for Bf16
);
export_per_float!(
    quantize_int8_per_tensor [3] (
        x: *const T, out: *mut i8, n: usize, scale: f32, zero_point: f32, inverse_hi: f32, inverse_lo: f32
    ) as
    quantize_int8_v3_f32 for f32, quantize_int8_v3_f16 for f16, quantize_int8_v3_bf16 for Bf16
);
export_per_float!(
    quantize_int8_rows [3] (
        x: *const T, scales: *const f32, zero_points: *const f32, out: *mut i8, rows: usize, cols: usize
    ) as
    quantize_int8_rows_v3_f32 for f32, quantize_int8_rows_v3_f16 for f16, quantize_int8_rows_v3_bf16 for Bf16
);

/// One element.
#[inline(always)]
fn one<T: Float>(x: T, quantizer: &Int8Quantizer) -> i8 {
    quantizer.quantize(x.to_f32())
}

/// One 16-byte vector of `x`: `T::LANES` bytes.
#[inline(always)]
fn vector<T: Float>(x: T::Lanes<T>, quantizer: &Int8Quantizer) -> T::Lanes<i8> {
    let values = T::lanes(|j| x.as_ref()[j].to_f32());
    let mut codes = T::lanes(|_| 0i8);
    quantizer.quantize_all(values.as_ref(), codes.as_mut());
    codes
}

/// Which rows a block quantizes: rows `first, first + step, ...`.
#[derive(Clone, Copy)]
struct Rows {
    first: usize,
    step: usize,
}

impl Rows {
    /// Block `blockIdx.x` takes rows `blockIdx.x, blockIdx.x + gridDim.x, ...` (v1, v2).
    #[inline(always)]
    fn blocks_x() -> Self {
        Self { first: block_idx_x() as usize, step: grid_dim_x() as usize }
    }

    /// Blocks `(*, blockIdx.y)` take rows `blockIdx.y, blockIdx.y + gridDim.y, ...` (v3).
    #[inline(always)]
    fn blocks_y() -> Self {
        Self { first: block_idx_y() as usize, step: grid_dim_y() as usize }
    }
}

/// Quantizes the calling block's `rows`, each by
/// `span(x_row, out_row, quantizer)` with the row's scale and zero point.
///
/// # Safety
/// As for [`quantize_int8_rows`]; `span` quantizes `cols` elements.
#[inline(always)]
#[allow(clippy::too_many_arguments)] // the kernel's own parameters, plus how to split them
unsafe fn by_rows<T: Float>(
    blocks: Rows,
    x: *const T,
    scales: *const f32,
    zero_points: *const f32,
    out: *mut i8,
    rows: usize,
    cols: usize,
    mut span: impl FnMut(*const T, *mut i8, &Int8Quantizer),
) {
    for row in (blocks.first..rows).step_by(blocks.step) {
        // SAFETY: row < rows, so the row's offsets and parameters are in bounds.
        unsafe {
            let quantizer = Int8Quantizer::new(*scales.add(row), *zero_points.add(row));
            span(x.add(row * cols), out.add(row * cols), &quantizer)
        }
    }
}

/// Version 1's loop: quantizes `x[..n]` into `out[..n]`, shared among `threads`.
///
/// # Safety
/// `x` points to `n` elements and `out` to `n` writable bytes.
#[inline(always)]
unsafe fn span_v1<T: Float>(threads: Strided, x: *const T, out: *mut i8, n: usize, quantizer: &Int8Quantizer) {
    for_each_element(
        threads,
        n,
        T::LANES,
        is_aligned(x, 16) && is_aligned(out, T::LANES),
        // SAFETY: i + LANES <= n; x is 16-byte and out LANES-byte aligned.
        |i| unsafe { store_bytes(out.add(i), vector::<T>(load_vector(x.add(i)), quantizer)) },
        // SAFETY: i < n.
        |i| unsafe { *out.add(i) = one(*x.add(i), quantizer) },
    );
}

/// The loop of versions 2 and 3: quantizes `x[..n]` into `out[..n]`; `tiles`
/// share the vectors, `threads` the scalar head and tail. A thread loads
/// `CHUNKS` vectors at a time.
///
/// # Safety
/// `x` points to `n` elements and `out` to `n` writable bytes, both in global
/// memory and not overlapping.
#[inline(always)]
unsafe fn span_tiled<T: Float, const CHUNKS: usize>(
    tiles: Tiles,
    threads: Strided,
    x: *const T,
    out: *mut i8,
    n: usize,
    quantizer: &Int8Quantizer,
) {
    // SAFETY (all offsets below): head <= n, and the vectors end at or before n.
    let split = Split::new(x, n, |head| unsafe { is_aligned(out.add(head), T::LANES) });
    let (xs, outs) = unsafe { (x.add(split.head()), out.add(split.head())) };
    // SAFETY: v < vectors; x's vector part is 16-byte aligned, out's LANES-byte aligned.
    let load = |v: usize| unsafe { load_vector_streaming(xs.add(v * T::LANES)) };
    let compute = |a| vector::<T>(a, quantizer);
    let store = |v: usize, codes, keep| unsafe { store_bytes_streaming(outs.add(v * T::LANES), codes, keep) };
    for_each_vector_batch::<CHUNKS, _, _>(tiles, split.vectors(), load, compute, store);
    for s in threads.over(split.scalars()) {
        let i = split.scalar(s);
        // SAFETY: i < n.
        unsafe { *out.add(i) = one(*x.add(i), quantizer) };
    }
}
