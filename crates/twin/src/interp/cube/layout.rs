//! How a cube operand's memref holds its matrix. A 2-d view is the matrix
//! itself (ND, row-major as its strides say). A 4-d view is the fractal
//! (NZ) layout the cube unit works in: `[c1, r1, r0, c0]` holds element
//! (r, c) at `[c / c0, r / r0, r % r0, c % c0]`, so the matrix is
//! `r1 * r0` rows by `c1 * c0` columns, stored as column blocks of
//! `r0 x c0` fractals. (`nd2nz` of an `M x K` matrix into
//! `memref<K1 x M1 x 16 x K0>` is the L1 layout of A; L0C holds C as
//! `[N1, M1, 16, 16]`.) Reading a fractal buffer as if it were ND, or with
//! its block dims swapped, therefore gives other numbers, as on the NPU.

use crate::value::MemRefVal;

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
    }
}
