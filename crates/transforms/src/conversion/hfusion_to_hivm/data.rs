//! The ops that move or generate data: copies, transposes, aranges, loads
//! and stores (with their atomic kind), bitcasts, barriers, interleaves,
//! (de)interleaves, flips, cumulative ops, sorts, atomics, gathers and
//! scatters, prints and asserts (`hivm.hir.debug`).

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::{Attribute, Ir, OpId, Value};

use super::{Cx, build, enum_value, hivm_enum, ins_outs, replace_with, result_types, unsupported};

pub(super) fn rewrite(cx: &mut Cx<'_>, op: OpId, name: &str) -> Result<Option<bool>, Diagnostic> {
    let ir = &mut *cx.ir;
    let results = result_types(ir, op);
    let operands = ir.operands(op).to_vec();
    // The ops taking a first operand apart (verified IR always has it).
    let takes_first = matches!(
        name,
        "hfusion.flip" | "hfusion.cumsum" | "hfusion.cumprod" | "hfusion.gather" | "hfusion.gather_mask"
    );
    if takes_first && operands.len() < if name.contains("gather") { 3 } else { 1 } {
        return Ok(Some(false));
    }
    let new = match name {
        "linalg.copy" | "hfusion.load" => {
            let (ins, outs) = ins_outs(ir, op);
            let target = if name == "linalg.copy" { "hivm.hir.copy" } else { "hivm.hir.load" };
            build(ir, op, target, &[&ins[..1.min(ins.len())], &outs], &results, Vec::new())
        }
        "hfusion.store" => {
            let (ins, outs) = ins_outs(ir, op);
            let kind = enum_value(ir, op, "atomic_kind", "atomic_kind").unwrap_or_else(|| "none".into());
            let kind = atomic_kind(ir, op, &kind, cx.regbase)?;
            let kind = hivm_enum(ir, "atomic_kind", kind);
            build(ir, op, "hivm.hir.store", &[&ins, &outs], &results, vec![("atomic_kind", kind)])
        }
        "linalg.transpose" | "hfusion.arange" if let Some(why) = super::broadcast::mixed_semantics(ir, op) => {
            return super::refuse(ir, op, &why);
        }
        "linalg.transpose" => transpose(ir, op, &results),
        "hfusion.arange" => {
            let (offset, strides) =
                (hivm_dialects::util::segment(ir, op, 0).to_vec(), hivm_dialects::util::segment(ir, op, 1).to_vec());
            let init = hivm_dialects::util::segment(ir, op, 2).to_vec();
            build(ir, op, "hivm.hir.varange", &[&init, &offset, &strides], &results, Vec::new())
        }
        "hfusion.bitcast" => {
            let (ins, outs) = ins_outs(ir, op);
            if results.is_empty() {
                return super::refuse(ir, op, "hfusion.bitcast must be in Pure Tensor Semantics\n");
            }
            let Some(&out) = outs.first() else { return Ok(Some(false)) };
            let to = ir.value_type(out);
            build(ir, op, "hivm.hir.bitcast", &[&ins], &[to], Vec::new())
        }
        "hfusion.barrier" => {
            let all = hivm_enum(ir, "pipe", "PIPE_ALL");
            build(ir, op, "hivm.hir.pipe_barrier", &[], &[], vec![("pipe", all)])
        }
        "hfusion.interleave" => {
            let Some(dst) = fresh(cx, op) else { return Ok(Some(false)) };
            build(cx.ir, op, "hivm.hir.vinterleave", &[&operands, &dst], &results, Vec::new())
        }
        "hfusion.flip" => {
            let Some(dst) = fresh(cx, op) else { return Ok(Some(false)) };
            let axis = cx.ir.get_attr(op, "flip_axis").into_iter().map(|a| ("flip_axis", a)).collect();
            build(cx.ir, op, "hivm.hir.vflip", &[&operands[..1], &dst], &results, axis)
        }
        "hfusion.cumsum" | "hfusion.cumprod" => {
            let Some(dst) = fresh(cx, op) else { return Ok(Some(false)) };
            let attrs = copied(cx.ir, op, &["cum_dims", "reverse"]);
            let target = if name == "hfusion.cumsum" { "hivm.hir.vcumsum" } else { "hivm.hir.vcumprod" };
            build(cx.ir, op, target, &[&operands[..1], &dst], &results, attrs)
        }
        "hfusion.gather" | "hfusion.gather_mask" if let Some(why) = super::broadcast::mixed_semantics(ir, op) => {
            return super::refuse(ir, op, &why);
        }
        "hfusion.gather" => {
            let rank = ir.type_data(ir.value_type(operands[0])).rank() as i64;
            let axis = hivm_dialects::util::int_attr(ir, op, "axis").unwrap_or(-1);
            if cx.regbase {
                // Register-based targets gather in SIMT mode, not converted yet.
                return Ok(Some(false));
            }
            if rank - 1 != axis as i64 {
                return super::refuse(ir, op, "can only lower hfusion.gather to hivm gather if axis is last dim");
            }
            build(ir, op, "hivm.hir.vgather", &[&operands[..1], &operands[1..2], &operands[2..]], &results, Vec::new())
        }
        "hfusion.gather_mask" => build(
            ir,
            op,
            "hivm.hir.vgathermask",
            &[&operands[..1], &operands[1..2], &operands[2..]],
            &results,
            Vec::new(),
        ),
        "hfusion.deinterleave" => {
            let mode = match hivm_dialects::util::int_attr(ir, op, "channelIndex") {
                Some(0) => "CHANNEL_0",
                Some(1) => "CHANNEL_1",
                Some(999) => "ALL_CHANNELS",
                _ => return Ok(Some(false)),
            };
            let Some(dst) = fresh(cx, op) else { return Ok(Some(false)) };
            let ir = &mut *cx.ir;
            let i64t = ir.int_type(64);
            let two = ir.int_attr(2, i64t);
            let attrs = vec![("channel_num", two), ("index_mode", hivm_enum(ir, "deinterleave_mode", mode))];
            build(ir, op, "hivm.hir.vdeinterleave", &[&operands[..1], &dst], &results, attrs)
        }
        "hfusion.sort" => {
            let Some(dst) = fresh(cx, op) else { return Ok(Some(false)) };
            let attrs = copied(cx.ir, op, &["descending", "sort_axis"]);
            build(cx.ir, op, "hivm.hir.vsort", &[&operands[..1], &dst], &results, attrs)
        }
        "hfusion.print" | "hfusion.assert" => {
            let print = name == "hfusion.print";
            let kind = ir.str_attr(if print { "print" } else { "assert" });
            let prefix = ir.get_attr(op, if print { "prefix" } else { "msg" }).unwrap_or_else(|| ir.str_attr(""));
            let hex = match ir.get_attr(op, "hex").filter(|_| print) {
                Some(h) => h,
                None => ir.bool_attr(false),
            };
            let attrs = vec![("debugtype", kind), ("prefix", prefix), ("hex", hex)];
            build(ir, op, "hivm.hir.debug", &[&operands], &results, attrs)
        }
        "hfusion.atomic_cas" => {
            let Some((dst, src)) = operands.split_last() else { return Ok(Some(false)) };
            build(ir, op, "hivm.hir.atomic_cas", &[src, &[*dst]], &results, Vec::new())
        }
        "hfusion.atomic_xchg" => build(ir, op, "hivm.hir.atomic_xchg", &[&operands], &results, Vec::new()),
        "hfusion.atomic_rmw" => {
            let kind = enum_value(ir, op, "atomic_kind", "atomic_kind").unwrap_or_else(|| "none".into());
            let kind = atomic_kind(ir, op, &kind, cx.regbase)?;
            let kind = hivm_enum(ir, "atomic_kind", kind);
            build(ir, op, "hivm.hir.atomic_rmw", &[&operands], &results, vec![("atomic_kind", kind)])
        }
        "hfusion.gather_load" | "hfusion.scatter_store" => {
            let mut attrs = Vec::new();
            for (key, mnemonic) in [("cache", "cache_modifier"), ("evict", "eviction_policy")] {
                if let Some(v) = enum_value(ir, op, key, mnemonic) {
                    attrs.push((key, hivm_enum(ir, mnemonic, &v)));
                }
            }
            if name == "hfusion.gather_load" {
                attrs.extend(copied(ir, op, &["isVolatile"]));
            }
            let target = name.replace("hfusion.", "hivm.hir.");
            build(ir, op, &target, &[&operands], &results, attrs)
        }
        _ => return Ok(None),
    };
    replace_with(cx, op, new);
    Ok(Some(true))
}

/// `tensor::getOrCreateDestinations`: a `tensor.empty` per result.
fn fresh(cx: &mut Cx<'_>, op: OpId) -> Option<Vec<Value>> {
    super::super::to_hfusion::destinations(cx.ir, op)
}

fn copied(ir: &Ir, op: OpId, keys: &[&'static str]) -> Vec<(&'static str, Attribute)> {
    keys.iter().filter_map(|k| ir.get_attr(op, k).map(|a| (*k, a))).collect()
}

/// hfusion's atomic kind as HIVM's: register-based targets have no
/// unsigned max/min. Compare-and-swap and exchange are refused everywhere:
/// upstream maps them (on register-based targets) to HIVM cases whose
/// printed names are those of `or` and `xor`, which would read back wrong.
fn atomic_kind(ir: &Ir, op: OpId, kind: &str, regbase: bool) -> Result<&'static str, Diagnostic> {
    Ok(match kind {
        "none" => "none",
        "add" => "add",
        "max" => "max",
        "min" => "min",
        "and" => "and",
        "or" => "or",
        "xor" => "xor",
        "umax" => {
            if regbase {
                "max"
            } else {
                "umax"
            }
        }
        "umin" => {
            if regbase {
                "min"
            } else {
                "umin"
            }
        }
        _ => return Err(unsupported(ir, op, &format!("has unsupported atomic kind '{kind}'"))),
    })
}

/// `vtranspose`; an `annotation.mark {transpose_without_align}` on the
/// output turns alignment off and is dropped.
fn transpose(ir: &mut Ir, op: OpId, results: &[hivm_ir::Type]) -> OpId {
    let (input, init) = (ir.operand(op, 0), ir.operand(op, 1));
    let output = ir.results(op).first().copied().unwrap_or(init);
    let mut mark = None;
    let scope = ir.parent_op(op).unwrap_or(op);
    ir.walk(scope, &mut |o| {
        if mark.is_none()
            && ir.is_op(o, "annotation.mark")
            && ir.operands(o).first() == Some(&output)
            && ir.get_attr(o, "transpose_without_align").is_some()
        {
            mark = Some(o);
        }
    });
    let mut attrs = copied(ir, op, &["permutation"]);
    if let Some(m) = mark {
        ir.erase_op(m);
        attrs.push(("disable_align", ir.bool_attr(true)));
    }
    build(ir, op, "hivm.hir.vtranspose", &[&[input], &[init]], results, attrs)
}
