//! The Tensor Memory Accelerator (sm_90): copies of 2-D and 3-D boxes of a
//! global array into shared memory, described by a tensor map that the host
//! encodes (`cuTensorMapEncodeTiled`), issued by one thread and tracked by
//! an mbarrier's transaction count ([`crate::mbarrier::arrive_expect_bytes`]).
//! Elements of a box outside the array are written as zeros, and the
//! swizzle the map names is applied as the box is written.

use core::arch::asm;

/// A tensor map (`CUtensorMap`) as a kernel parameter: opaque, 128 bytes.
/// The TMA unit reads it where it lies, in the parameter space, so kernels
/// take its address with [`tensor_map_address!`] and never copy it; the
/// PTX build aligns it to 64 bytes (`PtxBuilder::tensor_map_param`),
/// beyond the 16 that rustc gives a by-value struct.
#[repr(C, align(16))]
#[derive(Clone, Copy)]
pub struct TensorMap(pub [u64; 16]);

/// The generic address of a kernel's [`TensorMap`] parameter.
#[derive(Clone, Copy)]
pub struct TensorMapAddress(pub u64);

/// The [`TensorMapAddress`] of parameter `$index` of entry point `$entry`,
/// used inside that entry. PTX names an entry's parameters
/// `<entry>_param_<index>`; naming the parameter in the instruction (instead
/// of taking a Rust reference to it, which makes LLVM copy it to local
/// memory) keeps the map in the parameter space, where `cvta.param` gives
/// its generic address, as CUDA C++ does for a `__grid_constant__`
/// parameter. A wrong name fails the PTX assembly.
macro_rules! tensor_map_address {
    ($entry:ident, $index:literal) => {{
        let address: u64;
        // SAFETY: reads the address of one of this entry's parameters.
        unsafe {
            core::arch::asm!(
                concat!("mov.b64 {a}, ", stringify!($entry), "_param_", stringify!($index), ";"),
                "cvta.param.u64 {a}, {a};",
                a = out(reg64) address,
                options(pure, nomem, nostack),
            )
        };
        $crate::tma::TensorMapAddress(address)
    }};
}
pub(crate) use tensor_map_address;

/// Copies `bytes` contiguous bytes from global `source` into this block's
/// shared memory at `destination` (a bulk copy: no tensor map, no
/// swizzle), counted, as they land, against the transaction count of the
/// mbarrier at `barrier`.
///
/// # Safety
/// `source` and `destination` are 16-byte aligned and hold `bytes`, a
/// multiple of 16; `barrier` is an initialized mbarrier that expects the
/// bytes in its current phase; no thread reads or writes the destination
/// until it.
#[inline(always)]
pub unsafe fn load_bulk<T>(destination: u32, source: *const T, bytes: u32, barrier: u32) {
    // SAFETY: the caller guarantees the addresses, the size and the barrier.
    unsafe {
        asm!(
            "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [{d}], [{s}], {n}, [{b}];",
            d = in(reg32) destination, s = in(reg64) source, n = in(reg32) bytes, b = in(reg32) barrier,
        )
    };
}

/// Copies the box at `(column, row)` of the 2-D array `map` describes into
/// this block's shared memory at `destination`, counted, as it lands,
/// against the transaction count of the mbarrier at `barrier`.
///
/// # Safety
/// `map` is a kernel's tensor-map parameter; `destination` holds the box's
/// bytes, aligned as the map's swizzle needs (1024 bytes for 128-byte
/// swizzle); `barrier` is an initialized mbarrier that expects the bytes
/// in its current phase; no thread reads or writes those bytes until it.
#[inline(always)]
pub unsafe fn load_2d(destination: u32, map: TensorMapAddress, (column, row): (i32, i32), barrier: u32) {
    // SAFETY: the caller guarantees the map, the slot and the barrier.
    unsafe {
        asm!(
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes \
             [{d}], [{m}, {{{c}, {r}}}], [{b}];",
            d = in(reg32) destination, m = in(reg64) map.0, c = in(reg32) column, r = in(reg32) row,
            b = in(reg32) barrier,
        )
    };
}

/// Copies the box at `(column, row)` of the 2-D array `map` describes into
/// shared memory at `destination` of every block of the cluster in `blocks`
/// (bit `r`: rank `r`), each copy counted, as it lands, against the
/// transaction count of the mbarrier at `barrier` in that block (the same
/// offset in each).
///
/// # Safety
/// `map` is a kernel's tensor-map parameter; `destination` (aligned as the
/// map's swizzle needs: 1024 bytes for 128-byte swizzle) and `barrier` are
/// the same offsets in every block of `blocks`, which hold the box's bytes
/// and an initialized mbarrier there, and which expect the bytes in the
/// barrier's current phase; no thread reads or writes those bytes until it.
#[inline(always)]
pub unsafe fn load_2d_multicast(
    destination: u32,
    map: TensorMapAddress,
    (column, row): (i32, i32),
    barrier: u32,
    blocks: u16,
) {
    // SAFETY: the caller guarantees the map, the slots and the barrier.
    unsafe {
        asm!(
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster \
             [{d}], [{m}, {{{c}, {r}}}], [{b}], {mask};",
            d = in(reg32) destination, m = in(reg64) map.0, c = in(reg32) column, r = in(reg32) row,
            b = in(reg32) barrier, mask = in(reg16) blocks,
        )
    };
}

/// Copies the box at `(x, y, z)` (innermost coordinate first) of the 3-D
/// array `map` describes into this block's shared memory at `destination`,
/// counted, as it lands, against the transaction count of the mbarrier at
/// `barrier`.
///
/// # Safety
/// `map` is a kernel's tensor-map parameter; `destination` holds the box's
/// bytes, aligned as the map's swizzle needs (512 bytes for 64-byte
/// swizzle); `barrier` holds an initialized mbarrier that expects the bytes
/// in its current phase; no thread reads or writes those bytes until it.
#[inline(always)]
pub unsafe fn load_3d(destination: u32, map: TensorMapAddress, (x, y, z): (i32, i32, i32), barrier: u32) {
    // SAFETY: the caller guarantees the map, the slot and the barrier.
    unsafe {
        asm!(
            "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes \
             [{d}], [{m}, {{{x}, {y}, {z}}}], [{b}];",
            d = in(reg32) destination, m = in(reg64) map.0, x = in(reg32) x, y = in(reg32) y, z = in(reg32) z,
            b = in(reg32) barrier,
        )
    };
}

/// Asks the L2 for the box at `(x, y, z)` of the 3-D array `map` describes
/// (`cp.async.bulk.prefetch.tensor`): no shared memory, no barrier, and
/// nothing to wait for. Coordinates past the array fetch nothing there.
///
/// # Safety
/// `map` is a kernel's tensor-map parameter.
#[inline(always)]
pub unsafe fn prefetch_3d_l2(map: TensorMapAddress, (x, y, z): (i32, i32, i32)) {
    // SAFETY: the caller guarantees the map; the L2 alone is written.
    unsafe {
        asm!(
            "cp.async.bulk.prefetch.tensor.3d.L2.global.tile [{m}, {{{x}, {y}, {z}}}];",
            m = in(reg64) map.0, x = in(reg32) x, y = in(reg32) y, z = in(reg32) z,
        )
    };
}

/// Asks the L2 for the `bytes` bytes from `source` (`cp.async.bulk.prefetch`),
/// one instruction for the whole range, rounded out to 16-byte boundaries
/// (which stay in the range's first and last 16-byte chunks).
///
/// # Safety
/// The range is global memory, inside one allocation, and under 4 GiB
/// (the instruction's size is 32-bit).
#[inline(always)]
pub unsafe fn prefetch_bulk_l2<T>(source: *const T, bytes: usize) {
    let start = source as usize & !15;
    let end = (source as usize + bytes + 15) & !15;
    // SAFETY: the caller guarantees the range; the L2 alone is written.
    unsafe { asm!("cp.async.bulk.prefetch.L2.global [{s}], {b};", s = in(reg64) start, b = in(reg32) (end - start) as u32) };
}
