//! `convert-hivm-to-std`: each custom / custom_macro op becomes a `func.call`
//! of its implementation, with memrefs cast to fully dynamic strided layouts
//! and a private declaration carrying the C-interface and inlining attributes
//! (spec customop.md §6.12).

use hivm_dialects::hivm::custom;
use hivm_dialects::util::opaque_arg;
use hivm_ir::attrs::AttrData;
use hivm_ir::builder::{Builder, InsertPoint, lookup_symbol_in};
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::types::DYNAMIC;
use hivm_ir::{Ir, OpId, OperationState, Type, TypeData, Value};

pub struct ToStd {
    /// Only affects non-custom library calls upstream; accepted for compatibility.
    pub mark_libcall_noinline: bool,
    /// Callees known to be declared in a module: one scan of the module per
    /// new name instead of one per call (the pass only adds symbols).
    declared: rustc_hash::FxHashSet<(OpId, String)>,
}

impl ToStd {
    pub fn from_options(options: &str) -> Result<ToStd, String> {
        let mut p = ToStd { mark_libcall_noinline: true, declared: Default::default() };
        for kv in options.split_whitespace() {
            match kv.split_once('=') {
                Some(("mark-libcall-noinline", v)) => p.mark_libcall_noinline = parse_bool(v)?,
                Some(("is-ops-aligned", v)) => {
                    parse_bool(v)?;
                }
                _ => return Err(format!("unknown option '{kv}' for convert-hivm-to-std")),
            }
        }
        Ok(p)
    }
}

fn parse_bool(v: &str) -> Result<bool, String> {
    match v {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        _ => Err(format!("expected true or false, got '{v}'")),
    }
}

/// `memref<4x8xf32, 3>` → `memref<?x?xf32, strided<[?, ?], offset: ?>, 3>`.
fn dynamic_memref(ir: &mut Ir, t: Type) -> Type {
    match ir.type_data(t).clone() {
        TypeData::MemRef { shape, elem, memory_space, .. } => {
            let rank = shape.len();
            let layout = ir.attr(AttrData::Strided { strides: vec![DYNAMIC; rank], offset: DYNAMIC });
            ir.ty(TypeData::MemRef { shape: vec![DYNAMIC; rank], elem, layout: Some(layout), memory_space })
        }
        _ => t,
    }
}

/// C++ element type names used by the builtin library (spec §5).
fn elem_name(ir: &Ir, t: Type) -> String {
    let e = ir.type_data(t).element_type().unwrap_or(t);
    match ir.type_data(e) {
        TypeData::Integer { width: 1, .. } => "bool".into(),
        TypeData::Integer { width, signedness: hivm_ir::types::Signedness::Unsigned } => format!("uint{width}_t"),
        TypeData::Integer { width, .. } => format!("int{width}_t"),
        TypeData::Float(k) => match k.keyword() {
            "f16" => "half",
            "bf16" => "bfloat16_t",
            "f32" => "float",
            "f64" => "double",
            "f8E4M3FN" => "float8_e4m3_t",
            "f8E5M2" => "float8_e5m2_t",
            _ => "UNKNOWN",
        }
        .into(),
        _ => "UNKNOWN".into(),
    }
}

fn rank(ir: &Ir, v: Value) -> usize {
    ir.type_data(ir.value_type(v)).shape().map(|s| s.len()).unwrap_or(0)
}

/// Library function name for a builtin op.
fn builtin_callee(ir: &Ir, op: OpId, name: &str) -> String {
    let ins = custom::ins(ir, op);
    let t = |i: usize| ins.get(i).map(|v| elem_name(ir, ir.value_type(*v))).unwrap_or_else(|| "UNKNOWN".into());
    let extra = ir.get_attr(op, "extra_attr").and_then(|a| ir.as_str(a)).unwrap_or("").to_string();
    match name {
        "__builtin_gather_load" => {
            format!("gather_out_to_ub_{}d_{}_{}", ins.get(1).map(|v| rank(ir, *v)).unwrap_or(0), t(0), t(1))
        }
        "__builtin_index_select" => format!(
            "index_select_{}d_{}_{}d_{}",
            custom::index_select_src_rank(ir, op).map(String::from).unwrap_or_default(),
            t(0),
            ins.get(1).map(|v| rank(ir, *v)).unwrap_or(0),
            t(1)
        ),
        "__builtin_indirect_atomic" => {
            let mut op_kind = "unknown".to_string();
            let mut cta = false;
            for part in extra.split(',') {
                match part.split_once('=').map(|(k, v)| (k.trim(), v.trim())) {
                    Some(("operate", v)) => op_kind = v.to_string(),
                    Some(("scope", "cta")) => cta = true,
                    _ => {}
                }
            }
            let bitwise = matches!(op_kind.as_str(), "or" | "and" | "xor");
            let prefix = if bitwise && cta {
                "block_"
            } else if bitwise {
                "soft_"
            } else {
                ""
            };
            let mask = if ins.len() <= 3 { "_no_mask" } else { "" };
            format!("indirect_atomic_{prefix}{op_kind}{mask}_{}_{}", t(2), t(1))
        }
        _ => {
            let one_d = if ins.first().is_some_and(|v| rank(ir, *v) == 1) { "_1d" } else { "" };
            let masked = if ins.len() > 2 { "_masked" } else { "" };
            format!("histogram{one_d}{masked}_{}", t(0))
        }
    }
}

fn module_of(ir: &Ir, op: OpId) -> Option<OpId> {
    let mut cur = ir.parent_op(op);
    while let Some(c) = cur {
        if ir.is_op(c, "builtin.module") {
            return Some(c);
        }
        cur = ir.parent_op(c);
    }
    None
}

impl ToStd {
    fn callee(&self, ir: &Ir, op: OpId) -> Result<String, Diagnostic> {
        let name = custom::name(ir, op);
        if custom::builtin(ir, op).is_some() {
            return Ok(builtin_callee(ir, op, name));
        }
        let Some(symbol) = custom::symbol(ir, op).filter(|s| !s.is_empty()) else {
            return Err(Diagnostic::error(
                ir.loc(op),
                format!("'{}' op Missing implementation function name", ir.op_name(op)),
            ));
        };
        let uses_memref =
            ir.operands(op).iter().chain(ir.results(op)).any(|v| ir.type_data(ir.value_type(*v)).is_memref());
        let mut callee = if uses_memref { symbol.to_string() } else { format!("_mlir_ciface_{symbol}") };
        let module = module_of(ir, op);
        let mix = module
            .and_then(|m| ir.get_attr(m, "hivm.module_core_type"))
            .and_then(|a| opaque_arg(ir, a, "module_core_type"))
            == Some("MIX");
        if mix && let Some(f) = super::enclosing(ir, op, "func.func") {
            let core = if ir.has_attr(f, "hivm.vector_function") {
                Some("AIV")
            } else {
                hivm_dialects::hivm::func_core_type(ir, f)
            };
            match core {
                Some("AIC") => callee.push_str(".cube"),
                Some("AIV") => callee.push_str(".vector"),
                _ => {}
            }
        }
        Ok(callee)
    }

    fn declare(
        &mut self,
        ir: &mut Ir,
        op: OpId,
        module: OpId,
        callee: &str,
        inputs: Vec<Type>,
        results: Vec<Type>,
    ) -> Result<(), Diagnostic> {
        let body = ir.region_blocks(ir.regions(module)[0])[0];
        if self.declared.contains(&(module, callee.to_string())) {
            return Ok(());
        }
        self.declared.insert((module, callee.to_string()));
        if lookup_symbol_in(ir, module, callee).is_some() {
            return Ok(());
        }
        let inline =
            ir.get_attr(op, "hivm.inline_mode").and_then(|a| opaque_arg(ir, a, "inline_mode")) == Some("always_inline");
        let core = custom::core_type(ir, op).map(str::to_string);
        let loc = ir.loc(op);
        let fty = ir.function_type(inputs, results);
        let mut attrs = vec![
            ("sym_name", ir.str_attr(callee)),
            ("function_type", ir.type_attr(fty)),
            ("sym_visibility", ir.str_attr("private")),
            ("llvm.emit_c_interface", ir.unit_attr()),
        ];
        if inline {
            attrs.push(("hacc.always_inline", ir.unit_attr()));
        } else {
            attrs.push(("hacc.noinline", ir.unit_attr()));
            let kind = hivm_dialects::util::opaque_attr(ir, "hacc", "function_kind<DEVICE>");
            attrs.push(("hacc.function_kind", kind));
        }
        match core.as_deref() {
            Some("CUBE") => {
                attrs.push(("hivm.func_core_type", hivm_dialects::util::opaque_attr(ir, "hivm", "func_core_type<AIC>")))
            }
            Some("VECTOR") => {
                attrs.push(("hivm.func_core_type", hivm_dialects::util::opaque_attr(ir, "hivm", "func_core_type<AIV>")))
            }
            Some(_) => return Err(Diagnostic::error(loc, "standard library call shouldn't have mix core type!")),
            None => {}
        }
        let region = ir.new_region();
        let name = ir.sym("func.func");
        let mut st = OperationState::new(name, loc);
        st.regions.push(region);
        let def = ir.lookup_def(name).map(|d| ir.registry.def(d).inherent_attrs).unwrap_or(&[]);
        let mut props = Vec::new();
        for (k, v) in attrs {
            let key = ir.sym(k);
            if def.contains(&k) { props.push((key, v)) } else { st.attrs.push((key, v)) }
        }
        st.properties = Some(ir.dict_attr(props));
        let decl = ir.create_op(st);
        // Upstream places the declaration before the module's last operation.
        match ir.terminator(body) {
            Some(last) => ir.insert_op_before(last, decl),
            None => ir.append_op(body, decl),
        }
        Ok(())
    }

    fn lower(&mut self, ir: &mut Ir, op: OpId) -> Result<(), Diagnostic> {
        let Some(module) = module_of(ir, op) else { return Ok(()) };
        let callee = self.callee(ir, op)?;
        let loc = ir.loc(op);
        let mut operands: Vec<Value> = ir.operands(op).to_vec();
        if ir.is_op(op, custom::MACRO) && custom::sync_args(ir, op).is_empty() {
            let slots = custom::sync_event_slots(ir, op).len();
            if slots > 0 {
                let i64t = ir.int_type(64);
                let minus_one = ir.int_attr(-1, i64t);
                let mut b = Builder::new(ir, InsertPoint::Before(op));
                let c = b.op("arith.constant", &[], &[i64t], vec![("value", minus_one)], loc);
                let v = ir.result(c, 0);
                operands.extend(std::iter::repeat_n(v, slots));
            }
        }
        let mut call_args = Vec::new();
        let mut inputs = Vec::new();
        for v in operands {
            let t = ir.value_type(v);
            if matches!(ir.type_data(t), TypeData::MemRef { .. }) {
                let dt = dynamic_memref(ir, t);
                let mut b = Builder::new(ir, InsertPoint::Before(op));
                let cast = b.op("memref.cast", &[v], &[dt], vec![], loc);
                call_args.push(ir.result(cast, 0));
                inputs.push(dt);
            } else {
                call_args.push(v);
                inputs.push(t);
            }
        }
        let results: Vec<Type> = ir.results(op).iter().map(|v| ir.value_type(*v)).collect();
        self.declare(ir, op, module, &callee, inputs, results.clone())?;
        let callee_attr = {
            let root = ir.sym(&callee);
            ir.attr(AttrData::SymbolRef { root, nested: Vec::new() })
        };
        let mut b = Builder::new(ir, InsertPoint::Before(op));
        let call = b.op("func.call", &call_args, &results, vec![("callee", callee_attr)], loc);
        let new_results = ir.results(call).to_vec();
        ir.replace_op(op, &new_results);
        Ok(())
    }
}

impl Pass for ToStd {
    fn name(&self) -> &str {
        "convert-hivm-to-std"
    }

    fn display_name(&self) -> &str {
        "ConvertHIVMToStandard"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId) -> Result<(), Diagnostic> {
        self.declared.clear();
        for op in super::custom_ops(ir, root) {
            let Some(module) = module_of(ir, op) else { continue };
            // Regbase targets convert every function; membase only DEVICE ones.
            let regbase =
                hivm_dialects::hacc::module_target(ir, op).is_some_and(|t| hivm_dialects::hacc::is_regbase(&t));
            let device = super::enclosing(ir, op, "func.func")
                .and_then(|f| ir.get_attr(f, "hacc.function_kind"))
                .and_then(|a| opaque_arg(ir, a, "function_kind"))
                == Some("DEVICE");
            let _ = module;
            if regbase || device {
                self.lower(ir, op)?;
            }
        }
        Ok(())
    }
}
