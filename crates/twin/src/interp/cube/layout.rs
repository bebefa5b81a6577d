//! How a cube operand's memref holds its matrix. A 2-d view is the matrix
//! itself (ND, row-major as its strides say). A 4-d view is the fractal
//! (NZ) layout the cube unit works in: `[c1, r1, r0, c0]` holds element
//! (r, c) at `[c / c0, r / r0, r % r0, c % c0]`, so the matrix is
//! `r1 * r0` rows by `c1 * c0` columns, stored as column blocks of
//! `r0 x c0` fractals. (`nd2nz` of an `M x K` matrix into
//! `memref<K1 x M1 x 16 x K0>` is the L1 layout of A; L0C holds C as
//! `[N1, M1, 16, 16]`.) Reading a fractal buffer as if it were ND, or with
//! its block dims swapped, therefore gives other numbers, as on the NPU.

use crate::value::{Elem, MemRefVal};

/// A 2-d `M x N` view of L0C as what L0C holds: the cube writes (and the
/// fixpipe reads) 16 x 16 fractals whatever the type says, so the bytes of
/// such a buffer are `[N / 16, M / 16, 16, 16]`. Some kernels type L0C
/// before the layout is fixed (upstream's solver tests); read any other
/// way, a matmul's result would move between its writer and its reader.
pub(super) fn l0c_as_fractal(view: &MemRefVal) -> Result<MemRefVal, String> {
    let (m, n) = (view.sizes[0], view.sizes[1]);
    if m % 16 != 0 || n % 16 != 0 || view.strides != [n, 1] {
        return Err(format!(
            "a 2-d L0C matrix is read as the 16 x 16 fractals L0C holds, which needs whole fractals in a \
             contiguous buffer, not {m} x {n} with strides {:?}",
            view.strides
        ));
    }
    let sizes = vec![n / 16, m / 16, 16, 16];
    Ok(MemRefVal { strides: crate::value::row_major_strides(&sizes), sizes, ..view.clone() })
}

pub(super) struct Matrix<'a> {
    pub view: &'a MemRefVal,
    fractal: Option<(i64, i64)>,
}

impl<'a> Matrix<'a> {
    /// The matrix in `view`; an error names what the rank should be.
    pub fn of(view: &'a MemRefVal, what: &str, allow_nd: bool) -> Result<Matrix<'a>, String> {
        match view.sizes.len() {
            2 if allow_nd => Ok(Matrix { view, fractal: None }),
            4 => {
                let (r0, c0) = (view.sizes[2], view.sizes[3]);
                if r0 <= 0 || c0 <= 0 {
                    return Err(format!("{what} has an empty fractal ({r0} x {c0})"));
                }
                Ok(Matrix { view, fractal: Some((r0, c0)) })
            }
            r => Err(format!(
                "{what} must be {} (a fractal [col blocks, row blocks, rows, cols] memref), not rank {r}",
                if allow_nd { "2-d (ND) or 4-d" } else { "4-d" }
            )),
        }
    }

    pub fn is_fractal(&self) -> bool {
        self.fractal.is_some()
    }

    /// The fractal's rows and columns (None for ND).
    pub fn fractal(&self) -> Option<(i64, i64)> {
        self.fractal
    }

    pub fn rows(&self) -> i64 {
        let s = &self.view.sizes;
        match self.fractal {
            None => s[0],
            Some(_) => s[1] * s[2],
        }
    }

    pub fn cols(&self) -> i64 {
        let s = &self.view.sizes;
        match self.fractal {
            None => s[1],
            Some(_) => s[0] * s[3],
        }
    }

    /// Element offset of (r, c) in the view's buffer; the caller keeps
    /// r < rows() and c < cols().
    #[inline]
    pub fn at(&self, r: i64, c: i64) -> i64 {
        let (v, st) = (self.view, &self.view.strides);
        match self.fractal {
            None => v.offset + r * st[0] + c * st[1],
            Some((r0, c0)) => v.offset + (c / c0) * st[0] + (r / r0) * st[1] + (r % r0) * st[2] + (c % c0) * st[3],
        }
    }
}

impl Matrix<'_> {
    /// Element offsets of the first `cols` columns of row `r`, into `out`
    /// (cleared first): fractal by fractal, without a division per element.
    pub fn row_offsets(&self, r: i64, cols: i64, out: &mut Vec<i64>) {
        out.clear();
        let (v, st) = (self.view, &self.view.strides);
        match self.fractal {
            None => out.extend((0..cols).map(|c| v.offset + r * st[0] + c * st[1])),
            Some((r0, c0)) => {
                let row = v.offset + (r / r0) * st[1] + (r % r0) * st[2];
                let mut c = 0;
                while c < cols {
                    let base = row + (c / c0) * st[0];
                    let n = c0.min(cols - c);
                    out.extend((0..n).map(|i| base + i * st[3]));
                    c += n;
                }
            }
        }
    }

    /// The first `cols` columns of row `r` as runs of consecutive elements
    /// (element offset, count), into `out` (cleared first): one run per
    /// fractal row when the innermost stride is 1.
    pub fn row_runs(&self, r: i64, cols: i64, out: &mut Vec<(i64, i64)>) {
        out.clear();
        let (v, st) = (self.view, &self.view.strides);
        let (inner, block) = match self.fractal {
            None => (st[1], cols.max(1)),
            Some((_, c0)) => (st[3], c0),
        };
        if inner != 1 {
            let mut offs = Vec::new();
            self.row_offsets(r, cols, &mut offs);
            out.extend(offs.into_iter().map(|o| (o, 1)));
            return;
        }
        let row = match self.fractal {
            None => v.offset + r * st[0],
            Some((r0, _)) => v.offset + (r / r0) * st[1] + (r % r0) * st[2],
        };
        let mut c = 0;
        while c < cols {
            let start = match self.fractal {
                None => row + c,
                Some(_) => row + (c / block) * st[0],
            };
            let n = block.min(cols - c);
            out.push((start, n));
            c += n;
        }
    }

    /// Whether every element of the view lies inside `buf_len` bytes.
    pub fn inside(&self, buf_len: usize) -> bool {
        let (lo, hi) = self.view.byte_span();
        lo >= 0 && hi as usize <= buf_len
    }
}

/// Reads element `off` of a buffer's bytes as a number (exact for every
/// element type the cube unit takes).
#[inline]
pub(super) fn read(bytes: &[u8], elem: Elem, off: i64) -> f64 {
    let o = off as usize * elem.size();
    match elem {
        Elem::F16 => half::f16::from_le_bytes([bytes[o], bytes[o + 1]]).to_f64(),
        Elem::BF16 => half::bf16::from_le_bytes([bytes[o], bytes[o + 1]]).to_f64(),
        Elem::F32 => f32::from_le_bytes(bytes[o..o + 4].try_into().unwrap()) as f64,
        Elem::F64 => f64::from_le_bytes(bytes[o..o + 8].try_into().unwrap()),
        Elem::F8(f) => f.decode(bytes[o]) as f64,
        Elem::Int(_) | Elem::Index => {
            let size = elem.size();
            let mut raw = [0u8; 8];
            raw[..size].copy_from_slice(&bytes[o..o + size]);
            crate::value::norm_int(i64::from_le_bytes(raw), elem.width()) as f64
        }
    }
}

/// Appends the `n` elements from element `off` as numbers.
pub(super) fn read_run(bytes: &[u8], elem: Elem, off: i64, n: i64, out: &mut Vec<f64>) {
    let size = elem.size();
    let run = &bytes[off as usize * size..(off + n) as usize * size];
    match elem {
        Elem::F16 => out.extend(run.chunks_exact(2).map(|c| half::f16::from_le_bytes([c[0], c[1]]).to_f64())),
        Elem::BF16 => out.extend(run.chunks_exact(2).map(|c| half::bf16::from_le_bytes([c[0], c[1]]).to_f64())),
        Elem::F32 => out.extend(run.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap()) as f64)),
        Elem::Int(8) => out.extend(run.iter().map(|b| *b as i8 as f64)),
        Elem::Int(32) => out.extend(run.chunks_exact(4).map(|c| i32::from_le_bytes(c.try_into().unwrap()) as f64)),
        _ => out.extend((0..n).map(|i| read(bytes, elem, off + i))),
    }
}

/// Appends the `n` elements from element `off` as f32 (exact for the
/// cube's float inputs: f16, bf16, f32).
pub(super) fn read_run_f32(bytes: &[u8], elem: Elem, off: i64, n: i64, out: &mut Vec<f32>) {
    let size = elem.size();
    let run = &bytes[off as usize * size..(off + n) as usize * size];
    match elem {
        Elem::F16 => {
            // A run of f16 in a little-endian buffer is a `[f16]` once
            // aligned: converted in bulk (F16C where the CPU has it).
            // SAFETY: every bit pattern is a valid u16.
            let (pre, mid, post) = unsafe { run.align_to::<u16>() };
            if cfg!(target_endian = "little") && pre.is_empty() && post.is_empty() {
                use half::slice::{HalfBitsSliceExt, HalfFloatSliceExt};
                let start = out.len();
                out.resize(start + mid.len(), 0.0);
                mid.reinterpret_cast::<half::f16>().convert_to_f32_slice(&mut out[start..]);
            } else {
                out.extend(run.chunks_exact(2).map(|c| half::f16::from_le_bytes([c[0], c[1]]).to_f32()));
            }
        }
        Elem::BF16 => out.extend(run.chunks_exact(2).map(|c| half::bf16::from_le_bytes([c[0], c[1]]).to_f32())),
        Elem::F32 => out.extend(run.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap()))),
        _ => out.extend((0..n).map(|i| read(bytes, elem, off + i) as f32)),
    }
}

/// Writes `vals` as the elements from element `off`.
pub(super) fn write_run(bytes: &mut [u8], elem: Elem, off: i64, vals: &[f64]) {
    let size = elem.size();
    let run = &mut bytes[off as usize * size..(off as usize + vals.len()) * size];
    match elem {
        Elem::F32 => {
            for (c, v) in run.chunks_exact_mut(4).zip(vals) {
                c.copy_from_slice(&(*v as f32).to_le_bytes());
            }
        }
        Elem::Int(32) => {
            for (c, v) in run.chunks_exact_mut(4).zip(vals) {
                c.copy_from_slice(&(*v as i64 as i32).to_le_bytes());
            }
        }
        _ => {
            for (i, v) in vals.iter().enumerate() {
                write(bytes, elem, off + i as i64, *v);
            }
        }
    }
}

/// Writes a number as element `off` (floats rounded to nearest, integers
/// wrapped to the width, as `value::store` does).
#[inline]
pub(super) fn write(bytes: &mut [u8], elem: Elem, off: i64, v: f64) {
    let o = off as usize * elem.size();
    match elem {
        Elem::F16 => bytes[o..o + 2].copy_from_slice(&half::f16::from_f64(v).to_le_bytes()),
        Elem::BF16 => bytes[o..o + 2].copy_from_slice(&half::bf16::from_f64(v).to_le_bytes()),
        Elem::F32 => bytes[o..o + 4].copy_from_slice(&(v as f32).to_le_bytes()),
        Elem::F64 => bytes[o..o + 8].copy_from_slice(&v.to_le_bytes()),
        Elem::F8(f) => bytes[o] = f.encode(v),
        Elem::Int(_) | Elem::Index => {
            let size = elem.size();
            bytes[o..o + size].copy_from_slice(&(v as i64).to_le_bytes()[..size]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractal_positions_follow_column_blocks_of_row_blocks() {
        // A 32 x 32 f16 matrix as [K1=2, M1=2, 16, 16].
        let v = MemRefVal::contiguous(0, crate::value::Elem::F16, vec![2, 2, 16, 16]);
        let m = Matrix::of(&v, "A", false).unwrap();
        assert_eq!((m.rows(), m.cols()), (32, 32));
        assert_eq!(m.at(0, 0), 0);
        assert_eq!(m.at(0, 1), 1);
        assert_eq!(m.at(1, 0), 16);
        // Row 16 starts the second row block of the first column block.
        assert_eq!(m.at(16, 0), 256);
        // Column 16 starts the second column block.
        assert_eq!(m.at(0, 16), 512);
        let nd = MemRefVal::contiguous(0, crate::value::Elem::F16, vec![32, 32]);
        let n = Matrix::of(&nd, "A", true).unwrap();
        assert_eq!(n.at(1, 0), 32);
        assert!(Matrix::of(&nd, "A", false).is_err());
        // Runs: a fractal row is contiguous within each column block.
        let mut runs = Vec::new();
        m.row_runs(17, 32, &mut runs);
        assert_eq!(runs, vec![(256 + 16, 16), (512 + 256 + 16, 16)]);
        m.row_runs(0, 20, &mut runs);
        assert_eq!(runs, vec![(0, 16), (512, 4)]);
        n.row_runs(1, 32, &mut runs);
        assert_eq!(runs, vec![(32, 32)]);
        let mut offs = Vec::new();
        m.row_offsets(17, 32, &mut offs);
        let flat: Vec<i64> = runs_to_offsets(&{
            let mut r = Vec::new();
            m.row_runs(17, 32, &mut r);
            r
        });
        assert_eq!(offs, flat);
    }

    #[test]
    fn f16_runs_read_in_bulk_as_one_by_one() {
        let vals: Vec<half::f16> = (0..40).map(|i| half::f16::from_f32(i as f32 * 0.37 - 5.0)).collect();
        let mut bytes: Vec<u8> = vec![0];
        bytes.extend(vals.iter().flat_map(|v| v.to_le_bytes()));
        // Aligned and unaligned starts (an odd byte in front of the data).
        for base in [&bytes[1..], &bytes[..]] {
            let mut out = vec![1.5f32];
            read_run_f32(base, Elem::F16, 3, 20, &mut out);
            let want: Vec<f32> = std::iter::once(1.5)
                .chain((3..23).map(|i| half::f16::from_le_bytes([base[2 * i], base[2 * i + 1]]).to_f32()))
                .collect();
            assert_eq!(out, want);
        }
    }

    fn runs_to_offsets(runs: &[(i64, i64)]) -> Vec<i64> {
        runs.iter().flat_map(|(o, n)| *o..*o + *n).collect()
    }
}
