//! CUDA graphs (`Kernels::capture`, `Graph`): capturing runs nothing,
//! replays compute what the launches do and read the buffers as they are at
//! replay time, copies are captured too, and a capture that fails leaves the
//! stream usable. The report's graph timing rests on these.

mod common;

use common::*;
use quant_kernels::check::{Rng, relative_error};
use quant_kernels::cust::memory::{AsyncCopyDestination, CopyDestination, DeviceBuffer};
use quant_kernels::cust::sys::CUresult;
use quant_kernels::{Error, Kernels, reference};

/// `out` against `exp((x + y) * 2)` within the kernel's bound.
fn check_add_mul_exp(kernels: &Kernels, x: &[f32], y: &[f32], out: &DeviceBuffer<f32>) -> TestResult {
    let got = download(kernels, out);
    let wrong =
        first_failures(x.len(), 3, |i| relative_error(got[i], reference::add_mul_exp_exact(x[i], y[i])) <= 1e-5);
    ensure(wrong.is_empty(), || format!("wrong elements at {wrong:?}"))
}

fn replays_captured_launches(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    const SETS: usize = 3;
    let n = 100_003;
    let mut x: Vec<Vec<f32>> = (0..SETS).map(|_| rng.normals(n, 1.0)).collect();
    let y: Vec<Vec<f32>> = (0..SETS).map(|_| rng.normals(n, 1.0)).collect();
    let mut dx: Vec<_> = x.iter().map(|v| kernels.upload(v).unwrap()).collect();
    let dy: Vec<_> = y.iter().map(|v| kernels.upload(v).unwrap()).collect();
    let mut out: Vec<_> = (0..SETS).map(|_| poisoned_f32(kernels, n)).collect();
    let stream = kernels.stream();
    let graph = kernels
        .capture(stream, || (0..SETS).try_for_each(|s| kernels.add_mul_exp(&dx[s], &dy[s], &mut out[s], stream)))?;
    ensure(graph.nodes()? == SETS, || format!("{} nodes for {SETS} launches", graph.nodes().unwrap_or(0)))?;
    stream.synchronize()?;
    let untouched = download(kernels, &out[0]).iter().all(|v| v.to_bits() == POISON_F32);
    ensure(untouched, || "capturing ran the launches".into())?;
    for _ in 0..2 {
        // SAFETY: the buffers outlive the graph; the host reads them only
        // after `download` synchronizes the stream.
        unsafe { graph.launch(stream)? };
    }
    for s in 0..SETS {
        check_add_mul_exp(kernels, &x[s], &y[s], &out[s])?;
    }
    // A replay reads the inputs as they are then.
    x[1] = rng.normals(n, 1.0);
    dx[1].copy_from(&x[1])?;
    // SAFETY: as above.
    unsafe { graph.launch(stream)? };
    check_add_mul_exp(kernels, &x[1], &y[1], &out[1])
}

fn captures_device_copies(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    let source = kernels.upload(&rng.normals(1 << 20, 1.0))?;
    let mut destination = poisoned_f32(kernels, 1 << 20);
    let stream = kernels.stream();
    // SAFETY (capture and replay): both buffers outlive the graph, and the
    // host reads the destination only after `download` synchronizes.
    let graph = kernels.capture(stream, || unsafe { Ok(destination.async_copy_from(&source, stream)?) })?;
    unsafe { graph.launch(stream)? };
    ensure(download(kernels, &destination) == download(kernels, &source), || "the copy differs".into())
}

/// Whatever went wrong inside the capture is returned, and the stream runs
/// ordinary launches afterwards.
fn failed_capture_leaves_the_stream_usable(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    let n = 4097;
    let (x, y) = (rng.normals(n, 1.0), rng.normals(n, 1.0));
    let (dx, dy) = (kernels.upload(&x)?, kernels.upload(&y)?);
    let mut out = poisoned_f32(kernels, n);
    let mut short = poisoned_f32(kernels, n - 1);
    let stream = kernels.stream();
    // Rejected by the wrapper before anything reaches the driver.
    let rejected = kernels.capture(stream, || kernels.add_mul_exp(&dx, &dy, &mut short, stream));
    ensure(matches!(rejected, Err(Error::LengthMismatch { .. })), || format!("got {rejected:?}"))?;
    // Rejected by the driver: synchronizing a stream that is being captured
    // invalidates the capture.
    let invalid = kernels.capture(stream, || {
        kernels.add_mul_exp(&dx, &dy, &mut out, stream)?;
        Ok(stream.synchronize()?)
    });
    ensure(invalid.is_err(), || "a capture that synchronized succeeded".into())?;
    kernels.add_mul_exp(&dx, &dy, &mut out, stream)?;
    check_add_mul_exp(kernels, &x, &y, &out)
}

fn driver_errors_name_the_call(_: &mut Rng) -> TestResult {
    let error = Error::Driver { call: "cuGraphLaunch", result: CUresult::CUDA_ERROR_STREAM_CAPTURE_INVALIDATED };
    let text = error.to_string();
    ensure(text.starts_with("cuGraphLaunch failed: CUDA_ERROR_STREAM_CAPTURE_INVALIDATED"), || text)
}

fn main() {
    run(vec![
        cpu_test("cpu::driver_errors_name_the_call", driver_errors_name_the_call),
        capturing_gpu_test("gpu::replays_captured_launches", replays_captured_launches),
        capturing_gpu_test("gpu::captures_device_copies", captures_device_copies),
        capturing_gpu_test("gpu::failed_capture_leaves_the_stream_usable", failed_capture_leaves_the_stream_usable),
    ]);
}
