//! The device-side helpers `cuda_std` would give: thread and block indices,
//! grid-stride iteration, barriers, warp shuffles and reductions, dynamic
//! shared memory, and 16-byte vector access.
//!
//! All are thin wrappers over one PTX instruction or special register each,
//! through `core::arch::nvptx`, LLVM's NVVM intrinsics or inline PTX.

use core::arch::{asm, global_asm, nvptx};

/// Threads per warp on every NVIDIA GPU this crate targets.
pub const WARP_SIZE: u32 = 32;

/// `threadIdx.x`.
#[inline(always)]
pub fn thread_idx_x() -> u32 {
    // SAFETY: reading a special register has no preconditions.
    unsafe { nvptx::_thread_idx_x() as u32 }
}

/// `blockIdx.x`.
#[inline(always)]
pub fn block_idx_x() -> u32 {
    // SAFETY: as above.
    unsafe { nvptx::_block_idx_x() as u32 }
}

/// `blockIdx.y`.
#[inline(always)]
pub fn block_idx_y() -> u32 {
    // SAFETY: as above.
    unsafe { nvptx::_block_idx_y() as u32 }
}

/// `blockDim.x`.
#[inline(always)]
pub fn block_dim_x() -> u32 {
    // SAFETY: as above.
    unsafe { nvptx::_block_dim_x() as u32 }
}

/// `gridDim.x`.
#[inline(always)]
pub fn grid_dim_x() -> u32 {
    // SAFETY: as above.
    unsafe { nvptx::_grid_dim_x() as u32 }
}

/// `gridDim.y`.
#[inline(always)]
pub fn grid_dim_y() -> u32 {
    // SAFETY: as above.
    unsafe { nvptx::_grid_dim_y() as u32 }
}

/// The calling thread's lane within its warp.
#[inline(always)]
pub fn lane_id() -> u32 {
    thread_idx_x() % WARP_SIZE
}

/// The calling thread's warp within its (1-D) block.
#[inline(always)]
pub fn warp_id() -> u32 {
    thread_idx_x() / WARP_SIZE
}

/// `__syncthreads()`: a barrier for the whole block, which also orders its
/// shared-memory accesses. Every thread of the block must reach it.
#[inline(always)]
pub fn sync_threads() {
    // SAFETY: callers reach the barrier from uniform control flow.
    unsafe { nvptx::_syncthreads() }
}

/// A set of threads that share a loop: thread `first` takes indices
/// `first, first + step, ...`. Indices are `usize` (64-bit), so loops are
/// correct past 2^32 elements.
#[derive(Clone, Copy)]
pub struct Strided {
    first: usize,
    step: usize,
}

impl Strided {
    /// All threads of a 1-D grid (the grid-stride loop).
    #[inline(always)]
    pub fn grid() -> Self {
        let block = block_dim_x() as usize;
        Self { first: block_idx_x() as usize * block + thread_idx_x() as usize, step: grid_dim_x() as usize * block }
    }

    /// The threads of the calling block.
    #[inline(always)]
    pub fn block() -> Self {
        Self { first: thread_idx_x() as usize, step: block_dim_x() as usize }
    }

    /// This thread's indices in `0..n`.
    #[inline(always)]
    pub fn over(self, n: usize) -> impl Iterator<Item = usize> {
        (self.first..n).step_by(self.step)
    }
}

unsafe extern "C" {
    #[link_name = "llvm.nvvm.shfl.sync.bfly.f32"]
    fn shfl_sync_bfly_f32(member_mask: u32, value: f32, lane_mask: u32, clamp: u32) -> f32;
}

/// `__shfl_xor_sync(0xffffffff, value, lane_mask)`: the value held by lane
/// `lane_id() ^ lane_mask`. The whole warp must call it together.
#[inline(always)]
pub fn shuffle_xor(value: f32, lane_mask: u32) -> f32 {
    // SAFETY: all 32 lanes take part (full member mask); 0x1f clamps within the warp.
    unsafe { shfl_sync_bfly_f32(u32::MAX, value, lane_mask, 0x1f) }
}

/// The sum of `value` over the warp, returned to every lane (butterfly
/// reduction, 5 shuffles). The whole warp must call it together.
#[inline(always)]
pub fn warp_sum(mut value: f32) -> f32 {
    let mut lane_mask = WARP_SIZE / 2;
    while lane_mask > 0 {
        value += shuffle_xor(value, lane_mask);
        lane_mask /= 2;
    }
    value
}

// The block's dynamic shared memory (`extern __shared__` in CUDA C++); its
// size is the launch's `sharedMemBytes`. LLVM's NVPTX back end has no Rust
// syntax for `.shared` variables, so the declaration is written in PTX.
global_asm!(".extern .shared .align 16 .b8 dynamic_shared_memory[];");

/// A generic pointer to the start of the block's dynamic shared memory,
/// 16-byte aligned. The launch decides how many bytes are behind it.
#[inline(always)]
pub fn dynamic_shared_memory<T>() -> *mut T {
    let address: u64;
    // SAFETY: converts the shared-window address of a declared symbol to a generic one.
    unsafe { asm!("cvta.shared.u64 {a}, dynamic_shared_memory;", a = out(reg64) address) };
    address as *mut T
}

/// Four values in one 16-byte aligned unit: loads and stores through it
/// compile to single `ld.v4`/`st.v4` instructions.
#[repr(C, align(16))]
#[derive(Clone, Copy)]
pub struct Vec4<T>(pub [T; 4]);

/// Four `i8` in one 4-byte aligned unit (one 32-bit store).
#[repr(C, align(4))]
#[derive(Clone, Copy)]
pub struct I8x4(pub [i8; 4]);

/// Whether `pointer` is a multiple of `align` bytes.
#[inline(always)]
pub fn is_aligned<T>(pointer: *const T, align: usize) -> bool {
    (pointer as usize) % align == 0
}

/// Loads `pointer[0..4]` with one 16-byte load.
///
/// # Safety
/// `pointer` must be 16-byte aligned and `pointer[0..4]` readable.
#[inline(always)]
pub unsafe fn load4(pointer: *const f32) -> [f32; 4] {
    // SAFETY: the caller guarantees alignment and bounds.
    unsafe { (*pointer.cast::<Vec4<f32>>()).0 }
}

/// Loads `pointer[0..8]` with two 16-byte loads.
///
/// # Safety
/// `pointer` must be 16-byte aligned and `pointer[0..8]` readable.
#[inline(always)]
pub unsafe fn load8(pointer: *const f32) -> [f32; 8] {
    // SAFETY: the caller guarantees alignment and bounds.
    let (lo, hi) = unsafe { (load4(pointer), load4(pointer.add(4))) };
    [lo[0], lo[1], lo[2], lo[3], hi[0], hi[1], hi[2], hi[3]]
}

/// Stores `values` to `pointer[0..4]` with one 16-byte store.
///
/// # Safety
/// `pointer` must be 16-byte aligned and `pointer[0..4]` writable.
#[inline(always)]
pub unsafe fn store4(pointer: *mut f32, values: [f32; 4]) {
    // SAFETY: the caller guarantees alignment and bounds.
    unsafe { *pointer.cast::<Vec4<f32>>() = Vec4(values) }
}

/// Runs an elementwise operation over `n` elements split among `threads`:
/// `four(i)` handles elements `i..i + 4` (with `i % 4 == 0`) when `vectorized`,
/// and `one(i)` handles element `i` for the rest (the tail, or everything when
/// the buffers are not aligned for vector access).
#[inline(always)]
pub fn for_each_element(
    threads: Strided,
    n: usize,
    vectorized: bool,
    mut four: impl FnMut(usize),
    mut one: impl FnMut(usize),
) {
    let quads = if vectorized { n / 4 } else { 0 };
    for quad in threads.over(quads) {
        four(4 * quad);
    }
    let done = 4 * quads;
    for i in threads.over(n - done) {
        one(done + i);
    }
}
