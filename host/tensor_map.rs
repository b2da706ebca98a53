//! Tensor maps (`CUtensorMap`): the description of a global array that the
//! Hopper's TMA unit copies boxes of (kernel versions 12, 13, 19, 23 and 24 of `int4_linear`).
//! The driver encodes them on the host (`cuTensorMapEncodeTiled`, which
//! `cust` does not wrap); a kernel takes one by value as an argument.

use crate::Error;
use crate::int4_linear::{QweightTensorMap, XTensorMap};
use cust::sys::CUresult;
use quant_kernels_abi::int4::STEP_WORDS;
use quant_kernels_abi::int4_linear::v23::CODE_BOX;
use std::ffi::c_void;

/// An encoded tensor map, as a kernel argument: 128 opaque bytes, 64-byte
/// aligned as the driver requires.
#[repr(C, align(64))]
#[derive(Clone, Copy)]
pub(crate) struct TensorMap([u64; 16]);

// cuda.h's enumerators, fixed by the driver's ABI.
/// `CU_TENSOR_MAP_DATA_TYPE_UINT16`: the copies move bytes, so f16 and bf16
/// share it (a zero fill is +0.0 in both).
const DATA_TYPE_UINT16: u32 = 1;
/// `CU_TENSOR_MAP_DATA_TYPE_UINT32`: `qweight`'s words.
const DATA_TYPE_UINT32: u32 = 3;
const INTERLEAVE_NONE: u32 = 0;
const SWIZZLE_64B: u32 = 2;
const SWIZZLE_128B: u32 = 3;
const L2_PROMOTION_256B: u32 = 3;
/// `CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE`: elements outside the array read as zeros.
const OOB_FILL_ZEROS: u32 = 0;

unsafe extern "C" {
    /// libcuda (linked through `cust`), CUDA 12.0 and later.
    #[allow(clippy::too_many_arguments)]
    fn cuTensorMapEncodeTiled(
        tensor_map: *mut TensorMap,
        data_type: u32,
        rank: u32,
        global_address: *mut c_void,
        global_dim: *const u64,
        global_strides: *const u64,
        box_dim: *const u32,
        element_strides: *const u32,
        interleave: u32,
        swizzle: u32,
        l2_promotion: u32,
        oob_fill: u32,
    ) -> CUresult;
}

impl TensorMap {
    /// All zeros: for a launch that reads no tensor.
    const UNUSED: Self = TensorMap([0; 16]);

    /// The map `map` describes, of the activations at device address `x`
    /// (a map of zeros when it has no columns: see [`XTensorMap`]). The
    /// driver refuses ([`Error::Driver`]) an address not 16-byte aligned,
    /// a row length not a multiple of 8 elements, or a dimension past 2^32.
    pub(crate) fn encode(x: u64, map: &XTensorMap) -> Result<Self, Error> {
        let &XTensorMap { rows, columns, box_columns, box_rows } = map;
        if columns == 0 {
            return Ok(Self::UNUSED);
        }
        let tiled = Tiled { data_type: DATA_TYPE_UINT16, swizzle: SWIZZLE_128B };
        tiled.encode(x, [columns as u64, rows as u64], [2 * columns as u64], [box_columns as u32, box_rows as u32])
    }

    /// The map `map` describes, of the codes at device address `qweight`
    /// (see [`QweightTensorMap`]; a map of zeros when a row has no words,
    /// `k == 0`, and the kernel reads none). The driver refuses
    /// ([`Error::Driver`]) an address not 16-byte aligned or a dimension
    /// past 2^32.
    pub(crate) fn encode_qweight(qweight: u64, map: &QweightTensorMap) -> Result<Self, Error> {
        let &QweightTensorMap { words_per_row, bands } = map;
        if words_per_row == 0 {
            return Ok(Self::UNUSED);
        }
        let row_step_bytes = 4 * STEP_WORDS as u64;
        let tiled = Tiled { data_type: DATA_TYPE_UINT32, swizzle: SWIZZLE_64B };
        tiled.encode(
            qweight,
            [STEP_WORDS as u64, words_per_row as u64, bands as u64],
            [row_step_bytes, row_step_bytes * words_per_row as u64],
            CODE_BOX.map(|size| size as u32),
        )
    }
}

/// What the two maps' encodings differ in besides their shapes.
struct Tiled {
    data_type: u32,
    swizzle: u32,
}

impl Tiled {
    /// A map of the `RANK`-D array at `address` of dims `global_dim`
    /// (innermost first), strides `strides` in bytes (from the second
    /// dim on), copied in boxes of `box_dim` elements, none skipped.
    fn encode<const RANK: usize, const STRIDES: usize>(
        &self,
        address: u64,
        global_dim: [u64; RANK],
        strides: [u64; STRIDES],
        box_dim: [u32; RANK],
    ) -> Result<TensorMap, Error> {
        const { assert!(STRIDES + 1 == RANK) };
        let mut map = TensorMap::UNUSED;
        let element_strides = [1u32; RANK];
        // SAFETY: the arrays hold `RANK` entries, `RANK - 1` for the
        // strides; the call only encodes (it reads no device memory).
        let result = unsafe {
            cuTensorMapEncodeTiled(
                &mut map,
                self.data_type,
                RANK as u32,
                address as *mut c_void,
                global_dim.as_ptr(),
                strides.as_ptr(),
                box_dim.as_ptr(),
                element_strides.as_ptr(),
                INTERLEAVE_NONE,
                self.swizzle,
                L2_PROMOTION_256B,
                OOB_FILL_ZEROS,
            )
        };
        Error::check_driver("cuTensorMapEncodeTiled", result)?;
        Ok(map)
    }
}
