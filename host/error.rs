//! The one error type of the library.

use std::fmt;

/// Everything a call can reject or fail with. Shape and parameter checks run
/// on the host before anything is launched, so no kernel ever sees bad input.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// A buffer's length does not match the shape.
    LengthMismatch { argument: &'static str, expected: usize, actual: usize },
    /// A quantization scale that is zero, negative, NaN or infinite.
    InvalidScale { row: Option<usize>, scale: f32 },
    /// A quantization zero point that is NaN or infinite.
    InvalidZeroPoint { row: Option<usize>, zero_point: f32 },
    /// A group size other than 32, 64 or 128.
    InvalidGroupSize(usize),
    /// `K` is not a multiple of the group size.
    KNotMultipleOfGroup { k: usize, group_size: usize },
    /// A weight that is NaN or infinite, or too large for an f16 scale.
    InvalidWeight { row: usize, col: usize, value: f32 },
    /// A buffer that a kernel reads with wide loads is not aligned enough.
    Misaligned { argument: &'static str, align: usize },
    /// A launch asked for a block size the kernel does not take.
    InvalidBlockThreads { threads: u32, max: u32 },
    /// A block of `warps` warps that do not split evenly between
    /// `row_groups` groups (int4 version 17).
    InvalidBlockShape { row_groups: u32, warps: u32 },
    /// A split of `K` into no slices, or into more than a grid holds.
    InvalidSplitK { split_k: u32, max: u32 },
    /// A dimension or product of dimensions beyond what the kernel indexes.
    TooLarge { what: &'static str, value: u128, limit: u128 },
    /// A kernel (version) that has no entry point for this element type.
    UnsupportedType { kernel: &'static str, version: u32, dtype: &'static str },
    /// A kernel version whose code is in a PTX target the device does not
    /// run (int4 version 10: `sm_90a`, compute capability 9.0 only).
    VersionNotOnDevice { kernel: &'static str, version: u32, target: &'static str, compute_capability: (u32, u32) },
    /// The device is older than every embedded PTX target.
    UnsupportedDevice { compute_capability: (u32, u32), oldest: (u32, u32) },
    /// The driver rejected the embedded PTX (usually: driver older than the
    /// PTX ISA version; see the README).
    #[cfg(feature = "cuda")]
    ModuleLoad { target: String, source: cust::error::CudaError },
    /// A CUDA driver call failed.
    #[cfg(feature = "cuda")]
    Cuda(cust::error::CudaError),
    /// A driver call made directly through `cust::sys` failed (the CUDA
    /// graph calls, which `cust` does not wrap). `result` is the driver's
    /// own code, stream-capture errors included (which [`cust::error::CudaError`]
    /// has no variant for).
    #[cfg(feature = "cuda")]
    Driver { call: &'static str, result: cust::sys::CUresult },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::LengthMismatch { argument, expected, actual } => {
                write!(f, "`{argument}` has {actual} elements, the shape needs {expected}")
            }
            Error::InvalidScale { row, scale } => {
                write!(f, "scale {scale}{} must be finite and > 0", at_row(*row))
            }
            Error::InvalidZeroPoint { row, zero_point } => {
                write!(f, "zero point {zero_point}{} must be finite", at_row(*row))
            }
            Error::InvalidGroupSize(g) => write!(f, "group size {g} is not one of 32, 64, 128"),
            Error::KNotMultipleOfGroup { k, group_size } => {
                write!(f, "K = {k} is not a multiple of the group size {group_size}")
            }
            Error::InvalidWeight { row, col, value } => write!(
                f,
                "weight [{row}][{col}] = {value} cannot be quantized (not finite, or too large for an f16 scale)"
            ),
            Error::Misaligned { argument, align } => {
                write!(f, "`{argument}` must be {align}-byte aligned")
            }
            Error::InvalidBlockThreads { threads, max } => {
                write!(f, "a block of {threads} threads: it must be a multiple of 32 from 32 to {max}")
            }
            Error::InvalidBlockShape { row_groups, warps } => write!(
                f,
                "a block of {warps} warps in {row_groups} groups: the warps must split evenly between at least \
                 one group"
            ),
            Error::InvalidSplitK { split_k, max } => {
                write!(f, "a split of K into {split_k} slices: it must be from 1 to {max}")
            }
            Error::TooLarge { what, value, limit } => write!(f, "{what} = {value} exceeds {limit}"),
            Error::UnsupportedType { kernel, version, dtype } => {
                write!(f, "{kernel} version {version} does not take {dtype} activations")
            }
            Error::VersionNotOnDevice { kernel, version, target, compute_capability: (major, minor) } => write!(
                f,
                "{kernel} version {version} is compiled for {target} only, which this device (compute \
                 capability {major}.{minor}) does not run"
            ),
            Error::UnsupportedDevice { compute_capability: (major, minor), oldest: (o_major, o_minor) } => write!(
                f,
                "the device has compute capability {major}.{minor}, older than every embedded PTX target \
                 (the oldest is sm_{o_major}{o_minor})"
            ),
            #[cfg(feature = "cuda")]
            Error::ModuleLoad { target, source } => write!(
                f,
                "the driver could not load the {target} PTX ({source}); it needs a driver that \
                 supports PTX ISA 7.0 (sm_80) / 8.0 (sm_90a), i.e. CUDA 11.0 / 12.0 or newer"
            ),
            #[cfg(feature = "cuda")]
            Error::Cuda(e) => write!(f, "CUDA error: {e}"),
            #[cfg(feature = "cuda")]
            Error::Driver { call, result } => write!(f, "{call} failed: {result:?} ({})", driver_message(*result)),
        }
    }
}

fn at_row(row: Option<usize>) -> String {
    row.map(|r| format!(" (row {r})")).unwrap_or_default()
}

impl Error {
    /// `Ok` when a raw driver call (one `cust` does not wrap) succeeded, else
    /// [`Error::Driver`] naming it.
    #[cfg(feature = "cuda")]
    pub(crate) fn check_driver(call: &'static str, result: cust::sys::CUresult) -> Result<(), Error> {
        if result == cust::sys::CUresult::CUDA_SUCCESS { Ok(()) } else { Err(Error::Driver { call, result }) }
    }
}

/// The driver's description of `result` (`cuGetErrorString`), or "" if it has none.
#[cfg(feature = "cuda")]
fn driver_message(result: cust::sys::CUresult) -> String {
    let mut message: *const std::ffi::c_char = std::ptr::null();
    // SAFETY: `cuGetErrorString` only writes the pointer, which, when the
    // call succeeds, points to a static NUL-terminated string of the driver.
    let found = unsafe { cust::sys::cuGetErrorString(result, &mut message) };
    if found != cust::sys::CUresult::CUDA_SUCCESS || message.is_null() {
        return String::new();
    }
    // SAFETY: as above: non-null, NUL-terminated and never freed.
    unsafe { std::ffi::CStr::from_ptr(message) }.to_string_lossy().into_owned()
}

impl std::error::Error for Error {}

#[cfg(feature = "cuda")]
impl From<cust::error::CudaError> for Error {
    fn from(e: cust::error::CudaError) -> Self {
        Error::Cuda(e)
    }
}
