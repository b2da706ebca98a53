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

/// Loads 8 bytes from shared address `address`.
///
/// # Safety
/// `address` is 8-byte aligned inside the block's shared memory.
#[inline(always)]
pub unsafe fn load_shared8(address: u32) -> [u32; 2] {
    let (a, b): (u32, u32);
    // SAFETY: the caller guarantees the address.
    unsafe { asm!("ld.shared.v2.u32 {{{a}, {b}}}, [{p}];", a = out(reg32) a, b = out(reg32) b, p = in(reg32) address) };
    [a, b]
}

/// Loads the 4 bytes at shared address `address` and returns them with
/// their high half splat to both halves of a word: `[word, hi | hi <<
/// 16]`. The splat is PTX's unpack and repack (`mov.b32 {lo, hi}`,
/// `mov.b32 {hi, hi}`), which ptxas can fold into the operand selector
/// (`.H1_H1`) of the packed half instructions that use it, where a `prmt`
/// stays an instruction (run 55,
/// `docs/logs/2026-11-29-h200-run55/splat-selectors-*.ptx`).
///
/// # Safety
/// `address` is 4-byte aligned inside the block's shared memory.
#[inline(always)]
pub unsafe fn load_shared_high_splat(address: u32) -> [u32; 2] {
    let (word, high): (u32, u32);
    // SAFETY: the caller guarantees the address.
    unsafe {
        asm!(
            "{{",
            ".reg .b16 lo, hi;",
            "ld.shared.b32 {w}, [{p}];",
            "mov.b32 {{lo, hi}}, {w};",
            "mov.b32 {h}, {{hi, hi}};",
            "}}",
            p = in(reg32) address, w = out(reg32) word, h = out(reg32) high,
        )
    };
    [word, high]
}

/// Loads 2 bytes from shared address `address`.
///
/// # Safety
/// `address` is 2-byte aligned inside the block's shared memory.
#[inline(always)]
pub unsafe fn load_shared2(address: u32) -> u16 {
    let value: u16;
    // SAFETY: the caller guarantees the address.
    unsafe { asm!("ld.shared.u16 {v}, [{p}];", p = in(reg32) address, v = out(reg16) value) };
    value
}

/// Stores 2 bytes to shared address `address`.
///
/// # Safety
/// `address` is 2-byte aligned inside the block's shared memory.
#[inline(always)]
pub unsafe fn store_shared2(address: u32, value: u16) {
    // SAFETY: the caller guarantees the address.
    unsafe { asm!("st.shared.u16 [{p}], {v};", p = in(reg32) address, v = in(reg16) value) };
}

/// Stores 8 bytes to shared address `address`.
///
/// # Safety
/// `address` is 8-byte aligned inside the block's shared memory.
#[inline(always)]
pub unsafe fn store_shared8(address: u32, value: [u32; 2]) {
    // SAFETY: the caller guarantees the address.
    unsafe {
        asm!("st.shared.v2.u32 [{p}], {{{a}, {b}}};", p = in(reg32) address, a = in(reg32) value[0], b = in(reg32) value[1])
    };
}
