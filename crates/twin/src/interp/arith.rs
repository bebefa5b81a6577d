//! `arith` ops on scalars. Integers are kept sign-extended from their width,
//! floats rounded to their type after every op.

use hivm_ir::{AttrData, OpId};

use super::{Interp, R, RunError, unsupported};
use crate::value::{Elem, Val, norm_int, round_float, unsigned};

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

    pub(super) fn arith(&mut self, op: OpId, name: &str) -> R<()> {
        let ir = self.ir;
        let Some(&res) = ir.results(op).first() else { return Err(unsupported(ir, op)) };
        let re = self.elem_of(op, res)?;
        let short = &name["arith.".len()..];
        if short == "constant" {
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
        let v = match short {
            "addi" => int2(i64::wrapping_add),
            "subi" => int2(i64::wrapping_sub),
            "muli" => int2(i64::wrapping_mul),
            "andi" => int2(|x, y| x & y),
            "ori" => int2(|x, y| x | y),
            "xori" => int2(|x, y| x ^ y),
            "maxsi" => int2(i64::max),
            "minsi" => int2(i64::min),
            "maxui" | "minui" => {
                let (x, y) = (unsigned(a.int(), w), unsigned(b.unwrap().int(), w));
                let r = if short == "maxui" { x.max(y) } else { x.min(y) };
                Val::Int(norm_int(r as i64, w))
            }
            "divsi" | "remsi" | "ceildivsi" | "floordivsi" => {
                let (x, y) = (a.int(), b.unwrap().int());
                if y == 0 {
                    return Err(RunError::at(op, "integer division by zero"));
                }
                let r = match short {
                    "divsi" => x.wrapping_div(y),
                    "remsi" => x.wrapping_rem(y),
                    "ceildivsi" => {
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
            "divui" | "remui" | "ceildivui" => {
                let (x, y) = (unsigned(a.int(), w), unsigned(b.unwrap().int(), w));
                if y == 0 {
                    return Err(RunError::at(op, "integer division by zero"));
                }
                let r = match short {
                    "divui" => x / y,
                    "remui" => x % y,
                    _ => x.div_ceil(y),
                };
                Val::Int(norm_int(r as i64, w))
            }
            "shli" | "shrsi" | "shrui" => {
                let s = unsigned(b.unwrap().int(), w);
                let x = a.int();
                let r = if s >= w as u64 {
                    if short == "shrsi" && x < 0 { -1 } else { 0 }
                } else {
                    match short {
                        "shli" => x.wrapping_shl(s as u32),
                        "shrsi" => x >> s,
                        _ => (unsigned(x, w) >> s) as i64,
                    }
                };
                Val::Int(norm_int(r, w))
            }
            "addf" | "subf" | "mulf" | "divf" | "remf" | "maxnumf" | "minnumf" | "maximumf" | "minimumf" => {
                let (x, y) = (a.float(), b.unwrap().float());
                let r = match short {
                    "addf" => x + y,
                    "subf" => x - y,
                    "mulf" => x * y,
                    "divf" => x / y,
                    "remf" => x % y,
                    "maxnumf" => x.max(y),
                    "minnumf" => x.min(y),
                    "maximumf" => {
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
            "negf" => Val::Float(-a.float()),
            "cmpi" => {
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
            "cmpf" => {
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
            "select" => {
                let c = a.int() != 0;
                if c { b.unwrap() } else { self.get(ops[2]).clone() }
            }
            "index_cast" | "extsi" | "trunci" => {
                let from = self.elem_of(op, ops[0])?;
                // i1 true sign-extends to all ones.
                let x = if from.width() == 1 && a.int() == 1 { -1 } else { a.int() };
                Val::Int(norm_int(x, w))
            }
            "index_castui" | "extui" => {
                let from = self.elem_of(op, ops[0])?;
                Val::Int(norm_int(unsigned(a.int(), from.width()) as i64, w))
            }
            "sitofp" => {
                let from = self.elem_of(op, ops[0])?;
                let x = if from.width() == 1 && a.int() == 1 { -1 } else { a.int() };
                Val::Float(round_float(x as f64, re))
            }
            "uitofp" => {
                let from = self.elem_of(op, ops[0])?;
                Val::Float(round_float(unsigned(a.int(), from.width()) as f64, re))
            }
            "fptosi" => Val::Int(norm_int(a.float() as i64, w)),
            "fptoui" => Val::Int(norm_int(a.float() as u64 as i64, w)),
            "extf" | "truncf" => Val::Float(round_float(a.float(), re)),
            "bitcast" => {
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
