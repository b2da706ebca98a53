//! An engine built on another driver wrapper (cudarc, as candle and
//! mistral.rs use) launches this library's PTX on its own stream, with raw
//! device pointers, from the CUDA-free layer alone: `ptx::select` for the
//! module, each kernel's `plan` for name and geometry, the documented
//! argument order, and the packed weight arrays.

mod common;

use common::*;
use cudarc::driver::sys::{self, CUdevice_attribute, CUfunction_attribute, CUtensorMap};
use cudarc::driver::{
    CudaContext, CudaModule, CudaStream, DevicePtr, DevicePtrMut, DeviceRepr, LaunchConfig, PushKernelArg,
};
use cudarc::nvrtc::Ptx;
use quant_kernels::abi::int4_linear::v23;
use quant_kernels::check::{Rng, relative_error, relative_l2_error};
use quant_kernels::half::{bf16, f16};
use quant_kernels::int4_linear::{Int4LinearBuffers, Int4LinearVersion, QweightTensorMap, XTensorMap};
use quant_kernels::launch::{DeviceInfo, Launch};
use quant_kernels::{
    ElementwiseLaunch, ElementwiseVersion, Int4Mode, Int4Weights, Int8Params, Kernels, add_mul_exp, int4_linear, ptx,
    quantize_int8, reference,
};
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
    let Engine { stream, module, device } = engine()?;
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
    let plan = int4_linear::plan::<f32>(&weights.shape(), &buffers, &device)?.expect("a launch");
    ensure(plan.split_k.is_none(), || format!("f32 split K: {plan:?}"))?;
    let launch = plan.launch;
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

/// The tiled GEMM split along `K` from the plan alone, with the engine's
/// own workspace: the plan's two launches, their documented argument lists,
/// the workspace length, the tensor maps and (at G = 128, versions 19, 23
/// and 24) the packed constants it asks for are all an engine needs (bf16
/// passed as `u16` bits). The library's plan (`best_for`: version 19's on
/// compute capability 9.0 at this shape), and there versions 13's (a
/// tensor map of `x`), 12's (`x`'s address) and 23's too.
fn int4_linear_split_k_through_cudarc(_: &Kernels, rng: &mut Rng) -> TestResult {
    let Engine { stream, module, device } = engine()?;
    // 1 or 2 tiles (versions 10 to 13 and 19, and 7) of 32 steps: the plans split K
    // (8 ways on 16 or more multiprocessors).
    let (m, n, k, group_size) = (128, 256, 4096, 128);
    let weights = Int4Weights::quantize(&rng.normals(n * k, 0.05), n, k, group_size, Int4Mode::Symmetric)?;
    let x: Vec<bf16> = rng.normals(m * k, 1.0).into_iter().map(bf16::from_f32).collect();
    let bias = rng.normals(n, 0.5);
    let x_f32: Vec<f32> = x.iter().map(|v| v.to_f32()).collect();
    let expected = reference::int4_linear(&x_f32, m, &weights, Some(&bias))?;

    let scales: Vec<u16> = weights.scales().iter().map(|s| s.to_bits()).collect();
    let x_bits: Vec<u16> = x.iter().map(|v| v.to_bits()).collect();
    let (dx, qweight) = (stream.clone_htod(&x_bits)?, stream.clone_htod(weights.qweight())?);
    let packed = weights.packed_constants::<bf16>().ok_or("no packed constants at G = 128")?;
    let (dscales, dpacked, dbias) =
        (stream.clone_htod(&scales)?, stream.clone_htod(&packed)?, stream.clone_htod(&bias)?);
    let (px, _x) = dx.device_ptr(&stream);
    let (pq, _q) = qweight.device_ptr(&stream);
    let buffers =
        Int4LinearBuffers { m, x_len: m * k, x_address: px, qweight_address: pq, bias_len: Some(n), y_len: m * n };
    let mut plans = vec![int4_linear::plan::<bf16>(&weights.shape(), &buffers, &device)?.expect("a plan")];
    let (v13, v12) = (Int4LinearVersion::V13 { split_k: 1 }, Int4LinearVersion::V12 { split_k: 1 });
    let v23 = Int4LinearVersion::V23 { split_k: 1 };
    if v13.runs_on(device.compute_capability) {
        for version in [v13, v12, v23] {
            let version = version.with_split_k(int4_linear::tiled_split_k(version, m, n, k, &device));
            plans.extend(int4_linear::plan_version::<bf16>(&weights.shape(), &buffers, version)?);
        }
        ensure(plans[1].x_tensor_map.is_some(), || format!("no tensor map for version 13: {:?}", plans[1]))?;
        ensure(plans[3].qweight_tensor_map.is_some(), || format!("no tensor map for version 23: {:?}", plans[3]))?;
        // At G = 128 versions 13 (its `_g128_` entry points) and 23 take the packed constants.
        ensure(plans[1].packed_constants && plans[3].packed_constants, || format!("{:?}", plans[1]))?;
    }
    for plan in plans {
        let split = plan.split_k.ok_or_else(|| format!("the plan does not split K: {plan:?}"))?;
        let mut partials = stream.alloc_zeros::<f32>(split.workspace_len)?;
        let mut y = stream.alloc_zeros::<u16>(m * n)?;
        let (gemm, reduce) = (module.load_function(plan.launch.kernel)?, module.load_function(split.reduce.kernel)?);
        // Past 48 KB of dynamic shared memory a kernel must opt in (the library's
        // Kernels does this for every kernel when it loads the module).
        let shared = CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES;
        gemm.set_attribute(shared, plan.launch.config.shared_mem_bytes as i32)?;
        {
            let ((ps, _s), (pc, _c)) = (dscales.device_ptr(&stream), dpacked.device_ptr(&stream));
            let (pb, _b) = dbias.device_ptr(&stream);
            let scales = if plan.packed_constants { pc } else { ps };
            let (pp, _p) = partials.device_ptr_mut(&stream);
            let (py, _y) = y.device_ptr_mut(&stream);
            let no_zeros = 0u64;
            let dims = [m as u32, n as u32, k as u32, group_size as u32];
            let x_map = plan.x_tensor_map.map(|map| encode_x(px, &map)).transpose()?;
            let qweight_map = plan.qweight_tensor_map.map(|map| encode_qweight(pq, &map)).transpose()?;
            let mut builder = stream.launch_builder(&gemm);
            match &x_map {
                Some(map) => builder.arg(map),
                None => builder.arg(&px),
            };
            match &qweight_map {
                Some(map) => builder.arg(map),
                None => builder.arg(&pq),
            };
            builder.arg(&scales).arg(&no_zeros).arg(&pp);
            builder.arg(&dims[0]).arg(&dims[1]).arg(&dims[2]).arg(&dims[3]);
            // SAFETY: SplitK's first argument list (x or its tensor map
            // first, qweight or its tensor map second); the plan checked the shapes, and partials holds
            // workspace_len f32.
            unsafe { builder.launch(config(&plan.launch))? };
            let mut builder = stream.launch_builder(&reduce);
            builder.arg(&pp).arg(&pb).arg(&py).arg(&dims[0]).arg(&dims[1]).arg(&split.splits);
            // SAFETY: SplitK's reduction argument list; y holds m * n bf16.
            unsafe { builder.launch(config(&split.reduce))? };
        }
        let got: Vec<f32> = stream.clone_dtoh(&y)?.into_iter().map(|bits| bf16::from_bits(bits).to_f32()).collect();
        let error = relative_l2_error(&got, &expected);
        ensure(error <= 1e-2, || format!("{}, {} slices: relative error {error:e}", plan.launch.kernel, split.splits))?;
    }
    Ok(())
}

/// A tensor map as a kernel argument (passed by value, 128 bytes: the
/// kernel, not Rust, reads the field).
#[allow(dead_code)]
struct TensorMapArg(CUtensorMap);

// SAFETY: plain bytes, which the kernel takes by value.
unsafe impl DeviceRepr for TensorMapArg {}

/// The tensor map `map` describes, of the activations at `x`, through
/// cudarc's driver bindings.
fn encode_x(x: u64, map: &XTensorMap) -> Result<TensorMapArg, libtest_mimic::Failed> {
    let (dims, row_bytes) = ([map.columns as u64, map.rows as u64], [2 * map.columns as u64]);
    let box_dims = [map.box_columns as u32, map.box_rows as u32];
    let data_type = sys::CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_UINT16;
    encode(x, data_type, dims, row_bytes, box_dims, sys::CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_128B)
}

/// The tensor map `map` describes, of the codes at `qweight`, as its
/// documentation says, through cudarc's driver bindings.
fn encode_qweight(qweight: u64, map: &QweightTensorMap) -> Result<TensorMapArg, libtest_mimic::Failed> {
    let dims = [16, map.words_per_row as u64, map.bands as u64];
    let strides = [64, 64 * map.words_per_row as u64];
    let box_dims = v23::CODE_BOX.map(|size| size as u32);
    let data_type = sys::CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_UINT32;
    encode(qweight, data_type, dims, strides, box_dims, sys::CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_64B)
}

/// A tensor map of the `RANK`-D array at `address` (element strides 1, no
/// interleave, zeros outside).
fn encode<const RANK: usize, const STRIDES: usize>(
    address: u64,
    data_type: sys::CUtensorMapDataType,
    dims: [u64; RANK],
    strides: [u64; STRIDES],
    box_dims: [u32; RANK],
    swizzle: sys::CUtensorMapSwizzle,
) -> Result<TensorMapArg, libtest_mimic::Failed> {
    let mut encoded = CUtensorMap { opaque: [0; 16] };
    let element_strides = [1u32; RANK];
    // SAFETY: rank RANK, the arrays of RANK entries (RANK - 1 strides); it only encodes.
    let result = unsafe {
        sys::cuTensorMapEncodeTiled(
            &mut encoded,
            data_type,
            RANK as u32,
            address as *mut std::ffi::c_void,
            dims.as_ptr(),
            strides.as_ptr(),
            box_dims.as_ptr(),
            element_strides.as_ptr(),
            sys::CUtensorMapInterleave::CU_TENSOR_MAP_INTERLEAVE_NONE,
            swizzle,
            sys::CUtensorMapL2promotion::CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
            sys::CUtensorMapFloatOOBfill::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
        )
    };
    ensure(result == sys::CUresult::CUDA_SUCCESS, || format!("cuTensorMapEncodeTiled: {result:?}"))?;
    Ok(TensorMapArg(encoded))
}

/// A launch shape no plan chooses: 3 blocks of 96 threads, so both versions
/// of each kernel walk many grid strides (v1) or tiles (v2) per block.
const ODD_SHAPE: LaunchConfig = LaunchConfig { grid_dim: (3, 1, 1), block_dim: (96, 1, 1), shared_mem_bytes: 0 };

/// The elementwise kernels are correct for any launch shape, not only the
/// planned one: launched through cudarc with [`ODD_SHAPE`] on f16 and bf16
/// bits (`u16`), their outputs equal the library's own planned launches.
fn any_launch_shape_through_cudarc(kernels: &Kernels, rng: &mut Rng) -> TestResult {
    let Engine { stream, module, .. } = engine()?;
    let n = 100_003;
    let x: Vec<f16> = rng.normals(n, 2.0).into_iter().map(f16::from_f32).collect();
    let y: Vec<f16> = rng.normals(n, 2.0).into_iter().map(f16::from_f32).collect();
    let q: Vec<bf16> = rng.normals(n, 3.0).into_iter().map(bf16::from_f32).collect();
    let params = Int8Params::new(0.05, -1.5)?;
    let (scale, zero_point, n64) = (params.scale(), params.zero_point(), n as u64);
    let [inverse_hi, inverse_lo] = params.scale_inverse();

    let (kx, ky, kq) = (kernels.upload(&x)?, kernels.upload(&y)?, kernels.upload(&q)?);
    let (mut sum, mut codes) = (kernels.alloc::<f16>(n)?, kernels.alloc::<i8>(n)?);
    kernels.add_mul_exp(&kx, &ky, &mut sum, kernels.stream())?;
    kernels.quantize_int8(&kq, params, &mut codes, kernels.stream())?;
    let expected_sum: Vec<u16> = download(kernels, &sum).iter().map(|v| v.to_bits()).collect();
    let expected_codes = download(kernels, &codes);

    let bits = |v: &[f16]| v.iter().map(|h| h.to_bits()).collect::<Vec<u16>>();
    let (dx, dy) = (stream.clone_htod(&bits(&x))?, stream.clone_htod(&bits(&y))?);
    let dq = stream.clone_htod(&q.iter().map(|h| h.to_bits()).collect::<Vec<u16>>())?;
    for version in ElementwiseVersion::ALL {
        let mut out = stream.alloc_zeros::<u16>(n)?;
        let mut out_codes = stream.alloc_zeros::<i8>(n)?;
        {
            let ((px, _x), (py, _y), (pq, _q)) =
                (dx.device_ptr(&stream), dy.device_ptr(&stream), dq.device_ptr(&stream));
            let ((pout, _out), (pcodes, _codes)) = (out.device_ptr_mut(&stream), out_codes.device_ptr_mut(&stream));
            let function = module.load_function(add_mul_exp::KERNELS.name::<f16>(version))?;
            let mut builder = stream.launch_builder(&function);
            builder.arg(&px).arg(&py).arg(&pout).arg(&n64);
            // SAFETY: (x, y, out, n) is add_mul_exp's argument list, each buffer n f16.
            unsafe { builder.launch(ODD_SHAPE)? };
            let function = module.load_function(quantize_int8::KERNELS.name::<bf16>(version))?;
            let mut builder = stream.launch_builder(&function);
            builder.arg(&pq).arg(&pcodes).arg(&n64).arg(&scale).arg(&zero_point).arg(&inverse_hi).arg(&inverse_lo);
            // SAFETY: (x, out, n, scale, zero_point, inverse_hi, inverse_lo) is quantize_int8's argument
            // list, n elements each.
            unsafe { builder.launch(ODD_SHAPE)? };
        }
        let (got_sum, got_codes) = (stream.clone_dtoh(&out)?, stream.clone_dtoh(&out_codes)?);
        let wrong = first_failures(n, 3, |i| got_sum[i] == expected_sum[i]);
        ensure(wrong.is_empty(), || format!("add_mul_exp {version:?}: differs at {wrong:?}"))?;
        let wrong = first_failures(n, 3, |i| got_codes[i] == expected_codes[i]);
        ensure(wrong.is_empty(), || format!("quantize_int8 {version:?}: differs at {wrong:?}"))?;
    }
    Ok(())
}

fn main() {
    run(vec![
        gpu_test("gpu::add_mul_exp_through_cudarc", add_mul_exp_through_cudarc),
        gpu_test("gpu::int4_linear_through_cudarc", int4_linear_through_cudarc),
        gpu_test("gpu::int4_linear_split_k_through_cudarc", int4_linear_split_k_through_cudarc),
        gpu_test("gpu::any_launch_shape_through_cudarc", any_launch_shape_through_cudarc),
    ]);
}
