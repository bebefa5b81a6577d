//! `arith` ops on scalars. Integers are kept sign-extended from their width,
//! floats rounded to their type after every op.

use hivm_ir::{AttrData, OpId};

use super::{Interp, R, RunError, unsupported};
use crate::value::{Elem, Val, norm_int, round_float, unsigned};

/// The arith ops the twin runs, decoded once per op.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
enum A {
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

    pub(super) fn arith(&mut self, op: OpId, name: &str) -> R<()> {
        let ir = self.ir;
        let Some(&res) = ir.results(op).first() else { return Err(unsupported(ir, op)) };
        let re = self.elem_of(op, res)?;
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
        let int2 = |f: fn(i64, i64) -> i64| -> Val { Val::Int(norm_int(f(a.int(), b.as_ref().unwrap().int()), w)) };
        let v = match code {
            A::Addi => int2(i64::wrapping_add),
            A::Subi => int2(i64::wrapping_sub),
            A::Muli => int2(i64::wrapping_mul),
            A::Andi => int2(|x, y| x & y),
            A::Ori => int2(|x, y| x | y),
            A::Xori => int2(|x, y| x ^ y),
            A::Maxsi => int2(i64::max),
            A::Minsi => int2(i64::min),
            A::Maxui | A::Minui => {
                let (x, y) = (unsigned(a.int(), w), unsigned(b.unwrap().int(), w));
                let r = if code == A::Maxui { x.max(y) } else { x.min(y) };
                Val::Int(norm_int(r as i64, w))
            }
            A::Divsi | A::Remsi | A::Ceildivsi | A::Floordivsi => {
                let (x, y) = (a.int(), b.unwrap().int());
                if y == 0 {
                    return Err(RunError::at(op, "integer division by zero"));
                }
                let r = match code {
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
                };
                Val::Int(norm_int(r, w))
            }
            A::Divui | A::Remui | A::Ceildivui => {
                let (x, y) = (unsigned(a.int(), w), unsigned(b.unwrap().int(), w));
                if y == 0 {
                    return Err(RunError::at(op, "integer division by zero"));
                }
                let r = match code {
                    A::Divui => x / y,
                    A::Remui => x % y,
                    _ => x.div_ceil(y),
                };
                Val::Int(norm_int(r as i64, w))
            }
            A::Shli | A::Shrsi | A::Shrui => {
                let s = unsigned(b.unwrap().int(), w);
                let x = a.int();
                let r = if s >= w as u64 {
                    if code == A::Shrsi && x < 0 { -1 } else { 0 }
                } else {
                    match code {
                        A::Shli => x.wrapping_shl(s as u32),
                        A::Shrsi => x >> s,
                        _ => (unsigned(x, w) >> s) as i64,
                    }
                };
                Val::Int(norm_int(r, w))
            }
            A::Addf | A::Subf | A::Mulf | A::Divf | A::Remf | A::Maxnumf | A::Minnumf | A::Maximumf | A::Minimumf => {
                let (x, y) = (a.float(), b.unwrap().float());
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
                    _ => {
                        if x.is_nan() || y.is_nan() {
                            f64::NAN
                        } else {
                            x.min(y)
                        }
                    }
                };
                Val::Float(round_float(r, re))
            }
            A::Negf => Val::Float(-a.float()),
            A::Cmpi => {
                let pred = ir.get_attr(op, "predicate").and_then(|p| ir.as_int(p)).unwrap_or(0);
                let ow = self.elem_of(op, ops[0])?.width();
                let (x, y) = (a.int(), b.unwrap().int());
                let (ux, uy) = (unsigned(x, ow), unsigned(y, ow));
                let r = match pred {
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
                    _ => return Err(RunError::at(op, format!("unknown cmpi predicate {pred}"))),
                };
                Val::Int(r as i64)
            }
            A::Cmpf => {
                let pred = ir.get_attr(op, "predicate").and_then(|p| ir.as_int(p)).unwrap_or(0);
                let (x, y) = (a.float(), b.unwrap().float());
                let unordered = x.is_nan() || y.is_nan();
                let r = match pred {
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
                    _ => return Err(RunError::at(op, format!("unknown cmpf predicate {pred}"))),
                };
                Val::Int(r as i64)
            }
            A::Select => {
                let c = a.int() != 0;
                if c { b.unwrap() } else { self.get(ops[2]).clone() }
            }
            A::IndexCast | A::Extsi | A::Trunci => {
                let from = self.elem_of(op, ops[0])?;
                // i1 true sign-extends to all ones.
                let x = if from.width() == 1 && a.int() == 1 { -1 } else { a.int() };
                Val::Int(norm_int(x, w))
            }
            A::IndexCastui | A::Extui => {
                let from = self.elem_of(op, ops[0])?;
                Val::Int(norm_int(unsigned(a.int(), from.width()) as i64, w))
            }
            A::Sitofp => {
                let from = self.elem_of(op, ops[0])?;
                let x = if from.width() == 1 && a.int() == 1 { -1 } else { a.int() };
                Val::Float(round_float(x as f64, re))
            }
            A::Uitofp => {
                let from = self.elem_of(op, ops[0])?;
                Val::Float(round_float(unsigned(a.int(), from.width()) as f64, re))
            }
            A::Fptosi => Val::Int(norm_int(a.float() as i64, w)),
            A::Fptoui => Val::Int(norm_int(a.float() as u64 as i64, w)),
            A::Extf | A::Truncf => Val::Float(round_float(a.float(), re)),
            A::Bitcast => {
                let from = self.elem_of(op, ops[0])?;
                let bits = match from {
                    Elem::F16 => half::f16::from_f64(a.float()).to_bits() as u64,
                    Elem::BF16 => half::bf16::from_f64(a.float()).to_bits() as u64,
                    Elem::F32 => (a.float() as f32).to_bits() as u64,
                    Elem::F64 => a.float().to_bits(),
                    _ => unsigned(a.int(), from.width()),
                };
                if re.is_float() { Val::Float(float_from_bits(bits, re)) } else { Val::Int(norm_int(bits as i64, w)) }
            }
            _ => return Err(unsupported(ir, op)),
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
        _ => f64::from_bits(bits),
    }
}
