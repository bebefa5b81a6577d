//! What the `convert-*-to-hfusion` conversions share: upstream runs each as a
//! partial dialect conversion, so an op the target calls illegal that no
//! pattern rewrites fails the pass at that op, while legal ops stay as they
//! are (dead ones included: nothing is folded or erased on the way). Each
//! rewrite builds its ops just before the op it replaces, at its location.

use hivm_ir::builder::{Builder, InsertPoint};
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::types::DYNAMIC;
use hivm_ir::{Attribute, Ir, OpId, Type, TypeData, Value, ValueMap};

/// Upstream's `operateOnTensors`: every operand is a ranked tensor (true
/// for an op without operands).
pub(crate) fn on_tensors(ir: &Ir, op: OpId) -> bool {
    ir.operands(op).iter().all(|v| matches!(ir.type_data(ir.value_type(*v)), TypeData::RankedTensor { .. }))
}

/// Whether the module the pass runs on targets a register-based NPU
/// (`hacc::utils::isRegBasedArch`: no `hacc.target` means 910B, memory-based).
pub(crate) fn regbase(ir: &Ir, root: OpId) -> bool {
    target(ir, root).is_some_and(hivm_dialects::hacc::is_regbase)
}

/// Whether that module targets the Ascend 950 generation.
pub(crate) fn ascend_950(ir: &Ir, root: OpId) -> bool {
    target(ir, root).is_some_and(hivm_dialects::hacc::is_910_95_family)
}

fn target(ir: &Ir, root: OpId) -> Option<&str> {
    let a = ir.get_attr(root, "hacc.target")?;
    Some(hivm_dialects::util::opaque_arg(ir, a, "target")?.trim_matches('"'))
}

/// The element type of a shaped type, else the type itself.
pub(crate) fn element(ir: &Ir, t: Type) -> Type {
    hivm_dialects::util::element_or_self(ir, t)
}

/// `#dialect.mnemonic<value>`, e.g. `#hfusion.binary_fn<vand>`.
pub(crate) fn enum_attr(ir: &mut Ir, dialect: &str, mnemonic: &str, value: &str) -> Attribute {
    hivm_dialects::util::opaque_attr(ir, dialect, &format!("{mnemonic}<{value}>"))
}

/// What one rewrite needs besides the op: the target kind and the pending
/// replacements.
pub(crate) struct Cx<'a> {
    pub ir: &'a mut Ir,
    pub regbase: bool,
    pub map: &'a mut ValueMap,
}

/// The partial conversion each pass runs: the ops `illegal_op` picks, in
/// walk order (skipping those erased with an earlier one), each rewritten by `rewrite` (`Ok(false)`: no pattern took it,
/// which fails the pass at the op); replacements applied once at the end.
pub(crate) fn convert(
    ir: &mut Ir,
    root: OpId,
    illegal_op: impl Fn(&Ir, OpId) -> bool,
    mut rewrite: impl FnMut(&mut Cx<'_>, OpId) -> Result<bool, Diagnostic>,
) -> Result<(), Diagnostic> {
    let mut ops = Vec::new();
    ir.walk(root, &mut |o| {
        if illegal_op(ir, o) {
            ops.push(o);
        }
    });
    let mut map = ValueMap::default();
    let regbase = regbase(ir, root);
    let mut cx = Cx { ir, regbase, map: &mut map };
    for op in ops {
        // Nested in an op already rewritten (a reduction's body): gone with
        // it, as MLIR's conversion ignores the ops of replaced ones.
        if cx.ir.is_erased(op) {
            continue;
        }
        if !rewrite(&mut cx, op)? {
            return Err(illegal(cx.ir, op));
        }
    }
    ir.replace_uses_with_map(root, &map);
    Ok(())
}

/// The diagnostic of MLIR's partial conversion for an illegal op left over.
pub(crate) fn illegal(ir: &Ir, op: OpId) -> Diagnostic {
    Diagnostic::error(
        ir.loc(op),
        format!("failed to legalize operation '{}' that was explicitly marked illegal", ir.op_name(op)),
    )
}

/// Replaces the uses of `op`'s results (through `map`, applied once at the
/// end of the pass) and erases it.
pub(crate) fn replace(ir: &mut Ir, op: OpId, new: &[Value], map: &mut ValueMap) {
    for (old, new) in ir.results(op).to_vec().into_iter().zip(new) {
        map.insert(old, *new);
    }
    ir.erase_op(op);
}

pub(crate) use super::empty_like;

/// `tensor::getOrCreateDestinations` for an op without a destination
/// interface: a `tensor.empty` per result, which needs a static shape (the
/// ops converted here cannot reify dynamic ones, so `None`: no rewrite).
pub(crate) fn destinations(ir: &mut Ir, op: OpId) -> Option<Vec<Value>> {
    let types: Vec<Type> = ir.results(op).iter().map(|r| ir.value_type(*r)).collect();
    let static_tensor = |t: &Type| match ir.type_data(*t) {
        TypeData::RankedTensor { shape, .. } => shape.iter().all(|d| *d != DYNAMIC),
        _ => false,
    };
    if !types.iter().all(static_tensor) {
        return None;
    }
    let loc = ir.loc(op);
    let outs = types
        .into_iter()
        .map(|t| {
            let e = Builder::new(ir, InsertPoint::Before(op)).op("tensor.empty", &[], &[t], vec![], loc);
            ir.result(e, 0)
        })
        .collect();
    Some(outs)
}

/// Builds the elementwise named op `name` before `at`, at its location; a
/// body the op cannot have is an error at `at`.
pub(crate) fn named(
    ir: &mut Ir,
    at: OpId,
    name: &str,
    ins: &[Value],
    outs: &[Value],
    attrs: Vec<(&str, Attribute)>,
) -> Result<OpId, Diagnostic> {
    let loc = ir.loc(at);
    hivm_dialects::linalg::build_elementwise(ir, InsertPoint::Before(at), name, ins, outs, attrs, loc)
        .map_err(|e| Diagnostic::error(loc, format!("cannot convert '{}' to '{name}': {e}", ir.op_name(at))))
}

/// Replaces `op` by the elementwise named op `name` with `fun` (a
/// `#dialect.{unary,binary}_fn<...>` attribute) on fresh destinations; `Ok(false)`
/// when the op has no static shape to build them from.
pub(crate) fn to_named_fn(
    ir: &mut Ir,
    op: OpId,
    name: &str,
    fun: Option<Attribute>,
    map: &mut ValueMap,
) -> Result<bool, Diagnostic> {
    let Some(outs) = destinations(ir, op) else { return Ok(false) };
    let ins = ir.operands(op).to_vec();
    let attrs = fun.map(|f| vec![("fun", f)]).unwrap_or_default();
    let new = named(ir, op, name, &ins, &outs, attrs)?;
    let results = ir.results(new).to_vec();
    replace(ir, op, &results, map);
    Ok(true)
}
