//! `-canonicalize`: folds integer arithmetic on constants, applies algebraic
//! identities, removes dead side-effect-free ops, and de-duplicates constants
//! within a block — iterated to a fixed point.

use rustc_hash::FxHashMap as HashMap;

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{AttrData, Attribute, Ir, OpId, OperationState, Traits, TypeData, Value, ValueDef};

#[derive(Default)]
pub struct Canonicalize {
    /// Use counts by value (see `count_uses`).
    uses: Vec<u32>,
}

/// The integer value of a constant-defined scalar, with its width (64 for index).
fn const_int(ir: &Ir, v: Value) -> Option<(i128, u32)> {
    let ValueDef::Result { op, .. } = ir.value_def(v) else { return None };
    if !ir.is_op(op, "arith.constant") {
        return None;
    }
    let AttrData::Integer { value, ty } = ir.attr_data(ir.get_attr(op, "value")?) else { return None };
    let width = match ir.type_data(*ty) {
        TypeData::Integer { width, .. } => *width,
        TypeData::Index => 64,
        _ => return None,
    };
    Some((*value, width))
}

/// Wraps to `width` bits, sign-extended (how signless constants are stored).
fn wrap(v: i128, width: u32) -> i128 {
    if width >= 128 {
        return v;
    }
    if width == 1 {
        return v & 1;
    }
    let shift = 128 - width;
    (v << shift) >> shift
}

enum Fold {
    Value(Value),
    Const(i128),
}

fn fold(ir: &Ir, op: OpId) -> Option<Fold> {
    let name = ir.op_name(op);
    let ops = ir.operands(op);
    if ops.len() != 2 || ir.results(op).len() != 1 {
        return None;
    }
    let (a, b) = (ops[0], ops[1]);
    let (ca, cb) = (const_int(ir, a), const_int(ir, b));
    let width = match ir.type_data(ir.value_type(ir.result(op, 0))) {
        TypeData::Integer { width, .. } => *width,
        TypeData::Index => 64,
        _ => return None,
    };
    match (name, ca, cb) {
        ("arith.addi", Some((x, _)), Some((y, _))) => Some(Fold::Const(wrap(x.wrapping_add(y), width))),
        ("arith.subi", Some((x, _)), Some((y, _))) => Some(Fold::Const(wrap(x.wrapping_sub(y), width))),
        ("arith.muli", Some((x, _)), Some((y, _))) => Some(Fold::Const(wrap(x.wrapping_mul(y), width))),
        ("arith.andi", Some((x, _)), Some((y, _))) => Some(Fold::Const(wrap(x & y, width))),
        ("arith.ori", Some((x, _)), Some((y, _))) => Some(Fold::Const(wrap(x | y, width))),
        ("arith.xori", Some((x, _)), Some((y, _))) => Some(Fold::Const(wrap(x ^ y, width))),
        ("arith.addi" | "arith.subi" | "arith.ori" | "arith.xori", _, Some((0, _))) => Some(Fold::Value(a)),
        ("arith.addi" | "arith.ori" | "arith.xori", Some((0, _)), _) => Some(Fold::Value(b)),
        ("arith.muli", _, Some((1, _))) => Some(Fold::Value(a)),
        ("arith.muli", Some((1, _)), _) => Some(Fold::Value(b)),
        ("arith.muli" | "arith.andi", _, Some((0, _))) | ("arith.muli" | "arith.andi", Some((0, _)), _) => {
            Some(Fold::Const(0))
        }
        ("arith.subi" | "arith.xori", _, _) if a == b => Some(Fold::Const(0)),
        _ => None,
    }
}

fn make_constant(ir: &mut Ir, before: OpId, value: i128, like: Value) -> Value {
    let ty = ir.value_type(like);
    let attr: Attribute = ir.int_attr(value, ty);
    let name = ir.sym("arith.constant");
    let loc = ir.loc(before);
    let mut st = OperationState::new(name, loc);
    let key = ir.sym("value");
    st.properties = Some(ir.dict_attr(vec![(key, attr)]));
    st.result_types.push(ty);
    let c = ir.create_op(st);
    ir.insert_op_before(before, c);
    ir.result(c, 0)
}

/// Counts the uses of every value under `root` into `uses` (indexed by
/// value; a walk that bumps counters, no hashing). The vector is kept across
/// sweeps and runs and cleared entry by entry (`clear_use_counts`), so that a
/// nested pipeline running once per function stays linear.
fn count_uses(ir: &Ir, root: OpId, uses: &mut Vec<u32>) {
    if uses.len() < ir.value_count() {
        uses.resize(ir.value_count(), 0);
    }
    ir.walk(root, &mut |o| {
        for v in ir.operands(o) {
            uses[v.index()] += 1;
        }
    });
}

fn clear_use_counts(ir: &Ir, root: OpId, uses: &mut [u32]) {
    ir.walk(root, &mut |o| {
        for v in ir.operands(o) {
            uses[v.index()] = 0;
        }
    });
}

impl Canonicalize {
    /// One sweep; returns whether anything changed.
    fn sweep(&mut self, ir: &mut Ir, root: OpId) -> bool {
        let mut changed = false;
        let mut ops = Vec::new();
        ir.walk(root, &mut |o| ops.push(o));
        for op in ops.iter().copied() {
            if op == root || ir.is_erased(op) {
                continue;
            }
            if let Some(pattern) = ir.op_def(op).and_then(|d| d.canonicalize) {
                changed |= pattern(ir, op);
            }
            let Some(f) = fold(ir, op) else { continue };
            let res = ir.result(op, 0);
            let new = match f {
                Fold::Value(v) => v,
                Fold::Const(c) => make_constant(ir, op, c, res),
            };
            ir.replace_all_uses_in(root, res, new);
            ir.erase_op(op);
            changed = true;
        }
        // De-duplicate identical constants within each block.
        let mut blocks = Vec::new();
        ir.walk(root, &mut |o| blocks.extend(ir.regions(o).iter().flat_map(|r| ir.region_blocks(*r).to_vec())));
        for b in blocks {
            let mut seen: HashMap<(Option<Attribute>, Vec<hivm_ir::Type>), Value> = HashMap::default();
            let ops: Vec<OpId> = ir.block_ops(b).collect();
            for op in ops {
                if !ir.is_op(op, "arith.constant") {
                    continue;
                }
                let k = (ir.op(op).properties, vec![ir.value_type(ir.result(op, 0))]);
                let res = ir.result(op, 0);
                match seen.get(&k) {
                    Some(&prev) if ir.op(op).attrs == ir.empty_dict() => {
                        ir.replace_all_uses_in(root, res, prev);
                        ir.erase_op(op);
                        changed = true;
                    }
                    _ => {
                        seen.insert(k, res);
                    }
                }
            }
        }
        // Dead code: side-effect-free ops whose results are unused.
        let mut uses = std::mem::take(&mut self.uses);
        count_uses(ir, root, &mut uses);
        let mut dead = Vec::new();
        ir.walk_post(root, &mut |o| {
            // Side-effect-free ops go when unused, including result-less ones
            // such as a `no_side_effect` custom op.
            let removable = ir.is_side_effect_free(o)
                && ir.op_def(o).is_some_and(|d| !d.has(Traits::TERMINATOR))
                && ir.regions(o).is_empty()
                && ir.results(o).iter().all(|v| uses.get(v.index()).copied().unwrap_or(0) == 0);
            if removable && o != root {
                dead.push(o);
            }
        });
        clear_use_counts(ir, root, &mut uses);
        self.uses = uses;
        for o in dead {
            ir.erase_op(o);
            changed = true;
        }
        changed
    }
}

impl Pass for Canonicalize {
    fn name(&self) -> &str {
        "canonicalize"
    }

    fn display_name(&self) -> &str {
        "Canonicalizer"
    }

    fn run(&mut self, ir: &mut Ir, op: OpId) -> Result<(), Diagnostic> {
        // Bounded like MLIR's greedy driver (max iterations 10).
        for _ in 0..10 {
            if !self.sweep(ir, op) {
                break;
            }
        }
        Ok(())
    }
}
