//! Launch geometry: what any driver wrapper needs, besides the PTX and the
//! kernel's argument list, to launch a kernel of this library.

use crate::Error;
use quant_kernels_abi::elementwise;

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

/// A 1-D launch of `blocks` elementwise blocks, capped at the number the
/// device holds at once (2048 threads a multiprocessor): the elementwise
/// kernels loop over whatever a smaller grid leaves.
pub(crate) fn elementwise_blocks(kernel: &'static str, blocks: usize, device: &DeviceInfo) -> Launch {
    let resident = device.multiprocessors.max(1) as usize * (2048 / elementwise::BLOCK_THREADS as usize);
    Launch {
        kernel,
        config: LaunchConfig {
            grid: [blocks.clamp(1, resident) as u32, 1, 1],
            block: [elementwise::BLOCK_THREADS, 1, 1],
            shared_mem_bytes: 0,
        },
    }
}

/// A grid-stride launch over `elements` elements (`VECTOR_WIDTH` per thread
/// and step).
pub(crate) fn grid_stride(kernel: &'static str, elements: usize, device: &DeviceInfo) -> Launch {
    let threads = elements.div_ceil(elementwise::VECTOR_WIDTH);
    elementwise_blocks(kernel, threads.div_ceil(elementwise::BLOCK_THREADS as usize), device)
}

/// `Ok` when a buffer has the length the shape needs.
pub(crate) fn expect_len(argument: &'static str, expected: usize, actual: usize) -> Result<(), Error> {
    if expected == actual { Ok(()) } else { Err(Error::LengthMismatch { argument, expected, actual }) }
}

/// `a * b`, or an error naming `what` when it overflows `usize`.
pub(crate) fn checked_product(what: &'static str, a: usize, b: usize) -> Result<usize, Error> {
    a.checked_mul(b).ok_or(Error::TooLarge { what, value: a as u128 * b as u128, limit: usize::MAX as u128 })
}
