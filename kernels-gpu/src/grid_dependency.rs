//! Programmatic dependent launch (sm_90): a kernel launched with the
//! programmatic stream serialization attribute may start while the kernel
//! before it on the stream is still running, and orders itself after it by
//! these two instructions instead of by the stream.
//!
//! A kernel that uses them must not touch memory an earlier kernel may
//! write or read, other than by L2 prefetches (`prefetch.global.L2`,
//! `cp.async.bulk.prefetch`: the L2 is the GPU's point of coherence, so a
//! line it holds early is never stale), before
//! [`wait_for_previous_grid`]. Launched without the attribute, or on the
//! `sm_80` build, where both compile to nothing, it runs as any kernel does.
//!
//! Every entry point of this crate does so: the wrappers that
//! `export_per_float!` and the int4 entry-point macros generate begin with
//! [`begin_after_previous_grid`], and the bodies that have work to do
//! before the wait are exported without it and call it themselves: the
//! decode GEMV (`int4_linear/v5.rs`) and the producer-consumer GEMMs
//! (`int4_linear/v12.rs`: its `FirstStep`) ask the L2 for their first
//! weights, and the other tiled GEMMs wait where their main loop starts
//! (`TiledGemm::sum_tiles`). The host
//! therefore may launch any kernel of the `sm_90a` module as a programmatic
//! dependent, and does by default; `tests/ptx.rs` checks that every entry
//! point waits before its first global memory access.

#[cfg(target_feature = "sm_90")]
use core::arch::asm;

/// Whether this build has the two instructions (`sm_90` and later), that
/// is, whether its kernels can start before the previous grid ends.
pub const PROGRAMMATIC_LAUNCH: bool = cfg!(target_feature = "sm_90");

/// Waits until every grid this one depends on has completed and its memory
/// writes are visible (`griddepcontrol.wait`); returns at once when the
/// kernel was launched without programmatic serialization.
#[inline(always)]
pub fn wait_for_previous_grid() {
    // SAFETY: no operands; memory is clobbered (no `nomem`), so the compiler
    // moves no load or store across it.
    #[cfg(target_feature = "sm_90")]
    unsafe {
        asm!("griddepcontrol.wait;", options(nostack))
    };
}

/// Lets the next kernel on the stream launch once every block of this grid
/// has called this or exited (`griddepcontrol.launch_dependents`): its
/// blocks then take the room this grid leaves, run up to their own
/// [`wait_for_previous_grid`] and wait there, so its launch and first
/// loads overlap this grid's end.
#[inline(always)]
pub fn launch_dependents() {
    // SAFETY: no operands; a hint to the scheduler, which orders no memory.
    #[cfg(target_feature = "sm_90")]
    unsafe {
        asm!("griddepcontrol.launch_dependents;", options(nostack))
    };
}

/// What an entry point does first when it has nothing to do before the
/// previous grid ends: [`wait_for_previous_grid`], then
/// [`launch_dependents`] (the next kernel's blocks then wait in their own
/// prologue, so its launch overlaps this grid's run).
#[inline(always)]
pub fn begin_after_previous_grid() {
    wait_for_previous_grid();
    launch_dependents();
}
