//! An engine built on another driver wrapper (cudarc, as candle and
//! mistral.rs use) launches this library's PTX on its own stream, with raw
//! device pointers, from the CUDA-free layer alone: `ptx::select` for the
//! module, each kernel's `plan` for name and geometry, the documented
//! argument order, and the packed weight arrays.

mod common;

use common::*;
use cudarc::driver::sys::CUdevice_attribute;
use cudarc::driver::{CudaContext, CudaModule, CudaStream, DevicePtr, DevicePtrMut, LaunchConfig, PushKernelArg};
use cudarc::nvrtc::Ptx;
use quant_kernels::check::{Rng, relative_error, relative_l2_error};
use quant_kernels::int4_linear::Int4LinearBuffers;
use quant_kernels::launch::{DeviceInfo, Launch};
use quant_kernels::{ElementwiseLaunch, Int4Mode, Int4Weights, Kernels, add_mul_exp, int4_linear, ptx, reference};
use std::sync::Arc;

/// The other engine's handles: its own stream, our PTX loaded through it, and the device.
struct Engine {
    stream: Arc<CudaStream>,
    module: Arc<CudaModule>,
    device: DeviceInfo,
}

/// cudarc's view of device 0, and our PTX loaded through it.
fn engine() -> Result<Engine, Box<dyn std::error::Error>> {
    let context = CudaContext::new(0)?; // the device's primary context, shared with cust
    let attribute = |a| context.attribute(a).map(|v| v as u32);
    let device = DeviceInfo {
        compute_capability: (
            attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?,
            attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?,
        ),
        multiprocessors: attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
    };
    let module = context.load_module(Ptx::from_src(ptx::select(device.compute_capability)?.ptx))?;
    Ok(Engine { stream: context.new_stream()?, module, device })
}

fn config(launch: &Launch) -> LaunchConfig {
    let c = launch.config;
    LaunchConfig {
        grid_dim: (c.grid[0], c.grid[1], c.grid[2]),
        block_dim: (c.block[0], c.block[1], c.block[2]),
        shared_mem_bytes: c.shared_mem_bytes,
    }
}

fn add_mul_exp_through_cudarc(_: &Kernels, rng: &mut Rng) -> TestResult {
    let Engine { stream, module, device } = engine()?;
    let n = 100_003;
    let (x, y) = (rng.normals(n, 5.0), rng.normals(n, 5.0));
    let (dx, dy) = (stream.clone_htod(&x)?, stream.clone_htod(&y)?);
    let mut out = stream.alloc_zeros::<f32>(n)?;
    let launch = add_mul_exp::plan::<f32>(n, n, n, ElementwiseLaunch::default(), &device)?.expect("a launch");
    let function = module.load_function(launch.kernel)?;
    {
        let ((px, _x), (py, _y)) = (dx.device_ptr(&stream), dy.device_ptr(&stream));
        let (pout, _out) = out.device_ptr_mut(&stream);
        let n = n as u64;
        // SAFETY: (x, y, out, n) is add_mul_exp's argument list; the plan checked the lengths.
        unsafe { stream.launch_builder(&function).arg(&px).arg(&py).arg(&pout).arg(&n).launch(config(&launch))? };
    }
    let got = stream.clone_dtoh(&out)?;
    let worst = (0..n).map(|i| relative_error(got[i], reference::add_mul_exp_exact(x[i], y[i]))).fold(0.0, f64::max);
    ensure(worst <= 1e-5, || format!("worst relative error {worst:e}"))
}

fn int4_linear_through_cudarc(_: &Kernels, rng: &mut Rng) -> TestResult {
    let Engine { stream, module, .. } = engine()?;
    let (m, n, k) = (3, 77, 512);
    let weights = Int4Weights::quantize(&rng.normals(n * k, 0.05), n, k, 64, Int4Mode::Asymmetric)?;
    let x = rng.normals(m * k, 1.0);
    let expected = reference::int4_linear(&x, m, &weights, None)?;

    let scales: Vec<u16> = weights.scales().iter().map(|s| s.to_bits()).collect();
    let (dx, qweight) = (stream.clone_htod(&x)?, stream.clone_htod(weights.qweight())?);
    let (dscales, zeros) = (stream.clone_htod(&scales)?, stream.clone_htod(weights.zeros())?);
    let mut y = stream.alloc_zeros::<f32>(m * n)?;
    let (px, _x) = dx.device_ptr(&stream);
    let (pq, _q) = qweight.device_ptr(&stream);
    let buffers =
        Int4LinearBuffers { m, x_len: m * k, x_address: px, qweight_address: pq, bias_len: None, y_len: m * n };
    let launch = int4_linear::plan(&weights.shape(), &buffers)?.expect("a launch");
    let function = module.load_function(launch.kernel)?;
    {
        let ((ps, _s), (pz, _z)) = (dscales.device_ptr(&stream), zeros.device_ptr(&stream));
        let (py, _y) = y.device_ptr_mut(&stream);
        let no_bias = 0u64;
        let dims = [m as u32, n as u32, k as u32, 64u32];
        let mut builder = stream.launch_builder(&function);
        builder.arg(&px).arg(&pq).arg(&ps).arg(&pz).arg(&no_bias).arg(&py);
        builder.arg(&dims[0]).arg(&dims[1]).arg(&dims[2]).arg(&dims[3]);
        // SAFETY: the documented int4_linear argument list; the plan checked the shapes.
        unsafe { builder.launch(config(&launch))? };
    }
    let got = stream.clone_dtoh(&y)?;
    let error = relative_l2_error(&got, &expected);
    ensure(error <= 1e-5, || format!("relative error {error:e}"))
}

fn main() {
    run(vec![
        gpu_test("gpu::add_mul_exp_through_cudarc", add_mul_exp_through_cudarc),
        gpu_test("gpu::int4_linear_through_cudarc", int4_linear_through_cudarc),
    ]);
}
