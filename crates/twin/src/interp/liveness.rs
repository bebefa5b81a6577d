//! Which local buffers are still live at an op: a buffer an implementation
//! was not passed may only be touched when nothing will read it again.
//!
//! Conservative in the direction of silence: a buffer is live at an op only
//! when a use of it (or of a view, loop-carried value or result derived from
//! it) comes later in the function's order, or when the op sits in a loop
//! that uses the buffer and the buffer was defined outside that loop.

use std::collections::HashMap;

use hivm_ir::{Ir, OpId, Value};

/// Program order of one function and the uses of its memref values.
pub struct FuncOrder {
    /// Pre-order position of every op.
    index: HashMap<OpId, u32>,
    /// Position of the last op nested in each op (itself when it has no regions).
    end: HashMap<OpId, u32>,
    uses: HashMap<Value, Vec<OpId>>,
    /// Last position each root buffer (with everything derived from it) is used.
    last: HashMap<Value, u32>,
}

fn is_loop(ir: &Ir, op: OpId) -> bool {
    matches!(ir.op_name(op), "scf.for" | "scf.while" | "scf.parallel" | "scf.forall")
}

impl FuncOrder {
    pub fn new(ir: &Ir, func: OpId) -> FuncOrder {
        let mut f =
            FuncOrder { index: HashMap::new(), end: HashMap::new(), uses: HashMap::new(), last: HashMap::new() };
        let mut n = 0u32;
        f.number(ir, func, &mut n);
        f
    }

    fn number(&mut self, ir: &Ir, op: OpId, n: &mut u32) {
        self.index.insert(op, *n);
        *n += 1;
        for v in ir.operands(op) {
            if ir.type_data(ir.value_type(*v)).is_memref() {
                self.uses.entry(*v).or_default().push(op);
            }
        }
        for r in ir.regions(op) {
            for b in ir.region_blocks(*r) {
                for o in ir.block_ops(*b) {
                    self.number(ir, o, n);
                }
            }
        }
        self.end.insert(op, *n - 1);
    }

    /// Whether `root` (defined by `def`) is live at `at`: used after it.
    pub fn live_at(&mut self, ir: &Ir, root: Value, def: OpId, at: OpId) -> bool {
        let (Some(&d), Some(&x)) = (self.index.get(&def), self.index.get(&at)) else { return false };
        let last = match self.last.get(&root) {
            Some(l) => *l,
            None => {
                let l = self.last_use(ir, root, d);
                self.last.insert(root, l);
                l
            }
        };
        d < x && x < last
    }

    /// The last position at which `root` or anything aliasing it is used,
    /// a use inside a loop that does not contain the definition counting
    /// as a use at the loop's end.
    fn last_use(&self, ir: &Ir, root: Value, def: u32) -> u32 {
        let mut last = def;
        let mut todo = vec![root];
        let mut seen = vec![root];
        while let Some(v) = todo.pop() {
            for &u in self.uses.get(&v).map(Vec::as_slice).unwrap_or(&[]) {
                let mut at = self.index[&u];
                let mut p = ir.parent_op(u);
                while let Some(o) = p {
                    let Some(&i) = self.index.get(&o) else { break };
                    if is_loop(ir, o) && !(i <= def && def <= self.end[&o]) {
                        at = at.max(self.end[&o]);
                    }
                    p = ir.parent_op(o);
                }
                last = last.max(at);
                for a in aliases(ir, u, v) {
                    if !seen.contains(&a) {
                        seen.push(a);
                        todo.push(a);
                    }
                }
            }
        }
        last
    }
}

/// Values through which `user` passes on the buffer `v` it uses: memref
/// results of views and casts, a loop's iteration argument and result for
/// its init, the parent's result for a yielded value.
fn aliases(ir: &Ir, user: OpId, v: Value) -> Vec<Value> {
    let memrefs = |vals: &[Value]| -> Vec<Value> {
        vals.iter().copied().filter(|r| ir.type_data(ir.value_type(*r)).is_memref()).collect()
    };
    let positions: Vec<usize> =
        ir.operands(user).iter().enumerate().filter(|(_, o)| **o == v).map(|(i, _)| i).collect();
    match ir.op_name(user) {
        "scf.yield" => {
            let Some(parent) = ir.parent_op(user) else { return vec![] };
            let mut out = Vec::new();
            for i in positions {
                if let Some(r) = ir.results(parent).get(i) {
                    out.push(*r);
                }
                if ir.is_op(parent, "scf.for")
                    && let Some(b) = ir.regions(parent).first().and_then(|r| ir.region_blocks(*r).first())
                    && let Some(a) = ir.block_args(*b).get(i + 1)
                {
                    out.push(*a);
                }
            }
            out
        }
        "scf.for" => {
            let body = ir.regions(user).first().and_then(|r| ir.region_blocks(*r).first()).copied();
            let mut out = Vec::new();
            for i in positions.into_iter().filter(|i| *i >= 3) {
                if let Some(r) = ir.results(user).get(i - 3) {
                    out.push(*r);
                }
                if let Some(a) = body.and_then(|b| ir.block_args(b).get(i - 2).copied()) {
                    out.push(a);
                }
            }
            out
        }
        _ if ir.regions(user).is_empty() => memrefs(ir.results(user)),
        _ => vec![],
    }
}
