//! The PTX embedded at build time, one module per target, and the choice of
//! module for a device.
//!
//! Two targets: `sm_80`, which every device from the A100 on runs (the
//! driver compiles it for newer ones), and `sm_90a`, the Hopper's
//! architecture-specific code (`wgmma`, int4 version 10), which only a
//! compute capability 9.0 device loads. LLVM writes the oldest PTX ISA
//! version that supports each: 7.0 for `sm_80` and 8.0 for `sm_90a`, which
//! need CUDA 11.0 and 12.0 drivers (R450 / R525) or newer.

use crate::Error;

mod generated {
    include!(concat!(env!("OUT_DIR"), "/ptx_targets.rs"));
}

/// One embedded PTX module.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PtxTarget {
    /// The compute capability it was compiled for, `(major, minor)`.
    pub compute_capability: (u32, u32),
    /// Architecture-specific (`sm_90a`): runs on exactly that compute
    /// capability, not on newer ones.
    pub arch_specific: bool,
    /// The PTX text, ready for `cuModuleLoadData`.
    pub ptx: &'static str,
}

impl PtxTarget {
    /// `sm_80`, `sm_90a`, ...
    pub fn name(&self) -> String {
        let (major, minor) = self.compute_capability;
        format!("sm_{major}{minor}{}", if self.arch_specific { "a" } else { "" })
    }

    /// Whether this module's kernels wait for the previous grid
    /// (`griddepcontrol`, compute capability 9.0 and later), so that they
    /// may be launched as programmatic dependents (see [`crate::launch`]).
    pub fn programmatic_launch(&self) -> bool {
        self.compute_capability >= (9, 0)
    }

    /// Whether a device of `compute_capability` runs this module.
    pub fn runs_on(&self, compute_capability: (u32, u32)) -> bool {
        if self.arch_specific {
            self.compute_capability == compute_capability
        } else {
            self.compute_capability <= compute_capability
        }
    }
}

/// Every embedded target, oldest first.
pub fn targets() -> impl Iterator<Item = PtxTarget> {
    generated::PTX_TARGETS.iter().map(|&(name, ptx)| {
        // ptx-builder's names: "sm_" and three or four characters.
        let digits = &name[3..];
        let arch_specific = digits.ends_with('a');
        let cc: u32 = digits.trim_end_matches('a').parse().expect("a target name sm_XY or sm_XYa");
        PtxTarget { compute_capability: (cc / 10, cc % 10), arch_specific, ptx }
    })
}

/// The entry points every module defines.
pub fn kernel_names() -> &'static [&'static str] {
    generated::KERNEL_NAMES
}

/// The newest target the device runs: its architecture-specific module if
/// there is one, else the highest compute capability not above the
/// device's. Errors when the device is older than every target.
pub fn select(compute_capability: (u32, u32)) -> Result<PtxTarget, Error> {
    let oldest = targets().next().map(|t| t.compute_capability).unwrap_or_default();
    targets()
        .filter(|t| t.runs_on(compute_capability))
        .max_by_key(|t| (t.compute_capability, t.arch_specific))
        .ok_or(Error::UnsupportedDevice { compute_capability, oldest })
}
