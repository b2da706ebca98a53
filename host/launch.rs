//! Launch geometry: what any driver wrapper needs, besides the PTX and the
//! kernel's argument list, to launch a kernel of this library.
//!
//! Every kernel of the `sm_90a` module may also be launched as a
//! programmatic dependent of the kernel before it on its stream (the
//! attribute `CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION` of
//! `cuLaunchKernelEx`): each waits (`griddepcontrol.wait`) before it reads
//! or writes global memory, so its launch and start overlap the previous
//! kernel's end and nothing else does. [`Kernels`](crate::Kernels) launches
//! them so by default; launched without the attribute they run as any
//! kernel does.

use crate::Error;

/// What the launch shape depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeviceInfo {
    /// `(major, minor)`, e.g. `(9, 0)` for an H100.
    pub compute_capability: (u32, u32),
    /// Streaming multiprocessors (132 on an H100 SXM).
    pub multiprocessors: u32,
}

/// Grid, block and dynamic shared memory of one launch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaunchConfig {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub shared_mem_bytes: u32,
}

/// A checked launch: the kernel's name in the PTX and its shape. The
/// arguments go in the order the function that returned it documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Launch {
    pub kernel: &'static str,
    pub config: LaunchConfig,
}

/// `Ok` when a buffer has the length the shape needs.
pub(crate) fn expect_len(argument: &'static str, expected: usize, actual: usize) -> Result<(), Error> {
    if expected == actual { Ok(()) } else { Err(Error::LengthMismatch { argument, expected, actual }) }
}

/// `a * b`, or an error naming `what` when it overflows `usize`.
pub(crate) fn checked_product(what: &'static str, a: usize, b: usize) -> Result<usize, Error> {
    a.checked_mul(b).ok_or(Error::TooLarge { what, value: a as u128 * b as u128, limit: usize::MAX as u128 })
}
