//! The one place the report calls the library's kernels: for each case, the
//! launch the library plans (the kernel's PTX name and its block), and the
//! call that enqueues it. A new storage type, elementwise version or
//! block size is wired in here, then listed in cases.rs.
//!
//! Today's library: f32 only, one elementwise version with a fixed block,
//! the int4 versions of [`Int4LinearVersion::ALL`] with fixed blocks.

use crate::model::{Case, Dtype, LinearShape, Op, Size};
use quant_kernels::cust::memory::{DeviceCopy, DeviceSlice};
use quant_kernels::int4_linear::{self, DeviceInt4Linear, Int4LinearBuffers, Int4LinearVersion};
use quant_kernels::launch::{DeviceInfo, Launch};
use quant_kernels::{Error, Float, Int8Params, Kernels, add_mul_exp, quantize_int8};

/// One launch configuration of a kernel: its version, the block size asked
/// for (`None`: the library's choice) and the storage type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Variant<V> {
    pub version: V,
    pub block: Option<u32>,
    pub dtype: Dtype,
}

/// A storage type the report runs the kernels in: the library calls it
/// makes with buffers of that type, on the handle's stream. Implemented for
/// f32; f16 and bf16 follow once the library's kernels take them (then one
/// generic impl over `Float` replaces this one).
pub trait Activation: Float + DeviceCopy + bytemuck::Pod {
    fn add_mul_exp(
        kernels: &Kernels,
        variant: Variant<u32>,
        x: &DeviceSlice<Self>,
        y: &DeviceSlice<Self>,
        out: &mut DeviceSlice<Self>,
    ) -> Result<(), Error>;

    fn quantize_int8(
        kernels: &Kernels,
        variant: Variant<u32>,
        x: &DeviceSlice<Self>,
        params: Int8Params,
        out: &mut DeviceSlice<i8>,
    ) -> Result<(), Error>;

    fn int4_linear(
        kernels: &Kernels,
        variant: Variant<Int4LinearVersion>,
        x: &DeviceSlice<Self>,
        m: usize,
        layer: &DeviceInt4Linear,
        y: &mut DeviceSlice<Self>,
    ) -> Result<(), Error>;
}

/// Today's f32 API: the elementwise calls take no version or block
/// ([`elementwise_case`] admits only version 1 with the library's block).
impl Activation for f32 {
    fn add_mul_exp(
        kernels: &Kernels,
        _: Variant<u32>,
        x: &DeviceSlice<f32>,
        y: &DeviceSlice<f32>,
        out: &mut DeviceSlice<f32>,
    ) -> Result<(), Error> {
        kernels.add_mul_exp(x, y, out, kernels.stream())
    }

    fn quantize_int8(
        kernels: &Kernels,
        _: Variant<u32>,
        x: &DeviceSlice<f32>,
        params: Int8Params,
        out: &mut DeviceSlice<i8>,
    ) -> Result<(), Error> {
        kernels.quantize_int8(x, params, out, kernels.stream())
    }

    fn int4_linear(
        kernels: &Kernels,
        variant: Variant<Int4LinearVersion>,
        x: &DeviceSlice<f32>,
        m: usize,
        layer: &DeviceInt4Linear,
        y: &mut DeviceSlice<f32>,
    ) -> Result<(), Error> {
        kernels.int4_linear_version(variant.version, x, m, layer, y, kernels.stream())
    }
}

/// The case of an elementwise launch over `elements`, named as the library
/// plans it. Errors for a variant the library cannot launch yet.
pub fn elementwise_case(op: Op, elements: usize, variant: Variant<u32>, device: &DeviceInfo) -> crate::Result<Case> {
    if variant.version != 1 || variant.block.is_some() || variant.dtype != Dtype::F32 {
        return Err(format!("{} {variant:?} is not wired into the report (host/report/api.rs)", op.name()).into());
    }
    let launch = match op {
        Op::AddMulExp => add_mul_exp::plan(elements, elements, elements, device)?,
        Op::QuantizeInt8 => quantize_int8::plan(elements, elements, device)?,
        Op::Copy | Op::Linear => return Err(format!("{} is not elementwise", op.name()).into()),
    };
    let launch = launch.ok_or("an elementwise case needs elements")?;
    Ok(case(op, launch, format!("v{}", variant.version), variant.dtype, Size::Elements(elements)))
}

/// The case of one int4 linear launch, named as the library plans it.
pub fn linear_case(shape: LinearShape, variant: Variant<Int4LinearVersion>) -> crate::Result<Case> {
    if variant.block.is_some() || variant.dtype != Dtype::F32 {
        return Err(format!("linear {variant:?} is not wired into the report (host/report/api.rs)").into());
    }
    let LinearShape { m, n, k, .. } = shape;
    // Lengths as the shape wants them; address 0 is aligned.
    let buffers =
        Int4LinearBuffers { m, x_len: m * k, x_address: 0, qweight_address: 0, bias_len: Some(n), y_len: m * n };
    let launch = int4_linear::plan_version(&shape.weights()?, &buffers, variant.version)?;
    let launch = launch.ok_or("a linear case needs m, n > 0")?;
    Ok(case(Op::Linear, launch, version_name(variant.version), variant.dtype, Size::Linear(shape)))
}

fn case(op: Op, launch: Launch, version: String, dtype: Dtype, size: Size) -> Case {
    Case { op, kernel: launch.kernel, version, dtype, block: Some(launch.config.block[0]), size }
}

/// `v1`, `v2`, ...
pub fn version_name(version: Int4LinearVersion) -> String {
    format!("{version:?}").to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use quant_kernels::Int4Mode;

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
    fn unwired_variants_are_refused() {
        let variant = Variant { version: 2, block: None, dtype: Dtype::F32 };
        assert!(elementwise_case(Op::AddMulExp, 100, variant, &H100).is_err());
        let variant = Variant { version: 1, block: Some(128), dtype: Dtype::F32 };
        assert!(elementwise_case(Op::QuantizeInt8, 100, variant, &H100).is_err());
    }
}
