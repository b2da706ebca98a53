//! What the elementwise kernels ([`add_mul_exp`](crate::add_mul_exp),
//! [`quantize_int8`](crate::quantize_int8)) share: their versions, the launch
//! shape a call may choose, the names of their entry points and the geometry
//! of each version.
//!
//! Every version computes the same results and works for every block size
//! [`ElementwiseLaunch`] accepts that the kernel's registers allow; they
//! differ only in speed (`docs/PERF.md` has the designs and measurements).
//! The per-row quantize kernels of v2 and v3 need more than 64 registers a
//! thread (69-78 on sm_90), so a block of 1024 threads is refused with
//! [`Error::InvalidBlockThreads`] before anything is launched.

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
    /// As v2 with one 16-byte vector per input and thread: more threads for
    /// the same array, and, when every buffer is 16-byte aligned, a short
    /// prologue (no head split, no tiles) that matters for small arrays; the
    /// default up to [`V3_MAX_ELEMENTS`].
    V3,
}

impl ElementwiseVersion {
    pub const ALL: [Self; 3] = [Self::V1, Self::V2, Self::V3];
}

/// The default launch ([`ElementwiseLaunch::default`]) takes v3 up to this
/// many elements (per row: `rows * cols`) and v2 above. Measured on the H100
/// (run 18, `docs/PERF.md`): since v3's short prologue, v3 is as fast as or
/// faster than v2 at every size from 100K to 50M for add_mul_exp and f16/bf16
/// quantize (by 4% at 10M f16 quantize, 10-20% below 1M), and for f32
/// quantize up to 5M; from 10M, f32 quantize is 0.2-1.6% faster with v2
/// (its 4 loads in flight a thread). 2^24 keeps v3 through 10M.
pub const V3_MAX_ELEMENTS: usize = 1 << 24;

/// How to launch an elementwise kernel: which version, and how many threads
/// a block. The default (256 threads, the version chosen by size: v3 up to
/// [`V3_MAX_ELEMENTS`], v2 above) is what the plain calls
/// (`Kernels::add_mul_exp`, ...) use; [`new`](Self::new) fixes the version,
/// for comparing versions and block sizes.
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
    /// `None`: chosen by size.
    version: Option<ElementwiseVersion>,
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
        Ok(Self { version: Some(version), block_threads })
    }

    /// The version asked for, or `None` when it is chosen by size.
    pub fn version(&self) -> Option<ElementwiseVersion> {
        self.version
    }

    /// The version a launch over `elements` elements runs.
    pub fn version_for(&self, elements: usize) -> ElementwiseVersion {
        self.version.unwrap_or(if elements <= V3_MAX_ELEMENTS {
            ElementwiseVersion::V3
        } else {
            ElementwiseVersion::V2
        })
    }

    pub fn block_threads(&self) -> u32 {
        self.block_threads
    }
}

impl Default for ElementwiseLaunch {
    /// The version chosen by size, with the default block size.
    fn default() -> Self {
        Self { version: None, block_threads: DEFAULT_BLOCK_THREADS }
    }
}

impl From<ElementwiseVersion> for ElementwiseLaunch {
    /// `version` with the default block size.
    fn from(version: ElementwiseVersion) -> Self {
        Self { version: Some(version), block_threads: DEFAULT_BLOCK_THREADS }
    }
}

/// The entry points of one elementwise kernel: a name per version and
/// storage type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ElementwiseKernels {
    pub v1: PerFloat<&'static str>,
    pub v2: PerFloat<&'static str>,
    pub v3: PerFloat<&'static str>,
}

impl ElementwiseKernels {
    /// The entry point of `version` for input type `T`.
    pub fn name<T: Float>(&self, version: ElementwiseVersion) -> &'static str {
        match version {
            ElementwiseVersion::V1 => self.v1.get::<T>(),
            ElementwiseVersion::V2 => self.v2.get::<T>(),
            ElementwiseVersion::V3 => self.v3.get::<T>(),
        }
    }

    /// Every entry point.
    pub fn all(&self) -> [&'static str; 9] {
        [self.v1, self.v2, self.v3].map(|v| [v.f32, v.f16, v.bf16]).concat().try_into().expect("9 names")
    }
}

/// Elements of `T` in one 16-byte vector access.
pub(crate) fn lanes<T: Float>() -> usize {
    VECTOR_BYTES / size_of::<T>()
}

/// The largest `gridDim.x`.
const MAX_GRID_X: usize = (1 << 31) - 1;

/// The largest `gridDim.y`.
const MAX_GRID_Y: usize = 65_535;

/// A 1-D launch of `kernel` with `blocks` blocks (at least one, at most
/// [`MAX_GRID_X`]; the kernels loop over whatever a grid leaves).
fn blocks(kernel: &'static str, blocks: usize, block_threads: u32) -> Launch {
    blocks_2d(kernel, [blocks, 1], block_threads)
}

/// A launch of `kernel` with `blocks[0] x blocks[1]` blocks, each at least
/// one and at most the grid's limit (the kernels loop past it).
fn blocks_2d(kernel: &'static str, blocks: [usize; 2], block_threads: u32) -> Launch {
    Launch {
        kernel,
        config: LaunchConfig {
            grid: [blocks[0].clamp(1, MAX_GRID_X) as u32, blocks[1].clamp(1, MAX_GRID_Y) as u32, 1],
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
/// where v2 gives each thread `chunks` vectors (v3 one).
pub(crate) fn per_tensor<T: Float>(
    kernels: &ElementwiseKernels,
    elements: usize,
    chunks: usize,
    launch: ElementwiseLaunch,
    device: &DeviceInfo,
) -> Launch {
    let (version, threads) = (launch.version_for(elements), launch.block_threads);
    let kernel = kernels.name::<T>(version);
    let vectors = elements.div_ceil(lanes::<T>());
    match version {
        ElementwiseVersion::V1 => {
            blocks(kernel, vectors.div_ceil(threads as usize).min(resident_blocks(threads, device)), threads)
        }
        ElementwiseVersion::V2 => blocks(kernel, vectors.div_ceil(chunks * threads as usize), threads),
        ElementwiseVersion::V3 => blocks(kernel, vectors.div_ceil(threads as usize), threads),
    }
}

/// The launch of a per-row kernel over `rows` rows of `cols` elements: v1
/// and v2 a block a row (v1's grid capped at one device-full), v3 a row of
/// blocks along x for each row along y, one vector a thread (the rows past
/// `gridDim.y`'s limit looped over).
pub(crate) fn per_row<T: Float>(
    kernels: &ElementwiseKernels,
    rows: usize,
    cols: usize,
    launch: ElementwiseLaunch,
    device: &DeviceInfo,
) -> Launch {
    let (version, threads) = (launch.version_for(rows.saturating_mul(cols)), launch.block_threads);
    let kernel = kernels.name::<T>(version);
    match version {
        ElementwiseVersion::V1 => blocks(kernel, rows.min(resident_blocks(threads, device)), threads),
        ElementwiseVersion::V2 => blocks(kernel, rows, threads),
        // A row's vectors, plus one for a head before its first 16-byte boundary.
        ElementwiseVersion::V3 => {
            blocks_2d(kernel, [(cols / lanes::<T>() + 1).div_ceil(threads as usize), rows], threads)
        }
    }
}
