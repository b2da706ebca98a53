//! What the elementwise kernels ([`add_mul_exp`](crate::add_mul_exp),
//! [`quantize_int8`](crate::quantize_int8)) share: their versions, the launch
//! shape a call may choose, the names of their entry points and the geometry
//! of each version.
//!
//! Every version computes the same results and works for every block size
//! [`ElementwiseLaunch`] accepts; they differ only in speed
//! (`docs/PERF.md` has the designs and measurements).

use crate::Error;
use crate::float::{Float, PerFloat};
use crate::launch::{DeviceInfo, Launch, LaunchConfig};
use quant_kernels_abi::elementwise::{DEFAULT_BLOCK_THREADS, VECTOR_BYTES};

/// The versions of the elementwise kernels, simplest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ElementwiseVersion {
    /// Grid-stride loop over at most one device-full of blocks, one 16-byte
    /// vector per input and thread a step.
    V1,
    /// Several 16-byte vectors per input and thread loaded before any is
    /// used, streaming cache hints, a grid that covers the array in one pass,
    /// and the vector path for slices that share their misalignment.
    V2,
}

impl ElementwiseVersion {
    pub const ALL: [Self; 2] = [Self::V1, Self::V2];
}

/// How to launch an elementwise kernel: which version, and how many threads
/// a block. The default (v2, 256 threads) is what the plain calls
/// (`Kernels::add_mul_exp`, ...) use; the rest is for comparing versions and
/// block sizes.
///
/// ```
/// use quant_kernels::elementwise::{ElementwiseLaunch, ElementwiseVersion};
///
/// let sweep: Vec<ElementwiseLaunch> = [128, 256, 512, 1024]
///     .into_iter()
///     .map(|threads| ElementwiseLaunch::new(ElementwiseVersion::V1, threads))
///     .collect::<Result<_, _>>()?;
/// assert!(ElementwiseLaunch::new(ElementwiseVersion::V2, 100).is_err());
/// # Ok::<(), quant_kernels::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ElementwiseLaunch {
    version: ElementwiseVersion,
    block_threads: u32,
}

impl ElementwiseLaunch {
    /// The largest block a launch may have (every GPU since sm_20).
    pub const MAX_BLOCK_THREADS: u32 = 1024;

    /// `version` with blocks of `block_threads` threads: a multiple of 32
    /// (whole warps) from 32 to [`MAX_BLOCK_THREADS`](Self::MAX_BLOCK_THREADS),
    /// else [`Error::InvalidBlockThreads`].
    pub fn new(version: ElementwiseVersion, block_threads: u32) -> Result<Self, Error> {
        if block_threads == 0 || block_threads % 32 != 0 || block_threads > Self::MAX_BLOCK_THREADS {
            return Err(Error::InvalidBlockThreads { threads: block_threads, max: Self::MAX_BLOCK_THREADS });
        }
        Ok(Self { version, block_threads })
    }

    pub fn version(&self) -> ElementwiseVersion {
        self.version
    }

    pub fn block_threads(&self) -> u32 {
        self.block_threads
    }
}

impl Default for ElementwiseLaunch {
    fn default() -> Self {
        ElementwiseVersion::V2.into()
    }
}

impl From<ElementwiseVersion> for ElementwiseLaunch {
    /// `version` with the default block size.
    fn from(version: ElementwiseVersion) -> Self {
        Self { version, block_threads: DEFAULT_BLOCK_THREADS }
    }
}

/// The entry points of one elementwise kernel: a name per version and
/// storage type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ElementwiseKernels {
    pub v1: PerFloat<&'static str>,
    pub v2: PerFloat<&'static str>,
}

impl ElementwiseKernels {
    /// The entry point of `version` for input type `T`.
    pub fn name<T: Float>(&self, version: ElementwiseVersion) -> &'static str {
        match version {
            ElementwiseVersion::V1 => self.v1.get::<T>(),
            ElementwiseVersion::V2 => self.v2.get::<T>(),
        }
    }

    /// Every entry point.
    pub fn all(&self) -> [&'static str; 6] {
        let (v1, v2) = (self.v1, self.v2);
        [v1.f32, v1.f16, v1.bf16, v2.f32, v2.f16, v2.bf16]
    }
}

/// Elements of `T` in one 16-byte vector access.
pub(crate) fn lanes<T: Float>() -> usize {
    VECTOR_BYTES / size_of::<T>()
}

/// The largest `gridDim.x`.
const MAX_GRID_X: usize = (1 << 31) - 1;

/// A 1-D launch of `kernel` with `blocks` blocks (at least one, at most
/// [`MAX_GRID_X`]; the kernels loop over whatever a grid leaves).
fn blocks(kernel: &'static str, blocks: usize, block_threads: u32) -> Launch {
    Launch {
        kernel,
        config: LaunchConfig {
            grid: [blocks.clamp(1, MAX_GRID_X) as u32, 1, 1],
            block: [block_threads, 1, 1],
            shared_mem_bytes: 0,
        },
    }
}

/// v1's grid cap: the blocks the device holds at once (2048 threads a
/// multiprocessor).
fn resident_blocks(block_threads: u32, device: &DeviceInfo) -> usize {
    device.multiprocessors.max(1) as usize * (2048 / block_threads) as usize
}

/// The launch of a per-tensor kernel over `elements` elements of type `T`,
/// where v2 gives each thread `chunks` vectors.
pub(crate) fn per_tensor<T: Float>(
    kernels: &ElementwiseKernels,
    elements: usize,
    chunks: usize,
    launch: ElementwiseLaunch,
    device: &DeviceInfo,
) -> Launch {
    let (kernel, threads) = (kernels.name::<T>(launch.version), launch.block_threads);
    let vectors = elements.div_ceil(lanes::<T>());
    match launch.version {
        ElementwiseVersion::V1 => {
            blocks(kernel, vectors.div_ceil(threads as usize).min(resident_blocks(threads, device)), threads)
        }
        ElementwiseVersion::V2 => blocks(kernel, vectors.div_ceil(chunks * threads as usize), threads),
    }
}

/// The launch of a per-row kernel over `rows` rows (a block a row; v1 caps
/// the grid at one device-full, v2 does not).
pub(crate) fn per_row<T: Float>(
    kernels: &ElementwiseKernels,
    rows: usize,
    launch: ElementwiseLaunch,
    device: &DeviceInfo,
) -> Launch {
    let (kernel, threads) = (kernels.name::<T>(launch.version), launch.block_threads);
    match launch.version {
        ElementwiseVersion::V1 => blocks(kernel, rows.min(resident_blocks(threads, device)), threads),
        ElementwiseVersion::V2 => blocks(kernel, rows, threads),
    }
}
