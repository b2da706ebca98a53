//! Shared-memory barrier objects (`mbarrier`, sm_90 forms), through inline
//! PTX with 32-bit shared-window addresses: how a producer warpgroup tells
//! consumer warpgroups that a stage is full, and they tell it the stage is
//! free again, without the whole block meeting.
//!
//! An mbarrier counts arrivals: a phase completes when as many arrivals as
//! it was initialized with have come, and the next phase begins with the
//! same count. Waiters name the phase they wait for by its parity (phases
//! alternate 0, 1, 0, ...): [`wait`] returns once the last phase of that
//! parity has completed. Arriving releases, and a returned wait acquires,
//! the shared-memory writes before the arrival (`.release.cta` and
//! `.acquire.cta`, the defaults), including copies tracked with
//! [`arrive_on_copies`]. A phase can also wait for bytes
//! ([`arrive_expect_bytes`], counted down by TMA copies), and blocks of a
//! cluster can arrive on each other's barriers ([`arrive_remote`]; with
//! the default semantics, since at cluster scope ptxas adds a GPU-wide
//! fence to each arrival and an L1 invalidation to each wait, run 16).

use core::arch::asm;

/// Initializes the 8-byte mbarrier at `address` for `count` arrivals a phase.
///
/// # Safety
/// `address` is 8-byte aligned inside the block's shared memory; no thread
/// uses the barrier until the block has met (or [`fence_init`]) after this.
#[inline(always)]
pub unsafe fn init(address: u32, count: u32) {
    // SAFETY: the caller guarantees the address.
    unsafe { asm!("mbarrier.init.shared::cta.b64 [{a}], {c};", a = in(reg32) address, c = in(reg32) count) };
}

/// Makes this thread's [`init`]s visible to the asynchronous units
/// (`cp.async` arrivals) as well as to the threads it next meets.
#[inline(always)]
pub fn fence_init() {
    // SAFETY: no operands.
    unsafe { asm!("fence.mbarrier_init.release.cluster;") };
}

/// One arrival of this thread on the barrier at `address`, releasing its
/// earlier shared-memory writes and reads.
///
/// # Safety
/// `address` holds an initialized mbarrier.
#[inline(always)]
pub unsafe fn arrive(address: u32) {
    // SAFETY: the caller guarantees the barrier.
    unsafe { asm!("mbarrier.arrive.shared::cta.b64 _, [{a}];", a = in(reg32) address) };
}

/// One arrival on the barrier at `address` in the cluster's shared window
/// (of this block or another of its cluster: [`crate::cluster::peer_address`]),
/// with [`arrive`]'s default semantics (`.release.cta`).
///
/// # Safety
/// `address` holds an initialized mbarrier of a block of the cluster that
/// has not exited.
#[inline(always)]
pub unsafe fn arrive_remote(address: u32) {
    // SAFETY: the caller guarantees the barrier.
    unsafe { asm!("mbarrier.arrive.shared::cluster.b64 _, [{a}];", a = in(reg32) address) };
}

/// One arrival of this thread on the barrier at `address` that also tells
/// it `bytes` more will land in this phase (`expect_tx`): the phase then
/// completes only once its arrivals are in and copies tracked by the
/// barrier ([`crate::tma`]) have written that many bytes, whether they
/// landed before this call or after.
///
/// # Safety
/// `address` holds an initialized mbarrier.
#[inline(always)]
pub unsafe fn arrive_expect_bytes(address: u32, bytes: u32) {
    // SAFETY: the caller guarantees the barrier.
    unsafe {
        asm!("mbarrier.arrive.expect_tx.shared::cta.b64 _, [{a}], {b};", a = in(reg32) address, b = in(reg32) bytes)
    };
}

/// One arrival on the barrier at `address`, made by the hardware once every
/// `cp.async` copy this thread has issued so far is complete (`.noinc`: it
/// counts against the phase's arrivals, like [`arrive`]); the thread goes
/// on at once.
///
/// # Safety
/// `address` holds an initialized mbarrier.
#[inline(always)]
pub unsafe fn arrive_on_copies(address: u32) {
    // SAFETY: the caller guarantees the barrier.
    unsafe { asm!("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [{a}];", a = in(reg32) address) };
}

/// Waits until the barrier's last phase of parity `parity` has completed.
/// At initialization the barrier is in phase 0, and a phase of parity 1 is
/// taken as completed: waiting for parity 1 returns at once.
///
/// # Safety
/// `address` holds an initialized mbarrier.
#[inline(always)]
pub unsafe fn wait(address: u32, parity: u32) {
    loop {
        let done: u32;
        // SAFETY: the caller guarantees the barrier. `try_wait` suspends the
        // thread for a while before it reports "not yet", so this is not a hot spin.
        unsafe {
            asm!(
                "{{ .reg .pred done; mbarrier.try_wait.parity.shared::cta.b64 done, [{a}], {p}; selp.u32 {d}, 1, 0, done; }}",
                a = in(reg32) address, p = in(reg32) parity, d = out(reg32) done,
            )
        };
        if done != 0 {
            return;
        }
    }
}
