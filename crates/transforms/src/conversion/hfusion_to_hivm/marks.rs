//! After the conversion, in every device function: hfusion's buffer
//! annotations become HIVM's, loops marked `hfusion.bind_sub_block` get
//! the sub-block mapping, the options mark the function, and marks only
//! hfusion reads (`enable_i4`, tile counts for matmuls) are dropped.

use hivm_ir::{Ir, OpId};

/// hfusion annotation -> HIVM annotation.
const RENAMED: &[(&str, &str)] = &[
    ("hfusion.multi_buffer", "hivm.multi_buffer"),
    ("hfusion.stride_align_dims", "hivm.stride_align_dims"),
    ("hfusion.stride_align_value_in_byte", "hivm.stride_align_value_in_byte"),
];

fn is_host(ir: &Ir, func: OpId) -> bool {
    ir.get_attr(func, "hacc.function_kind")
        .and_then(|a| hivm_dialects::util::opaque_arg(ir, a, "function_kind"))
        .is_some_and(|k| k == "HOST")
}

pub(super) fn lower(ir: &mut Ir, root: OpId, ubuf_saving: bool, no_cast_align: bool) {
    let mut funcs = Vec::new();
    ir.walk(root, &mut |o| {
        if ir.is_op(o, "func.func") && !is_host(ir, o) {
            funcs.push(o);
        }
    });
    for f in funcs {
        let mut ops = Vec::new();
        ir.walk(f, &mut |o| ops.push(o));
        for o in ops {
            if ir.is_op(o, "annotation.mark") {
                rename(ir, o);
            } else if ir.is_op(o, "scf.for") && ir.remove_attr(o, "hfusion.bind_sub_block").is_some() {
                let unit = ir.unit_attr();
                ir.set_attr(o, "map_for_to_forall", unit);
                let x = hivm_dialects::util::opaque_attr(ir, "hivm", "sub_block<x>");
                let mapping = ir.array_attr(vec![x]);
                ir.set_attr(o, "mapping", mapping);
            }
        }
        for (on, key) in [(ubuf_saving, "hivm.enable_saving_ub"), (no_cast_align, "hivm.disable_size_align_for_cast")] {
            if on {
                let unit = ir.unit_attr();
                ir.set_attr(f, key, unit);
            }
        }
    }
    let mut dropped = Vec::new();
    ir.walk(root, &mut |o| {
        if ir.is_op(o, "annotation.mark")
            && (ir.get_attr(o, "hivm.tile_mix_cube_num").is_some() || ir.get_attr(o, "enable_i4").is_some())
        {
            dropped.push(o);
        }
    });
    for o in dropped {
        ir.erase_op(o);
    }
}

/// Renames the mark's hfusion annotations in place (upstream removes and
/// re-adds each, so they end up in name order like any attribute).
fn rename(ir: &mut Ir, mark: OpId) {
    for (from, to) in RENAMED {
        if let Some(v) = ir.remove_attr(mark, from) {
            ir.set_attr(mark, to, v);
        }
    }
}
