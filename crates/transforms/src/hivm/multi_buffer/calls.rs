//! The calls between the functions `hivm-plan-memory` plans: callers are
//! planned first, and a callee's buffers start where its callers' end, so
//! that nothing a call does lands on a buffer live across it.

use rustc_hash::FxHashMap;

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::{Ir, OpId};

pub struct CallGraph {
    funcs: Vec<OpId>,
    /// (caller, callee, call op) for calls between planned functions.
    edges: Vec<(OpId, OpId, OpId)>,
}

fn has_alloc(ir: &Ir, f: OpId) -> bool {
    let mut found = false;
    ir.walk(f, &mut |o| found |= ir.is_op(o, "memref.alloc"));
    found
}

impl CallGraph {
    pub fn new(ir: &Ir, funcs: &[OpId]) -> CallGraph {
        let by_name: FxHashMap<&str, OpId> = funcs
            .iter()
            .filter_map(|f| ir.get_attr(*f, "sym_name").and_then(|a| ir.as_str(a)).map(|n| (n, *f)))
            .collect();
        let mut edges = Vec::new();
        for &f in funcs {
            ir.walk(f, &mut |o| {
                if !ir.is_op(o, "func.call") {
                    return;
                }
                let callee = ir.get_attr(o, "callee").and_then(|a| match ir.attr_data(a) {
                    hivm_ir::AttrData::SymbolRef { root, .. } => Some(ir.sym_str(*root)),
                    _ => None,
                });
                if let Some(&g) = callee.and_then(|c| by_name.get(c)) {
                    edges.push((f, g, o));
                }
            });
        }
        CallGraph { funcs: funcs.to_vec(), edges }
    }

    /// The planned functions calling `f`.
    pub fn callers(&self, f: OpId) -> impl Iterator<Item = &OpId> {
        self.edges.iter().filter(move |(_, g, _)| *g == f).map(|(c, _, _)| c)
    }

    /// The functions in an order where every caller precedes its callees,
    /// and how many of them come so; the rest (on or below a cycle of
    /// calls, in module order) must sit above everything before them.
    /// Recursion through a function with buffers is an error, as no fixed
    /// address can serve every level.
    pub fn callers_first(&self, ir: &Ir) -> Result<(Vec<OpId>, usize), Diagnostic> {
        for &(c, g, call) in &self.edges {
            if (c == g || self.reaches(g, c)) && has_alloc(ir, c) {
                return Err(Diagnostic::error(
                    ir.loc(call),
                    "hivm-plan-memory cannot place the buffers of a recursive function: each level of the \
                     recursion would need addresses of its own",
                ));
            }
        }
        let mut pending: FxHashMap<OpId, usize> = self.funcs.iter().map(|f| (*f, 0)).collect();
        for (c, g, _) in &self.edges {
            if c != g {
                *pending.get_mut(g).expect("a planned function") += 1;
            }
        }
        let mut out = Vec::new();
        let mut done = vec![false; self.funcs.len()];
        while let Some(i) = (0..self.funcs.len()).find(|i| !done[*i] && pending[&self.funcs[*i]] == 0) {
            done[i] = true;
            let f = self.funcs[i];
            out.push(f);
            for (c, g, _) in &self.edges {
                if *c == f && *g != f {
                    *pending.get_mut(g).expect("a planned function") -= 1;
                }
            }
        }
        let sorted = out.len();
        // What is left lies on or below a cycle of calls (of functions
        // without buffers, checked above).
        out.extend(self.funcs.iter().enumerate().filter(|(i, _)| !done[*i]).map(|(_, f)| *f));
        Ok((out, sorted))
    }

    fn reaches(&self, from: OpId, to: OpId) -> bool {
        let mut seen = vec![from];
        let mut todo = vec![from];
        while let Some(x) = todo.pop() {
            if x == to {
                return true;
            }
            for (c, g, _) in &self.edges {
                if *c == x && !seen.contains(g) {
                    seen.push(*g);
                    todo.push(*g);
                }
            }
        }
        false
    }
}
