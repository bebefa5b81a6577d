//! `hivm-alloc-extra-buffer`: gives custom ops the scratch buffers their
//! attributes ask for, as `memref.alloc`s placed right before the op.

use hivm_dialects::hivm::custom;
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::types::DYNAMIC;
use hivm_ir::{Ir, OpId, Type, TypeData, Value};

pub struct AllocExtraBuffer;

fn alloc(ir: &mut Ir, before: OpId, ty: Type) -> Value {
    hivm_dialects::memref::build_alloc(ir, before, ty, &[], None)
}

/// Replaces the `tmps` segment of a custom op.
fn set_tmps(ir: &mut Ir, op: OpId, tmps: &[Value]) {
    let mut sizes = hivm_dialects::util::segments(ir, op);
    let (n_in, n_out) = (sizes[0], sizes[1]);
    let mut operands = ir.operands(op)[..n_in + n_out].to_vec();
    let rest = ir.operands(op)[n_in + n_out + sizes[2]..].to_vec();
    operands.extend_from_slice(tmps);
    operands.extend(rest);
    sizes[2] = tmps.len();
    ir.set_operands(op, &operands);
    let seg = hivm_dialects::util::segment_attr(ir, &sizes);
    ir.set_attr(op, "operandSegmentSizes", seg);
}

fn memref_of(ir: &mut Ir, n: i64, elem: Type) -> Type {
    ir.ty(TypeData::MemRef { shape: vec![n], elem, layout: None, memory_space: None })
}

/// `operate=<op>` from `extra_attr` (comma-separated `key=value`, last wins).
fn operate(ir: &Ir, op: OpId) -> String {
    let text = ir.get_attr(op, "extra_attr").and_then(|a| ir.as_str(a)).unwrap_or("");
    let mut found = String::from("unknown");
    for part in text.split(',') {
        if let Some((k, v)) = part.split_once('=')
            && k.trim() == "operate"
        {
            found = v.trim().to_string();
        }
    }
    found
}

impl AllocExtraBuffer {
    fn handle(&self, ir: &mut Ir, op: OpId) -> Result<(), Diagnostic> {
        let is_macro = ir.is_op(op, custom::MACRO);
        if !custom::tmps(ir, op).is_empty() {
            if is_macro {
                let loc = ir.loc(op);
                ir.emitted.push(Diagnostic::warning(loc, "already has extra temp buffers"));
            }
            return Ok(());
        }
        let wanted = custom::extra_buffers(ir, op);
        if !wanted.is_empty() {
            let mut tmps = Vec::new();
            for (elem, size) in wanted {
                let t = memref_of(ir, size, elem);
                tmps.push(alloc(ir, op, t));
            }
            set_tmps(ir, op, &tmps);
            return Ok(());
        }
        if is_macro || custom::name(ir, op) != "__builtin_indirect_atomic" {
            return Ok(());
        }
        if !matches!(operate(ir, op).as_str(), "or" | "and" | "xor") {
            return Ok(());
        }
        let ins = custom::ins(ir, op).to_vec();
        let loc = ir.loc(op);
        if ins.len() < 3 {
            return Err(Diagnostic::error(
                loc,
                "indirect atomic requires src, offset and value operands to allocate extra temp buffer",
            ));
        }
        let shape = ir.type_data(ir.value_type(ins[1])).shape().map(|s| s.to_vec());
        let Some(shape) = shape.filter(|s| !s.contains(&DYNAMIC)) else {
            return Err(Diagnostic::error(
                loc,
                "indirect atomic requires static offset shape to allocate extra temp buffer",
            ));
        };
        let vt = ir.value_type(ins[2]);
        let elem = ir.type_data(vt).element_type().unwrap_or(vt);
        let Some(n) = shape.iter().try_fold(1i64, |a, d| a.checked_mul(*d)) else {
            return Err(Diagnostic::error(loc, "indirect atomic offsets have too many elements for a temp buffer"));
        };
        let t = memref_of(ir, n, elem);
        let buf = alloc(ir, op, t);
        set_tmps(ir, op, &[buf]);
        Ok(())
    }
}

impl Pass for AllocExtraBuffer {
    fn name(&self) -> &str {
        "hivm-alloc-extra-buffer"
    }

    fn display_name(&self) -> &str {
        "AllocExtraBuffer"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId) -> Result<(), Diagnostic> {
        for op in super::device_custom_ops(ir, root) {
            self.handle(ir, op)?;
        }
        Ok(())
    }
}
