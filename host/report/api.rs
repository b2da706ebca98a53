//! The one place the report calls the library's kernels: for each case, the
//! launch the library plans (the kernel's PTX name and its block), and the
//! call that enqueues it. A new storage type, elementwise version or
//! block size is wired in here, then listed in cases.rs.
//!

use crate::cases::LINEAR_VERSIONS;
use crate::model::{Case, Dtype, LinearShape, Op, Size};
use quant_kernels::cust::memory::{DeviceCopy, DeviceSlice};
use quant_kernels::half::{bf16, f16};
use quant_kernels::int4_linear::{self, DeviceInt4Linear, Int4LinearBuffers, Int4LinearVersion};
use quant_kernels::launch::{DeviceInfo, Launch};
use quant_kernels::{
    ElementwiseLaunch, ElementwiseVersion, Error, Float, Int8Params, Kernels, add_mul_exp, quantize_int8,
};

/// One launch configuration of a kernel: its version, the block size asked
/// for (`None`: the library's choice) and the storage type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Variant<V> {
    pub version: V,
    pub block: Option<u32>,
    pub dtype: Dtype,
}

/// A storage type the report runs the kernels in: the library calls it
/// makes with buffers of that type, on the handle's stream.
pub trait Activation: Float + DeviceCopy + bytemuck::Pod {
    fn add_mul_exp(
        kernels: &Kernels,
        variant: Variant<u32>,
        x: &DeviceSlice<Self>,
        y: &DeviceSlice<Self>,
        out: &mut DeviceSlice<Self>,
    ) -> Result<(), Error> {
        kernels.add_mul_exp_with(elementwise_launch(variant)?, x, y, out, kernels.stream())
    }

    fn quantize_int8(
        kernels: &Kernels,
        variant: Variant<u32>,
        x: &DeviceSlice<Self>,
        params: Int8Params,
        out: &mut DeviceSlice<i8>,
    ) -> Result<(), Error> {
        kernels.quantize_int8_with(elementwise_launch(variant)?, x, params, out, kernels.stream())
    }

    /// With the split-K workspace the report owns (as an engine would: no
    /// allocation nodes in the graphs it times), `workspace`, at least
    /// [`linear_workspace_len`] long.
    fn int4_linear(
        kernels: &Kernels,
        variant: Variant<Int4LinearVersion>,
        x: &DeviceSlice<Self>,
        m: usize,
        layer: &DeviceInt4Linear,
        y: &mut DeviceSlice<Self>,
        workspace: &mut DeviceSlice<f32>,
    ) -> Result<(), Error> {
        let version = linear_version(variant);
        kernels.int4_linear_version_with_workspace(version, x, m, layer, y, workspace, kernels.stream())
    }
}

impl<T: Float + DeviceCopy + bytemuck::Pod> Activation for T {}

/// The library's launch choice for an elementwise variant (version from 1).
fn elementwise_launch(variant: Variant<u32>) -> Result<ElementwiseLaunch, Error> {
    let version = ElementwiseVersion::ALL[variant.version as usize - 1];
    match variant.block {
        Some(threads) => ElementwiseLaunch::new(version, threads),
        None => Ok(version.into()),
    }
}

/// The f32 elements of the split-K workspace of a linear variant's call
/// with `m` activation rows and `n` outputs (0 where it does not split `K`).
pub fn linear_workspace_len(variant: Variant<Int4LinearVersion>, m: usize, n: usize) -> Result<usize, Error> {
    int4_linear::workspace_len(linear_version(variant), m, n)
}

/// The int4 version with the variant's block, for the versions whose block
/// is a launch choice (3 to 6: whole warps); the others, and a variant
/// without a block, keep the launch choice [`linear_versions`] gave them.
fn linear_version(variant: Variant<Int4LinearVersion>) -> Int4LinearVersion {
    match (variant.version.warps(), variant.block) {
        (Some(_), Some(threads)) => variant.version.with_warps(threads / 32),
        _ => variant.version,
    }
}

/// The case of an elementwise launch over `elements`, named as the library
/// plans it.
pub fn elementwise_case(op: Op, elements: usize, variant: Variant<u32>, device: &DeviceInfo) -> crate::Result<Case> {
    let launch = elementwise_launch(variant)?;
    let plan = |launch| match (op, variant.dtype) {
        (Op::AddMulExp, Dtype::F32) => add_mul_exp::plan::<f32>(elements, elements, elements, launch, device),
        (Op::AddMulExp, Dtype::F16) => add_mul_exp::plan::<f16>(elements, elements, elements, launch, device),
        (Op::AddMulExp, Dtype::Bf16) => add_mul_exp::plan::<bf16>(elements, elements, elements, launch, device),
        (Op::QuantizeInt8, Dtype::F32) => quantize_int8::plan::<f32>(elements, elements, launch, device),
        (Op::QuantizeInt8, Dtype::F16) => quantize_int8::plan::<f16>(elements, elements, launch, device),
        (Op::QuantizeInt8, Dtype::Bf16) => quantize_int8::plan::<bf16>(elements, elements, launch, device),
        (Op::Copy | Op::Linear, _) => Ok(None),
    };
    let launch = plan(launch)?.ok_or_else(|| format!("{} is not an elementwise case", op.name()))?;
    Ok(case(op, launch, format!("v{}", variant.version), variant.dtype, Size::Elements(elements)))
}

/// Whether a sweep's block size applies to the variant's version at `m`
/// activation rows: versions 3 to 6 up to their largest block, 17 up to
/// its largest for `m` where its groups split the block evenly; the tiled
/// GEMMs (7 and 10 to 13), whose block is fixed, once, in the sweep's pass
/// of 256 threads (their launch keeps their own block: 512 threads for
/// versions 12 and 13).
pub fn linear_block_applies(variant: &Variant<Int4LinearVersion>, m: usize) -> bool {
    match (variant.version, variant.block) {
        (_, None) => true,
        (version, Some(threads)) if version.split_k().is_some() => threads == 256,
        (version, Some(threads)) => {
            let fits = version.most_warps(m).is_some_and(|most| threads <= 32 * most);
            let groups = if let Int4LinearVersion::V17 { row_groups, .. } = version { row_groups } else { 1 };
            fits && (threads / 32) % groups == 0
        }
    }
}

/// The int4 versions that take activations of `dtype` and run on `device`,
/// each with the library's launch choice for the shape there
/// (`Int4LinearVersion::tuned`: warps, split of `K`); where that splits `K`
/// (versions 7 and 10 to 13), the version unsplit too, and version 17 with
/// half and twice its groups too, to compare.
pub fn linear_versions(dtype: Dtype, shape: LinearShape, device: &DeviceInfo) -> Vec<Int4LinearVersion> {
    let supported = |version: &Int4LinearVersion| match dtype {
        Dtype::F32 => version.supports::<f32>(),
        Dtype::F16 => version.supports::<f16>(),
        Dtype::Bf16 => version.supports::<bf16>(),
    };
    let LinearShape { m, n, k, .. } = shape;
    let mut versions = Vec::new();
    for &version in LINEAR_VERSIONS.iter().filter(|v| supported(v) && v.runs_on(device.compute_capability)) {
        let tuned = version.tuned(m, n, k, device);
        if tuned.split_k().is_some_and(|splits| splits > 1) {
            versions.push(version);
        }
        versions.push(tuned);
        if let Int4LinearVersion::V17 { row_groups, warps } = tuned {
            // Half and twice the groups a block, with as many warps a group, to compare.
            let (per_group, most) = (warps / row_groups, tuned.most_warps(m).unwrap_or(0));
            for row_groups in [row_groups / 2, 2 * row_groups] {
                if row_groups > 0 && row_groups * per_group <= most {
                    versions.push(Int4LinearVersion::V17 { row_groups, warps: row_groups * per_group });
                }
            }
        }
    }
    versions
}

/// The case of the launch the library itself makes for `shape` in `dtype`
/// on `device`: the version [`int4_linear::plan`] takes
/// (`Int4LinearVersion::best_for`), in its own block.
pub fn library_linear_case(shape: LinearShape, dtype: Dtype, device: &DeviceInfo) -> crate::Result<Case> {
    let (m, weights) = (shape.m, shape.weights()?);
    let version = match dtype {
        Dtype::F32 => Int4LinearVersion::best_for::<f32>(m, weights.n, weights.k, device),
        Dtype::F16 => Int4LinearVersion::best_for::<f16>(m, weights.n, weights.k, device),
        Dtype::Bf16 => Int4LinearVersion::best_for::<bf16>(m, weights.n, weights.k, device),
    };
    linear_case(shape, Variant { version, block: None, dtype })
}

/// The case of one int4 linear launch, named as the library plans it.
pub fn linear_case(shape: LinearShape, variant: Variant<Int4LinearVersion>) -> crate::Result<Case> {
    let LinearShape { m, n, k, .. } = shape;
    // Lengths as the shape wants them; address 0 is aligned.
    let buffers =
        Int4LinearBuffers { m, x_len: m * k, x_address: 0, qweight_address: 0, bias_len: Some(n), y_len: m * n };
    let (weights, version) = (shape.weights()?, linear_version(variant));
    let plan = match variant.dtype {
        Dtype::F32 => int4_linear::plan_version::<f32>(&weights, &buffers, version),
        Dtype::F16 => int4_linear::plan_version::<f16>(&weights, &buffers, version),
        Dtype::Bf16 => int4_linear::plan_version::<bf16>(&weights, &buffers, version),
    }?;
    let plan = plan.ok_or("a linear case needs m, n > 0")?;
    Ok(case(Op::Linear, plan.launch, version_name(version), variant.dtype, Size::Linear(shape)))
}

fn case(op: Op, launch: Launch, version: String, dtype: Dtype, size: Size) -> Case {
    Case { op, kernel: launch.kernel, version, dtype, block: Some(launch.config.block.iter().product()), size }
}

/// `v1`, `v2`, ..., `v7 split 4` where version 7 (or 10) splits `K`, and
/// `v17 groups 4` for version 17's groups of warps a block.
pub fn version_name(version: Int4LinearVersion) -> String {
    match (version, version.split_k()) {
        (Int4LinearVersion::V17 { row_groups, .. }, _) => format!("v17 groups {row_groups}"),
        (_, Some(splits)) if splits > 1 => format!("v{} split {splits}", version.number()),
        _ => format!("v{}", version.number()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quant_kernels::Int4Mode;
    use quant_kernels::abi::int4_linear::{v7, v12, v13};

    const H100: DeviceInfo = DeviceInfo { compute_capability: (9, 0), multiprocessors: 132 };

    #[test]
    fn cases_carry_the_planned_kernel_and_block() {
        let variant = Variant { version: 1, block: None, dtype: Dtype::F32 };
        let case = elementwise_case(Op::AddMulExp, 1_000_000, variant, &H100).unwrap();
        assert_eq!((case.kernel, case.version.as_str(), case.block), ("add_mul_exp_f32", "v1", Some(256)));
        let shape = LinearShape { m: 16, n: 4096, k: 4096, group: 128, mode: Int4Mode::Symmetric };
        let variant = Variant { version: Int4LinearVersion::V1, block: None, dtype: Dtype::F32 };
        assert_eq!(linear_case(shape, variant).unwrap().kernel, int4_linear::V1_BATCH_KERNEL);
    }

    #[test]
    fn sweeps_run_tiled_gemms_once_at_their_block() {
        use crate::cases::Selection;
        let sweep = Selection { quick: false, sweep: true };
        let shape = LinearShape { m: 1024, n: 4096, k: 4096, group: 128, mode: Int4Mode::Symmetric };
        for (version, kernel, block) in [
            (Int4LinearVersion::V7 { split_k: 1 }, "int4_linear_v7_bf16", v7::BLOCK_THREADS),
            (Int4LinearVersion::V12 { split_k: 1 }, "int4_linear_v12_g128_bf16", v12::BLOCK_THREADS),
            (Int4LinearVersion::V13 { split_k: 1 }, "int4_linear_v13_g128_bf16", v13::BLOCK_THREADS),
        ] {
            let mut variants = sweep.variants(Op::Linear, &[version], Dtype::Bf16);
            variants.retain(|variant| linear_block_applies(variant, 1024));
            assert_eq!(variants.len(), 1);
            let case = linear_case(shape, variants[0]).unwrap();
            assert_eq!((case.kernel, case.block), (kernel, Some(block)));
        }
    }

    #[test]
    fn v7_runs_split_and_whole_where_the_library_splits() {
        let names = |m| {
            let shape = LinearShape { m, n: 4096, k: 4096, group: 128, mode: Int4Mode::Symmetric };
            let versions = linear_versions(Dtype::F16, shape, &H100);
            let v7 = versions.into_iter().filter(|v| v.number() == 7);
            v7.map(|version| {
                let case = linear_case(shape, Variant { version, block: None, dtype: Dtype::F16 }).unwrap();
                (case.version, case.kernel)
            })
            .collect::<Vec<_>>()
        };
        assert_eq!(
            names(128),
            [("v7".into(), "int4_linear_v7_f16"), ("v7 split 4".into(), "int4_linear_v7_split_k_f16")]
        );
        assert_eq!(names(1024), [("v7".into(), "int4_linear_v7_f16")]);
    }

    #[test]
    fn chosen_blocks_reach_the_launch() {
        let variant = Variant { version: 2, block: Some(128), dtype: Dtype::Bf16 };
        let case = elementwise_case(Op::QuantizeInt8, 100_000, variant, &H100).unwrap();
        assert_eq!((case.kernel, case.block), ("quantize_int8_v2_bf16", Some(128)));
        let shape = LinearShape { m: 1, n: 4096, k: 4096, group: 128, mode: Int4Mode::Symmetric };
        let variant = Variant { version: Int4LinearVersion::V5 { warps: 8 }, block: Some(128), dtype: Dtype::F16 };
        let case = linear_case(shape, variant).unwrap();
        assert_eq!((case.kernel, case.block), ("int4_linear_v5_m8_g128_f16", Some(128)));
        let variant = Variant { version: 1, block: Some(100), dtype: Dtype::F32 };
        assert!(elementwise_case(Op::AddMulExp, 100, variant, &H100).is_err());
    }
}
