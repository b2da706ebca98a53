//! The Hopper's warpgroup MMAs (`wgmma.mma_async`, `sm_90a` PTX only): a
//! warpgroup (4 consecutive warps, 128 threads) multiplies a 64x16 A by a
//! 16xN B into a 64xN f32 accumulator in one asynchronous instruction, B read
//! by the tensor cores straight from shared memory.
//!
//! **Fragments** of `m64n{16,32,64,128,256}k16` with A in registers (PTX ISA,
//! "Register Fragments and Shared Memory Matrix Layouts" of wgmma): warp `w`
//! of the warpgroup holds rows `16w .. 16w + 16` of A and of the
//! accumulator, as the A and C operands of `mma.m16n8k16` do (see
//! [`crate::mma`], `g = lane / 4`, `t = lane % 4`): `a[0..4]` are `A[16w +
//! g][2t..2t+2]`, `A[16w + g + 8][2t..]`, `A[16w + g][2t + 8..]`, `A[16w + g
//! + 8][2t + 8..]`, and accumulator `d[4j + c]` is `D[16w + g + 8 (c / 2)][8j
//! + 2t + c % 2]` for `j` in `0..N / 8` (`N / 2` accumulators a thread).
//!
//! **B in shared memory**, "K-major" with the 128-byte swizzle: each row of
//! `N` holds 64 values of `K` (128 bytes) per swizzle atom of 8 rows (1024
//! bytes, 1024-byte aligned), row `r` of the atom at `128 r` and its 16-byte
//! chunk `c` at `16 (c ^ r)`; atoms of consecutive row octets are the
//! descriptor's stride byte offset apart. An MMA's 16 columns (32 bytes)
//! start `32 j` bytes into the atom: the descriptor's address is the
//! unswizzled one, and the hardware applies the XOR (address bits 4-6 ^=
//! bits 7-9) to what it reads.
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

/// A shared-memory matrix descriptor for a K-major B with the 128-byte
/// swizzle: `address` of its first row (in the shared window; the atom it
/// lies in 1024-byte aligned), `n_stride` bytes between atoms of
/// consecutive row octets (a multiple of 16, below 256 KB).
#[inline(always)]
pub fn descriptor_swizzle128(address: u32, n_stride: u32) -> u64 {
    let field = |bytes: u32| ((bytes >> 4) & 0x3FFF) as u64;
    // Bits 0-13 address, 16-29 leading byte offset (unused by this
    // layout: 1 as CUTLASS sets it), 32-45 stride byte offset, all in 16
    // bytes; 49-51 base offset (0: aligned atoms); 62-63 layout (1: 128-byte swizzle).
    field(address) | 1 << 16 | field(n_stride) << 32 | 1 << 62
}

/// The descriptor `bytes` further on (16-byte multiple): the address field
/// is the low 14 bits, and stays inside them for shared addresses.
#[inline(always)]
pub fn advance(descriptor: u64, bytes: u32) -> u64 {
    descriptor + (bytes >> 4) as u64
}

/// `asm!` with the accumulators `$acc[i]` (`i` in the list) as operands
/// `{i}` and, in `$template`, `{accumulators}` replaced by their comma-separated
/// list; then `$operands`.
macro_rules! asm_with_accumulators {
    ([$first:literal $($i:literal)*], $acc:expr, [$($before:expr),*], [$($after:expr),*], $($operands:tt)*) => {
        asm!(
            concat!($($before,)* "{", $first, "}", $(", {", $i, "}",)* $($after),*),
            inout(reg32) $acc[$first], $(inout(reg32) $acc[$i],)* $($operands)*
        )
    };
}

/// Calls `$macro!` with the indices of the 8 accumulators of `m64n16k16`
/// prepended to its arguments.
macro_rules! accumulators_8 {
    ($macro:ident!($($arguments:tt)*)) => {
        $macro!([0 1 2 3 4 5 6 7], $($arguments)*)
    };
}

/// As [`accumulators_8!`], the 16 of `m64n32k16`.
macro_rules! accumulators_16 {
    ($macro:ident!($($arguments:tt)*)) => {
        $macro!([0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15], $($arguments)*)
    };
}

/// As [`accumulators_8!`], the 32 of `m64n64k16`.
macro_rules! accumulators_32 {
    ($macro:ident!($($arguments:tt)*)) => {
        $macro!([
            0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
        ], $($arguments)*)
    };
}

/// As [`accumulators_32!`], the 64 of `m64n128k16`.
macro_rules! accumulators_64 {
    ($macro:ident!($($arguments:tt)*)) => {
        $macro!([
            0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
            32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63
        ], $($arguments)*)
    };
}

/// As [`accumulators_64!`], the 128 of `m64n256k16`.
macro_rules! accumulators_128 {
    ($macro:ident!($($arguments:tt)*)) => {
        $macro!([
            0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
            32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63
            64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95
            96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120 121
            122 123 124 125 126 127
        ], $($arguments)*)
    };
}

/// A 16-bit type the warpgroup MMAs multiply (f16 or bf16).
pub trait WgmmaHalf: MmaHalf {
    /// Issues `acc += A * B` (`m64n128k16`, f32 accumulation), or `acc =
    /// A * B` when `accumulate` is false: `a` the warp's A fragment, `b` a
    /// descriptor of B (16 x 128, K-major). Asynchronous: see the module
    /// documentation.
    ///
    /// # Safety
    /// The whole warpgroup executes it together, with the same descriptor,
    /// after a [`fence`] that follows its writes of `a` and `acc`; B's
    /// bytes are in shared memory and stay unwritten until a [`wait`]
    /// covers this MMA.
    unsafe fn mma_m64n128k16(acc: &mut [f32; 64], a: [u32; 4], b: u64, accumulate: bool);

    /// As [`mma_m64n128k16`](Self::mma_m64n128k16), with a B of 16 x 64.
    ///
    /// # Safety
    /// As for [`mma_m64n128k16`](Self::mma_m64n128k16).
    unsafe fn mma_m64n64k16(acc: &mut [f32; 32], a: [u32; 4], b: u64, accumulate: bool);

    /// As [`mma_m64n128k16`](Self::mma_m64n128k16), with a B of 16 x 32.
    ///
    /// # Safety
    /// As for [`mma_m64n128k16`](Self::mma_m64n128k16).
    unsafe fn mma_m64n32k16(acc: &mut [f32; 16], a: [u32; 4], b: u64, accumulate: bool);

    /// As [`mma_m64n128k16`](Self::mma_m64n128k16), with a B of 16 x 16.
    ///
    /// # Safety
    /// As for [`mma_m64n128k16`](Self::mma_m64n128k16).
    unsafe fn mma_m64n16k16(acc: &mut [f32; 8], a: [u32; 4], b: u64, accumulate: bool);

    /// As [`mma_m64n128k16`](Self::mma_m64n128k16), with a B of 16 x 256.
    ///
    /// # Safety
    /// As for [`mma_m64n128k16`](Self::mma_m64n128k16).
    unsafe fn mma_m64n256k16(acc: &mut [f32; 128], a: [u32; 4], b: u64, accumulate: bool);
}

/// The body of `mma_m64n{16,32,64,128,256}k16`: scale-d = `$accumulate` (0: the
/// accumulators' inputs are ignored), A and B unnegated, B not transposed.
macro_rules! mma_asm {
    ($indices:tt, $acc:ident, $shape:literal, $ptx:literal, $a:ident, $b:ident, $accumulate:ident) => {
        asm_with_accumulators!(
            $indices,
            $acc,
            [
                "{{ .reg .pred accumulate; setp.ne.b32 accumulate, {one}, 0; wgmma.mma_async.sync.aligned.",
                $shape,
                ".f32.",
                $ptx,
                ".",
                $ptx,
                " {{"
            ],
            ["}}, {{{a0}, {a1}, {a2}, {a3}}}, {b}, accumulate, 1, 1, 0; }}"],
            a0 = in(reg32) $a[0], a1 = in(reg32) $a[1], a2 = in(reg32) $a[2], a3 = in(reg32) $a[3],
            b = in(reg64) $b, one = in(reg32) $accumulate as u32,
        )
    };
}

macro_rules! wgmma_half {
    ($type:ty, $ptx:literal) => {
        impl WgmmaHalf for $type {
            #[inline(always)]
            unsafe fn mma_m64n128k16(acc: &mut [f32; 64], a: [u32; 4], b: u64, accumulate: bool) {
                // SAFETY: the caller guarantees the warpgroup-wide conditions.
                unsafe { accumulators_64!(mma_asm!(acc, "m64n128k16", $ptx, a, b, accumulate)) }
            }

            #[inline(always)]
            unsafe fn mma_m64n64k16(acc: &mut [f32; 32], a: [u32; 4], b: u64, accumulate: bool) {
                // SAFETY: the caller guarantees the warpgroup-wide conditions.
                unsafe { accumulators_32!(mma_asm!(acc, "m64n64k16", $ptx, a, b, accumulate)) }
            }

            #[inline(always)]
            unsafe fn mma_m64n32k16(acc: &mut [f32; 16], a: [u32; 4], b: u64, accumulate: bool) {
                // SAFETY: the caller guarantees the warpgroup-wide conditions.
                unsafe { accumulators_16!(mma_asm!(acc, "m64n32k16", $ptx, a, b, accumulate)) }
            }

            #[inline(always)]
            unsafe fn mma_m64n16k16(acc: &mut [f32; 8], a: [u32; 4], b: u64, accumulate: bool) {
                // SAFETY: the caller guarantees the warpgroup-wide conditions.
                unsafe { accumulators_8!(mma_asm!(acc, "m64n16k16", $ptx, a, b, accumulate)) }
            }

            #[inline(always)]
            unsafe fn mma_m64n256k16(acc: &mut [f32; 128], a: [u32; 4], b: u64, accumulate: bool) {
                // SAFETY: the caller guarantees the warpgroup-wide conditions.
                unsafe { accumulators_128!(mma_asm!(acc, "m64n256k16", $ptx, a, b, accumulate)) }
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

/// `acc += A * B` (or `acc = A * B` when `accumulate` is false) by
/// `m64n16k16` (`ACC` = 8 accumulators), `m64n32k16` (16), `m64n64k16`
/// (32), `m64n128k16` (64) or `m64n256k16` (128):
/// the MMA whose accumulators `acc` holds. (No entry point issues
/// `m64n16k16` since run 47, nor `m64n32k16`: the int4 GEMMs' 16- and
/// 32-row tiles multiply by `mma.sync`, and instantiate them only in the
/// branch of `int4_linear::v10::hopper::mma_step` they do not take, which
/// the compile-time check of `ACC` here then still needs.) Starting a sum with `accumulate`
/// false, rather than zeroing the registers, keeps ptxas from serializing
/// the MMAs: it does so (warning C7515) where other instructions write
/// accumulators inside a loop that has MMAs in flight.
///
/// # Safety
/// As for [`WgmmaHalf::mma_m64n128k16`].
#[inline(always)]
pub unsafe fn mma<T: WgmmaHalf, const ACC: usize>(acc: &mut [f32; ACC], a: [u32; 4], b: u64, accumulate: bool) {
    const { assert!(ACC == 8 || ACC == 16 || ACC == 32 || ACC == 64 || ACC == 128) };
    let acc: *mut [f32; ACC] = acc;
    // SAFETY: the array has exactly the length cast to; the rest is the caller's.
    unsafe {
        match ACC {
            8 => T::mma_m64n16k16(&mut *acc.cast(), a, b, accumulate),
            16 => T::mma_m64n32k16(&mut *acc.cast(), a, b, accumulate),
            32 => T::mma_m64n64k16(&mut *acc.cast(), a, b, accumulate),
            64 => T::mma_m64n128k16(&mut *acc.cast(), a, b, accumulate),
            _ => T::mma_m64n256k16(&mut *acc.cast(), a, b, accumulate),
        }
    }
}

/// Marks the accumulators as rewritten here, so that the compiler reads
/// them only after this point (call it after the [`wait`] that completes
/// their MMAs).
#[inline(always)]
pub fn fence_accumulators<const ACC: usize>(acc: &mut [f32; ACC]) {
    const { assert!(ACC % 8 == 0) };
    for block in acc.chunks_exact_mut(8) {
        // SAFETY: no instruction, a PTX comment naming the registers.
        unsafe {
            accumulators_8!(asm_with_accumulators!(block, ["// "], [], options(nomem, nostack, preserves_flags)))
        };
    }
}

/// `setmaxnreg`: the calling warpgroup's warps give up registers down to
/// `COUNT` a thread (`INCREASE` false) or take registers up to `COUNT` a
/// thread from those given up (`INCREASE` true; the warps wait until the
/// block has that many free). How a block splits its register file between
/// a producer warpgroup that only copies and consumers that hold
/// accumulators; ptxas allocates the code after it within `COUNT`.
///
/// # Safety
/// Every warp of the warpgroup executes it together; `COUNT` is a multiple
/// of 8 in `24..=256`, and the increases of a block never exceed what its
/// decreases and launch freed.
#[inline(always)]
pub unsafe fn set_max_registers<const INCREASE: bool, const COUNT: u32>() {
    const { assert!(COUNT % 8 == 0 && COUNT >= 24 && COUNT <= 256) };
    // SAFETY: the caller guarantees the warpgroup-wide conditions.
    unsafe {
        if INCREASE {
            asm!("setmaxnreg.inc.sync.aligned.u32 {n};", n = const COUNT);
        } else {
            asm!("setmaxnreg.dec.sync.aligned.u32 {n};", n = const COUNT);
        }
    }
}
