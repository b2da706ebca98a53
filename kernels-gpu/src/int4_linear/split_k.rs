//! The second kernel of the tiled GEMMs' split-K (versions 7, 10 to 13, 18,
//! 19, 22 and 23): adds the f32 partial sums of the `splits` slices
//! of `K`, `partials[splits][m][n]`, adds the bias and rounds into `y[m][n]`.
//!
//! Block `(bx, by)` takes columns `bx * REDUCE_THREADS * REDUCE_COLUMNS ..`
//! of activation rows `by, by + gridDim.y, ...` (shapes from
//! `quant_kernels_abi::int4_linear::v7`), `REDUCE_COLUMNS` (4) consecutive
//! columns a thread: where `n` is a multiple of 4 and the arrays start on
//! 16 bytes, a warp reads 512 contiguous bytes of a slice with one 16-byte
//! load a lane and writes 256 of `y` with one 8-byte store a lane; one
//! element at a time otherwise. A thread loads `SLICES_IN_FLIGHT` slices
//! before it adds any: the workspace the GEMM has just written is mostly
//! still in L2, and a load a slice left each thread waiting one L2 round
//! trip a slice. (Measured against one column and one load a thread, run
//! 26: 4-6% less time for a split of 3 at N = 11008, 2% for 4 at 8192,
//! the same for 8 at 4096.) The slices are added in order from 0.0, then the bias, as
//! the unsplit kernel adds the bias to its sum, so a launch gives the same
//! bits every time. It moves `4 * splits + 2` bytes an output and computes
//! nothing worth counting.
//!
//! Launch: grid `(ceil(n / (REDUCE_THREADS * REDUCE_COLUMNS)), min(m,
//! MAX_GRID_Y))`, `REDUCE_THREADS` threads (any block size works), no
//! shared memory.

use crate::device::{block_dim_x, block_idx_x, block_idx_y, grid_dim_y, is_aligned, load4, thread_idx_x};
use crate::float::{Bf16, Float};
use quant_kernels_abi::int4_linear::v7::REDUCE_COLUMNS;

export_per_float!(
    reduce_split_k (partials: *const f32, bias: *const f32, y: *mut T, m: u32, n: u32, splits: u32)
        as int4_linear_split_k_reduce_f16 for f16, int4_linear_split_k_reduce_bf16 for Bf16
);

/// Slices whose loads a thread has in flight at once.
const SLICES_IN_FLIGHT: usize = 8;

/// Four outputs in one 8-byte aligned unit (one 8-byte store).
#[repr(C, align(8))]
struct Outputs<T>([T; REDUCE_COLUMNS]);

/// `y[r][c] = T(sum_s partials[s][r][c] + bias[c])`.
///
/// # Safety
/// `partials` holds `splits * m * n` f32, `bias` is null or holds `n`, and
/// `y` holds `m * n` elements.
#[inline(always)]
unsafe fn reduce_split_k<T: Float>(partials: *const f32, bias: *const f32, y: *mut T, m: u32, n: u32, splits: u32) {
    // A 16-byte load of f32 partial sums, an 8-byte store of f16 or bf16.
    const { assert!(REDUCE_COLUMNS == 4 && size_of::<Outputs<T>>() == 8) };
    let (m, n, splits) = (m as usize, n as usize, splits as usize);
    let first = REDUCE_COLUMNS * (block_idx_x() as usize * block_dim_x() as usize + thread_idx_x() as usize);
    if first >= n {
        return;
    }
    let columns = REDUCE_COLUMNS.min(n - first);
    // Every row of every slice then starts on 16 bytes, and of y on 8.
    if n % REDUCE_COLUMNS == 0
        && is_aligned(partials, 16)
        && is_aligned(y, 16)
        && (bias.is_null() || is_aligned(bias, 16))
    {
        // SAFETY: forwarded from the caller; the thread's 4 columns are inside n.
        unsafe { reduce_rows::<T, true>(partials, bias, y, (m, n, splits), (first, columns)) };
    } else {
        // SAFETY: as above, its `columns` columns.
        unsafe { reduce_rows::<T, false>(partials, bias, y, (m, n, splits), (first, columns)) };
    }
}

/// Columns `first .. first + columns` of rows `blockIdx.y, blockIdx.y +
/// gridDim.y, ..`, through 16-byte loads and 8-byte stores (`VECTORS`:
/// `columns` is 4, every address aligned to the access) or one element at
/// a time.
///
/// # Safety
/// As for [`reduce_split_k`], the columns inside `n`, and alignment as
/// `VECTORS` says.
#[inline(always)]
unsafe fn reduce_rows<T: Float, const VECTORS: bool>(
    partials: *const f32,
    bias: *const f32,
    y: *mut T,
    (m, n, splits): (usize, usize, usize),
    (first, columns): (usize, usize),
) {
    // SAFETY: first + j < n.
    let bias: [f32; REDUCE_COLUMNS] =
        core::array::from_fn(|j| if bias.is_null() || j >= columns { 0.0 } else { unsafe { *bias.add(first + j) } });
    // The slice's partial sums at `p`, zeros past `columns`.
    let load = |p: *const f32| -> [f32; REDUCE_COLUMNS] {
        if VECTORS {
            // SAFETY: 16-byte aligned, 4 columns inside the row (the caller).
            unsafe { load4(p) }
        } else {
            // SAFETY: j < columns keeps the column below n.
            core::array::from_fn(|j| if j < columns { unsafe { *p.add(j) } } else { 0.0 })
        }
    };
    let mut row = block_idx_y() as usize;
    while row < m {
        let output = row * n + first;
        let mut sum = [0.0f32; REDUCE_COLUMNS];
        for batch in (0..splits).step_by(SLICES_IN_FLIGHT) {
            let in_batch = SLICES_IN_FLIGHT.min(splits - batch);
            // SAFETY: slice batch + b < splits; the row's columns inside its m x n.
            let loaded: [[f32; REDUCE_COLUMNS]; SLICES_IN_FLIGHT] = core::array::from_fn(|b| {
                if b < in_batch {
                    load(unsafe { partials.add((batch + b) * m * n + output) })
                } else {
                    [0.0; REDUCE_COLUMNS]
                }
            });
            // Constant indices (a slice of `loaded` would put it in local memory).
            for (b, slice) in loaded.iter().enumerate() {
                if b < in_batch {
                    for (sum, partial) in sum.iter_mut().zip(slice) {
                        *sum += partial;
                    }
                }
            }
        }
        let values: [T; REDUCE_COLUMNS] = core::array::from_fn(|j| T::from_f32(sum[j] + bias[j]));
        if VECTORS {
            // SAFETY: y on 16 bytes and n a multiple of 4 put `output` on 8; the row's 4 columns from `first`.
            unsafe { *y.add(output).cast::<Outputs<T>>() = Outputs(values) };
        } else {
            for (j, value) in values.iter().enumerate() {
                if j < columns {
                    // SAFETY: first + j < n.
                    unsafe { *y.add(output + j) = *value };
                }
            }
        }
        row += grid_dim_y() as usize;
    }
}
