//! A copy from global memory as `hivm.hir.load`. What the load needs is
//! read off the buffer it fills (its allocation and the reshapes on the
//! way), as triton-ascend leaves it there:
//! - the pad value: a scalar `hivm.hir.vbrc` into the buffer (older form),
//!   else a `pad_const` value on an `annotation.mark` (that key is consumed);
//! - `left_padding_num`: the last offset of the destination subview (or of a
//!   subview of the buffer before the copy), modulo the elements of one
//!   32-byte block;
//! - with a pad value, the fill itself when it is the only other HIVM write
//!   to the buffer and sits beside the load or in an `scf.if` beside it: the
//!   load then initialises the buffer (`init_out_buffer`, under the `if`'s
//!   condition) and the fill goes;
//! - the eviction policy (an `eviction_policy` mark, consumed; EvictFirst
//!   unless it says evict_last) and `MayImplicitTransposeWithLastAxis`.

use hivm_dialects::util::{opaque_attr, segment_attr};
use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::types::DYNAMIC;
use hivm_ir::{Attribute, Ir, OpId, TypeData, Value};

use super::{Users, has_key, mark_with};
use crate::hivm::{before_in_block, properly_dominates, trace};

pub(super) fn lower_copy(ir: &mut Ir, users: &Users, copy: OpId) {
    let (src, dst, loc) = (ir.operand(copy, 0), ir.operand(copy, 1), ir.loc(copy));
    let aliases = trace::allocs_and_reshapes(ir, dst);
    let pad = aliases.iter().find_map(|a| pad_value(ir, users, *a));
    let left = left_padding(ir, users, &aliases, dst, copy);
    let evict_last = eviction_policy(ir, users, &aliases);
    let mut init = None;
    if pad.is_some() {
        init = aliases.iter().find_map(|a| unique_init(ir, users, *a, copy).filter(|i| i.0.is_some() || i.1.is_some()));
    }
    let (init_op, init_cond) = init.unwrap_or((None, None));
    let transpose = mark_with(ir, users, trace::back_to_alloc(ir, dst), "MayImplicitTransposeWithLastAxis").is_some();

    let mut attrs: Vec<(&str, Attribute)> = Vec::new();
    if let Some(a) = ir.get_attr(copy, "was_bool_to_int8") {
        attrs.push(("was_bool_to_int8", a));
    }
    if pad.is_some() {
        attrs.push(("pad_mode", opaque_attr(ir, "hivm", "padmode<PadValue>")));
    }
    if init_op.is_some() {
        attrs.push(("init_out_buffer", ir.bool_attr(true)));
    }
    if transpose {
        attrs.push(("may_implicit_transpose_with_last_axis", ir.bool_attr(true)));
    }
    let policy = if evict_last { "EvictLast" } else { "EvictFirst" };
    attrs.push(("eviction_policy", opaque_attr(ir, "hivm", &format!("eviction_policy<{policy}>"))));
    let mut operands = vec![src, dst];
    operands.extend(pad);
    operands.extend(left);
    operands.extend(init_cond);
    let seg =
        segment_attr(ir, &[1, 1, pad.is_some() as usize, left.is_some() as usize, 0, init_cond.is_some() as usize]);
    attrs.push(("operandSegmentSizes", seg));

    // The pad value or padding count may be defined after the copy in its
    // block (a pad_const computed later): the load goes after it.
    let block = ir.parent_block(copy);
    let mut at = InsertPoint::Before(copy);
    for v in [pad, left].into_iter().flatten() {
        if let Some(d) = trace::def(ir, v)
            && ir.parent_block(d) == block
            && before_in_block(ir, copy, d)
            && match at {
                InsertPoint::After(cur) => before_in_block(ir, cur, d),
                _ => true,
            }
        {
            at = InsertPoint::After(d);
        }
    }
    Builder::new(ir, at).op("hivm.hir.load", &operands, &[], attrs, loc);
    if let Some(i) = init_op {
        ir.erase_op(i);
    }
    ir.erase_op(copy);
}

fn is_scalar(ir: &Ir, v: Value) -> bool {
    matches!(ir.type_data(ir.value_type(v)), TypeData::Integer { .. } | TypeData::Float(_))
}

/// The value the buffer `alias` is padded with, consuming a `pad_const`
/// key when that is where it comes from.
fn pad_value(ir: &mut Ir, users: &Users, alias: Value) -> Option<Value> {
    let op = trace::def(ir, alias)?;
    for u in users.of_op(ir, op) {
        if ir.is_op(u, "hivm.hir.vbrc") && is_scalar(ir, ir.operand(u, 0)) {
            return Some(ir.operand(u, 0));
        }
        if ir.is_op(u, "memref.collapse_shape")
            && let Some(v) = pad_value(ir, users, ir.result(u, 0))
        {
            return Some(v);
        }
    }
    let mark = mark_with(ir, users, alias, "pad_const")?;
    if !has_key(ir, mark, "pad_const") {
        return None;
    }
    let keys = ir.get_attr(mark, "keys").and_then(|a| ir.as_array(a)).map(|a| a.to_vec()).unwrap_or_default();
    let values = ir.operands(mark)[1..].to_vec();
    let i = keys.iter().position(|k| ir.as_str(*k) == Some("pad_const"))?;
    let pad = *values.get(i)?;
    remove_key(ir, mark, i);
    Some(pad)
}

/// Removes dynamic key `i` (and its value) from a mark; a mark left with
/// nothing to say goes.
fn remove_key(ir: &mut Ir, mark: OpId, i: usize) {
    let mut keys = ir.get_attr(mark, "keys").and_then(|a| ir.as_array(a)).map(|a| a.to_vec()).unwrap_or_default();
    let mut operands = ir.operands(mark).to_vec();
    keys.remove(i);
    if i + 1 < operands.len() {
        operands.remove(i + 1);
    }
    ir.set_operands(mark, &operands);
    if !keys.is_empty() {
        let a = ir.array_attr(keys);
        ir.set_attr(mark, "keys", a);
        return;
    }
    ir.remove_attr(mark, "keys");
    let others = ir.attr_names(mark).into_iter().any(|n| n != "effects");
    if !others {
        ir.erase_op(mark);
    }
}

/// Upstream's `getLeftPadNum`: from the destination subview, else from a
/// subview of one of the aliases that precedes the copy.
fn left_padding(ir: &mut Ir, users: &Users, aliases: &[Value], dst: Value, copy: OpId) -> Option<Value> {
    if let Some(sv) = trace::def(ir, dst).filter(|d| ir.is_op(*d, "memref.subview")) {
        return Some(left_padding_of(ir, sv, copy));
    }
    for a in aliases {
        let Some(op) = trace::def(ir, *a) else { continue };
        for u in users.of_op(ir, op) {
            if ir.is_op(u, "memref.subview")
                && (ir.operand(u, 0) == *a || ir.operand(u, 0) == dst)
                && properly_dominates(ir, u, copy)
            {
                return Some(left_padding_of(ir, u, copy));
            }
        }
    }
    None
}

/// The subview's last offset modulo the elements per 32-byte block: a
/// constant when the offset is one, else `arith.remui` before `at`.
fn left_padding_of(ir: &mut Ir, subview: OpId, at: OpId) -> Value {
    let loc = ir.loc(subview);
    let t = ir.value_type(ir.result(subview, 0));
    let elem = crate::conversion::to_hfusion::element(ir, t);
    let bits = match ir.type_data(elem) {
        TypeData::Integer { width, .. } => *width,
        TypeData::Float(k) => k.bit_width(),
        _ => 64,
    }
    .max(1) as i128;
    let per_block = (256 / bits).max(1);
    let index = ir.index_type();
    let offset = last_offset(ir, subview);
    let mut b = Builder::new(ir, InsertPoint::Before(at));
    let constant = |b: &mut Builder<'_>, v: i128| {
        let a = b.ir.int_attr(v, index);
        let c = b.op("arith.constant", &[], &[index], vec![("value", a)], loc);
        b.ir.result(c, 0)
    };
    match offset {
        Offset::Static(o) => constant(&mut b, o.rem_euclid(per_block)),
        Offset::Dynamic(v) => match hivm_dialects::util::constant_int(b.ir, v) {
            Some(o) => constant(&mut b, (o as i128).rem_euclid(per_block)),
            None => {
                let n = constant(&mut b, per_block);
                let r = b.op("arith.remui", &[v, n], &[index], vec![], loc);
                b.ir.result(r, 0)
            }
        },
    }
}

enum Offset {
    Static(i128),
    Dynamic(Value),
}

/// The subview's offset in its last dimension.
fn last_offset(ir: &Ir, subview: OpId) -> Offset {
    let statics = hivm_dialects::util::i64_array(ir, subview, "static_offsets");
    let dynamic_count = statics.iter().filter(|s| **s == DYNAMIC).count();
    match statics.last() {
        Some(&s) if s != DYNAMIC => Offset::Static(s as i128),
        _ => {
            // Operands: source, offsets, sizes, strides.
            let last_dynamic = ir.operands(subview).get(dynamic_count).copied();
            last_dynamic.map_or(Offset::Static(0), Offset::Dynamic)
        }
    }
}

/// Whether an `eviction_policy` mark on an alias asks for evict_last; the
/// first such mark found is consumed.
fn eviction_policy(ir: &mut Ir, users: &Users, aliases: &[Value]) -> bool {
    for a in aliases {
        let Some(mark) = mark_with(ir, users, *a, "eviction_policy") else { continue };
        let text = ir.get_attr(mark, "eviction_policy").and_then(|p| ir.as_str(p)).map(str::to_string);
        ir.erase_op(mark);
        if let Some(t) = text {
            return t.ends_with("evict_last");
        }
    }
    false
}

type InitInfo = (Option<OpId>, Option<Value>);

/// A scalar fill of the buffer beside the copy, or in an `scf.if` beside
/// it (with that condition), provided no other HIVM op uses the buffer.
fn init_of(ir: &Ir, user: OpId, copy: OpId) -> InitInfo {
    if !ir.is_op(user, "hivm.hir.vbrc") || !is_scalar(ir, ir.operand(user, 0)) {
        return (None, None);
    }
    if ir.parent_block(user) == ir.parent_block(copy) {
        return (Some(user), None);
    }
    match ir.parent_op(user) {
        Some(p) if ir.parent_block(p) == ir.parent_block(copy) && ir.is_op(p, "scf.if") => {
            (Some(user), Some(ir.operand(p, 0)))
        }
        _ => (None, None),
    }
}

fn unique_init(ir: &Ir, users: &Users, alias: Value, copy: OpId) -> Option<InitInfo> {
    let op = trace::def(ir, alias)?;
    let mut found: InitInfo = (None, None);
    for u in users.of_op(ir, op) {
        if ir.is_op(u, "hivm.hir.load") {
            continue;
        }
        let info = init_of(ir, u, copy);
        if info.0.is_some() && found.0.is_none() {
            found = info;
        } else if ir.op_name(u).starts_with("hivm.") {
            // Another HIVM op writes the buffer: the fill must stay.
            return Some((None, None));
        }
    }
    Some(found)
}
