//! `hivm-infer-func-core-type`: which cores each device function runs on.
//! A function's ops and callees constrain it (cube ops to the AIC, vector
//! ops to the AIV, both to MIX; a custom op by its `hivm.tcore_type`); an
//! explicit `hivm.func_core_type` is kept; a function with no constraint is
//! AIV (upstream's interim rule). The module gets `hivm.module_core_type`,
//! MIX when its functions disagree. Later passes read these: memory-scope
//! inference puts a vector function's local buffers in UB, a cube
//! function's in L1.

use hivm_dialects::hivm::custom;
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{Ir, OpId};
use rustc_hash::FxHashMap;

pub struct InferFuncCoreType;

const AIC: u8 = 1;
const AIV: u8 = 2;
const MIX: u8 = 3;

fn name_of(c: u8) -> &'static str {
    match c {
        AIC => "AIC",
        MIX => "MIX",
        _ => "AIV",
    }
}

/// The constraint one op puts on its function (0: none).
fn op_constraint(ir: &Ir, op: OpId) -> u8 {
    if custom::is_custom(ir, op) {
        return match custom::core_type(ir, op) {
            Some("CUBE") => AIC,
            Some("VECTOR") => AIV,
            Some("CUBE_AND_VECTOR") => MIX,
            _ => 0,
        };
    }
    let name = ir.op_name(op);
    let Some(short) = name.strip_prefix("hivm.hir.") else { return 0 };
    match short {
        "mix_matmul" | "mix_group_matmul" => MIX,
        "mmadL1" | "batchMmadL1" | "mmadmxL1" | "matmul" | "fixpipe" | "nd2nz" | "load_scale" | "conv1dL1"
        | "conv2dL1" | "conv3dL1" | "l12ub" => AIC,
        // A debug print runs where its `tcoretype` says.
        "debug" => {
            match ir.get_attr(op, "tcoretype").and_then(|a| hivm_dialects::util::opaque_arg(ir, a, "tcore_type")) {
                Some("CUBE") => AIC,
                Some("VECTOR") => AIV,
                Some("CUBE_AND_VECTOR") => MIX,
                _ => 0,
            }
        }
        "gather_load" | "scatter_store" | "indirect_load" | "indirect_store" | "stride_load" | "stride_store"
        | "embedding_gather" | "gatherT" | "scatterT" | "index_put" => AIV,
        s if s.starts_with('v') && hivm_dialects::hivm::vector::is_elementwise(name) => AIV,
        "vbrc" | "vreduce" | "varange" | "vcast" | "vconcat" | "vpad" | "vtranspose" | "vflip" | "vgather"
        | "vgathermask" | "vinterleave" | "vdeinterleave" | "vcumsum" | "vcumprod" | "vsort" => AIV,
        _ => 0,
    }
}

fn func_attr(ir: &Ir, f: OpId) -> Option<u8> {
    let a = ir.get_attr(f, "hivm.func_core_type")?;
    Some(match hivm_dialects::util::opaque_arg(ir, a, "func_core_type")? {
        "AIC" => AIC,
        "AIV" => AIV,
        "MIX" => MIX,
        _ => 0,
    })
}

struct Infer<'a> {
    ir: &'a Ir,
    funcs: FxHashMap<String, OpId>,
    done: FxHashMap<OpId, Result<u8, String>>,
    active: Vec<OpId>,
}

impl Infer<'_> {
    fn constraint(&mut self, f: OpId) -> Result<u8, String> {
        if let Some(r) = self.done.get(&f) {
            return r.clone();
        }
        if let Some(c) = func_attr(self.ir, f) {
            return Ok(c);
        }
        if self.active.contains(&f) {
            return Err("recursive call loop".into());
        }
        self.active.push(f);
        let mut ops = Vec::new();
        self.ir.walk(f, &mut |o| ops.push(o));
        let mut c = 0u8;
        let mut result = Ok(());
        for o in ops.into_iter().skip(1) {
            c |= op_constraint(self.ir, o);
            if self.ir.is_op(o, "func.call") {
                let Some(target) = super::callee_name(self.ir, o).and_then(|n| self.funcs.get(n).copied()) else {
                    result = Err("call of a function with unknown core type".to_string());
                    break;
                };
                match self.constraint(target) {
                    Ok(k) => c |= k,
                    Err(e) => {
                        result = Err(e);
                        break;
                    }
                }
            }
            if c == MIX {
                break;
            }
        }
        self.active.pop();
        let r = result.map(|()| c);
        self.done.insert(f, r.clone());
        r
    }
}

impl Pass for InferFuncCoreType {
    fn name(&self) -> &str {
        "hivm-infer-func-core-type"
    }

    fn display_name(&self) -> &str {
        "InferFuncCoreType"
    }

    fn run(&mut self, ir: &mut Ir, module: OpId) -> Result<(), Diagnostic> {
        let mut funcs = FxHashMap::default();
        let mut order = Vec::new();
        ir.walk(module, &mut |o| {
            if ir.is_op(o, "func.func") {
                if let Some(n) = ir.get_attr(o, "sym_name").and_then(|a| ir.as_str(a)) {
                    funcs.insert(n.to_string(), o);
                }
                let host = ir
                    .get_attr(o, "hacc.function_kind")
                    .and_then(|a| hivm_dialects::util::opaque_arg(ir, a, "function_kind"))
                    == Some("HOST");
                let body = ir.regions(o).first().is_some_and(|r| !ir.region_blocks(*r).is_empty());
                if body && !host {
                    order.push(o);
                }
            }
        });
        let mut infer = Infer { ir, funcs, done: FxHashMap::default(), active: Vec::new() };
        let mut results = Vec::new();
        for f in &order {
            results.push((*f, infer.constraint(*f)));
        }
        // Each module's kind, over the functions directly in it.
        let mut modules: Vec<(OpId, u8)> = Vec::new();
        for (f, r) in results {
            let c = match r {
                Ok(0) => AIV,
                Ok(c) => c,
                Err(why) => {
                    let name = ir.get_attr(f, "sym_name").and_then(|a| ir.as_str(a)).unwrap_or("").to_string();
                    return Err(Diagnostic::error(
                        ir.loc(f),
                        format!("cannot infer the core type of func.func @{name}: {why}"),
                    ));
                }
            };
            let a = hivm_dialects::util::opaque_attr(ir, "hivm", &format!("func_core_type<{}>", name_of(c)));
            ir.set_attr(f, "hivm.func_core_type", a);
            let owner = super::enclosing(ir, f, "builtin.module").unwrap_or(module);
            match modules.iter_mut().find(|(m, _)| *m == owner) {
                Some((_, k)) if *k != c => *k = MIX,
                Some(_) => {}
                None => modules.push((owner, c)),
            }
        }
        for (m, k) in modules {
            let a = hivm_dialects::util::opaque_attr(ir, "hivm", &format!("module_core_type<{}>", name_of(k)));
            ir.set_attr(m, "hivm.module_core_type", a);
        }
        Ok(())
    }
}
