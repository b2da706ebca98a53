//! GPU kernels for quantized LLM inference, written in Rust, compiled to PTX
//! at build time and launched through [`cust`](https://docs.rs/cust).
//!
//! | kernel | operation |
//! |---|---|
//! | [`int4_linear`] | fused 4-bit linear layer `y = x * dequant(W)^T + bias` (GEMV and batched) |
//! | [`quantize_int8`] | `clamp(round(x / scale + zero_point), -128, 127)`, per tensor or per row, from f32/f16/bf16 |
//! | [`add_mul_exp`] | `exp((x + y) * 2)` in f32, f16 or bf16 |
//!
//! Each kernel's module states its error bound and its exact arithmetic.
//!
//! # Two layers
//!
//! Without the default `cuda` feature the crate has no CUDA dependency: it
//! holds the PTX for each target ([`ptx`]), each kernel's name, argument list
//! and launch geometry (the `plan` function of each kernel module), the packed
//! weight format and its quantizer ([`Int4Weights`]), and the CPU reference
//! ([`reference`](mod@reference)). An engine built on another driver wrapper (cudarc, say)
//! launches the same PTX on its own stream from these.
//!
//! With `cuda` (the default), [`Kernels`] owns the device's primary context
//! and the loaded module, and offers one checked method per kernel.
//!
//! # Example
//!
//! A decode step through a 4-bit linear layer:
//!
//! ```no_run
//! use quant_kernels::{Int4Mode, Int4Weights, Kernels};
//!
//! # fn main() -> Result<(), quant_kernels::Error> {
//! let (n, k) = (4096, 4096);
//! let weights: Vec<f32> = vec![0.01; n * k]; // W[n][k], as in nn.Linear
//! let packed = Int4Weights::quantize(&weights, n, k, 128, Int4Mode::Symmetric)?;
//!
//! let kernels = Kernels::new()?; // once per process and device
//! let layer = kernels.upload_int4_linear(&packed, None)?;
//!
//! let m = 1; // one token
//! let x = kernels.upload(&vec![1.0f32; m * k])?;
//! let mut y = kernels.alloc::<f32>(m * n)?;
//! kernels.int4_linear(&x, m, &layer, &mut y, kernels.stream())?;
//! let y = kernels.download(&y, kernels.stream())?;
//! assert_eq!(y.len(), m * n);
//! # Ok(())
//! # }
//! ```

pub use half;
pub use quant_kernels_abi as abi;

mod error;
pub use error::Error;

pub mod check;
pub mod elementwise;
pub mod float;
pub mod launch;
mod parallel;
pub mod ptx;
pub mod reference;

pub mod add_mul_exp;
pub mod int4_linear;
pub mod int4_weights;
pub mod quantize_int8;

pub use elementwise::{ElementwiseLaunch, ElementwiseVersion};
pub use float::{Float, PerFloat};
pub use int4_weights::{Int4Mode, Int4Shape, Int4Weights};
pub use quantize_int8::Int8Params;

#[cfg(feature = "cuda")]
pub mod graph;
#[cfg(feature = "cuda")]
mod kernels;
#[cfg(feature = "cuda")]
mod tensor_map;
#[cfg(feature = "cuda")]
mod workspace;
#[cfg(feature = "cuda")]
pub use cust;
#[cfg(feature = "cuda")]
pub use graph::Graph;
#[cfg(feature = "cuda")]
pub use kernels::Kernels;
