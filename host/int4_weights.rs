//! Packed 4-bit weights and the quantizer that makes them.
//!
//! The layout (code order in a word, scales, zero points) is defined in
//! [`quant_kernels_abi::int4`], shared with the kernel. Memory: 4 bits a
//! weight plus one f16 scale (and, asymmetric, one 4-bit zero point) a group:
//! 4.125 bits a weight for symmetric G = 128, 7.76x smaller than f32.

use crate::Error;
use crate::float::PerFloat;
use crate::launch::checked_product;
use crate::parallel::{for_each_part, map_parts, threads_for};
use half::f16;
use quant_kernels_abi::int4::{
    BAND_ROWS, CODES_PER_WORD, GROUP_SIZES, NIBBLE_ORDER, SYMMETRIC_ZERO_POINT, padded_words_per_row, qweight_words,
    row_start, word_index, zero_bytes_per_row,
};
use std::ops::Range;

/// How codes map back to weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Int4Mode {
    /// Signed int4 `q = u - 8` in `-8..=7`, one scale per group, no zero point.
    /// The scale is chosen so that the group's largest-magnitude weight maps
    /// to `q = -8` (as ggml's Q4_0 does), which uses all 16 levels; it is
    /// negative when that weight is positive.
    Symmetric,
    /// Unsigned int4 `u` in `0..=15` with a per-group 4-bit zero point `z`
    /// and a positive scale (GPTQ/AWQ style): the range `[min(w, 0), max(w, 0)]`
    /// is split into 15 steps, so zero is exactly representable.
    Asymmetric,
}

/// The shape of a packed weight matrix: what a launch needs to know about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Int4Shape {
    /// Output features (rows of `W`).
    pub n: usize,
    /// Input features (columns of `W`), a multiple of `group_size`.
    pub k: usize,
    /// Weights per group along `K`: 32, 64 or 128.
    pub group_size: usize,
    pub mode: Int4Mode,
}

impl Int4Shape {
    /// Checks the group size and `K % group_size`.
    pub fn new(n: usize, k: usize, group_size: usize, mode: Int4Mode) -> Result<Self, Error> {
        if !GROUP_SIZES.contains(&group_size) {
            return Err(Error::InvalidGroupSize(group_size));
        }
        if k % group_size != 0 {
            return Err(Error::KNotMultipleOfGroup { k, group_size });
        }
        checked_product("n * k", n, k)?;
        Ok(Self { n, k, group_size, mode })
    }

    /// Groups per row, `k / group_size`.
    pub fn groups_per_row(&self) -> usize {
        self.k / self.group_size
    }

    /// Elements of `qweight`: `n * k / 8` words, plus the padding of the
    /// last band to 16 rows and of rows to multiples of 128 columns
    /// ([`quant_kernels_abi::int4::qweight_words`]).
    pub fn qweight_len(&self) -> usize {
        qweight_words(self.n, self.k)
    }

    /// Elements of `scales`: `n * k / group_size`.
    pub fn scales_len(&self) -> usize {
        self.n * self.groups_per_row()
    }

    /// Bytes of `zeros`: 0 for symmetric weights.
    pub fn zeros_len(&self) -> usize {
        match self.mode {
            Int4Mode::Symmetric => 0,
            Int4Mode::Asymmetric => self.n * zero_bytes_per_row(self.groups_per_row()),
        }
    }

    /// Bytes of the packed form: codes, scales and zero points.
    pub fn packed_bytes(&self) -> usize {
        4 * self.qweight_len() + 2 * self.scales_len() + self.zeros_len()
    }
}

/// A weight matrix `W[N][K]` in the packed 4-bit format of [`quant_kernels_abi::int4`].
#[derive(Debug, Clone, PartialEq)]
pub struct Int4Weights {
    shape: Int4Shape,
    qweight: Vec<u32>,
    scales: Vec<f16>,
    zeros: Vec<u8>,
}

impl Int4Weights {
    /// Quantizes the row-major `weights[n][k]` (`nn.Linear` layout) in groups
    /// of `group_size` along `K`, rounding half to even with the group's f16
    /// scale (the scale is rounded to f16 first, and the codes computed with
    /// the rounded value).
    ///
    /// **Error per weight.** Rounding to the nearest level leaves at most half a
    /// step `|s|`; a weight clamped at the end of the code range (the second
    /// largest magnitude of a symmetric group, of opposite sign) at most one
    /// step. Both bounds grow by a factor `1 + 2^-8` for the f16 rounding of
    /// the scale. Scales below f16's normal range (6.1e-5, a symmetric group
    /// whose largest |w| is under about 5e-4) are f16 subnormals and keep
    /// fewer significant bits.
    ///
    /// Errors: group size not 32/64/128, `K % group_size != 0`, a length that
    /// is not `n * k`, a weight that is NaN or infinite, or a group whose
    /// scale overflows f16 (|w| beyond about 5.2e5); the first such weight
    /// in row-major order.
    ///
    /// A large layer is quantized on all cores, in parts of whole 16-row
    /// bands; the result does not depend on how many there are.
    pub fn quantize(weights: &[f32], n: usize, k: usize, group_size: usize, mode: Int4Mode) -> Result<Self, Error> {
        let shape = Int4Shape::new(n, k, group_size, mode)?;
        crate::launch::expect_len("weights", n * k, weights.len())?;
        let groups = shape.groups_per_row();
        let mut qweight = vec![0u32; shape.qweight_len()];
        let mut scales = vec![f16::ZERO; shape.scales_len()];
        let mut zeros = vec![0u8; shape.zeros_len()];

        // Each band of 16 rows has its own stretch of qweight (and its rows
        // their scales and zero points): parts of whole bands, on all cores,
        // each taking its stretch off the front of every array.
        let band_words = BAND_ROWS * padded_words_per_row(k);
        let rows_per_part = n.div_ceil(BAND_ROWS).div_ceil(threads_for(n * k)).max(1) * BAND_ROWS;
        let zero_row_bytes = if mode == Int4Mode::Asymmetric { zero_bytes_per_row(groups) } else { 0 };
        let (mut qweight_left, mut scales_left, mut zeros_left) = (&mut qweight[..], &mut scales[..], &mut zeros[..]);
        let parts: Vec<BandsPart> = (0..n)
            .step_by(rows_per_part)
            .map(|first| {
                let rows = first..(first + rows_per_part).min(n);
                BandsPart {
                    qweight: take_front(&mut qweight_left, rows.len().div_ceil(BAND_ROWS) * band_words),
                    scales: take_front(&mut scales_left, rows.len() * groups),
                    zeros: take_front(&mut zeros_left, rows.len() * zero_row_bytes),
                    rows,
                }
            })
            .collect();
        let results = map_parts(parts, |part| part.quantize(weights, &shape));
        // The parts are in row order: the first error is the sequential one.
        results.into_iter().collect::<Result<(), Error>>()?;
        Ok(Self { shape, qweight, scales, zeros })
    }

    /// Assembles packed weights from their three arrays (for instance converted
    /// from a checkpoint), checking their lengths against the shape.
    pub fn from_parts(shape: Int4Shape, qweight: Vec<u32>, scales: Vec<f16>, zeros: Vec<u8>) -> Result<Self, Error> {
        let shape = Int4Shape::new(shape.n, shape.k, shape.group_size, shape.mode)?;
        crate::launch::expect_len("qweight", shape.qweight_len(), qweight.len())?;
        crate::launch::expect_len("scales", shape.scales_len(), scales.len())?;
        crate::launch::expect_len("zeros", shape.zeros_len(), zeros.len())?;
        Ok(Self { shape, qweight, scales, zeros })
    }

    pub fn shape(&self) -> Int4Shape {
        self.shape
    }

    /// Words of 8 codes each, in bands of 16 rows
    /// ([`quant_kernels_abi::int4::word_index`]); padding words are zero
    /// when quantized here.
    pub fn qweight(&self) -> &[u32] {
        &self.qweight
    }

    /// `[n][k / group_size]` scales.
    pub fn scales(&self) -> &[f16] {
        &self.scales
    }

    /// `[n][ceil(groups / 2)]` packed zero points; empty for symmetric weights.
    pub fn zeros(&self) -> &[u8] {
        &self.zeros
    }

    /// The 4-bit code of `W[row][col]`.
    pub fn code(&self, row: usize, col: usize) -> u32 {
        let (word, shift) = code_slot(self.shape.k, row, col);
        (self.qweight[word] >> shift) & 0xF
    }

    /// The zero point of group `group` of row `row` (8 for symmetric weights).
    pub fn zero_point(&self, row: usize, group: usize) -> u32 {
        match self.shape.mode {
            Int4Mode::Symmetric => SYMMETRIC_ZERO_POINT,
            Int4Mode::Asymmetric => {
                let bytes = zero_bytes_per_row(self.shape.groups_per_row());
                (self.zeros[row * bytes + group / 2] as u32 >> (4 * (group % 2))) & 0xF
            }
        }
    }

    /// The scale of group `group` of row `row`.
    pub fn scale(&self, row: usize, group: usize) -> f16 {
        self.scales[row * self.shape.groups_per_row() + group]
    }

    /// The group constants converted once for versions 12, 13, 19, 23 and 24 with
    /// activations of type `T` (f16 or bf16), in the layout of
    /// [`quant_kernels_abi::int4::packed_constants`]: a row and group's
    /// scale rounded to `T` (exact in f16), then, for asymmetric weights,
    /// `-(MAGIC + z)`; rows padded with zeros to a multiple of 256. `None`
    /// unless `G` is 128 and `T` a half type. 2 bytes a row and group
    /// (1/32 of the codes' bytes) for symmetric weights, 4 for asymmetric.
    pub fn packed_constants<T: crate::Float>(&self) -> Option<Vec<u16>> {
        use quant_kernels_abi::int4::packed_constants::{
            BF16_NEG_MAGIC_BITS, F16_NEG_MAGIC_BITS, GROUP_SIZE, halves, index, neg_offset_bits,
        };
        let Int4Shape { n, k, group_size, mode } = self.shape;
        // A scale's bits as T, and the bits of -MAGIC as T.
        type Conversion = (fn(f16) -> u16, u16);
        let per_type: PerFloat<Option<Conversion>> = PerFloat {
            f32: None,
            f16: Some((f16::to_bits, F16_NEG_MAGIC_BITS)),
            bf16: Some((|scale| half::bf16::from_f32(scale.to_f32()).to_bits(), BF16_NEG_MAGIC_BITS)),
        };
        let (scale_bits, neg_magic) = per_type.get::<T>()?;
        if group_size != GROUP_SIZE {
            return None;
        }
        let symmetric = mode == Int4Mode::Symmetric;
        let mut packed = vec![0u16; halves(n, k, symmetric)];
        for group in 0..k / GROUP_SIZE {
            for row in 0..n {
                let first = index(n, row, group, symmetric);
                packed[first] = scale_bits(self.scale(row, group));
                if !symmetric {
                    packed[first + 1] = neg_offset_bits(self.zero_point(row, group), neg_magic);
                }
            }
        }
        Some(packed)
    }

    /// `W[row][col]` as the kernel sees it: `(code - zero) * scale`, exact in f32.
    pub fn dequantized(&self, row: usize, col: usize) -> f32 {
        let group = col / self.shape.group_size;
        let level = self.code(row, col) as i32 - self.zero_point(row, group) as i32;
        level as f32 * self.scale(row, group).to_f32()
    }

    /// The whole dequantized matrix, row-major `[n][k]` (on all cores).
    pub fn dequantize(&self) -> Vec<f32> {
        let Int4Shape { n, k, .. } = self.shape;
        let mut out = vec![0.0f32; n * k];
        for_each_part(&mut out, k, n * k, |first_row, rows| {
            for (i, row) in rows.chunks_mut(k).enumerate() {
                self.dequantize_row(first_row + i, row);
            }
        });
        out
    }

    /// Row `row` of the dequantized matrix into `out` (its `k` values):
    /// [`dequantized`](Self::dequantized) of each column, decoded a word
    /// (8 codes) at a time.
    ///
    /// # Panics
    /// If `row >= n` or `out` does not hold `k` values.
    pub fn dequantize_row(&self, row: usize, out: &mut [f32]) {
        let Int4Shape { n, k, group_size, .. } = self.shape;
        assert!(row < n && out.len() == k, "row {row} of {n}, {} values for {k}", out.len());
        for (word, columns) in out.chunks_mut(CODES_PER_WORD).enumerate() {
            let codes = self.qweight[word_index(k, row, word)];
            let group = word * CODES_PER_WORD / group_size; // a word lies in one group
            let (zero, scale) = (self.zero_point(row, group) as i32, self.scale(row, group).to_f32());
            for (nibble, &element) in NIBBLE_ORDER.iter().enumerate() {
                let level = ((codes >> (4 * nibble)) & 0xF) as i32 - zero;
                columns[element] = level as f32 * scale;
            }
        }
    }
}

/// The first `len` elements of `*slice`, which keeps the rest.
fn take_front<'a, T>(slice: &mut &'a mut [T], len: usize) -> &'a mut [T] {
    let (front, rest) = std::mem::take(slice).split_at_mut(len);
    *slice = rest;
    front
}

/// Whole 16-row bands of a layer being quantized: rows `rows`, their words
/// of `qweight`, their scales and their zero points (none for symmetric
/// weights).
struct BandsPart<'a> {
    rows: Range<usize>,
    qweight: &'a mut [u32],
    scales: &'a mut [f16],
    zeros: &'a mut [u8],
}

impl BandsPart<'_> {
    /// Quantizes the part's rows of `weights` (the whole layer's), up to the
    /// first bad weight.
    fn quantize(self, weights: &[f32], shape: &Int4Shape) -> Result<(), Error> {
        let (k, group_size, groups) = (shape.k, shape.group_size, shape.groups_per_row());
        let zero_row_bytes = zero_bytes_per_row(groups);
        // The part's words start at its first row's (a band's first).
        let first_word = row_start(k, self.rows.start);
        for (local, row) in self.rows.clone().enumerate() {
            for (group, values) in weights[row * k..][..k].chunks(group_size).enumerate() {
                let col = |i: usize| group * group_size + i;
                if let Some((i, &value)) = values.iter().enumerate().find(|(_, v)| !v.is_finite()) {
                    return Err(Error::InvalidWeight { row, col: col(i), value });
                }
                let Some((scale, zero)) = group_scale(values, shape.mode) else {
                    let (i, value) = largest(values).unwrap_or_default();
                    return Err(Error::InvalidWeight { row, col: col(i), value });
                };
                self.scales[local * groups + group] = scale;
                if shape.mode == Int4Mode::Asymmetric {
                    self.zeros[local * zero_row_bytes + group / 2] |= (zero as u8) << (4 * (group % 2));
                }
                let scale = scale.to_f32();
                for (i, &w) in values.iter().enumerate() {
                    let level = if scale == 0.0 { 0.0 } else { (w / scale).round_ties_even() };
                    let code = (level + zero as f32).clamp(0.0, 15.0) as u32;
                    let (word, shift) = code_slot(k, row, col(i));
                    self.qweight[word - first_word] |= code << shift;
                }
            }
        }
        Ok(())
    }
}

/// Where the code of `W[row][col]` lives in `qweight` (rows of `k`): its
/// word's index and its bit offset in the word, the nibble whose
/// `NIBBLE_ORDER` entry is `col % 8`.
fn code_slot(k: usize, row: usize, col: usize) -> (usize, u32) {
    (word_index(k, row, col / CODES_PER_WORD), 4 * NIBBLE_OF_ELEMENT[col % CODES_PER_WORD] as u32)
}

/// The inverse of `NIBBLE_ORDER`: the nibble that holds element `e` of a word.
const NIBBLE_OF_ELEMENT: [usize; CODES_PER_WORD] = {
    let mut inverse = [0; CODES_PER_WORD];
    let mut nibble = 0;
    while nibble < CODES_PER_WORD {
        inverse[NIBBLE_ORDER[nibble]] = nibble;
        nibble += 1;
    }
    inverse
};

/// The group's largest-magnitude weight and its index.
fn largest(values: &[f32]) -> Option<(usize, f32)> {
    values.iter().copied().enumerate().max_by(|a, b| a.1.abs().total_cmp(&b.1.abs()))
}

/// The f16 scale and the zero point of one group, or `None` when the scale
/// overflows f16.
fn group_scale(values: &[f32], mode: Int4Mode) -> Option<(f16, u32)> {
    let (scale, zero) = match mode {
        Int4Mode::Symmetric => {
            let (_, peak) = largest(values)?;
            (f16::from_f32(peak / -8.0), SYMMETRIC_ZERO_POINT)
        }
        Int4Mode::Asymmetric => {
            let low = values.iter().copied().fold(0.0f32, f32::min);
            let high = values.iter().copied().fold(0.0f32, f32::max);
            let scale = f16::from_f32((high - low) / 15.0);
            let zero = if scale.to_f32() == 0.0 { 0.0 } else { (-low / scale.to_f32()).round_ties_even() };
            (scale, zero.clamp(0.0, 15.0) as u32)
        }
    };
    scale.is_finite().then_some((scale, zero))
}
