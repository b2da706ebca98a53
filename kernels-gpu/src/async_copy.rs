//! Asynchronous global-to-shared copies (`cp.async`, sm_80+) and the
//! shared-memory accesses that go with them, all through inline PTX with
//! 32-bit shared-window addresses.
//!
//! A thread's copies complete in commit-group order: `commit` closes the
//! group of copies issued since the last one, `wait::<N>` returns once at
//! most `N` groups are pending. Completion is per thread: before reading
//! what other lanes copied, a warp also needs [`sync_warp`].

use core::arch::asm;

/// The shared-window address of the block's dynamic shared memory
/// (declared in `device.rs`).
#[inline(always)]
pub fn dynamic_shared_address() -> u32 {
    let address: u32;
    // SAFETY: reads the address of a declared symbol.
    unsafe { asm!("mov.u32 {a}, dynamic_shared_memory;", a = out(reg32) address) };
    address
}

/// Starts copying 16 bytes from `source` to shared address `destination`,
/// or, when `valid` is false, writing 16 zero bytes there without reading.
///
/// # Safety
/// `destination` is 16-byte aligned inside the block's shared memory;
/// `source` is 16-byte aligned and, when `valid`, readable for 16 bytes.
#[inline(always)]
pub unsafe fn copy16(destination: u32, source: *const u8, valid: bool) {
    let source_bytes: u32 = if valid { 16 } else { 0 };
    // SAFETY: the caller guarantees the addresses; .cg bypasses L1 (data read once).
    unsafe {
        asm!("cp.async.cg.shared.global [{d}], [{s}], 16, {n};", d = in(reg32) destination, s = in(reg64) source,
            n = in(reg32) source_bytes)
    };
}

/// Closes the group of copies this thread issued since the last commit.
#[inline(always)]
pub fn commit() {
    // SAFETY: no operands.
    unsafe { asm!("cp.async.commit_group;") };
}

/// Waits until at most `PENDING` of this thread's committed groups are incomplete.
#[inline(always)]
pub fn wait<const PENDING: u32>() {
    // SAFETY: no memory operands.
    unsafe { asm!("cp.async.wait_group {n};", n = const PENDING) };
}

/// `__syncwarp()`: the warp's lanes meet, and their shared-memory accesses
/// before it are visible to each other after it.
#[inline(always)]
pub fn sync_warp() {
    // SAFETY: the whole warp calls it (full mask).
    unsafe { asm!("bar.warp.sync -1;") };
}

/// Loads 16 bytes from shared address `address`.
///
/// # Safety
/// `address` is 16-byte aligned inside the block's shared memory.
#[inline(always)]
pub unsafe fn load_shared16(address: u32) -> [u32; 4] {
    let v: [u32; 4];
    // SAFETY: the caller guarantees the address.
    unsafe {
        let (a, b, c, d): (u32, u32, u32, u32);
        asm!("ld.shared.v4.u32 {{{a}, {b}, {c}, {d}}}, [{p}];", a = out(reg32) a, b = out(reg32) b,
            c = out(reg32) c, d = out(reg32) d, p = in(reg32) address);
        v = [a, b, c, d];
    }
    v
}

/// Loads `words` (1, 2 or 4) consecutive words from shared address
/// `address` as one access, into the first `words` of 4 (the rest zero).
///
/// # Safety
/// `address` is aligned to `4 words` bytes inside the block's shared memory.
#[inline(always)]
pub unsafe fn load_shared_words(address: u32, words: usize) -> [u32; 4] {
    // SAFETY: the caller guarantees the address.
    unsafe {
        match words {
            4 => load_shared16(address),
            2 => {
                let (a, b): (u32, u32);
                asm!("ld.shared.v2.u32 {{{a}, {b}}}, [{p}];", a = out(reg32) a, b = out(reg32) b, p = in(reg32) address);
                [a, b, 0, 0]
            }
            _ => {
                let a: u32;
                asm!("ld.shared.u32 {a}, [{p}];", a = out(reg32) a, p = in(reg32) address);
                [a, 0, 0, 0]
            }
        }
    }
}

/// The Hopper's bulk copies (sm_90, PTX 8.0): one instruction copies a
/// contiguous run of global memory into shared memory without registers,
/// and signals an `mbarrier` with the bytes it wrote.
///
/// A stage's barrier completes a phase when its one expected arrival (the
/// thread that announces the stage's bytes) has arrived and every byte
/// announced has landed; the copies may land before the announcement.
#[cfg(target_feature = "sm_90")]
pub mod bulk {
    use core::arch::asm;

    /// An `mbarrier` (8 bytes, 8-byte aligned) at a shared-window address.
    #[derive(Clone, Copy)]
    pub struct Barrier(pub u32);

    impl Barrier {
        /// Sets the barrier to wait for `arrivals` arrivals a phase, phase
        /// 0 first. One thread, before any other use; then
        /// [`fence_barrier_init`] and a block barrier.
        ///
        /// # Safety
        /// The address is 8-byte aligned inside the block's shared memory.
        #[inline(always)]
        pub unsafe fn init(self, arrivals: u32) {
            // SAFETY: the caller guarantees the address.
            unsafe { asm!("mbarrier.init.shared::cta.b64 [{b}], {n};", b = in(reg32) self.0, n = in(reg32) arrivals) };
        }

        /// Arrives once, and adds `bytes` to what the current phase waits
        /// for.
        ///
        /// # Safety
        /// An initialized barrier; the current phase expects this arrival.
        #[inline(always)]
        pub unsafe fn arrive_expecting(self, bytes: u32) {
            // SAFETY: the caller guarantees the barrier.
            unsafe {
                asm!("mbarrier.arrive.expect_tx.shared::cta.b64 _, [{b}], {n};", b = in(reg32) self.0, n = in(reg32) bytes)
            };
        }

        /// Returns once the phase of parity `parity` (the barrier's `j`-th
        /// phase has parity `j % 2`) has completed; what the copies wrote
        /// is then visible to the calling thread.
        #[inline(always)]
        pub fn wait(self, parity: u32) {
            loop {
                let done: u32;
                // SAFETY: reads the barrier; `try_wait` suspends the thread
                // for a while in hardware before returning false.
                unsafe {
                    asm!(
                        "{{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [{b}], {q}; selp.u32 {d}, 1, 0, p; }}",
                        b = in(reg32) self.0, q = in(reg32) parity, d = out(reg32) done
                    )
                };
                if done != 0 {
                    break;
                }
            }
        }
    }

    /// Makes initialized barriers visible to the bulk copies.
    #[inline(always)]
    pub fn fence_barrier_init() {
        // SAFETY: no operands.
        unsafe { asm!("fence.mbarrier_init.release.cluster;") };
    }

    /// Orders this thread's earlier shared-memory accesses before its later
    /// bulk copies (which write through the async proxy): a stage that was
    /// read is overwritten only after the reads.
    #[inline(always)]
    pub fn fence_proxy_async() {
        // SAFETY: no operands.
        unsafe { asm!("fence.proxy.async.shared::cta;") };
    }

    /// Starts copying `bytes` from `source` to shared address `destination`;
    /// on landing they count toward `barrier`'s current phase.
    ///
    /// # Safety
    /// `destination` and `source` 16-byte aligned, `bytes` a multiple of
    /// 16; `source` readable and `destination` inside the block's shared
    /// memory for `bytes`; `barrier` initialized.
    #[inline(always)]
    pub unsafe fn copy(destination: u32, source: *const u8, bytes: u32, barrier: Barrier) {
        // SAFETY: the caller guarantees the addresses and the size.
        unsafe {
            asm!(
                "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [{d}], [{s}], {n}, [{b}];",
                d = in(reg32) destination, s = in(reg64) source, n = in(reg32) bytes, b = in(reg32) barrier.0
            )
        };
    }
}
