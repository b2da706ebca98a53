//! The device-side helpers `cuda_std` would give: thread and block indices,
//! grid-stride iteration, barriers, warp shuffles and reductions, dynamic
//! shared memory, and 16-byte vector access.
//!
//! All are thin wrappers over one PTX instruction or special register each,
//! through `core::arch::nvptx`, LLVM's NVVM intrinsics or inline PTX.

use crate::float::Float;
use core::arch::{asm, global_asm, nvptx};
use quant_kernels_abi::elementwise::VECTOR_BYTES;

/// Threads per warp on every NVIDIA GPU this crate targets.
pub const WARP_SIZE: u32 = 32;

/// `threadIdx.x`.
#[inline(always)]
pub fn thread_idx_x() -> u32 {
    // SAFETY: reading a special register has no preconditions.
    unsafe { nvptx::_thread_idx_x() as u32 }
}

/// `threadIdx.y`.
#[inline(always)]
pub fn thread_idx_y() -> u32 {
    // SAFETY: as above.
    unsafe { nvptx::_thread_idx_y() as u32 }
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

/// `blockIdx.z`.
#[inline(always)]
pub fn block_idx_z() -> u32 {
    // SAFETY: as above.
    unsafe { nvptx::_block_idx_z() as u32 }
}

/// `blockDim.x`.
#[inline(always)]
pub fn block_dim_x() -> u32 {
    // SAFETY: as above.
    unsafe { nvptx::_block_dim_x() as u32 }
}

/// `blockDim.y`.
#[inline(always)]
pub fn block_dim_y() -> u32 {
    // SAFETY: as above.
    unsafe { nvptx::_block_dim_y() as u32 }
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

/// `gridDim.z`.
#[inline(always)]
pub fn grid_dim_z() -> u32 {
    // SAFETY: as above.
    unsafe { nvptx::_grid_dim_z() as u32 }
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

/// `bar.sync id, threads`: a barrier for the `threads` threads (whole warps)
/// that name barrier `id` (1 to 15; 0 is [`sync_threads`]'s), which also
/// orders their shared-memory accesses.
///
/// # Safety
/// Exactly `threads` threads reach it, from uniform control flow in each warp.
#[inline(always)]
pub unsafe fn sync_named<const ID: u32, const THREADS: u32>() {
    // SAFETY: the caller guarantees the participants.
    unsafe { asm!("bar.sync {id}, {n};", id = const ID, n = const THREADS) };
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

/// 16 bytes aligned to 16: the unit of one `.v4.b32` access.
#[repr(C, align(16))]
#[derive(Clone, Copy)]
struct Words16([u32; 4]);

/// The same 16 bytes as four words or as a vector of `T`.
#[repr(C)]
union VectorBits<T: Float> {
    words: [u32; 4],
    values: T::Lanes<T>,
}

/// `values` as four words.
#[inline(always)]
fn to_words<T: Float>(values: T::Lanes<T>) -> [u32; 4] {
    const { assert!(size_of::<T::Lanes<T>>() == VECTOR_BYTES) };
    // SAFETY: both fields are 16 bytes of plain data (checked above).
    unsafe { VectorBits::<T> { values }.words }
}

/// Four words as a vector of `T`.
#[inline(always)]
fn from_words<T: Float>(words: [u32; 4]) -> T::Lanes<T> {
    const { assert!(size_of::<T::Lanes<T>>() == VECTOR_BYTES) };
    // SAFETY: as above; every bit pattern is a valid float.
    unsafe { VectorBits::<T> { words }.values }
}

/// Loads the [`Float::LANES`] values at `pointer` with one 16-byte load.
///
/// # Safety
/// `pointer` must be 16-byte aligned and the 16 bytes readable.
#[inline(always)]
pub unsafe fn load_vector<T: Float>(pointer: *const T) -> T::Lanes<T> {
    // SAFETY: the caller guarantees alignment and bounds.
    from_words::<T>(unsafe { (*pointer.cast::<Words16>()).0 })
}

/// Stores a vector of `T` to `pointer` with one 16-byte store.
///
/// # Safety
/// `pointer` must be 16-byte aligned and the 16 bytes writable.
#[inline(always)]
pub unsafe fn store_vector<T: Float>(pointer: *mut T, values: T::Lanes<T>) {
    // SAFETY: the caller guarantees alignment and bounds.
    unsafe { store_words(pointer, to_words::<T>(values)) }
}

/// Stores the 16 bytes `words` to `pointer` with one store.
///
/// # Safety
/// `pointer` must be 16-byte aligned and the 16 bytes writable.
#[inline(always)]
pub unsafe fn store_words<T>(pointer: *mut T, words: [u32; 4]) {
    // SAFETY: the caller guarantees alignment and bounds.
    unsafe { *pointer.cast::<Words16>() = Words16(words) }
}

/// Loads a vector of `T` that the kernel reads once and never writes, past
/// L1 (`ld.global.nc.L1::no_allocate.v4.b32`; on sm_80, whose PTX ISA 7.0
/// has no eviction priorities, `ld.global.nc.v4.b32`). The asm is not `pure`,
/// so LLVM keeps the load where it is written instead of sinking it next to
/// its first use: loads written together stay in flight together.
///
/// # Safety
/// As [`load_vector`], and `pointer` is a global-memory address whose bytes
/// no thread writes before this load in the same kernel.
#[inline(always)]
pub unsafe fn load_vector_streaming<T: Float>(pointer: *const T) -> T::Lanes<T> {
    let (w0, w1, w2, w3): (u32, u32, u32, u32);
    // SAFETY: the caller guarantees alignment, bounds and read-only data.
    unsafe {
        #[cfg(target_feature = "sm_90")]
        asm!(
            "ld.global.nc.L1::no_allocate.v4.b32 {{{w0}, {w1}, {w2}, {w3}}}, [{p}];",
            p = in(reg64) pointer, w0 = out(reg32) w0, w1 = out(reg32) w1, w2 = out(reg32) w2, w3 = out(reg32) w3,
            options(readonly, nostack)
        );
        #[cfg(not(target_feature = "sm_90"))]
        asm!(
            "ld.global.nc.v4.b32 {{{w0}, {w1}, {w2}, {w3}}}, [{p}];",
            p = in(reg64) pointer, w0 = out(reg32) w0, w1 = out(reg32) w1, w2 = out(reg32) w2, w3 = out(reg32) w3,
            options(readonly, nostack)
        );
    }
    from_words::<T>([w0, w1, w2, w3])
}

/// If `keep`, stores a vector of `T` that nothing reads again soon, as
/// evict-first (`st.global.cs.v4.b32`: cache streaming, likely accessed
/// once). The store is predicated, not branched around, so that the code
/// computing `values` is not moved behind a branch (see [`for_each_vector_batch`]).
///
/// # Safety
/// If `keep`: as [`store_vector`], and `pointer` is a global-memory address.
#[inline(always)]
pub unsafe fn store_vector_streaming<T: Float>(pointer: *mut T, values: T::Lanes<T>, keep: bool) {
    let w = to_words::<T>(values);
    // SAFETY: the caller guarantees alignment and bounds when the store happens.
    unsafe {
        asm!(
            "{{ .reg .pred keep; setp.ne.b32 keep, {k}, 0;",
            "@keep st.global.cs.v4.b32 [{p}], {{{w0}, {w1}, {w2}, {w3}}}; }}",
            k = in(reg32) keep as u32, p = in(reg64) pointer, w0 = in(reg32) w[0], w1 = in(reg32) w[1],
            w2 = in(reg32) w[2], w3 = in(reg32) w[3], options(nostack)
        );
    }
}

/// Stores the 4 or 8 bytes of `bytes` (a `[i8; 4]` or `[i8; 8]`, say) to
/// `pointer` with one store.
///
/// # Safety
/// `pointer` must be aligned to the size of `A` and that many bytes writable.
#[inline(always)]
pub unsafe fn store_bytes<A: Copy>(pointer: *mut i8, bytes: A) {
    const { assert!(size_of::<A>() == 4 || size_of::<A>() == 8) };
    // SAFETY: the caller guarantees alignment and bounds; A is plain data of
    // the size read (checked above).
    unsafe {
        if size_of::<A>() == 4 {
            *pointer.cast::<u32>() = core::mem::transmute_copy(&bytes);
        } else {
            *pointer.cast::<u64>() = core::mem::transmute_copy(&bytes);
        }
    }
}

/// If `keep`, stores the 4 or 8 bytes of `bytes` to `pointer` with one
/// predicated evict-first store, as [`store_vector_streaming`] does.
///
/// # Safety
/// If `keep`: as [`store_bytes`], and `pointer` is a global-memory address.
#[inline(always)]
pub unsafe fn store_bytes_streaming<A: Copy>(pointer: *mut i8, bytes: A, keep: bool) {
    const { assert!(size_of::<A>() == 4 || size_of::<A>() == 8) };
    let keep = keep as u32;
    // SAFETY: the caller guarantees alignment and bounds when the store
    // happens; A is plain data of the size read (checked above).
    unsafe {
        if size_of::<A>() == 4 {
            let w: u32 = core::mem::transmute_copy(&bytes);
            asm!(
                "{{ .reg .pred keep; setp.ne.b32 keep, {k}, 0; @keep st.global.cs.b32 [{p}], {w}; }}",
                k = in(reg32) keep, p = in(reg64) pointer, w = in(reg32) w, options(nostack)
            );
        } else {
            let w: u64 = core::mem::transmute_copy(&bytes);
            asm!(
                "{{ .reg .pred keep; setp.ne.b32 keep, {k}, 0; @keep st.global.cs.b64 [{p}], {w}; }}",
                k = in(reg32) keep, p = in(reg64) pointer, w = in(reg64) w, options(nostack)
            );
        }
    }
}

/// Runs an elementwise operation over `n` elements split among `threads`
/// (version 1's loop): `vector(i)` handles elements `i..i + lanes` (with
/// `i % lanes == 0`) when `vectorized`, and `one(i)` handles element `i` for
/// the rest (the tail, or everything when the buffers are not aligned for
/// vector access).
#[inline(always)]
pub fn for_each_element(
    threads: Strided,
    n: usize,
    lanes: usize,
    vectorized: bool,
    mut vector: impl FnMut(usize),
    mut one: impl FnMut(usize),
) {
    let vectors = if vectorized { n / lanes } else { 0 };
    for v in threads.over(vectors) {
        vector(lanes * v);
    }
    let done = lanes * vectors;
    for i in threads.over(n - done) {
        one(done + i);
    }
}

/// Version 3's loop, for buffers that are all 16-byte aligned: thread `t`
/// of the grid takes vectors `t, t + threads, ...` (`vector(i)` handles
/// elements `i..i + lanes`), and the thread that reaches the last, partial
/// vector takes its elements one by one (`one(i)`). With no head to split
/// off and the tail left to one thread, version 3's first load issues
/// some 40 SASS instructions into the kernel (sm_90a), where [`Split`] and
/// [`for_each_vector_batch`] put it near 87: a kernel over a small array
/// lasts about as long as one warp's instructions (docs/PERF.md, run 18).
#[inline(always)]
pub fn for_each_aligned_vector(n: usize, lanes: usize, mut vector: impl FnMut(usize), mut one: impl FnMut(usize)) {
    let threads = Strided::grid();
    let mut i = threads.first * lanes;
    while i + lanes <= n {
        vector(i);
        i += threads.step * lanes;
    }
    for i in i..n {
        one(i);
    }
}

/// `n` elements of a buffer whose middle part can be accessed in aligned
/// 16-byte vectors (version 2): a scalar head up to the first 16-byte
/// boundary of the leading buffer, `vectors` whole vectors, a scalar tail.
#[derive(Clone, Copy)]
pub struct Split {
    head: usize,
    vectors: usize,
    lanes: usize,
    n: usize,
}

impl Split {
    /// Splits the `n` elements at `first`. `others_aligned(head)` says
    /// whether the kernel's other buffers are aligned for vector access at
    /// element `head` too; when they are not, every element is scalar.
    #[inline(always)]
    pub fn new<T: Float>(first: *const T, n: usize, others_aligned: impl FnOnce(usize) -> bool) -> Self {
        let address = first as usize;
        let head = ((VECTOR_BYTES - address % VECTOR_BYTES) % VECTOR_BYTES / size_of::<T>()).min(n);
        let vectorizable = address % size_of::<T>() == 0 && others_aligned(head);
        let (head, vectors) = if vectorizable { (head, (n - head) / T::LANES) } else { (0, 0) };
        Self { head, vectors, lanes: T::LANES, n }
    }

    /// The first element of the vector part.
    #[inline(always)]
    pub fn head(&self) -> usize {
        self.head
    }

    /// Whole vectors from element [`head`](Self::head) on.
    #[inline(always)]
    pub fn vectors(&self) -> usize {
        self.vectors
    }

    /// Element `s`'s index in the buffer, for `s` in `0..self.scalars()`.
    #[inline(always)]
    pub fn scalar(&self, s: usize) -> usize {
        if s < self.head { s } else { s + self.vectors * self.lanes }
    }

    /// Elements outside the vector part (head and tail).
    #[inline(always)]
    pub fn scalars(&self) -> usize {
        self.n - self.vectors * self.lanes
    }
}

/// Who shares a sequence of tiles (version 2): block `first` takes tiles
/// `first, first + step, ...`.
#[derive(Clone, Copy)]
pub struct Tiles {
    first: usize,
    step: usize,
}

impl Tiles {
    /// The blocks of the grid share the tiles.
    #[inline(always)]
    pub fn grid() -> Self {
        Self { first: block_idx_x() as usize, step: grid_dim_x() as usize }
    }

    /// The calling block takes every tile.
    #[inline(always)]
    pub fn block() -> Self {
        Self { first: 0, step: 1 }
    }
}

/// Version 2's loop over `vectors` vectors: a tile is `CHUNKS * blockDim.x`
/// consecutive vectors, and thread `t` of the block that owns it takes
/// vectors `t, t + blockDim.x, ...` of it (each warp reads 32 consecutive
/// vectors at a time). A thread loads all its `CHUNKS` vectors of the tile
/// (`load(v)`), then computes and stores each result in turn (`compute`,
/// `store(v, result, keep)`, which must store only if `keep`): no result
/// waits in registers for the others. Indices past
/// the end are clamped to the last vector and their stores not kept: no
/// load or computation sits behind a branch (`ptxas` sinks a load into the
/// branch that uses it, which would serialize them), so `store` should be
/// predicated too ([`store_vector_streaming`], [`store_bytes_streaming`]).
#[inline(always)]
pub fn for_each_vector_batch<const CHUNKS: usize, L: Copy, R: Copy>(
    tiles: Tiles,
    vectors: usize,
    mut load: impl FnMut(usize) -> L,
    mut compute: impl FnMut(L) -> R,
    mut store: impl FnMut(usize, R, bool),
) {
    if vectors == 0 {
        return;
    }
    let (block, thread) = (block_dim_x() as usize, thread_idx_x() as usize);
    let tile = CHUNKS * block;
    let mut start = tiles.first * tile;
    while start < vectors {
        let index: [usize; CHUNKS] = core::array::from_fn(|k| start + thread + k * block);
        let clamped = index.map(|i| i.min(vectors - 1));
        let loaded: [L; CHUNKS] = core::array::from_fn(|k| load(clamped[k]));
        for k in 0..CHUNKS {
            store(clamped[k], compute(loaded[k]), index[k] < vectors);
        }
        start += tiles.step * tile;
    }
}

/// Asks the L2 to fetch the cache line holding `pointer` (`prefetch.global.L2`):
/// the DRAM read starts now, without a register waiting for it.
///
/// # Safety
/// `pointer` is a valid global address (the prefetch itself never faults
/// the kernel, but an address outside any allocation is not allowed).
#[inline(always)]
pub unsafe fn prefetch_l2<T>(pointer: *const T) {
    // SAFETY: the caller guarantees the address.
    unsafe { asm!("prefetch.global.L2 [{p}];", p = in(reg64) pointer) };
}

/// Asks L1 to fetch the cache line holding `pointer` (`prefetch.global.L1`),
/// without a register waiting for it: a later load of it is an L1 hit.
///
/// # Safety
/// As for [`prefetch_l2`].
#[inline(always)]
pub unsafe fn prefetch_l1<T>(pointer: *const T) {
    // SAFETY: the caller guarantees the address.
    unsafe { asm!("prefetch.global.L1 [{p}];", p = in(reg64) pointer) };
}

/// `value`, hidden from LLVM's loop optimizations: what is computed from
/// the result stays where it is written instead of being hoisted out of
/// the loop into a register of its own (for address arithmetic that would
/// otherwise hold one 64-bit register per unrolled copy for the whole loop).
#[inline(always)]
pub fn in_place(value: usize) -> usize {
    let result: usize;
    // SAFETY: a register move; not `pure`, so LLVM neither hoists nor merges it.
    unsafe { asm!("mov.b64 {r}, {v};", r = out(reg64) result, v = in(reg64) value, options(nomem, nostack)) };
    result
}
