//! The Hopper's warpgroup MMAs (`wgmma.mma_async`, `sm_90a` PTX only): a
//! warpgroup (4 consecutive warps, 128 threads) multiplies a 64x16 A by a
//! 16xN B into a 64xN f32 accumulator in one asynchronous instruction, B read
//! by the tensor cores straight from shared memory.
//!
//! **Fragments** of `m64n128k16` with A in registers (PTX ISA,
//! "Register Fragments and Shared Memory Matrix Layouts" of wgmma): warp `w`
//! of the warpgroup holds rows `16w .. 16w + 16` of A and of the
//! accumulator, as the A and C operands of `mma.m16n8k16` do (see
//! [`crate::mma`], `g = lane / 4`, `t = lane % 4`): `a[0..4]` are `A[16w +
//! g][2t..2t+2]`, `A[16w + g + 8][2t..]`, `A[16w + g][2t + 8..]`, `A[16w + g
//! + 8][2t + 8..]`, and accumulator `d[4j + c]` is `D[16w + g + 8 (c / 2)][8j
//! + 2t + c % 2]` for `j` in `0..16`.
//!
//! **B in shared memory**, "K-major" without swizzle: the matrix is cut into
//! core matrices of 8 rows of `N` by 16 bytes of `K` (8 values), each 128
//! contiguous bytes (row `r` at `16 r`). The descriptor gives the address of
//! the first, the byte distance between core matrices adjacent in `K` (the
//! leading byte offset) and in `N` (the stride byte offset).
//!
//! **Ordering.** A `wgmma.mma_async` reads its registers and shared memory
//! after it is issued. [`fence`] must come between the warp's writes of an A
//! fragment or accumulator and the MMA that reads it; [`commit`] closes a
//! group of MMAs and [`wait`] returns once at most `N` groups are pending,
//! after which their accumulators may be read ([`fence_accumulators`] keeps
//! the compiler from moving reads above the wait) and their A registers
//! and shared memory reused.

use crate::float::Bf16;
use crate::mma::MmaHalf;
use core::arch::asm;

/// One thread's accumulators of an `m64n128k16` MMA.
pub type Accumulators = [f32; 64];

/// A shared-memory matrix descriptor for B without swizzle: `address` of
/// the first core matrix (16-byte aligned, in the shared window),
/// `k_stride` bytes between core matrices adjacent in `K`, `n_stride`
/// between those adjacent in `N` (multiples of 16, below 256 KB).
#[inline(always)]
pub fn descriptor(address: u32, k_stride: u32, n_stride: u32) -> u64 {
    let field = |bytes: u32| ((bytes >> 4) & 0x3FFF) as u64;
    // Bits 0-13 address, 16-29 leading (K) offset, 32-45 stride (N)
    // offset, 49-51 base offset (0), 62-63 swizzle (0: none); all in 16 bytes.
    field(address) | field(k_stride) << 16 | field(n_stride) << 32
}

/// The descriptor `bytes` further on (16-byte multiple): the address field
/// is the low 14 bits, and stays inside them for shared addresses.
#[inline(always)]
pub fn advance(descriptor: u64, bytes: u32) -> u64 {
    descriptor + (bytes >> 4) as u64
}

/// `asm!` with the 64 accumulators of `$acc` as operands `{0}` to `{63}`,
/// then `$operands`.
macro_rules! asm_with_accumulators {
    ($acc:ident, $template:expr, $($operands:tt)*) => {
        asm_with_accumulators!(@expand $acc, $template, [
            0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
            32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63
        ], $($operands)*)
    };
    (@expand $acc:ident, $template:expr, [$($i:literal)*], $($operands:tt)*) => {
        asm!($template, $(inout(reg32) $acc[$i],)* $($operands)*)
    };
}

/// The accumulator operands of a 64-register `wgmma`, for its template.
macro_rules! accumulator_list {
    () => {
        "{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}, {9}, {10}, {11}, {12}, {13}, {14}, {15}, {16}, {17}, {18}, \
         {19}, {20}, {21}, {22}, {23}, {24}, {25}, {26}, {27}, {28}, {29}, {30}, {31}, {32}, {33}, {34}, {35}, {36}, \
         {37}, {38}, {39}, {40}, {41}, {42}, {43}, {44}, {45}, {46}, {47}, {48}, {49}, {50}, {51}, {52}, {53}, {54}, \
         {55}, {56}, {57}, {58}, {59}, {60}, {61}, {62}, {63}"
    };
}

/// A 16-bit type the warpgroup MMAs multiply (f16 or bf16).
pub trait WgmmaHalf: MmaHalf {
    /// Issues `acc += A * B` (`m64n128k16`, f32 accumulation): `a` the
    /// warp's A fragment, `b` a descriptor of B (16 x 128, K-major).
    /// Asynchronous: see the module documentation.
    ///
    /// # Safety
    /// The whole warpgroup executes it together, with the same descriptor,
    /// after a [`fence`] that follows its writes of `a` and `acc`; B's
    /// bytes are in shared memory and stay unwritten until a [`wait`]
    /// covers this MMA.
    unsafe fn mma_m64n128k16(acc: &mut Accumulators, a: [u32; 4], b: u64);
}

macro_rules! wgmma_half {
    ($type:ty, $ptx:literal) => {
        impl WgmmaHalf for $type {
            #[inline(always)]
            unsafe fn mma_m64n128k16(acc: &mut Accumulators, a: [u32; 4], b: u64) {
                // SAFETY: the caller guarantees the warpgroup-wide conditions.
                // scale-d = 1 (accumulate), A and B unnegated, B not transposed.
                unsafe {
                    asm_with_accumulators!(
                        acc,
                        concat!(
                            "{{ .reg .pred accumulate; setp.ne.b32 accumulate, {one}, 0; ",
                            "wgmma.mma_async.sync.aligned.m64n128k16.f32.", $ptx, ".", $ptx, " {{",
                            accumulator_list!(),
                            "}}, {{{a0}, {a1}, {a2}, {a3}}}, {b}, accumulate, 1, 1, 0; }}"
                        ),
                        a0 = in(reg32) a[0], a1 = in(reg32) a[1], a2 = in(reg32) a[2], a3 = in(reg32) a[3],
                        b = in(reg64) b, one = in(reg32) 1u32,
                    )
                }
            }
        }
    };
}

wgmma_half!(f16, "f16");
wgmma_half!(Bf16, "bf16");

/// `wgmma.fence`: the warp's register writes so far are seen by the MMAs
/// issued after it.
#[inline(always)]
pub fn fence() {
    // SAFETY: no operands; the whole warpgroup calls it.
    unsafe { asm!("wgmma.fence.sync.aligned;") };
}

/// `fence.proxy.async`: the thread's earlier writes to shared memory
/// (stores, completed `cp.async` copies) are seen by MMAs issued after the
/// block next meets. The MMAs read shared memory through the "async
/// proxy", which is not ordered with ordinary writes without it.
#[inline(always)]
pub fn fence_shared_writes() {
    // SAFETY: no operands.
    unsafe { asm!("fence.proxy.async.shared::cta;") };
}

/// Closes the group of MMAs issued since the last commit.
#[inline(always)]
pub fn commit() {
    // SAFETY: no operands; the whole warpgroup calls it.
    unsafe { asm!("wgmma.commit_group.sync.aligned;") };
}

/// Waits until at most `PENDING` of the warpgroup's MMA groups are incomplete.
#[inline(always)]
pub fn wait<const PENDING: u32>() {
    // SAFETY: no operands; the whole warpgroup calls it.
    unsafe { asm!("wgmma.wait_group.sync.aligned {n};", n = const PENDING) };
}

/// Marks the accumulators as rewritten here, so that the compiler reads
/// them only after this point (call it after the [`wait`] that completes
/// their MMAs).
#[inline(always)]
pub fn fence_accumulators(acc: &mut Accumulators) {
    // SAFETY: no instruction, a PTX comment naming the registers.
    unsafe { asm_with_accumulators!(acc, concat!("// ", accumulator_list!()), options(nomem, nostack, preserves_flags)) };
}
