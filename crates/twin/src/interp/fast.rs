//! Row-wise fast paths for the data movement and elementwise vector ops that
//! dominate real kernels. They give bit-for-bit the results of the generic
//! element-by-element paths (floats are still computed in f64 and rounded
//! once), but walk whole rows of typed memory instead of decoding offsets
//! and values one element at a time. Each returns `None` when its
//! preconditions do not hold, and the caller falls back to the generic path.

use crate::memory::Memory;
use crate::value::{Elem, MemRefVal, Val};

/// Rows of a view whose innermost dimension is unit-stride: the element
/// offset of each row's start, and the row length.
fn rows(m: &MemRefVal) -> Option<(Vec<i64>, usize)> {
    let rank = m.sizes.len();
    if m.sizes.contains(&0) {
        return Some((Vec::new(), 0));
    }
    if rank == 0 {
        return Some((vec![m.offset], 1));
    }
    if m.strides[rank - 1] != 1 {
        return None;
    }
    let outer = MemRefVal {
        buf: m.buf,
        elem: m.elem,
        offset: m.offset,
        sizes: m.sizes[..rank - 1].to_vec(),
        strides: m.strides[..rank - 1].to_vec(),
        root: None,
        life: 0,
    };
    let mut starts = Vec::new();
    outer.for_each(|o| starts.push(o));
    Some((starts, m.sizes[rank - 1] as usize))
}

/// Whether two views may touch the same bytes.
fn overlap(a: &MemRefVal, b: &MemRefVal) -> bool {
    if a.buf != b.buf {
        return false;
    }
    let ((al, ah), (bl, bh)) = (a.byte_span(), b.byte_span());
    al < bh && bl < ah
}

fn same_view(a: &MemRefVal, b: &MemRefVal) -> bool {
    a.buf == b.buf && a.offset == b.offset && a.strides == b.strides && a.sizes == b.sizes
}

/// Byte range of `n` elements of `e` from element offset `off`, if inside `len`.
fn byte_range(off: i64, n: usize, e: Elem, len: usize) -> Option<std::ops::Range<usize>> {
    let s = usize::try_from(off).ok()?.checked_mul(e.size())?;
    let end = s.checked_add(n.checked_mul(e.size())?)?;
    (end <= len).then_some(s..end)
}

/// `copy` between views of one element type: row by row with memcpy.
/// None when the views overlap (the generic path copies in element order).
pub fn copy(mem: &mut Memory, src: &MemRefVal, dst: &MemRefVal) -> Option<Result<(), &'static str>> {
    if src.elem != dst.elem || src.sizes != dst.sizes || (overlap(src, dst) && !same_view(src, dst)) {
        return None;
    }
    let (srows, n) = rows(src)?;
    let (drows, _) = rows(dst)?;
    let e = src.elem;
    for (s, d) in srows.iter().zip(&drows) {
        let Some(sr) = byte_range(*s, n, e, mem.get(src.buf).len()) else {
            return Some(Err("reads outside its source buffer"));
        };
        let Some(dr) = byte_range(*d, n, e, mem.get(dst.buf).len()) else {
            return Some(Err("writes outside its destination buffer"));
        };
        if src.buf == dst.buf {
            mem.get_mut(dst.buf).bytes_mut().copy_within(sr, dr.start);
        } else {
            let from = mem.get(src.buf).bytes()[sr].as_ptr();
            let to = mem.get_mut(dst.buf).bytes_mut()[dr.clone()].as_mut_ptr();
            // SAFETY: both ranges were checked against their buffers, and two
            // buffers are distinct mappings, so they do not overlap.
            unsafe { std::ptr::copy_nonoverlapping(from, to, dr.len()) };
        }
    }
    Some(Ok(()))
}

/// An input of an elementwise op: a view, or a scalar broadcast.
enum In<'a> {
    View(&'a MemRefVal, Vec<i64>),
    Scalar(f64, i64),
}

fn read_f(e: Elem, b: &[u8]) -> f64 {
    match e {
        Elem::F32 => f32::from_le_bytes(b.try_into().unwrap()) as f64,
        Elem::F16 => half::f16::from_le_bytes(b.try_into().unwrap()).to_f64(),
        _ => unreachable!("float fast paths cover f32 and f16"),
    }
}

fn write_f(e: Elem, v: f64, b: &mut [u8]) {
    match e {
        Elem::F32 => b.copy_from_slice(&(v as f32).to_le_bytes()),
        Elem::F16 => b.copy_from_slice(&half::f16::from_f64(v).to_le_bytes()),
        _ => unreachable!("float fast paths cover f32 and f16"),
    }
}

fn read_i(e: Elem, b: &[u8]) -> i64 {
    match e {
        Elem::Int(32) => i32::from_le_bytes(b.try_into().unwrap()) as i64,
        Elem::Int(16) => i16::from_le_bytes(b.try_into().unwrap()) as i64,
        _ => unreachable!("integer fast paths cover i32 and i16"),
    }
}

fn write_i(e: Elem, v: i64, b: &mut [u8]) {
    match e {
        Elem::Int(32) => b.copy_from_slice(&(v as i32).to_le_bytes()),
        Elem::Int(16) => b.copy_from_slice(&(v as i16).to_le_bytes()),
        _ => unreachable!("integer fast paths cover i32 and i16"),
    }
}

/// The float and integer forms of the ops with a fast path (the generic
/// path's `apply`, restricted to these).
fn float_op(op: &str) -> Option<fn(f64, f64) -> f64> {
    Some(match op {
        "vadd" => |a, b| a + b,
        "vsub" => |a, b| a - b,
        "vmul" => |a, b| a * b,
        "vdiv" => |a, b| a / b,
        "vmax" => |a: f64, b| a.max(b),
        "vmin" => |a: f64, b| a.min(b),
        "vrelu" => |a: f64, _| a.max(0.0),
        "vabs" => |a: f64, _| a.abs(),
        _ => return None,
    })
}

fn int_op(op: &str) -> Option<fn(i64, i64) -> i64> {
    Some(match op {
        "vadd" => |a: i64, b| a.wrapping_add(b),
        "vsub" => |a: i64, b| a.wrapping_sub(b),
        "vmul" => |a: i64, b| a.wrapping_mul(b),
        "vmax" => |a: i64, b| a.max(b),
        "vmin" => |a: i64, b| a.min(b),
        "vrelu" => |a: i64, _| a.max(0),
        "vand" => |a, b| a & b,
        "vor" => |a, b| a | b,
        "vxor" => |a, b| a ^ b,
        _ => return None,
    })
}

/// An elementwise op over views of one shape and element type (f32, f16,
/// i32, i16) with unit-stride rows; inputs that overlap the output must be
/// the output itself. None when that does not hold.
pub fn elementwise(mem: &mut Memory, op: &str, ins: &[Val], dst: &MemRefVal) -> Option<Result<(), &'static str>> {
    let e = dst.elem;
    let float = matches!(e, Elem::F32 | Elem::F16);
    if !float && !matches!(e, Elem::Int(32) | Elem::Int(16)) {
        return None;
    }
    let (fop, iop) = if float { (Some(float_op(op)?), None) } else { (None, Some(int_op(op)?)) };
    if ins.is_empty() || ins.len() > 2 {
        return None;
    }
    let (drows, n) = rows(dst)?;
    let mut inputs = Vec::new();
    for v in ins {
        inputs.push(match v {
            Val::Mem(m) => {
                if m.elem != e || m.sizes != dst.sizes || (overlap(m, dst) && !same_view(m, dst)) {
                    return None;
                }
                In::View(m, rows(m)?.0)
            }
            Val::Int(i) => In::Scalar(*i as f64, *i),
            Val::Float(f) => In::Scalar(*f, *f as i64),
            Val::Undef => return None,
        });
    }
    // On x86 an f32 op and the f64 op on widened values propagate NaN
    // payloads alike; elsewhere (AArch64 with a signalling NaN) they may
    // not, so only x86 takes this path.
    if let (true, Elem::F32, [In::View(x, xs), In::View(y, ys)]) = (cfg!(target_arch = "x86_64"), e, &inputs[..]) {
        let rows = Rows { dst: &drows, x: (x, xs), y: (y, ys), n };
        match op {
            "vadd" => return Some(f32_binary(mem, dst, rows, |a, b| a + b)),
            "vsub" => return Some(f32_binary(mem, dst, rows, |a, b| a - b)),
            "vmul" => return Some(f32_binary(mem, dst, rows, |a, b| a * b)),
            "vdiv" => return Some(f32_binary(mem, dst, rows, |a, b| a / b)),
            _ => {}
        }
    }
    let size = e.size();
    let mut a = vec![0f64; n];
    let mut b = vec![0f64; n];
    let mut ai = vec![0i64; n];
    let mut bi = vec![0i64; n];
    for (r, d) in drows.iter().enumerate() {
        for (k, input) in inputs.iter().enumerate() {
            let (fbuf, ibuf) = if k == 0 { (&mut a, &mut ai) } else { (&mut b, &mut bi) };
            match input {
                In::View(m, starts) => {
                    let Some(range) = byte_range(starts[r], n, e, mem.get(m.buf).len()) else {
                        return Some(Err("vector op reads outside its input buffer"));
                    };
                    let bytes = &mem.get(m.buf).bytes()[range];
                    for (j, c) in bytes.chunks_exact(size).enumerate() {
                        if float {
                            fbuf[j] = read_f(e, c);
                        } else {
                            ibuf[j] = read_i(e, c);
                        }
                    }
                }
                In::Scalar(f, i) => {
                    fbuf.fill(*f);
                    ibuf.fill(*i);
                }
            }
        }
        let Some(range) = byte_range(*d, n, e, mem.get(dst.buf).len()) else {
            return Some(Err("vector op writes outside its output buffer"));
        };
        let out = &mut mem.get_mut(dst.buf).bytes_mut()[range];
        for (j, c) in out.chunks_exact_mut(size).enumerate() {
            if let Some(f) = fop {
                write_f(e, f(a[j], b[j]), c);
            } else if let Some(f) = iop {
                write_i(e, f(ai[j], bi[j]), c);
            }
        }
    }
    Some(Ok(()))
}

/// The rows a binary op walks: the output's row starts, each input's view
/// and row starts, and the row length.
struct Rows<'a> {
    dst: &'a [i64],
    x: (&'a MemRefVal, &'a [i64]),
    y: (&'a MemRefVal, &'a [i64]),
    n: usize,
}

/// An f32 binary op computed in f32: for +, -, * and / that is bit-for-bit
/// the f64-then-round result of the generic path (f64 carries more than
/// twice f32's precision, so rounding twice is harmless), and it lets the
/// compiler vectorise the row.
fn f32_binary(
    mem: &mut Memory,
    dst: &MemRefVal,
    rows: Rows<'_>,
    f: impl Fn(f32, f32) -> f32,
) -> Result<(), &'static str> {
    let n = rows.n;
    let (mut a, mut b) = (vec![0f32; n], vec![0f32; n]);
    let decode = |mem: &Memory, m: &MemRefVal, start: i64, out: &mut [f32]| {
        let range =
            byte_range(start, n, Elem::F32, mem.get(m.buf).len()).ok_or("vector op reads outside its input buffer")?;
        for (v, c) in out.iter_mut().zip(mem.get(m.buf).bytes()[range].chunks_exact(4)) {
            *v = f32::from_le_bytes(c.try_into().unwrap());
        }
        Ok::<(), &'static str>(())
    };
    for (r, d) in rows.dst.iter().enumerate() {
        decode(mem, rows.x.0, rows.x.1[r], &mut a)?;
        decode(mem, rows.y.0, rows.y.1[r], &mut b)?;
        let range =
            byte_range(*d, n, Elem::F32, mem.get(dst.buf).len()).ok_or("vector op writes outside its output buffer")?;
        let out = &mut mem.get_mut(dst.buf).bytes_mut()[range];
        for ((c, x), y) in out.chunks_exact_mut(4).zip(&a).zip(&b) {
            c.copy_from_slice(&f(*x, *y).to_le_bytes());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::Space;
    use crate::value::{load, store};

    /// The fast path against the generic element-by-element semantics
    /// (`apply`, `load`, `store`) on awkward values, for every op, type and
    /// a scalar operand, on 2-d views with a row pitch.
    #[test]
    fn elementwise_matches_the_generic_path_bit_for_bit() {
        let floats = [0.0, -0.0, 1.5, -2.25, 65504.0, 1e-8, 3.0e38, f64::INFINITY, f64::NAN, -1e30];
        let ints = [0i64, 1, -1, 32767, -32768, 2147483647, -2147483648, 12345, -999, 7];
        for e in [Elem::F32, Elem::F16, Elem::Int(32), Elem::Int(16)] {
            for op in ["vadd", "vsub", "vmul", "vdiv", "vmax", "vmin", "vrelu", "vabs", "vand", "vor", "vxor"] {
                let known = if e.is_float() { float_op(op).is_some() } else { int_op(op).is_some() };
                if !known {
                    continue;
                }
                let mut mem = Memory::default();
                let (rows, cols, pitch) = (3i64, 10i64, 12i64);
                let bufs: Vec<_> =
                    (0..3).map(|_| mem.alloc((rows * pitch) as usize * e.size(), Space::Ub).unwrap()).collect();
                let view = |b| MemRefVal {
                    buf: b,
                    elem: e,
                    offset: 1,
                    sizes: vec![rows, cols],
                    strides: vec![pitch, 1],
                    root: None,
                    life: 0,
                };
                let (x, y, z) = (view(bufs[0]), view(bufs[1]), view(bufs[2]));
                let mut k = 0;
                for m in [&x, &y] {
                    m.for_each(|o| {
                        let v = if e.is_float() { Val::Float(floats[k % 10]) } else { Val::Int(ints[(k * 7) % 10]) };
                        assert!(store(&mut mem, m.buf, e, o, &v));
                        k += 3;
                    });
                }
                for second in [Val::Mem(std::rc::Rc::new(y.clone())), Val::Float(-1.5), Val::Int(3)] {
                    let ins = vec![Val::Mem(std::rc::Rc::new(x.clone())), second.clone()];
                    assert!(matches!(elementwise(&mut mem, op, &ins, &z), Some(Ok(()))), "{op} {e:?}");
                    let (mut xo, mut yo, mut zo) = (Vec::new(), Vec::new(), Vec::new());
                    x.for_each(|o| xo.push(o));
                    y.for_each(|o| yo.push(o));
                    z.for_each(|o| zo.push(o));
                    for i in 0..zo.len() {
                        let a = load(&mem, x.buf, e, xo[i]).unwrap();
                        let b = match &second {
                            Val::Mem(_) => load(&mem, y.buf, e, yo[i]).unwrap(),
                            s => s.clone(),
                        };
                        let want = super::super::hivm::apply(op, e, &[a, b]).unwrap();
                        let mut scratch = Memory::default();
                        let sb = scratch.alloc(8, Space::Ub).unwrap();
                        assert!(store(&mut scratch, sb, e, 0, &want));
                        let wb = &scratch.get(sb).bytes()[..e.size()];
                        let s = zo[i] as usize * e.size();
                        let got = &mem.get(z.buf).bytes()[s..s + e.size()];
                        assert_eq!(got, wb, "{op} {e:?} element {i}");
                    }
                }
            }
        }
    }
}
