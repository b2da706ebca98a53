//! The device side of each case: buffer sets holding the inputs, the launch
//! on one set, and the check of set 0's output against the CPU reference.
//! gpu.rs times and checks every case through [`Workload`].

use crate::api::{Activation, Variant, linear_workspace_len};
use quant_kernels::check::relative_l2_error;
use quant_kernels::cust::memory::{AsyncCopyDestination, DeviceBuffer, DeviceCopy};
use quant_kernels::int4_linear::{DeviceInt4Linear, Int4LinearVersion};
use quant_kernels::{Error, Float, Int4Weights, Int8Params, Kernels, reference};

/// A case's buffers on the device, launched and checked by gpu.rs.
pub trait Workload {
    /// Enqueues the case on buffer set `set`, on the handle's stream.
    fn launch(&mut self, set: usize) -> Result<(), Error>;
    /// Fills set 0's output with bytes 0xFF (NaN in every float type), so
    /// that the check sees elements a launch left unwritten.
    fn poison(&mut self) -> Result<(), Error>;
    /// Compares set 0's output with the reference: what was measured, and
    /// whether it is within the bound.
    fn check(&mut self) -> crate::Result<(String, bool)>;
}

/// The relative bound of a result stored in `T`, given the bound of the f32
/// kernel: rounding the output to `T` adds up to one unit roundoff; twice
/// that leaves room for the f32 arithmetic before it.
pub fn bound<T: Float>(f32_bound: f64) -> f64 {
    f32_bound.max(2.0 * T::UNIT_ROUNDOFF)
}

/// `count` device copies of `host`.
fn copies<T: DeviceCopy>(kernels: &Kernels, host: &[T], count: usize) -> Result<Vec<DeviceBuffer<T>>, Error> {
    (0..count).map(|_| kernels.upload(host)).collect()
}

/// `count` zeroed device buffers of `len` elements.
fn outputs<T: DeviceCopy + bytemuck::Pod>(
    kernels: &Kernels,
    len: usize,
    count: usize,
) -> Result<Vec<DeviceBuffer<T>>, Error> {
    (0..count).map(|_| kernels.alloc(len)).collect()
}

/// Fills `buffer` with bytes 0xFF (synchronously, on the legacy default
/// stream, which the handle's blocking stream waits for).
fn poison<T: DeviceCopy + bytemuck::Pod>(kernels: &Kernels, buffer: &mut DeviceBuffer<T>) -> Result<(), Error> {
    kernels.make_current()?;
    kernels.stream().synchronize()?;
    Ok(buffer.set_8(0xFF)?)
}

/// The largest of `f(i)` over `0..n`, on every core (NaN wins).
fn worst(n: usize, f: impl Fn(usize) -> f64 + Sync) -> f64 {
    let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
    let chunk = n.div_ceil(threads).max(1);
    let max_nan = |a: f64, b: f64| if a.is_nan() || b.is_nan() { f64::NAN } else { a.max(b) };
    std::thread::scope(|scope| {
        let f = &f;
        let parts: Vec<_> = (0..n)
            .step_by(chunk)
            .map(|start| scope.spawn(move || (start..(start + chunk).min(n)).map(f).fold(0.0, max_nan)))
            .collect();
        parts.into_iter().map(|part| part.join().expect("check thread")).fold(0.0, max_nan)
    })
}

/// `out = exp((x + y) * 2)`.
pub struct AddMulExp<'k, T: Activation> {
    kernels: &'k Kernels,
    pub variant: Variant<u32>,
    /// The inputs as stored (rounded to `T`), widened: what the reference reads.
    x: Vec<f32>,
    y: Vec<f32>,
    dx: Vec<DeviceBuffer<T>>,
    dy: Vec<DeviceBuffer<T>>,
    out: Vec<DeviceBuffer<T>>,
}

impl<'k, T: Activation> AddMulExp<'k, T> {
    pub fn new(kernels: &'k Kernels, variant: Variant<u32>, x: &[f32], y: &[f32], sets: usize) -> crate::Result<Self> {
        let (x, y) = (T::from_f32_slice(x), T::from_f32_slice(y));
        Ok(Self {
            kernels,
            variant,
            dx: copies(kernels, &x, sets)?,
            dy: copies(kernels, &y, sets)?,
            out: outputs(kernels, x.len(), sets)?,
            x: T::to_f32_vec(&x),
            y: T::to_f32_vec(&y),
        })
    }
}

impl<T: Activation> Workload for AddMulExp<'_, T> {
    fn launch(&mut self, set: usize) -> Result<(), Error> {
        T::add_mul_exp(self.kernels, self.variant, &self.dx[set], &self.dy[set], &mut self.out[set])
    }

    fn poison(&mut self) -> Result<(), Error> {
        poison(self.kernels, &mut self.out[0])
    }

    fn check(&mut self) -> crate::Result<(String, bool)> {
        let got = T::to_f32_vec(&self.kernels.download(&self.out[0], self.kernels.stream())?);
        let (x, y) = (&self.x, &self.y);
        let worst = worst(got.len(), |i| {
            let exact = reference::add_mul_exp_exact(x[i], y[i]);
            ((got[i] as f64 - exact) / exact).abs()
        });
        Ok((format!("max rel {worst:.1e}"), worst <= bound::<T>(1e-5)))
    }
}

/// Per-tensor `clamp(round(x / s + zp), -128, 127)`.
pub struct QuantizeInt8<'k, T: Activation> {
    kernels: &'k Kernels,
    pub variant: Variant<u32>,
    params: Int8Params,
    /// The reference's output for the stored (rounded) inputs.
    expected: Vec<i8>,
    dx: Vec<DeviceBuffer<T>>,
    out: Vec<DeviceBuffer<i8>>,
}

impl<'k, T: Activation> QuantizeInt8<'k, T> {
    pub fn new(
        kernels: &'k Kernels,
        variant: Variant<u32>,
        x: &[f32],
        params: Int8Params,
        sets: usize,
    ) -> crate::Result<Self> {
        let x = T::from_f32_slice(x);
        Ok(Self {
            kernels,
            variant,
            params,
            expected: reference::quantize_int8(&T::to_f32_vec(&x), params),
            dx: copies(kernels, &x, sets)?,
            out: outputs(kernels, x.len(), sets)?,
        })
    }
}

impl<T: Activation> Workload for QuantizeInt8<'_, T> {
    fn launch(&mut self, set: usize) -> Result<(), Error> {
        T::quantize_int8(self.kernels, self.variant, &self.dx[set], self.params, &mut self.out[set])
    }

    fn poison(&mut self) -> Result<(), Error> {
        poison(self.kernels, &mut self.out[0])
    }

    /// Bit-exact: the kernel and the reference compute the same f32 steps.
    fn check(&mut self) -> crate::Result<(String, bool)> {
        let got = self.kernels.download(&self.out[0], self.kernels.stream())?;
        let mismatches = got.iter().zip(&self.expected).filter(|(g, e)| g != e).count();
        Ok((format!("{mismatches} mismatches"), mismatches == 0))
    }
}

/// `y[m][n] = x[m][k] * dequant(W)^T + bias`.
pub struct Linear<'k, 'r, T: Activation> {
    kernels: &'k Kernels,
    pub variant: Variant<Int4LinearVersion>,
    m: usize,
    /// The rows checked (below `m`) and their f64 reference, `[rows][n]`.
    rows: &'r [usize],
    expected: &'r [f64],
    layers: Vec<DeviceInt4Linear>,
    dx: Vec<DeviceBuffer<T>>,
    y: Vec<DeviceBuffer<T>>,
    /// The split-K workspace, for every set and variant: the launches run
    /// one after another on one stream.
    workspace: DeviceBuffer<f32>,
}

/// What a linear case computes from.
pub struct LinearInputs<'a, T> {
    pub weights: &'a Int4Weights,
    /// `[n]`, f32.
    pub bias: &'a [f32],
    /// `[m][k]` in the storage type.
    pub x: &'a [T],
    pub m: usize,
    /// The activation rows that are checked, each below `m`.
    pub rows: &'a [usize],
    /// Their f64 reference, `[rows.len()][n]`.
    pub expected: &'a [f64],
}

impl<'k, 'r, T: Activation> Linear<'k, 'r, T> {
    /// The workload of `variants` (at least one; the first selected), with
    /// the workspace the largest split among them needs.
    pub fn new(
        kernels: &'k Kernels,
        variants: &[Variant<Int4LinearVersion>],
        inputs: LinearInputs<'r, T>,
        sets: usize,
    ) -> crate::Result<Self> {
        let LinearInputs { weights, bias, x, m, rows, expected } = inputs;
        let n = weights.shape().n;
        let variant = *variants.first().ok_or("a linear workload without variants")?;
        let workspace_len = variants
            .iter()
            .map(|&v| linear_workspace_len(v, m, n))
            .try_fold(0, |most, len| len.map(|len| len.max(most)))?;
        let layers = (0..sets).map(|_| kernels.upload_int4_linear(weights, Some(bias))).collect::<Result<_, _>>()?;
        Ok(Self {
            kernels,
            variant,
            m,
            rows,
            expected,
            layers,
            dx: copies(kernels, x, sets)?,
            y: outputs(kernels, m * n, sets)?,
            workspace: kernels.alloc(workspace_len)?,
        })
    }
}

impl<T: Activation> Workload for Linear<'_, '_, T> {
    fn launch(&mut self, set: usize) -> Result<(), Error> {
        let (x, layer, y) = (&self.dx[set], &self.layers[set], &mut self.y[set]);
        T::int4_linear(self.kernels, self.variant, x, self.m, layer, y, &mut self.workspace)
    }

    fn poison(&mut self) -> Result<(), Error> {
        poison(self.kernels, &mut self.y[0])
    }

    fn check(&mut self) -> crate::Result<(String, bool)> {
        let got = T::to_f32_vec(&self.kernels.download(&self.y[0], self.kernels.stream())?);
        let n = got.len() / self.m;
        let got: Vec<f32> = self.rows.iter().flat_map(|&r| got[r * n..(r + 1) * n].iter().copied()).collect();
        let error = relative_l2_error(&got, self.expected);
        Ok((format!("rel l2 {error:.1e}"), error <= bound::<T>(1e-5)))
    }
}

/// The device-to-device copy of `words` f32 words (`cuMemcpyDtoDAsync`).
pub struct MemCopy<'k> {
    kernels: &'k Kernels,
    source: DeviceBuffer<f32>,
    destination: DeviceBuffer<f32>,
}

impl<'k> MemCopy<'k> {
    /// The driver call, named as a kernel in the rows.
    pub const KERNEL: &'static str = "cuMemcpyDtoDAsync";

    pub fn new(kernels: &'k Kernels, words: usize) -> crate::Result<Self> {
        Ok(Self { kernels, source: kernels.alloc(words)?, destination: kernels.alloc(words)? })
    }
}

impl Workload for MemCopy<'_> {
    fn launch(&mut self, _: usize) -> Result<(), Error> {
        self.kernels.make_current()?;
        // SAFETY: both buffers live as long as `self`, and the host touches
        // neither before the stream is synchronized (download, poison).
        unsafe { Ok(self.destination.async_copy_from(&self.source, self.kernels.stream())?) }
    }

    fn poison(&mut self) -> Result<(), Error> {
        poison(self.kernels, &mut self.destination)
    }

    /// The source is zeroed: every word of the destination must be 0.
    fn check(&mut self) -> crate::Result<(String, bool)> {
        let got = self.kernels.download(&self.destination, self.kernels.stream())?;
        let wrong = got.iter().filter(|&&w| w.to_bits() != 0).count();
        Ok((format!("{wrong} words differ"), wrong == 0))
    }
}
