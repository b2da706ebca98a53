//! Launch geometry: what any driver wrapper needs, besides the PTX and the
//! kernel's argument list, to launch a kernel of this library.

use crate::Error;

/// What the launch shape depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeviceInfo {
    /// `(major, minor)`, e.g. `(9, 0)` for an H100.
    pub compute_capability: (u32, u32),
    /// Streaming multiprocessors (132 on an H100 SXM).
    pub multiprocessors: u32,
    /// Thread-block clusters that run at once, by size: entry `s - 1` is
    /// how many clusters of `s` blocks the device holds together when each
    /// block takes a multiprocessor alone (as int4 version 21's do), up to
    /// `s = 8`. Fewer than `multiprocessors / s` where the multiprocessors
    /// of a GPC do not divide evenly. [`Kernels`](crate::Kernels) fills it
    /// from `cuOccupancyMaxActiveClusters` of the launches
    /// [`int4_linear::cluster_slot_launch`](crate::int4_linear::cluster_slot_launch)
    /// gives; zeros ([`DeviceInfo::new`]) mean unknown, and then no plan
    /// splits `K` across a cluster.
    pub cluster_slots: [u32; MAX_CLUSTER],
}

/// The largest cluster [`DeviceInfo::cluster_slots`] counts (the portable
/// cluster size).
pub const MAX_CLUSTER: usize = 8;

impl DeviceInfo {
    /// A device of `compute_capability` with `multiprocessors`, whose
    /// clusters are unknown.
    pub const fn new(compute_capability: (u32, u32), multiprocessors: u32) -> Self {
        Self { compute_capability, multiprocessors, cluster_slots: [0; MAX_CLUSTER] }
    }
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
