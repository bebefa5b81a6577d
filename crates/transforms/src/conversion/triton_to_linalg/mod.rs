//! `triton-to-linalg`: a Triton kernel (TTIR, `tt.func`) becomes the
//! linalg/memref/bufferization function triton-ascend hands to
//! bishengir-compile — pointers are `memref<?xT>` arguments, blocks of
//! pointers `memref.reinterpret_cast` views, loads local buffers, stores
//! `materialize_in_destination`, program ids trailing `i32` arguments — with
//! its custom ops (`hivm.hir.custom` / `custom_macro`) kept in place.
//!
//! The conversion copies each function's body into a new `func.func` in one
//! forward walk (so every op lands where its Triton op stood, as the
//! upstream patterns place them), keeping per old value either its
//! converted value or, for pointers, an address state (`address.rs`). It
//! then drops what only addresses needed, hoists and merges constants and
//! runs CSE, as the upstream pass's clean-up does.

mod address;
mod control;
mod data;
mod emit;
mod mask;
mod memory;
mod scalar;
mod signature;
mod with_index;

use hivm_ir::builder::InsertPoint;
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{Attribute, BlockId, Ir, OpId, OperationState, Value};
use rustc_hash::FxHashMap;

use address::PtrState;
use emit::Emitter;

pub struct TritonToLinalg {
    pub named_ops: bool,
    pub global_kernel: bool,
}

impl TritonToLinalg {
    pub fn from_options(options: &str) -> Result<TritonToLinalg, String> {
        let mut p = TritonToLinalg { named_ops: false, global_kernel: true };
        for kv in options.split_whitespace() {
            match kv.split_once('=') {
                Some(("named-ops", v)) => p.named_ops = parse_bool(v)?,
                Some(("global-kernel", v)) => p.global_kernel = parse_bool(v)?,
                Some(("enable-nd2nz-on-vector" | "enable-select-analysis" | "compile-on-910-95", v)) => {
                    parse_bool(v)?;
                }
                _ => return Err(format!("unknown option '{kv}' for triton-to-linalg")),
            }
        }
        Ok(p)
    }
}

fn parse_bool(v: &str) -> Result<bool, String> {
    match v {
        // llvm::cl's spellings of a bool option.
        "true" | "True" | "TRUE" | "1" => Ok(true),
        "false" | "False" | "FALSE" | "0" => Ok(false),
        _ => Err(format!("expected true or false, got '{v}'")),
    }
}

/// The state of converting one function.
pub struct Cx<'a> {
    pub ir: &'a mut Ir,
    pub named_ops: bool,
    /// Old value -> converted value.
    pub map: FxHashMap<Value, Value>,
    /// Old pointer value -> its address.
    pub ptrs: FxHashMap<Value, PtrState>,
    /// The new function's [num_programs x, y, z, program_id x, y, z].
    pub grid: [Option<Value>; 6],
    /// Old `scf.for` -> per iteration argument, the block of pointers it carries.
    pub loops: FxHashMap<OpId, Vec<Option<control::Carried>>>,
    /// Where converted ops go (the end of the new block being filled).
    pub ip: InsertPoint,
    /// The new function's entry block.
    pub entry: BlockId,
    /// The location of the op being converted.
    pub loc: Attribute,
}

impl<'a> Cx<'a> {
    pub fn em(&mut self) -> Emitter<'_> {
        Emitter::new(self.ir, self.ip, self.loc)
    }

    pub fn em_at(&mut self, op: OpId) -> Emitter<'_> {
        let loc = self.ir.loc(op);
        Emitter::new(self.ir, self.ip, loc)
    }

    /// The converted value of old value `v`.
    pub fn lookup(&self, v: Value) -> Result<Value, Diagnostic> {
        if let Some(n) = self.map.get(&v) {
            return Ok(*n);
        }
        let (loc, what) = match self.ir.defining_op(v) {
            Some(op) => (self.ir.loc(op), format!("the result of '{}'", self.ir.op_name(op))),
            None => (self.ir.value_loc(v).unwrap_or(self.loc), "a block argument".to_string()),
        };
        Err(Diagnostic::error(loc, format!("{what} used as data is not supported by triton-to-linalg yet")))
    }

    /// Copies `op` (no regions) with converted operands, same result types.
    pub fn clone_mapped(&mut self, op: OpId) -> Result<(), Diagnostic> {
        let operands: Vec<Value> =
            self.ir.operands(op).to_vec().into_iter().map(|v| self.lookup(v)).collect::<Result<_, _>>()?;
        let results = self.ir.results(op).to_vec();
        let types = results.iter().map(|r| self.ir.value_type(*r)).collect();
        let mut st = OperationState::new(self.ir.op(op).name, self.ir.loc(op));
        st.operands = operands;
        st.result_types = types;
        st.properties = self.ir.op(op).properties;
        let attrs = self.ir.op(op).attrs;
        let new = hivm_ir::builder::Builder::new(self.ir, self.ip).create(st);
        self.ir.op_mut(new).attrs = attrs;
        for (i, r) in results.iter().enumerate() {
            let n = self.ir.result(new, i);
            self.map.insert(*r, n);
        }
        Ok(())
    }

    /// Converts the ops of old block `from` into the end of new block `to`.
    pub fn convert_block(&mut self, from: BlockId, to: BlockId) -> Result<(), Diagnostic> {
        let saved = self.ip;
        self.ip = InsertPoint::End(to);
        let ops: Vec<OpId> = self.ir.block_ops(from).collect();
        for op in ops {
            self.loc = self.ir.loc(op);
            self.convert_op(op)?;
        }
        self.ip = saved;
        Ok(())
    }

    fn convert_op(&mut self, op: OpId) -> Result<(), Diagnostic> {
        let name = self.ir.op_name(op).to_string();
        let results = self.ir.results(op).to_vec();
        let pointer_result = results.iter().any(|r| address::is_pointer_like(self, self.ir.value_type(*r)));
        let tensor_result = results.iter().any(|r| self.ir.type_data(self.ir.value_type(*r)).is_tensor());
        match name.as_str() {
            "tt.addptr" => {
                address::pointer(self, results[0])?;
                if self.ir.type_data(self.ir.value_type(results[0])).is_tensor() {
                    address::view(self, results[0])?;
                }
                Ok(())
            }
            "tt.splat" | "tt.broadcast" | "tt.expand_dims" if pointer_result => {
                address::pointer(self, results[0]).map(|_| ())
            }
            "tt.load" => memory::load(self, op),
            "tt.store" => memory::store(self, op),
            "tt.get_program_id" | "tt.get_num_programs" => {
                let axis = self.ir.get_attr(op, "axis").and_then(|a| self.ir.as_int(a)).unwrap_or(0) as usize;
                let slot = if name == "tt.get_num_programs" { axis } else { 3 + axis };
                let v = self.grid[slot.min(5)].expect("grid arguments");
                self.map.insert(results[0], v);
                Ok(())
            }
            "tt.splat" => data::splat(self, op),
            "tt.make_range" => data::make_range(self, op),
            "tt.expand_dims" => data::expand_dims(self, op),
            "tt.broadcast" => data::broadcast(self, op),
            "tt.reshape" => data::reshape(self, op),
            "tt.trans" => data::trans(self, op),
            "tt.reduce" => data::reduce(self, op),
            "arith.constant" => data::constant(self, op),
            "hivm.hir.custom" | "hivm.hir.custom_macro" => control::custom(self, op),
            // Synchronisation is the later passes' business; it stays where it stood.
            "gpu.barrier" => self.clone_mapped(op),
            "scf.for" => control::for_loop(self, op),
            "scf.if" | "scf.while" | "scf.execute_region" => control::region_op(self, op),
            "scf.yield" | "scf.condition" => control::terminator(self, op),
            "tt.return" => {
                let mut em = self.em();
                let operands: Vec<Value> = Vec::new();
                em.op("func.return", &operands, &[], vec![]);
                Ok(())
            }
            _ if pointer_result => Err(self.unsupported(op, "producing pointers")),
            n if (n.starts_with("arith.") || n.starts_with("math.")) && self.ir.regions(op).is_empty() => {
                if tensor_result {
                    data::elementwise(self, op)
                } else {
                    self.clone_mapped(op)
                }
            }
            _ => Err(self.unsupported(op, "")),
        }
    }

    pub fn unsupported(&self, op: OpId, what: &str) -> Diagnostic {
        let space = if what.is_empty() { "" } else { " " };
        Diagnostic::error(
            self.ir.loc(op),
            format!("'{}' op{space}{what} is not supported by triton-to-linalg yet", self.ir.op_name(op)),
        )
    }
}

impl Pass for TritonToLinalg {
    fn name(&self) -> &str {
        "triton-to-linalg"
    }

    fn display_name(&self) -> &str {
        "TritonToLinalgPass"
    }

    fn run(&mut self, ir: &mut Ir, module: OpId) -> Result<(), Diagnostic> {
        let mut funcs = Vec::new();
        kernels(ir, module, &mut funcs);
        for f in funcs {
            signature::convert_function(ir, f, self)?;
        }
        Ok(())
    }
}

/// The `tt.func`s of `module` and of the modules nested in it (a file of
/// several `module {}`s parses into one implicit module holding them).
fn kernels(ir: &Ir, module: OpId, out: &mut Vec<OpId>) {
    let ops: Vec<OpId> =
        ir.regions(module).iter().flat_map(|r| ir.region_blocks(*r).to_vec()).flat_map(|b| ir.block_ops(b)).collect();
    for o in ops {
        if ir.is_op(o, "tt.func") {
            out.push(o);
        } else if ir.is_op(o, "builtin.module") {
            kernels(ir, o, out);
        }
    }
}
