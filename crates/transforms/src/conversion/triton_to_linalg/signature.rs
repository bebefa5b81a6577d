//! The kernel's new signature and attributes, as triton-ascend gives them:
//! two leading `memref<?xi8>` (sync-block lock and workspace), pointers as
//! `memref<?xT>` marked with their `tt.tensor_kind`, six trailing `i32`s
//! (number of programs and program id, x y z), and the kernel attributes;
//! then the body's conversion and the clean-up.

use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{Attribute, Ir, OpId, TypeData, Value};
use rustc_hash::FxHashMap;

use super::address::{PtrState, is_pointer_like};
use super::emit::{Ofr, type_from_text};
use super::{Cx, TritonToLinalg};

/// Triton's `TensorKind`: how the kernel uses a pointer argument.
const INPUT: i64 = 0;
const OUTPUT: i64 = 1;
const INPUT_OUTPUT: i64 = 2;

/// Per argument index, the kind of the loads and stores reaching it by
/// following each access's first operand back (as upstream's
/// mark-tensor-kind does, which does not look through loop arguments).
fn tensor_kinds(ir: &Ir, func: OpId, entry: hivm_ir::BlockId) -> FxHashMap<usize, i64> {
    let args = ir.block_args(entry).to_vec();
    let mut kinds: FxHashMap<usize, i64> = FxHashMap::default();
    ir.walk(func, &mut |op| {
        let kind = match ir.op_name(op) {
            "tt.load" => INPUT,
            "tt.store" => OUTPUT,
            "tt.atomic_rmw" | "tt.atomic_cas" => INPUT_OUTPUT,
            _ => return,
        };
        let mut cur = ir.operand(op, 0);
        for _ in 0..10_000 {
            // Only scalar pointer arguments are marked, not tensors of pointers.
            if let Some(i) = args.iter().position(|a| *a == cur && !ir.type_data(ir.value_type(*a)).is_tensor()) {
                let merged = match kinds.get(&i) {
                    None => kind,
                    Some(&old) if old == kind => kind,
                    Some(_) => INPUT_OUTPUT,
                };
                kinds.insert(i, merged);
                return;
            }
            match ir.defining_op(cur) {
                Some(d) if !ir.operands(d).is_empty() => cur = ir.operand(d, 0),
                _ => return,
            }
        }
    });
    kinds
}

/// A pointer becomes `memref<?xT>`, a tensor of pointers a memref of its shape (i1 as i8).
fn converted_arg_type(ir: &mut Ir, t: hivm_ir::Type) -> hivm_ir::Type {
    if let TypeData::RankedTensor { shape, elem, .. } = ir.type_data(t).clone() {
        let inner = converted_arg_type(ir, elem);
        if inner == elem {
            return t;
        }
        let e = ir.type_data(inner).element_type().expect("a memref");
        return ir.ty(TypeData::MemRef { shape, elem: e, layout: None, memory_space: None });
    }
    let TypeData::Opaque { dialect, body } = ir.type_data(t).clone() else { return t };
    if dialect != "tt" {
        return t;
    }
    let pointee = body.strip_prefix("ptr<").and_then(|b| b.strip_suffix('>')).unwrap_or("i8");
    let pointee = pointee.split(',').next().unwrap_or("i8").trim();
    let pointee = if pointee == "i1" { "i8" } else { pointee };
    type_from_text(ir, &format!("memref<?x{pointee}>"))
}

pub fn convert_function(ir: &mut Ir, old: OpId, pass: &TritonToLinalg) -> Result<(), Diagnostic> {
    let loc = ir.loc(old);
    let region = ir.regions(old)[0];
    let Some(&entry) = ir.region_blocks(region).first() else {
        return Err(Diagnostic::error(loc, "'tt.func' op without a body is not supported by triton-to-linalg yet"));
    };
    if ir.region_blocks(region).len() > 1 {
        return Err(Diagnostic::error(
            loc,
            "'tt.func' op with several blocks is not supported by triton-to-linalg yet",
        ));
    }
    let old_args = ir.block_args(entry).to_vec();
    let kinds = tensor_kinds(ir, old, entry);
    let old_arg_attrs: Vec<Attribute> =
        ir.get_attr(old, "arg_attrs").and_then(|a| ir.as_array(a).map(|x| x.to_vec())).unwrap_or_default();
    let i8_buf = type_from_text(ir, "memref<?xi8>");
    let i32 = ir.int_type(32);
    let mut inputs = vec![i8_buf, i8_buf];
    let empty = ir.empty_dict();
    let mut arg_attrs = vec![empty, empty];
    for (i, a) in old_args.iter().enumerate() {
        let t = ir.value_type(*a);
        inputs.push(converted_arg_type(ir, t));
        let mut entries = old_arg_attrs.get(i).map(|d| ir.dict_entries(*d).to_vec()).unwrap_or_default();
        if let Some(k) = kinds.get(&i) {
            let key = ir.sym("tt.tensor_kind");
            let v = ir.int_attr(*k as i128, i32);
            entries.retain(|(n, _)| *n != key);
            entries.push((key, v));
        }
        arg_attrs.push(ir.dict_attr(entries));
    }
    inputs.extend([i32; 6]);
    arg_attrs.extend([empty; 6]);
    let results: Vec<hivm_ir::Type> =
        match ir.type_data(ir.as_type(ir.get_attr(old, "function_type").expect("a type")).expect("a type")) {
            TypeData::Function { results, .. } => results.clone(),
            _ => Vec::new(),
        };
    if !results.is_empty() {
        return Err(Diagnostic::error(loc, "'tt.func' op with results is not supported by triton-to-linalg yet"));
    }
    let mix = if contains(ir, old, |ir, o| ir.is_op(o, "tt.dot")) { "mix" } else { "aiv" };
    let simt = contains(ir, old, |ir, o| {
        hivm_dialects::hivm::custom::is_custom(ir, o)
            && ir.get_attr(o, "hivm.vf_mode").and_then(|a| hivm_dialects::util::opaque_arg(ir, a, "vf_mode"))
                == Some("SIMT")
    });
    let fty = ir.function_type(inputs.clone(), vec![]);
    let fty_attr = ir.type_attr(fty);
    let name = ir.get_attr(old, "sym_name").expect("a symbol name");
    let mut props = vec![("function_type", fty_attr), ("sym_name", name)];
    let all_empty = arg_attrs.iter().all(|a| *a == empty);
    let arg_attrs_attr = ir.array_attr(arg_attrs);
    if !all_empty {
        props.push(("arg_attrs", arg_attrs_attr));
    }
    let mut attrs: Vec<(&str, Attribute)> = Vec::new();
    let i64t = ir.int_type(64);
    attrs.push(("SyncBlockLockArgIdx", ir.int_attr(0, i64t)));
    attrs.push(("WorkspaceArgIdx", ir.int_attr(1, i64t)));
    attrs.push(("global_kernel", ir.str_attr(if pass.global_kernel { "" } else { "local" })));
    attrs.push(("mix_mode", ir.str_attr(mix)));
    attrs.push(("parallel_mode", ir.str_attr(if simt { "mix_simd_simt" } else { "simd" })));
    let new_region = ir.new_region();
    let new_entry = ir.create_block();
    ir.push_block(new_region, new_entry);
    let new_args: Vec<Value> = inputs.iter().map(|t| ir.add_block_arg(new_entry, *t, Some(loc))).collect();
    let sym = ir.sym("func.func");
    let mut st = hivm_ir::OperationState::new(sym, loc);
    st.properties = Some({
        let entries = props.into_iter().map(|(k, v)| (ir.sym(k), v)).collect();
        ir.dict_attr(entries)
    });
    st.attrs = attrs.into_iter().map(|(k, v)| (ir.sym(k), v)).collect();
    st.regions = vec![new_region];
    let func = Builder::new(ir, InsertPoint::Before(old)).create(st);

    let mut cx = Cx {
        ir,
        named_ops: pass.named_ops,
        map: FxHashMap::default(),
        ptrs: FxHashMap::default(),
        loops: FxHashMap::default(),
        grid: [None; 6],
        ip: InsertPoint::End(new_entry),
        entry: new_entry,
        loc,
    };
    let n = old_args.len();
    for (i, v) in new_args[n + 2..].iter().enumerate() {
        cx.grid[i] = Some(*v);
    }
    for (i, a) in old_args.iter().enumerate() {
        let na = new_args[i + 2];
        if is_pointer_like(&cx, cx.ir.value_type(*a)) {
            // A tensor of pointers is a dense row-major block of its own.
            let sizes = cx.ir.type_data(cx.ir.value_type(*a)).shape().map(|s| s.to_vec()).unwrap_or_default();
            let mut strides = vec![Ofr::Const(1); sizes.len()];
            for d in (0..sizes.len().saturating_sub(1)).rev() {
                strides[d] = Ofr::Const(strides[d + 1].constant().unwrap_or(1) * sizes[d + 1]);
            }
            let offsets = vec![Ofr::Const(0); sizes.len()];
            // A tensor of pointers is its memref already (no view to make).
            let view = (!sizes.is_empty()).then_some(na);
            let st = PtrState { source: na, base: Ofr::Const(0), offsets, sizes, strides, view };
            cx.ptrs.insert(*a, st);
        } else {
            cx.map.insert(*a, na);
        }
    }
    let converted = cx.convert_block(entry, new_entry);
    if let Err(e) = converted {
        ir.erase_op(func);
        return Err(e);
    }
    ir.erase_op(old);
    erase_dead(ir, func);
    crate::greedy::hoist_constants(ir, func);
    crate::cse::Cse::default().run(ir, func)?;
    erase_dead(ir, func);
    Ok(())
}

fn contains(ir: &Ir, root: OpId, pred: impl Fn(&Ir, OpId) -> bool) -> bool {
    let mut found = false;
    ir.walk(root, &mut |o| found |= pred(ir, o));
    found
}

/// Ops a conversion may leave unused with no effect to keep: pure ops,
/// tensor-valued linalg/tensor ops and memref views.
fn removable(ir: &Ir, op: OpId) -> bool {
    let name = ir.op_name(op);
    let tensors_only = !ir.results(op).is_empty()
        && ir.results(op).iter().all(|r| ir.type_data(ir.value_type(*r)).is_tensor())
        && ir.operands(op).iter().all(|v| !ir.type_data(ir.value_type(*v)).is_memref());
    let pure = ir.op_def(op).is_some_and(|d| d.traits.has(hivm_ir::Traits::PURE)) && ir.regions(op).is_empty();
    pure || matches!(name, "memref.reinterpret_cast" | "memref.subview")
        || (tensors_only
            && (name.starts_with("linalg.")
                || name.starts_with("tensor.")
                || name.starts_with("arith.")
                || name.starts_with("math.")))
}

fn erase_dead(ir: &mut Ir, func: OpId) {
    crate::greedy::erase_dead_where(ir, func, &|ir, o, uses| {
        !ir.results(o).is_empty()
            && ir.results(o).iter().all(|r| uses.get(r).copied().unwrap_or(0) == 0)
            && removable(ir, o)
    });
}
