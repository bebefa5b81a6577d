//! Runtime values: scalars and memref descriptors.

use std::rc::Rc;

use hivm_ir::types::FloatKind;
use hivm_ir::{Ir, Type, TypeData};

use crate::f8::F8;
use crate::memory::{BufId, Memory};

/// An element or scalar type the twin computes with.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Elem {
    /// Signless integer of this width (1 to 64 bits).
    Int(u32),
    Index,
    F16,
    BF16,
    F32,
    F64,
    /// `f8E4M3FN` / `f8E5M2` (`crate::f8`): the MX matmul's inputs.
    F8(F8),
}

impl Elem {
    pub fn of(ir: &Ir, t: Type) -> Option<Elem> {
        Some(match ir.type_data(t) {
            TypeData::Integer { width, .. } if *width <= 64 => Elem::Int(*width),
            TypeData::Index => Elem::Index,
            TypeData::Float(FloatKind::F16) => Elem::F16,
            TypeData::Float(FloatKind::BF16) => Elem::BF16,
            TypeData::Float(FloatKind::F32) => Elem::F32,
            TypeData::Float(FloatKind::F64) => Elem::F64,
            TypeData::Float(FloatKind::F8E4M3FN) => Elem::F8(F8::E4M3FN),
            TypeData::Float(FloatKind::F8E5M2) => Elem::F8(F8::E5M2),
            _ => return None,
        })
    }

    /// Bytes in memory (i1 takes a byte, as MLIR's lowering stores it).
    pub fn size(self) -> usize {
        match self {
            Elem::Int(w) => (w as usize).div_ceil(8).next_power_of_two(),
            Elem::Index | Elem::F64 => 8,
            Elem::F16 | Elem::BF16 => 2,
            Elem::F32 => 4,
            Elem::F8(_) => 1,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, Elem::F16 | Elem::BF16 | Elem::F32 | Elem::F64 | Elem::F8(_))
    }

    pub fn width(self) -> u32 {
        match self {
            Elem::Int(w) => w,
            Elem::Index => 64,
            _ => (self.size() * 8) as u32,
        }
    }

    /// The `.npy` dtype descriptor.
    pub fn npy_descr(self) -> Option<&'static str> {
        Some(match self {
            Elem::Int(1) => "|b1",
            Elem::Int(8) => "|i1",
            Elem::Int(16) => "<i2",
            Elem::Int(32) => "<i4",
            Elem::Int(64) | Elem::Index => "<i8",
            Elem::F16 => "<f2",
            Elem::F32 => "<f4",
            Elem::F64 => "<f8",
            _ => return None,
        })
    }

    pub fn name(self) -> String {
        match self {
            Elem::Int(w) => format!("i{w}"),
            Elem::Index => "index".into(),
            Elem::F16 => "f16".into(),
            Elem::BF16 => "bf16".into(),
            Elem::F32 => "f32".into(),
            Elem::F64 => "f64".into(),
            Elem::F8(F8::E4M3FN) => "f8E4M3FN".into(),
            Elem::F8(F8::E5M2) => "f8E5M2".into(),
        }
    }

    /// A one-byte code (never 0), for caches.
    pub fn encode(self) -> u8 {
        match self {
            Elem::Int(w) => w as u8,
            Elem::Index => 65,
            Elem::F16 => 66,
            Elem::BF16 => 67,
            Elem::F32 => 68,
            Elem::F64 => 69,
            Elem::F8(F8::E4M3FN) => 70,
            Elem::F8(F8::E5M2) => 71,
        }
    }

    pub fn decode(code: u8) -> Option<Elem> {
        Some(match code {
            1..=64 => Elem::Int(code as u32),
            65 => Elem::Index,
            66 => Elem::F16,
            67 => Elem::BF16,
            68 => Elem::F32,
            69 => Elem::F64,
            70 => Elem::F8(F8::E4M3FN),
            71 => Elem::F8(F8::E5M2),
            _ => return None,
        })
    }

    pub fn parse(s: &str) -> Option<Elem> {
        Some(match s {
            "index" => Elem::Index,
            "f16" => Elem::F16,
            "bf16" => Elem::BF16,
            "f32" => Elem::F32,
            "f64" => Elem::F64,
            "f8E4M3FN" => Elem::F8(F8::E4M3FN),
            "f8E5M2" => Elem::F8(F8::E5M2),
            _ => {
                // The twin keeps integers by width alone (operations say
                // how to read them), so ui8 / si8 / i8 are one type.
                let digits = s.strip_prefix("ui").or_else(|| s.strip_prefix("si")).or_else(|| s.strip_prefix('i'))?;
                if !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                let w: u32 = digits.parse().ok()?;
                if w == 0 || w > 64 {
                    return None;
                }
                Elem::Int(w)
            }
        })
    }
}

/// An integer as the twin keeps it: sign-extended from its width (i1 is 0 or 1).
pub fn norm_int(v: i64, width: u32) -> i64 {
    match width {
        1 => v & 1,
        64 => v,
        w => (v << (64 - w)) >> (64 - w),
    }
}

/// The value's bits as an unsigned number of `width` bits.
pub fn unsigned(v: i64, width: u32) -> u64 {
    if width >= 64 { v as u64 } else { (v as u64) & ((1u64 << width) - 1) }
}

/// A float rounded to the precision of `e`.
pub fn round_float(v: f64, e: Elem) -> f64 {
    match e {
        Elem::F16 => half::f16::from_f64(v).to_f64(),
        Elem::BF16 => half::bf16::from_f64(v).to_f64(),
        Elem::F32 => v as f32 as f64,
        Elem::F8(f) => f.decode(f.encode(v)) as f64,
        _ => v,
    }
}

/// Row-major multi-index of linear position `pos` in `shape`.
pub fn unflatten(mut pos: i64, shape: &[i64]) -> Vec<i64> {
    let mut idx = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        let n = shape[d].max(1);
        idx[d] = pos % n;
        pos /= n;
    }
    idx
}

/// Row-major strides of a shape, in elements.
pub fn row_major_strides(sizes: &[i64]) -> Vec<i64> {
    let mut strides = vec![1i64; sizes.len()];
    for d in (0..sizes.len().saturating_sub(1)).rev() {
        // Saturating: a view that large fails its bounds check instead.
        strides[d] = strides[d + 1].saturating_mul(sizes[d + 1].max(1));
    }
    strides
}

#[derive(Clone, Debug, PartialEq)]
pub struct MemRefVal {
    pub buf: BufId,
    pub elem: Elem,
    /// In elements, from the start of the buffer.
    pub offset: i64,
    pub sizes: Vec<i64>,
    pub strides: Vec<i64>,
    /// The `pointer_cast` or `memref.alloc` this is a view of, when the
    /// kernel made the buffer (the ownership check names buffers by it).
    pub root: Option<hivm_ir::OpId>,
    /// Which run of `root` made the buffer (the ownership check tells the
    /// instances a loop makes with one defining op apart).
    pub life: u32,
}

impl MemRefVal {
    pub fn contiguous(buf: BufId, elem: Elem, sizes: Vec<i64>) -> MemRefVal {
        let strides = row_major_strides(&sizes);
        MemRefVal { buf, elem, offset: 0, sizes, strides, root: None, life: 0 }
    }

    pub fn num_elements(&self) -> i64 {
        self.sizes.iter().fold(1i64, |a, d| a.saturating_mul(*d))
    }

    /// Element offset of a multi-index, or None when it is out of range.
    pub fn linear(&self, idx: &[i64]) -> Option<i64> {
        let mut off = self.offset;
        for ((i, n), s) in idx.iter().zip(&self.sizes).zip(&self.strides) {
            if *i < 0 || i >= n {
                return None;
            }
            off = off.checked_add(i.checked_mul(*s)?)?;
        }
        Some(off)
    }

    /// Calls `f` with the element offset of every element, in row-major order.
    pub fn for_each(&self, mut f: impl FnMut(i64)) {
        if self.sizes.contains(&0) {
            return;
        }
        let rank = self.sizes.len();
        let mut idx = vec![0i64; rank];
        loop {
            let off = self.offset + idx.iter().zip(&self.strides).map(|(i, s)| i * s).sum::<i64>();
            f(off);
            let mut d = rank;
            loop {
                if d == 0 {
                    return;
                }
                d -= 1;
                idx[d] += 1;
                if idx[d] < self.sizes[d] {
                    break;
                }
                idx[d] = 0;
            }
        }
    }

    /// The byte range `[lo, hi)` the view spans within its buffer.
    pub fn byte_span(&self) -> (i64, i64) {
        if self.sizes.contains(&0) {
            return (0, 0);
        }
        // In i128, clamped: a type too large for the address space spans
        // more than any memory, which the callers' bounds checks report.
        let mut lo = self.offset as i128;
        let mut hi = self.offset as i128;
        for (n, s) in self.sizes.iter().zip(&self.strides) {
            let reach = (*n as i128 - 1) * *s as i128;
            if *s >= 0 {
                hi += reach;
            } else {
                lo += reach;
            }
        }
        let e = self.elem.size() as i128;
        let clamp = |x: i128| x.clamp(i64::MIN as i128, i64::MAX as i128) as i64;
        (clamp(lo * e), clamp((hi + 1) * e))
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    Int(i64),
    Float(f64),
    Mem(Rc<MemRefVal>),
    /// Not computed (yet): reading one is an interpreter bug.
    Undef,
}

impl Val {
    pub fn int(&self) -> i64 {
        match self {
            Val::Int(v) => *v,
            Val::Float(f) => *f as i64,
            _ => 0,
        }
    }

    pub fn float(&self) -> f64 {
        match self {
            Val::Float(f) => *f,
            Val::Int(v) => *v as f64,
            _ => 0.0,
        }
    }
}

/// Reads one element at element offset `off` of buffer `buf`.
pub fn load(mem: &Memory, buf: BufId, elem: Elem, off: i64) -> Option<Val> {
    let b = mem.get(buf).bytes();
    let size = elem.size();
    let start = usize::try_from(off).ok()?.checked_mul(size)?;
    let bytes = b.get(start..start + size)?;
    let mut raw = [0u8; 8];
    raw[..size].copy_from_slice(bytes);
    let bits = u64::from_le_bytes(raw);
    Some(match elem {
        Elem::F16 => Val::Float(half::f16::from_bits(bits as u16).to_f64()),
        Elem::BF16 => Val::Float(half::bf16::from_bits(bits as u16).to_f64()),
        Elem::F32 => Val::Float(f32::from_bits(bits as u32) as f64),
        Elem::F64 => Val::Float(f64::from_bits(bits)),
        Elem::F8(f) => Val::Float(f.decode(bits as u8) as f64),
        Elem::Index => Val::Int(bits as i64),
        Elem::Int(w) => Val::Int(norm_int(bits as i64, w)),
    })
}

/// Writes one element; false when out of the buffer.
pub fn store(mem: &mut Memory, buf: BufId, elem: Elem, off: i64, v: &Val) -> bool {
    let size = elem.size();
    let Some(start) = usize::try_from(off).ok().and_then(|o| o.checked_mul(size)) else { return false };
    let bits: u64 = match elem {
        Elem::F16 => half::f16::from_f64(v.float()).to_bits() as u64,
        Elem::BF16 => half::bf16::from_f64(v.float()).to_bits() as u64,
        Elem::F32 => (v.float() as f32).to_bits() as u64,
        Elem::F64 => v.float().to_bits(),
        Elem::F8(f) => f.encode(v.float()) as u64,
        Elem::Index | Elem::Int(_) => v.int() as u64,
    };
    let b = mem.get_mut(buf).bytes_mut();
    match b.get_mut(start..start + size) {
        Some(dst) => {
            dst.copy_from_slice(&bits.to_le_bytes()[..size]);
            true
        }
        None => false,
    }
}
