//! The `cust` handle: the device's primary context, the loaded module and the
//! kernel functions, created once. Each kernel's safe wrapper is an
//! `impl Kernels` block in that kernel's file.

use crate::Error;
use crate::launch::{DeviceInfo, Launch};
use crate::ptx::{self, PtxTarget};
use crate::workspace::WorkspacePool;
use cust::context::{Context, CurrentContext};
use cust::device::{Device, DeviceAttribute};
use cust::error::CudaError;
use cust::function::{Function, FunctionAttribute};
use cust::memory::{CopyDestination, DeviceBuffer, DeviceCopy, DeviceSlice};
use cust::module::Module;
use cust::stream::{Stream, StreamFlags};
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, Ordering};

/// The library's entry point on a GPU: owns the device's primary context and
/// the PTX module chosen for it, and launches the kernels.
///
/// Create one per device and share it (`Kernels` is `Send + Sync`); creating
/// it loads the module (milliseconds), every call after that only checks its
/// arguments and enqueues a launch. Launches go on the stream passed to each
/// call: [`Kernels::stream`] or one of the caller's.
pub struct Kernels {
    // Field order is drop order: the functions before their module, the
    // module and stream before the context.
    /// By name: a launch looks its kernel up among some 60.
    functions: HashMap<&'static str, LoadedKernel>,
    module: Module,
    stream: Stream,
    info: DeviceInfo,
    target: PtxTarget,
    /// The most dynamic shared memory a block may have (the opt-in limit,
    /// which every function is allowed).
    max_shared: u32,
    /// Where calls that need a workspace take it from, in stream order; the
    /// error, for those calls, on a device without memory pools.
    workspaces: Result<WorkspacePool, Error>,
    /// Whether kernels are launched as programmatic dependents of the
    /// kernel before them (see [`Kernels::set_programmatic_launches`]).
    programmatic: AtomicBool,
    context: Context,
}

// SAFETY: CUDA driver handles may be used from any thread. Every method makes
// the context current on the calling thread before it calls the driver, and
// the handle is never mutated after construction.
unsafe impl Send for Kernels {}
// SAFETY: as above.
unsafe impl Sync for Kernels {}

impl Kernels {
    /// Opens device 0.
    pub fn new() -> Result<Self, Error> {
        Self::with_device(0)
    }

    /// Opens device `ordinal`: retains its primary context (the one the CUDA
    /// runtime and other driver wrappers share), loads the newest embedded
    /// PTX the device runs, and looks up every kernel.
    pub fn with_device(ordinal: u32) -> Result<Self, Error> {
        cust::init(cust::CudaFlags::empty())?;
        let device = Device::get_device(ordinal)?;
        let attribute = |a| device.get_attribute(a).map(|v| v as u32);
        let info = DeviceInfo {
            compute_capability: (
                attribute(DeviceAttribute::ComputeCapabilityMajor)?,
                attribute(DeviceAttribute::ComputeCapabilityMinor)?,
            ),
            multiprocessors: attribute(DeviceAttribute::MultiprocessorCount)?,
        };
        let target = ptx::select(info.compute_capability)?;
        let context = Context::new(device)?;
        let module =
            Module::from_ptx(target.ptx, &[]).map_err(|source| Error::ModuleLoad { target: target.name(), source })?;
        let max_shared = max_shared_memory_per_block(&device)?;
        let functions = ptx::kernel_names()
            .iter()
            .map(|&name| {
                let function = module.get_function(name)?;
                allow_all_shared_memory(&function, max_shared)?;
                // What the compiled kernel's registers allow, at most 1024.
                let max_threads = function.get_attribute(FunctionAttribute::MaxThreadsPerBlock)? as u32;
                // SAFETY: a `Function` is a driver handle whose lifetime only
                // ties it to its module; the module is a field of the same
                // handle, dropped after `functions` and never replaced.
                let function = unsafe { std::mem::transmute::<Function<'_>, Function<'static>>(function) };
                Ok((name, LoadedKernel { function, max_threads }))
            })
            .collect::<Result<_, Error>>()?;
        // A blocking stream: ordered with the legacy default stream, on which
        // cust's synchronous copies and memsets run, so an upload or memset
        // is complete before a later launch on this stream reads it.
        let stream = Stream::new(StreamFlags::DEFAULT, None)?;
        // Created now, not at the first split-K call: pool calls are not
        // allowed while this thread captures a graph.
        let workspaces = WorkspacePool::new(ordinal);
        let programmatic = AtomicBool::new(target.programmatic_launch());
        Ok(Self { functions, module, stream, info, target, max_shared, workspaces, programmatic, context })
    }

    /// Turns programmatic dependent launch on or off (on by default where
    /// the module supports it: the `sm_90a` one). When on, every kernel is
    /// launched with programmatic stream serialization: it may start while
    /// the kernel before it on the stream still runs, and waits for that
    /// kernel before it reads or writes global memory (the decode GEMV, int4
    /// versions 5, 6 and 17, first asks the L2 for its first weights), so
    /// that back-to-back kernels overlap one's launch with the previous
    /// one's end. Results are the same either way; off, every launch waits
    /// for the previous kernel to end. On a module without support
    /// (`sm_80`) this does nothing.
    pub fn set_programmatic_launches(&self, on: bool) {
        self.programmatic.store(on && self.target.programmatic_launch(), Ordering::Relaxed);
    }

    /// Whether kernels are launched as programmatic dependents.
    pub fn programmatic_launches(&self) -> bool {
        self.programmatic.load(Ordering::Relaxed)
    }

    /// Compute capability and multiprocessor count.
    pub fn device(&self) -> &DeviceInfo {
        &self.info
    }

    /// The PTX target the module was loaded from.
    pub fn target(&self) -> PtxTarget {
        self.target
    }

    /// The handle's own stream. It is a blocking stream, ordered with the
    /// legacy default stream where [`upload`](Self::upload) and
    /// [`alloc`](Self::alloc) do their copies and memsets. A stream of the
    /// caller's created `NON_BLOCKING` is not: synchronize before launching on it.
    pub fn stream(&self) -> &Stream {
        &self.stream
    }

    /// The module, for callers that want to look up functions themselves.
    pub fn module(&self) -> &Module {
        &self.module
    }

    /// The pool that workspaces are allocated from in stream order.
    pub(crate) fn workspaces(&self) -> Result<&WorkspacePool, Error> {
        self.workspaces.as_ref().map_err(Clone::clone)
    }

    /// Makes the handle's context current on the calling thread.
    pub fn make_current(&self) -> Result<(), Error> {
        Ok(CurrentContext::set_current(&self.context)?)
    }

    /// Copies `host` into a new device buffer (synchronous).
    pub fn upload<T: DeviceCopy>(&self, host: &[T]) -> Result<DeviceBuffer<T>, Error> {
        self.make_current()?;
        Ok(DeviceBuffer::from_slice(host)?)
    }

    /// A new device buffer of `len` elements, every byte zero.
    pub fn alloc<T: DeviceCopy + bytemuck::Zeroable>(&self, len: usize) -> Result<DeviceBuffer<T>, Error> {
        self.make_current()?;
        Ok(DeviceBuffer::zeroed(len)?)
    }

    /// Waits for `stream`, then copies `device` back to the host.
    pub fn download<T: DeviceCopy + Default + Clone>(
        &self,
        device: &DeviceSlice<T>,
        stream: &Stream,
    ) -> Result<Vec<T>, Error> {
        self.make_current()?;
        stream.synchronize()?;
        let mut host = vec![T::default(); device.len()];
        device.copy_to(&mut host)?;
        Ok(host)
    }

    /// The most threads a block of `kernel` may have, from its registers and
    /// the device (`None` if the module has no such kernel).
    pub fn max_block_threads(&self, kernel: &str) -> Option<u32> {
        self.functions.get(kernel).map(|kernel| kernel.max_threads)
    }

    /// Enqueues `launch` on `stream`. `args` holds one pointer to each kernel
    /// argument, in the order the kernel's plan function documents. A block
    /// larger than the compiled kernel allows is [`Error::InvalidBlockThreads`],
    /// before anything is enqueued; so is more dynamic shared memory than
    /// the device allows a block ([`Error::TooLarge`]).
    ///
    /// # Safety
    /// The arguments must match the kernel's parameter list in number, order
    /// and type, and the buffers they point to must hold what the plan checked.
    pub(crate) unsafe fn launch(&self, launch: &Launch, stream: &Stream, args: &[*mut c_void]) -> Result<(), Error> {
        self.make_current()?;
        let kernel = self.functions.get(launch.kernel).ok_or(Error::Cuda(CudaError::NotFound))?;
        let threads = launch.config.block.iter().product::<u32>();
        if threads > kernel.max_threads {
            return Err(Error::InvalidBlockThreads { threads, max: kernel.max_threads });
        }
        let c = &launch.config;
        if c.shared_mem_bytes > self.max_shared {
            let (value, limit) = (c.shared_mem_bytes as u128, self.max_shared as u128);
            return Err(Error::TooLarge { what: "dynamic shared memory per block", value, limit });
        }
        // SAFETY: the function belongs to the loaded module, and the caller
        // guarantees the argument list; with the attribute, every kernel of
        // a module that has it waits for the previous grid.
        unsafe { launch_kernel(&kernel.function, c, stream, args, self.programmatic_launches()) }
    }
}

impl Drop for Kernels {
    /// Makes the context current first: unloading the module and destroying
    /// the stream (the fields' drops, which run after this) need it, and the
    /// handle may be dropped on a thread that never used it.
    fn drop(&mut self) {
        let _ = self.make_current();
    }
}

/// A kernel of the loaded module, with the largest block it can be
/// launched with (its registers decide, besides the hardware's 1024).
struct LoadedKernel {
    function: Function<'static>,
    max_threads: u32,
}

/// What `cuLaunchKernelEx` needs, which `cust` 0.3's bindings (CUDA 11)
/// lack: `CUlaunchConfig` and `CUlaunchAttribute` of cuda.h (CUDA 12.0+).
mod launch_ex {
    use cust::sys::{CUfunction, CUresult, CUstream};
    use std::ffi::c_void;

    /// `CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION`.
    pub const PROGRAMMATIC_STREAM_SERIALIZATION: u32 = 6;

    /// `CUlaunchAttribute`: the id, padded to 8 bytes, then the 64-byte
    /// union `CUlaunchAttributeValue`, of which this attribute's member
    /// (`int programmaticStreamSerializationAllowed`) is the first 4 bytes.
    #[repr(C)]
    pub struct Attribute {
        pub id: u32,
        pub pad: u32,
        pub value: [u64; 8],
    }

    /// `CUlaunchConfig`.
    #[repr(C)]
    pub struct Config {
        pub grid: [u32; 3],
        pub block: [u32; 3],
        pub shared_mem_bytes: u32,
        pub stream: CUstream,
        pub attributes: *mut Attribute,
        pub attribute_count: u32,
    }

    #[link(name = "cuda")]
    unsafe extern "C" {
        pub fn cuLaunchKernelEx(
            config: *const Config,
            function: CUfunction,
            params: *mut *mut c_void,
            extra: *mut *mut c_void,
        ) -> CUresult;
    }
}

/// Enqueues `function` on `stream` through `cuLaunchKernelEx`, as a
/// programmatic dependent of the kernel before it there when
/// `programmatic` (the one attribute), as any launch otherwise (none).
///
/// # Safety
/// As for [`Kernels::launch`], and with `programmatic` the kernel waits for
/// the previous grid before it touches global memory (every kernel of a
/// module whose [`PtxTarget::programmatic_launch`] is true).
unsafe fn launch_kernel(
    function: &Function,
    config: &crate::launch::LaunchConfig,
    stream: &Stream,
    args: &[*mut c_void],
    programmatic: bool,
) -> Result<(), Error> {
    // Allowed: 1 in the union's first int.
    let mut attribute = launch_ex::Attribute {
        id: launch_ex::PROGRAMMATIC_STREAM_SERIALIZATION,
        pad: 0,
        value: [1, 0, 0, 0, 0, 0, 0, 0],
    };
    let config = launch_ex::Config {
        grid: config.grid,
        block: config.block,
        shared_mem_bytes: config.shared_mem_bytes,
        stream: stream.as_inner(),
        attributes: &mut attribute,
        attribute_count: programmatic as u32,
    };
    // SAFETY: the layouts are cuda.h's; the attribute outlives the call,
    // which copies it; the caller guarantees the function and arguments
    // (the driver only reads `args`).
    let result = unsafe {
        launch_ex::cuLaunchKernelEx(&config, function.to_raw(), args.as_ptr() as *mut _, std::ptr::null_mut())
    };
    Error::check_driver("cuLaunchKernelEx", result)
}

/// Lets `function` be launched with up to `bytes` of dynamic shared memory
/// (the driver allows 48 KB unless a kernel opts in to more).
fn allow_all_shared_memory(function: &Function, bytes: u32) -> Result<(), Error> {
    use cust::sys::{CUfunction_attribute, cuFuncSetAttribute};
    let attribute = CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES;
    // SAFETY: a valid function handle and a documented attribute.
    let result = unsafe { cuFuncSetAttribute(function.to_raw(), attribute, bytes as i32) };
    Error::check_driver("cuFuncSetAttribute", result)
}

/// The most dynamic shared memory a block may opt in to (cust has no name
/// for this attribute).
fn max_shared_memory_per_block(device: &Device) -> Result<u32, Error> {
    use cust::sys::{CUdevice_attribute, cuDeviceGetAttribute};
    let attribute = CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN;
    let mut bytes = 0;
    // SAFETY: a valid device handle and a documented attribute.
    let result = unsafe { cuDeviceGetAttribute(&mut bytes, attribute, device.as_raw()) };
    Error::check_driver("cuDeviceGetAttribute", result).map(|()| bytes as u32)
}

/// The entry of a `cuLaunchKernel` argument array for one argument.
pub(crate) fn arg<T>(value: &T) -> *mut c_void {
    value as *const T as *mut c_void
}

/// The raw device address of a slice.
pub(crate) fn address<T: DeviceCopy>(slice: &DeviceSlice<T>) -> u64 {
    slice.as_device_ptr().as_raw()
}
