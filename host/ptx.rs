//! The PTX embedded at build time, one module per target, and the choice of
//! module for a device.
//!
//! LLVM writes the oldest PTX ISA version that supports each target:
//! 7.0 for `sm_80` and 7.8 for `sm_90`, which need CUDA 11.0 and 11.8 drivers
//! (R450 / R520) or newer. A device newer than every target runs the newest
//! one, compiled for it by the driver.

use crate::Error;

mod generated {
    include!(concat!(env!("OUT_DIR"), "/ptx_targets.rs"));
}

/// One embedded PTX module.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PtxTarget {
    /// The compute capability it was compiled for, `(major, minor)`.
    pub compute_capability: (u32, u32),
    /// The PTX text, ready for `cuModuleLoadData`.
    pub ptx: &'static str,
}

impl PtxTarget {
    /// `sm_80`, `sm_90`, ...
    pub fn name(&self) -> String {
        let (major, minor) = self.compute_capability;
        format!("sm_{major}{minor}")
    }
}

/// Every embedded target, oldest first.
pub fn targets() -> impl Iterator<Item = PtxTarget> {
    generated::PTX_TARGETS.iter().map(|&(cc, ptx)| PtxTarget { compute_capability: (cc / 10, cc % 10), ptx })
}

/// The entry points every module defines.
pub fn kernel_names() -> &'static [&'static str] {
    generated::KERNEL_NAMES
}

/// The newest target the device can run: the highest compute capability not
/// above the device's. Errors when the device is older than every target.
pub fn select(compute_capability: (u32, u32)) -> Result<PtxTarget, Error> {
    let oldest = targets().next().map(|t| t.compute_capability).unwrap_or_default();
    targets()
        .filter(|t| t.compute_capability <= compute_capability)
        .last()
        .ok_or(Error::UnsupportedDevice { compute_capability, oldest })
}
