//! Selecting combiners of `tt.reduce`: each result is `arith.select c,
//! element, accumulator`, so combining an element with itself gives it back
//! and the accumulator may start as a copy of the first slice while every
//! element, that one too, is still reduced (the `ins` are the whole
//! operands, as upstream's). A value-and-index pair whose comparisons are
//! one of upstream's argmin/argmax shapes also gets `reduce_mode` and
//! `tie_break_left`, which the hfusion conversion turns into
//! `hfusion.reduce_with_index`.

use hivm_ir::{Ir, OpId, Value};

/// Whether result `k` of the combiner (`ret`'s operands) is `select(c,
/// args[k], args[n + k])` for every `k`.
pub fn selects(ir: &Ir, ret: OpId, args: &[Value], n: usize) -> bool {
    let results = ir.operands(ret);
    results.len() == n
        && results.iter().enumerate().all(|(k, r)| {
            ir.defining_op(*r).is_some_and(|s| {
                ir.is_op(s, "arith.select") && ir.operand(s, 1) == args[k] && ir.operand(s, 2) == args[n + k]
            })
        })
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Pred {
    Lt,
    Gt,
    Eq,
}

fn unified(name: &str) -> Option<Pred> {
    match name {
        "slt" | "ult" | "olt" => Some(Pred::Lt),
        "sgt" | "ugt" | "ogt" => Some(Pred::Gt),
        "eq" | "oeq" | "ueq" => Some(Pred::Eq),
        _ => None,
    }
}

/// `(reduce_mode, tie_break_left)` of a selecting value-and-index combiner
/// whose ordering comparisons (in body order) are one of upstream's argmin /
/// argmax forms — `v < acc` alone, or with the tie-break `v == acc and i <
/// acc_i` before or after it (`>` alike) — each comparing the element (left)
/// with the accumulator (right); `None` for anything else, which then stays a
/// plain reduce.
pub fn mode(ir: &Ir, body: &[OpId], args: &[Value]) -> Option<(&'static str, &'static str)> {
    if args.len() != 4 {
        return None;
    }
    // (predicate, whether it compares the indices)
    let mut seq = Vec::new();
    for &o in body {
        let float = ir.is_op(o, "arith.cmpf");
        if !float && !ir.is_op(o, "arith.cmpi") {
            continue;
        }
        let name = ir.get_attr(o, "predicate").and_then(|a| hivm_dialects::arith::predicate_name(ir, float, a))?;
        let Some(p) = unified(name) else { continue };
        let (l, r) = (ir.operand(o, 0), ir.operand(o, 1));
        let index = match (l, r) {
            _ if (l, r) == (args[0], args[2]) => false,
            _ if (l, r) == (args[1], args[3]) => true,
            _ => return None,
        };
        seq.push((p, index));
    }
    use Pred::*;
    let (order, tie) = match seq.as_slice() {
        [(o, false)] => (*o, Lt),
        [(Eq, false), (t, true), (o, false)] | [(o, false), (Eq, false), (t, true)] => (*o, *t),
        _ => return None,
    };
    let mode = match order {
        Lt => "min_with_index",
        Gt => "max_with_index",
        Eq => return None,
    };
    let left = match tie {
        Lt => "true",
        Gt => "false",
        Eq => return None,
    };
    Some((mode, left))
}
