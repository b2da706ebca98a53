//! Device workspaces in stream order, for calls that need scratch memory
//! between two of their kernels (the tiled GEMMs' split-K).
//!
//! A call allocates its workspace on the stream it launches on
//! (`cuMemAllocFromPoolAsync`), enqueues its kernels and frees it there
//! (`cuMemFreeAsync`), so the memory is reserved exactly while that
//! stream's work uses it: calls on several streams never share a workspace,
//! nothing waits on the host, and inside a stream capture the driver turns
//! the two calls into allocation and free nodes of the graph, which owns
//! that memory. (A caller that owns a workspace passes it instead:
//! `Kernels::int4_linear_version_with_workspace`.) `cust` 0.3 wraps only
//! the device's default pool (`DeviceBuffer::uninitialized_async`); this
//! module calls the driver through `cust::sys`.

use crate::Error;
use cust::stream::Stream;
use cust::sys::{self, CUdeviceptr, CUmemoryPool};
use std::ptr;

/// A memory pool of one device that keeps all it has allocated (release
/// threshold: unlimited). The device's default pool gives its free memory
/// back to the system at every synchronization (threshold 0), so the next
/// allocation would map pages again; raising the default pool's threshold
/// would change it for every other user of the context.
pub(crate) struct WorkspacePool {
    pool: CUmemoryPool,
}

impl WorkspacePool {
    /// A pool of device memory on device `ordinal` (in the current context).
    pub(crate) fn new(ordinal: u32) -> Result<Self, Error> {
        let props = sys::CUmemPoolProps {
            allocType: sys::CUmemAllocationType::CU_MEM_ALLOCATION_TYPE_PINNED,
            handleTypes: sys::CUmemAllocationHandleType::CU_MEM_HANDLE_TYPE_NONE,
            location: sys::CUmemLocation {
                type_: sys::CUmemLocationType::CU_MEM_LOCATION_TYPE_DEVICE,
                id: ordinal as i32,
            },
            win32SecurityAttributes: ptr::null_mut(),
            // Zero: the defaults of the fields newer drivers define here.
            reserved: [0; 64],
        };
        let mut pool = Self { pool: ptr::null_mut() };
        // SAFETY: valid properties; the driver writes the new pool's handle,
        // which `drop` destroys.
        Error::check_driver("cuMemPoolCreate", unsafe { sys::cuMemPoolCreate(&mut pool.pool, &props) })?;
        let mut keep_everything = u64::MAX;
        let attribute = sys::CUmemPool_attribute::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD;
        // SAFETY: a live pool; the release threshold is a u64 (cuuint64_t).
        let set = unsafe { sys::cuMemPoolSetAttribute(pool.pool, attribute, (&raw mut keep_everything).cast()) };
        Error::check_driver("cuMemPoolSetAttribute", set)?;
        Ok(pool)
    }

    /// Enqueues the allocation of `len >= 1` f32 on `stream` and returns
    /// its address: usable by the work enqueued on `stream` after this
    /// call, until [`free`](Self::free).
    pub(crate) fn alloc_f32(&self, len: usize, stream: &Stream) -> Result<CUdeviceptr, Error> {
        let bytes = len.checked_mul(size_of::<f32>()).ok_or(Error::TooLarge {
            what: "workspace bytes",
            value: len as u128 * 4,
            limit: usize::MAX as u128,
        })?;
        let mut address = 0;
        // SAFETY: a live pool of this context and a live stream; the driver
        // writes the address.
        let result = unsafe { sys::cuMemAllocFromPoolAsync(&mut address, bytes, self.pool, stream.as_inner()) };
        Error::check_driver("cuMemAllocFromPoolAsync", result).map(|()| address)
    }

    /// Enqueues the release of `address` on `stream`, after the work
    /// enqueued there before it.
    ///
    /// # Safety
    /// `address` came from [`alloc_f32`](Self::alloc_f32), is freed once,
    /// and no work outside `stream`'s order uses it afterwards.
    pub(crate) unsafe fn free(&self, address: CUdeviceptr, stream: &Stream) -> Result<(), Error> {
        // SAFETY: as the caller guarantees.
        Error::check_driver("cuMemFreeAsync", unsafe { sys::cuMemFreeAsync(address, stream.as_inner()) })
    }
}

impl Drop for WorkspacePool {
    /// Destroys the pool (the owner makes its context current first). The
    /// driver releases it once the frees still pending on streams are done.
    fn drop(&mut self) {
        if !self.pool.is_null() {
            // SAFETY: the handle was created by `new` and is destroyed once, here.
            unsafe { sys::cuMemPoolDestroy(self.pool) };
        }
    }
}
