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

/// Exports the generic kernel body `$body::<T>` once per storage type: each
/// `$name for $float` becomes the entry point `$name`, whose parameters are
/// `$params` with `T = $float`. Only the thin `#[no_mangle]` wrapper is
/// generated (in a module of its own, where `T` names `$float`); the kernel
/// is the one generic function. Constant parameters after the type, if the
/// body has any, follow its name: `$body [1, 128]` calls `$body::<T, 1, 128>`;
/// a type parameter likewise: `$body<Kernel>` calls `$body::<T, Kernel>`.
/// The wrapper first waits for the previous grid
/// ([`grid_dependency::begin_after_previous_grid`]), so that every entry
/// point may be launched as a programmatic dependent.
macro_rules! export_per_float {
    ($body:ident $params:tt as $($name:ident for $float:ty),+ $(,)?) => {
        export_per_float!(@each $body [] $params $($name $float)+);
    };
    ($body:ident [$($constant:expr),*] $params:tt as $($name:ident for $float:ty),+ $(,)?) => {
        export_per_float!(@each $body [$(, { $constant })*] $params $($name $float)+);
    };
    ($body:ident <$kernel:ty> $params:tt as $($name:ident for $float:ty),+ $(,)?) => {
        export_per_float!(@each $body [, $kernel] $params $($name $float)+);
    };
    (@each $body:ident $generic:tt $params:tt $($name:ident $float:ty)+) => {
        $(export_per_float!(@one $body $generic $params $name $float);)+
    };
    (@one $body:ident $generic:tt $params:tt $name:ident $float:ty) => {
        export_per_float!(
            @entry { $crate::grid_dependency::begin_after_previous_grid() } $body $generic $params $name $float
        );
    };
    // `$prologue` runs first: the wait for the previous grid (see
    // `grid_dependency`), or nothing for a body that waits itself.
    (@entry $prologue:block $body:ident [$($generic:tt)*] ($($param:ident: $ty:ty),* $(,)?) $name:ident $float:ty) => {
        pub mod $name {
            #[allow(unused_imports)]
            use super::*;
            type T = $float;
            #[doc = concat!("`", stringify!($body), "::<", stringify!($float $($generic)*), ">`.")]
            ///
            /// # Safety
            /// As for the generic body.
            #[unsafe(no_mangle)]
            pub unsafe extern "ptx-kernel" fn $name($($param: $ty),*) {
                $prologue
                // SAFETY: the caller's contract is the generic body's.
                unsafe { super::$body::<T $($generic)*>($($param),*) }
            }
        }
    };
}

pub mod async_copy;
pub mod cluster;
pub mod device;
pub mod float;
pub mod grid_dependency;
pub mod math;
pub mod mbarrier;
pub mod mma;
pub mod tma;
pub mod wgmma;

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
