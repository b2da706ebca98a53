//! Thread-block clusters (sm_90): the blocks of a cluster run at once on
//! neighbouring multiprocessors and can reach each other's shared memory.
//! A kernel runs in clusters when its PTX entry says so
//! (`.reqnctapercluster`, written by the PTX build).

use core::arch::asm;

/// This block's rank in its cluster (`0 .. blocks a cluster`).
#[inline(always)]
pub fn rank() -> u32 {
    let rank: u32;
    // SAFETY: reads a special register.
    unsafe { asm!("mov.u32 {r}, %cluster_ctarank;", r = out(reg32) rank, options(pure, nomem, nostack)) };
    rank
}

/// Every thread of every block of the cluster meets here; the shared-memory
/// writes (and mbarrier initializations, with [`crate::mbarrier::fence_init`])
/// each made before are visible to all after.
#[inline(always)]
pub fn sync() {
    // SAFETY: no operands; every thread of the cluster executes it.
    unsafe { asm!("barrier.cluster.arrive.release;", "barrier.cluster.wait.acquire;") };
}

/// The address, in the cluster's shared window, of the byte at `address`
/// of this block's shared memory in block `rank`'s (the same layout).
#[inline(always)]
pub fn peer_address(address: u32, rank: u32) -> u32 {
    let peer: u32;
    // SAFETY: computes an address.
    unsafe {
        asm!(
            "mapa.shared::cluster.u32 {p}, {a}, {r};",
            p = out(reg32) peer, a = in(reg32) address, r = in(reg32) rank, options(pure, nomem, nostack),
        )
    };
    peer
}
