//! Bodies of structured ops decoded once into a straight-line program over
//! their arguments (arith and math on scalars, constants, `linalg.index`,
//! values from outside the op), computed with `arith.rs`'s functions, so
//! that a large op's body is not walked op by op at every point. A body
//! with any other op is left to the tree-walking path; results are the same.

use std::collections::HashMap;

use hivm_ir::{AttrData, BlockId, Ir, OpId, Value};

use super::arith::{A, Class, Num, cast, cmpf, cmpi, float_binary, float_from_bits, int_binary};
use super::{R, RunError};
use crate::value::{Elem, Val, norm_int, round_float};

/// Where an instruction's operand comes from.
#[derive(Clone, Copy)]
enum Src {
    /// The body's argument k (the operand's element at this point).
    Arg(usize),
    /// The result of instruction k.
    Tmp(usize),
    /// Constant or outer value k (see `Program::fixed`).
    Fixed(usize),
    /// `linalg.index d`.
    Index(usize),
}

enum Kind {
    Arith(A),
    Math(fn(f64) -> f64),
}

struct Instr {
    op: OpId,
    kind: Kind,
    srcs: [Src; 3],
    /// The result's element type, and the first operand's (compares, casts).
    re: Elem,
    from: Elem,
    pred: i64,
}

pub(super) struct Program {
    instrs: Vec<Instr>,
    yields: Vec<Src>,
    /// Per fixed slot: a constant of the body, or a value defined outside
    /// the op (None), whose value is read when the op starts.
    fixed: Vec<(Option<Val>, Option<Value>)>,
}

/// Decodes `body`, or None when it holds an op the program does not cover.
pub(super) fn decode(ir: &Ir, body: BlockId) -> Option<Program> {
    let mut at: HashMap<Value, Src> = HashMap::new();
    for (k, a) in ir.block_args(body).iter().enumerate() {
        at.insert(*a, Src::Arg(k));
    }
    let mut p = Program { instrs: Vec::new(), yields: Vec::new(), fixed: Vec::new() };
    let elem = |v: Value| Elem::of(ir, ir.value_type(v));
    fn src(at: &mut HashMap<Value, Src>, p: &mut Program, v: Value) -> Src {
        *at.entry(v).or_insert_with(|| {
            p.fixed.push((None, Some(v)));
            Src::Fixed(p.fixed.len() - 1)
        })
    }
    for op in ir.block_ops(body) {
        let name = ir.op_name(op);
        if name == "linalg.yield" {
            p.yields = ir.operands(op).iter().map(|v| src(&mut at, &mut p, *v)).collect();
            return Some(p);
        }
        if !ir.regions(op).is_empty() || ir.results(op).len() != 1 || ir.operands(op).len() > 3 {
            return None;
        }
        let res = ir.result(op, 0);
        if name == "linalg.index" {
            let d = ir.get_attr(op, "dim").and_then(|a| ir.as_int(a)).and_then(|d| usize::try_from(d).ok())?;
            at.insert(res, Src::Index(d));
            continue;
        }
        let re = elem(res)?;
        let kind = if let Some(short) = name.strip_prefix("arith.") {
            let code = A::named(short)?;
            if code == A::Constant {
                let v = match ir.get_attr(op, "value").map(|a| ir.attr_data(a)) {
                    Some(AttrData::Integer { value, .. }) => Val::Int(norm_int(*value as i64, re.width())),
                    Some(AttrData::Float { bits, .. }) => Val::Float(float_from_bits(*bits as u64, re)),
                    _ => return None,
                };
                p.fixed.push((Some(v), None));
                at.insert(res, Src::Fixed(p.fixed.len() - 1));
                continue;
            }
            Kind::Arith(code)
        } else if let Some(short) = name.strip_prefix("math.") {
            if !re.is_float() || ir.operands(op).len() != 1 {
                return None;
            }
            Kind::Math(super::math::unary(short)?)
        } else {
            return None;
        };
        let operands = ir.operands(op);
        let from = elem(*operands.first()?)?;
        let arity = match &kind {
            Kind::Math(_) => 1,
            Kind::Arith(code) => match code.class() {
                Class::Negf | Class::Cast => 1,
                Class::Select => 3,
                _ => 2,
            },
        };
        if operands.len() != arity {
            return None;
        }
        let pred = ir.get_attr(op, "predicate").and_then(|a| ir.as_int(a)).and_then(|v| i64::try_from(v).ok());
        let mut srcs = [Src::Arg(0); 3];
        for (k, v) in operands.iter().enumerate() {
            srcs[k] = src(&mut at, &mut p, *v);
        }
        p.instrs.push(Instr { op, kind, srcs, re, from, pred: pred.unwrap_or(-1) });
        at.insert(res, Src::Tmp(p.instrs.len() - 1));
    }
    None
}

/// The state of one run of a program over an op's points.
pub(super) struct Frame {
    fixed: Vec<Val>,
    tmps: Vec<Val>,
}

impl Program {
    /// A frame for this op, with outer values read through `get`.
    pub(super) fn frame(&self, get: impl Fn(Value) -> Val) -> Frame {
        let fixed =
            self.fixed.iter().map(|(c, v)| c.clone().unwrap_or_else(|| get(v.expect("an outer value")))).collect();
        Frame { fixed, tmps: Vec::with_capacity(self.instrs.len()) }
    }

    /// Ops the program stands for (for `--max-ops`).
    pub(super) fn len(&self) -> u64 {
        self.instrs.len() as u64 + 1
    }

    /// Runs the body on `args` at loop point `idx`; the yielded values go to `out`.
    pub(super) fn run(&self, f: &mut Frame, args: &[Val], idx: &[i64], out: &mut Vec<Val>) -> R<()> {
        f.tmps.clear();
        for ins in &self.instrs {
            let v = {
                let get = |s: Src| -> Val {
                    match s {
                        Src::Arg(k) => args[k].clone(),
                        Src::Tmp(k) => f.tmps[k].clone(),
                        Src::Fixed(k) => f.fixed[k].clone(),
                        Src::Index(d) => Val::Int(idx.get(d).copied().unwrap_or(0)),
                    }
                };
                let a = get(ins.srcs[0]);
                match &ins.kind {
                    Kind::Math(m) => Val::Float(round_float(m(a.float()), ins.re)),
                    Kind::Arith(code) => {
                        let w = ins.re.width();
                        match code.class() {
                            Class::Int => Val::Int(
                                int_binary(*code, a.int(), get(ins.srcs[1]).int(), w)
                                    .map_err(|m| RunError::at(ins.op, m))?,
                            ),
                            Class::Float => {
                                Val::Float(float_binary(*code, a.float(), get(ins.srcs[1]).float(), ins.re))
                            }
                            Class::Negf => Val::Float(-a.float()),
                            Class::Cmpi => {
                                let r = cmpi(ins.pred, a.int(), get(ins.srcs[1]).int(), ins.from.width()).ok_or_else(
                                    || RunError::at(ins.op, format!("unknown cmpi predicate {}", ins.pred)),
                                )?;
                                Val::Int(r as i64)
                            }
                            Class::Cmpf => {
                                let r = cmpf(ins.pred, a.float(), get(ins.srcs[1]).float()).ok_or_else(|| {
                                    RunError::at(ins.op, format!("unknown cmpf predicate {}", ins.pred))
                                })?;
                                Val::Int(r as i64)
                            }
                            Class::Select => {
                                if a.int() != 0 {
                                    get(ins.srcs[1])
                                } else {
                                    get(ins.srcs[2])
                                }
                            }
                            Class::Cast => {
                                let x = if ins.from.is_float() { Num::F(a.float()) } else { Num::I(a.int()) };
                                match cast(*code, ins.from, ins.re, x) {
                                    Num::I(i) => Val::Int(i),
                                    Num::F(x) => Val::Float(x),
                                }
                            }
                            Class::Constant => unreachable!("constants are fixed slots"),
                        }
                    }
                }
            };
            f.tmps.push(v);
        }
        out.clear();
        for s in &self.yields {
            out.push(match *s {
                Src::Arg(k) => args[k].clone(),
                Src::Tmp(k) => f.tmps[k].clone(),
                Src::Fixed(k) => f.fixed[k].clone(),
                Src::Index(d) => Val::Int(idx.get(d).copied().unwrap_or(0)),
            });
        }
        Ok(())
    }
}
