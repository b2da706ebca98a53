//! quant-kernels' GPU kernels, compiled to PTX by `ptx-builder` with rustc's
//! `nvptx64-nvidia-cuda` target. One kernel family per module; every
//! `#[no_mangle]` function is a kernel entry point, and nothing else may be
//! `#[no_mangle]` (the builder exports exactly those).
//!
//! Tile shapes and packed formats shared with the host live in
//! `quant-kernels-abi`.
#![no_std]
#![feature(abi_ptx, stdarch_nvptx, asm_experimental_arch, core_float_math, f16, link_llvm_intrinsics)]
#![allow(internal_features)]

pub mod async_copy;
pub mod device;
pub mod float;
pub mod math;
pub mod mma;

pub mod add_mul_exp;
pub mod int4_linear;
pub mod quantize_int8;

/// Kernels never panic by design (raw pointers, no bounds-checked indexing);
/// if one did, trapping aborts the launch with an error the host sees.
#[panic_handler]
fn on_panic(_: &core::panic::PanicInfo) -> ! {
    // SAFETY: `trap` aborts the kernel; it has no preconditions.
    unsafe { core::arch::nvptx::trap() }
}
