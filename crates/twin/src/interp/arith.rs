//! `arith` ops on scalars. Integers are kept sign-extended from their width,
//! floats rounded to their type after every op.

use hivm_ir::{AttrData, OpId};

use super::{Interp, R, RunError, unsupported};
use crate::value::{Elem, Val, norm_int, round_float, unsigned};

/// The arith ops the twin runs, decoded once per op.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub(super) enum A {
    Constant,
    Addi,
    Subi,
    Muli,
    Andi,
    Ori,
    Xori,
    Maxsi,
    Minsi,
    Maxui,
    Minui,
    Divsi,
    Remsi,
    Ceildivsi,
    Floordivsi,
    Divui,
    Remui,
    Ceildivui,
    Shli,
    Shrsi,
    Shrui,
    Addf,
    Subf,
    Mulf,
    Divf,
    Remf,
    Maxnumf,
    Minnumf,
    Maximumf,
    Minimumf,
    Negf,
    Cmpi,
    Cmpf,
    Select,
    IndexCast,
    Extsi,
    Trunci,
    IndexCastui,
    Extui,
    Sitofp,
    Uitofp,
    Fptosi,
    Fptoui,
    Extf,
    Truncf,
    Bitcast,
}

const NAMES: &[&str] = &[
    "constant",
    "addi",
    "subi",
    "muli",
    "andi",
    "ori",
    "xori",
    "maxsi",
    "minsi",
    "maxui",
    "minui",
    "divsi",
    "remsi",
    "ceildivsi",
    "floordivsi",
    "divui",
    "remui",
    "ceildivui",
    "shli",
    "shrsi",
    "shrui",
    "addf",
    "subf",
    "mulf",
    "divf",
    "remf",
    "maxnumf",
    "minnumf",
    "maximumf",
    "minimumf",
    "negf",
    "cmpi",
    "cmpf",
    "select",
    "index_cast",
    "extsi",
    "trunci",
    "index_castui",
    "extui",
    "sitofp",
    "uitofp",
    "fptosi",
    "fptoui",
    "extf",
    "truncf",
    "bitcast",
];

const ALL: &[A] = &[
    A::Constant,
    A::Addi,
    A::Subi,
    A::Muli,
    A::Andi,
    A::Ori,
    A::Xori,
    A::Maxsi,
    A::Minsi,
    A::Maxui,
    A::Minui,
    A::Divsi,
    A::Remsi,
    A::Ceildivsi,
    A::Floordivsi,
    A::Divui,
    A::Remui,
    A::Ceildivui,
    A::Shli,
    A::Shrsi,
    A::Shrui,
    A::Addf,
    A::Subf,
    A::Mulf,
    A::Divf,
    A::Remf,
    A::Maxnumf,
    A::Minnumf,
    A::Maximumf,
    A::Minimumf,
    A::Negf,
    A::Cmpi,
    A::Cmpf,
    A::Select,
    A::IndexCast,
    A::Extsi,
    A::Trunci,
    A::IndexCastui,
    A::Extui,
    A::Sitofp,
    A::Uitofp,
    A::Fptosi,
    A::Fptoui,
    A::Extf,
    A::Truncf,
    A::Bitcast,
];

impl Interp<'_> {
    fn elem_of(&mut self, op: OpId, v: hivm_ir::Value) -> R<Elem> {
        if let Some(e) = Elem::decode(self.elems[v.index()]) {
            return Ok(e);
        }
        let t = self.ir.value_type(v);
        let e = Elem::of(self.ir, t).ok_or_else(|| {
            RunError::at(op, "only scalar integer, index and float values are supported by the CPU twin (no vectors)")
        })?;
        self.elems[v.index()] = e.encode();
        Ok(e)
    }

    /// The op's kind, from a per-op cache (0: not decoded yet).
    fn arith_code(&mut self, op: OpId, name: &str) -> R<A> {
        let i = op.index();
        if i >= self.arith_codes.len() {
            self.arith_codes.resize(i + 1, 0);
        }
        let c = self.arith_codes[i];
        if c != 0 {
            return Ok(ALL[c as usize - 1]);
        }
        let short = &name["arith.".len()..];
        let k = NAMES.iter().position(|n| *n == short).ok_or_else(|| unsupported(self.ir, op))?;
        self.arith_codes[i] = k as u8 + 1;
        Ok(ALL[k])
    }

    /// `arith.select` between two memrefs (how `hivm-enable-multi-buffer`
    /// picks a buffer copy): the chosen view itself.
    fn select_memref(&mut self, op: OpId, res: hivm_ir::Value) -> R<()> {
        let ops = self.ir.operands(op);
        let v = self.get(if self.int(ops[0]) != 0 { ops[1] } else { ops[2] }).clone();
        if !matches!(v, Val::Mem(_)) {
            return Err(RunError::at(op, "select of a memref that has no value"));
        }
        self.set(res, v);
        Ok(())
    }

    pub(super) fn arith(&mut self, op: OpId, name: &str) -> R<()> {
        let ir = self.ir;
        let Some(&res) = ir.results(op).first() else { return Err(unsupported(ir, op)) };
        let re = match self.elem_of(op, res) {
            Ok(e) => e,
            Err(_) if name == "arith.select" && ir.type_data(ir.value_type(res)).is_memref() => {
                return self.select_memref(op, res);
            }
            Err(e) => return Err(e),
        };
        let code = self.arith_code(op, name)?;
        if code == A::Constant {
            let v = match ir.get_attr(op, "value").map(|a| ir.attr_data(a)) {
                Some(AttrData::Integer { value, .. }) => Val::Int(norm_int(*value as i64, re.width())),
                Some(AttrData::Float { bits, .. }) => Val::Float(float_from_bits(*bits as u64, re)),
                _ => return Err(RunError::at(op, "only scalar constants are supported by the CPU twin")),
            };
            self.set(res, v);
            return Ok(());
        }
        let ops = ir.operands(op);
        let a = self.get(ops[0]).clone();
        let b = ops.get(1).map(|v| self.get(*v).clone());
        let w = re.width();
        let v = match code.class() {
            Class::Int => {
                let r = int_binary(code, a.int(), b.unwrap().int(), w).map_err(|m| RunError::at(op, m))?;
                Val::Int(r)
            }
            Class::Float => Val::Float(float_binary(code, a.float(), b.unwrap().float(), re)),
            Class::Negf => Val::Float(-a.float()),
            Class::Cmpi => {
                let pred = ir.get_attr(op, "predicate").and_then(|p| ir.as_int(p)).unwrap_or(0);
                let ow = self.elem_of(op, ops[0])?.width();
                let r = cmpi(i64::try_from(pred).unwrap_or(-1), a.int(), b.unwrap().int(), ow)
                    .ok_or_else(|| RunError::at(op, format!("unknown cmpi predicate {pred}")))?;
                Val::Int(r as i64)
            }
            Class::Cmpf => {
                let pred = ir.get_attr(op, "predicate").and_then(|p| ir.as_int(p)).unwrap_or(0);
                let r = cmpf(i64::try_from(pred).unwrap_or(-1), a.float(), b.unwrap().float())
                    .ok_or_else(|| RunError::at(op, format!("unknown cmpf predicate {pred}")))?;
                Val::Int(r as i64)
            }
            Class::Select => {
                let c = a.int() != 0;
                if c { b.unwrap() } else { self.get(ops[2]).clone() }
            }
            Class::Cast => {
                let from = self.elem_of(op, ops[0])?;
                let x = if from.is_float() { Num::F(a.float()) } else { Num::I(a.int()) };
                match cast(code, from, re, x) {
                    Num::I(i) => Val::Int(i),
                    Num::F(f) => Val::Float(f),
                }
            }
            Class::Constant => return Err(unsupported(ir, op)),
        };
        self.set(res, v);
        Ok(())
    }
}

pub fn float_from_bits(bits: u64, e: Elem) -> f64 {
    match e {
        Elem::F16 => half::f16::from_bits(bits as u16).to_f64(),
        Elem::BF16 => half::bf16::from_bits(bits as u16).to_f64(),
        Elem::F32 => f32::from_bits(bits as u32) as f64,
        Elem::F8(f) => f.decode(bits as u8) as f64,
        _ => f64::from_bits(bits),
    }
}

/// How an arith op computes (what its operands and result are).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Class {
    Constant,
    Int,
    Float,
    Negf,
    Cmpi,
    Cmpf,
    Select,
    Cast,
}

impl A {
    pub(super) fn class(self) -> Class {
        use A::*;
        match self {
            Constant => Class::Constant,
            Addi | Subi | Muli | Andi | Ori | Xori | Maxsi | Minsi | Maxui | Minui | Divsi | Remsi | Ceildivsi
            | Floordivsi | Divui | Remui | Ceildivui | Shli | Shrsi | Shrui => Class::Int,
            Addf | Subf | Mulf | Divf | Remf | Maxnumf | Minnumf | Maximumf | Minimumf => Class::Float,
            Negf => Class::Negf,
            Cmpi => Class::Cmpi,
            Cmpf => Class::Cmpf,
            Select => Class::Select,
            IndexCast | Extsi | Trunci | IndexCastui | Extui | Sitofp | Uitofp | Fptosi | Fptoui | Extf | Truncf
            | Bitcast => Class::Cast,
        }
    }

    /// The kind named `arith.<short>`.
    pub(super) fn named(short: &str) -> Option<A> {
        NAMES.iter().position(|n| *n == short).map(|k| ALL[k])
    }
}

/// A scalar as the ops see it.
#[derive(Clone, Copy, Debug)]
pub(super) enum Num {
    I(i64),
    F(f64),
}

/// An integer op of `width` bits on sign-extended operands; the result is
/// sign-extended too. Division by zero is the only failure.
pub(super) fn int_binary(code: A, x: i64, y: i64, w: u32) -> Result<i64, &'static str> {
    let r = match code {
        A::Addi => x.wrapping_add(y),
        A::Subi => x.wrapping_sub(y),
        A::Muli => x.wrapping_mul(y),
        A::Andi => x & y,
        A::Ori => x | y,
        A::Xori => x ^ y,
        A::Maxsi => x.max(y),
        A::Minsi => x.min(y),
        A::Maxui | A::Minui => {
            let (ux, uy) = (unsigned(x, w), unsigned(y, w));
            (if code == A::Maxui { ux.max(uy) } else { ux.min(uy) }) as i64
        }
        A::Divsi | A::Remsi | A::Ceildivsi | A::Floordivsi => {
            if y == 0 {
                return Err("integer division by zero");
            }
            match code {
                A::Divsi => x.wrapping_div(y),
                A::Remsi => x.wrapping_rem(y),
                A::Ceildivsi => {
                    let q = x.wrapping_div(y);
                    if (x % y != 0) && ((x < 0) == (y < 0)) { q + 1 } else { q }
                }
                _ => {
                    let q = x.wrapping_div(y);
                    if (x % y != 0) && ((x < 0) != (y < 0)) { q - 1 } else { q }
                }
            }
        }
        A::Divui | A::Remui | A::Ceildivui => {
            let (ux, uy) = (unsigned(x, w), unsigned(y, w));
            if uy == 0 {
                return Err("integer division by zero");
            }
            (match code {
                A::Divui => ux / uy,
                A::Remui => ux % uy,
                _ => ux.div_ceil(uy),
            }) as i64
        }
        A::Shli | A::Shrsi | A::Shrui => {
            let s = unsigned(y, w);
            if s >= w as u64 {
                if code == A::Shrsi && x < 0 { -1 } else { 0 }
            } else {
                match code {
                    A::Shli => x.wrapping_shl(s as u32),
                    A::Shrsi => x >> s,
                    _ => (unsigned(x, w) >> s) as i64,
                }
            }
        }
        _ => unreachable!("not an integer binary op: {code:?}"),
    };
    Ok(norm_int(r, w))
}

/// A float op, rounded to the result type.
pub(super) fn float_binary(code: A, x: f64, y: f64, re: Elem) -> f64 {
    let r = match code {
        A::Addf => x + y,
        A::Subf => x - y,
        A::Mulf => x * y,
        A::Divf => x / y,
        A::Remf => x % y,
        A::Maxnumf => x.max(y),
        A::Minnumf => x.min(y),
        A::Maximumf => {
            if x.is_nan() || y.is_nan() {
                f64::NAN
            } else {
                x.max(y)
            }
        }
        A::Minimumf => {
            if x.is_nan() || y.is_nan() {
                f64::NAN
            } else {
                x.min(y)
            }
        }
        _ => unreachable!("not a float binary op: {code:?}"),
    };
    round_float(r, re)
}

/// `arith.cmpi` with predicate number `pred` on `ow`-bit operands.
pub(super) fn cmpi(pred: i64, x: i64, y: i64, ow: u32) -> Option<bool> {
    let (ux, uy) = (unsigned(x, ow), unsigned(y, ow));
    Some(match pred {
        0 => x == y,
        1 => x != y,
        2 => x < y,
        3 => x <= y,
        4 => x > y,
        5 => x >= y,
        6 => ux < uy,
        7 => ux <= uy,
        8 => ux > uy,
        9 => ux >= uy,
        _ => return None,
    })
}

/// `arith.cmpf` with predicate number `pred`.
pub(super) fn cmpf(pred: i64, x: f64, y: f64) -> Option<bool> {
    let unordered = x.is_nan() || y.is_nan();
    Some(match pred {
        0 => false,
        1 => !unordered && x == y,
        2 => !unordered && x > y,
        3 => !unordered && x >= y,
        4 => !unordered && x < y,
        5 => !unordered && x <= y,
        6 => !unordered && x != y,
        7 => !unordered,
        8 => unordered || x == y,
        9 => unordered || x > y,
        10 => unordered || x >= y,
        11 => unordered || x < y,
        12 => unordered || x <= y,
        13 => unordered || x != y,
        14 => unordered,
        15 => true,
        _ => return None,
    })
}

/// A conversion from `from` to `re`.
pub(super) fn cast(code: A, from: Elem, re: Elem, x: Num) -> Num {
    let (xi, xf) = match x {
        Num::I(i) => (i, i as f64),
        Num::F(f) => (f as i64, f),
    };
    let w = re.width();
    match code {
        A::IndexCast | A::Extsi | A::Trunci => {
            // i1 true sign-extends to all ones.
            let v = if from.width() == 1 && xi == 1 { -1 } else { xi };
            Num::I(norm_int(v, w))
        }
        A::IndexCastui | A::Extui => Num::I(norm_int(unsigned(xi, from.width()) as i64, w)),
        A::Sitofp => {
            let v = if from.width() == 1 && xi == 1 { -1 } else { xi };
            Num::F(round_float(v as f64, re))
        }
        A::Uitofp => Num::F(round_float(unsigned(xi, from.width()) as f64, re)),
        A::Fptosi => Num::I(norm_int(xf as i64, w)),
        A::Fptoui => Num::I(norm_int(xf as u64 as i64, w)),
        A::Extf | A::Truncf => Num::F(round_float(xf, re)),
        A::Bitcast => {
            let bits = match from {
                Elem::F16 => half::f16::from_f64(xf).to_bits() as u64,
                Elem::BF16 => half::bf16::from_f64(xf).to_bits() as u64,
                Elem::F32 => (xf as f32).to_bits() as u64,
                Elem::F64 => xf.to_bits(),
                Elem::F8(f) => f.encode(xf) as u64,
                _ => unsigned(xi, from.width()),
            };
            if re.is_float() { Num::F(float_from_bits(bits, re)) } else { Num::I(norm_int(bits as i64, w)) }
        }
        _ => unreachable!("not a cast: {code:?}"),
    }
}
