//! CUDA graphs: launches captured once from a stream and replayed with one
//! driver call, without the host's cost of issuing each launch again.
//!
//! `cust` 0.3 does not wrap graphs, so this module calls the driver through
//! `cust::sys` (five calls: `cuStreamBeginCapture_v2`, `cuStreamEndCapture`,
//! `cuGraphInstantiateWithFlags`, `cuGraphLaunch`, and the two destroys) and
//! maps their failures to [`Error::Driver`]. The report times kernels this way
//! (`host/report/timing.rs`); a decoder can capture a step's launches the
//! same way.

use crate::{Error, Kernels};
use cust::stream::Stream;
use cust::sys::{self, CUgraph, CUgraphExec, CUstreamCaptureMode};
use std::ptr;

/// A captured graph, instantiated and ready to replay with [`Graph::launch`].
///
/// It holds the raw device addresses and kernel arguments it was captured
/// with, not the buffers: replaying it after a buffer was freed is a
/// use-after-free on the device, hence `launch` is `unsafe`.
pub struct Graph<'k> {
    kernels: &'k Kernels,
    /// Null until the capture ends with a graph.
    graph: CUgraph,
    /// Null until the graph is instantiated.
    exec: CUgraphExec,
}

impl Kernels {
    /// Captures the work `enqueue` puts on `stream` (launches, async copies)
    /// into a graph, without running it.
    ///
    /// The capture is thread-local (`CU_STREAM_CAPTURE_MODE_THREAD_LOCAL`):
    /// while it lasts, this thread must not make calls that would synchronize
    /// with the captured work (allocations, synchronous copies, stream or
    /// context synchronization); the driver rejects them and the capture
    /// fails. The library's kernel wrappers only launch, so they are fine.
    /// Whatever `enqueue` returns, the capture is ended, so the stream is
    /// usable again afterwards.
    pub fn capture<'k>(
        &'k self,
        stream: &Stream,
        enqueue: impl FnOnce() -> Result<(), Error>,
    ) -> Result<Graph<'k>, Error> {
        self.make_current()?;
        let raw = stream.as_inner();
        let mode = CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_THREAD_LOCAL;
        // SAFETY: `raw` is a live stream created in this handle's context
        // (not the legacy default stream, which cannot be captured).
        Error::check_driver("cuStreamBeginCapture_v2", unsafe { sys::cuStreamBeginCapture_v2(raw, mode) })?;
        let enqueued = enqueue();
        let mut captured = Graph { kernels: self, graph: ptr::null_mut(), exec: ptr::null_mut() };
        // SAFETY: ends the capture begun above on the same thread; the driver
        // writes the new graph (or null, when the capture was invalidated)
        // into `captured.graph`, which `Graph`'s drop destroys.
        let ended =
            Error::check_driver("cuStreamEndCapture", unsafe { sys::cuStreamEndCapture(raw, &mut captured.graph) });
        enqueued?;
        ended?;
        // SAFETY: `captured.graph` is the valid graph just captured; flags 0
        // asks for nothing special. The driver writes the executable graph
        // into `captured.exec`.
        let instantiated = unsafe { sys::cuGraphInstantiateWithFlags(&mut captured.exec, captured.graph, 0) };
        Error::check_driver("cuGraphInstantiateWithFlags", instantiated)?;
        Ok(captured)
    }
}

impl Graph<'_> {
    /// Enqueues one replay of the whole graph on `stream`.
    ///
    /// # Safety
    /// Every buffer the captured work reads or writes must still be
    /// allocated, and the host must not read or write them until the replay
    /// is complete (synchronize `stream` first).
    pub unsafe fn launch(&self, stream: &Stream) -> Result<(), Error> {
        self.kernels.make_current()?;
        // SAFETY: `exec` is a live executable graph of this context (set by
        // `capture`, which only returns instantiated graphs); the caller
        // guarantees the buffers.
        Error::check_driver("cuGraphLaunch", unsafe { sys::cuGraphLaunch(self.exec, stream.as_inner()) })
    }

    /// The number of nodes captured (one per launch or copy).
    pub fn nodes(&self) -> Result<usize, Error> {
        let mut count = 0usize;
        // SAFETY: with a null node array the driver only writes the count.
        Error::check_driver("cuGraphGetNodes", unsafe {
            sys::cuGraphGetNodes(self.graph, ptr::null_mut(), &mut count)
        })?;
        Ok(count)
    }
}

impl Drop for Graph<'_> {
    /// Destroys the executable graph, then the graph. A replay still running
    /// is not cut short: the driver releases an executable graph when its
    /// work completes.
    fn drop(&mut self) {
        let _ = self.kernels.make_current();
        // SAFETY: each handle was created by `capture`, is destroyed once,
        // here, and is null when it was never created.
        unsafe {
            if !self.exec.is_null() {
                sys::cuGraphExecDestroy(self.exec);
            }
            if !self.graph.is_null() {
                sys::cuGraphDestroy(self.graph);
            }
        }
    }
}

impl std::fmt::Debug for Graph<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Graph").field("nodes", &self.nodes().ok()).finish()
    }
}
