//! Structural and per-op verification, reporting in mlir-opt's words:
//! `'op.name' op MESSAGE` plus a "see current operation" note.

use crate::diagnostics::Diagnostic;
use crate::dialect::Traits;
use crate::ir::{BlockId, Ir, OpId, ValueDef};
use crate::printer::op_to_generic_string;

/// Builds the usual op error with its "see current operation" note.
pub fn op_error(ir: &Ir, op: OpId, msg: &str) -> Diagnostic {
    plain_error(ir, op, &format!("'{}' op {msg}", ir.op_name(op)))
}

/// An error at the op's location, with the op attached as a note.
pub fn plain_error(ir: &Ir, op: OpId, msg: &str) -> Diagnostic {
    let loc = ir.loc(op);
    Diagnostic::error(loc, msg).with_note(loc, format!("see current operation: {}", op_to_generic_string(ir, op)))
}

fn from_verify_error(ir: &Ir, op: OpId, e: crate::dialect::VerifyError) -> Vec<Diagnostic> {
    let op = e.at.unwrap_or(op);
    let d = if e.plain { plain_error(ir, op, &e.msg) } else { op_error(ir, op, &e.msg) };
    vec![d; e.times.max(1) as usize]
}

/// Verifies `root` and everything nested in it, reporting the first error.
pub fn verify(ir: &Ir, root: OpId) -> Result<(), Diagnostic> {
    match verify_all(ir, root).into_iter().next() {
        Some(d) => Err(d),
        None => Ok(()),
    }
}

/// Verifies like mlir-opt: within one isolated-from-above op the first error
/// stops verification, but sibling isolated ops (e.g. functions) are each
/// verified and all their errors reported.
pub fn verify_all(ir: &Ir, root: OpId) -> Vec<Diagnostic> {
    let _symbols = crate::builder::SymbolCacheScope::new(ir);
    let run = |positions: &mut Positions| {
        positions.start(ir.ops.len());
        let mut errors = Vec::new();
        verify_isolated(ir, root, positions, &mut errors);
        errors
    };
    POSITIONS.with(|cell| match cell.try_borrow_mut() {
        Ok(mut positions) => run(&mut positions),
        // A verifier that verifies again gets a table of its own.
        Err(_) => run(&mut Positions { generation: 0, slots: Vec::new() }),
    })
}

/// Position of each op in its block, assigned as the walk reaches it, so
/// same-block dominance is O(1): a definition not reached yet reads as
/// `u32::MAX` and so comes after every user reached so far. The table is
/// kept per thread and stamped with a generation, so verifying each of many
/// nested targets (per-function pipelines) costs what the target holds, not
/// what the whole module holds.
struct Positions {
    generation: u32,
    slots: Vec<(u32, u32)>,
}

impl Positions {
    fn start(&mut self, ops: usize) {
        if self.slots.len() < ops {
            self.slots.resize(ops, (0, u32::MAX));
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Stamps wrapped: every old stamp could look current again.
            self.slots.iter_mut().for_each(|s| *s = (0, u32::MAX));
            self.generation = 1;
        }
    }

    fn get(&self, op: OpId) -> u32 {
        match self.slots[op.index()] {
            (g, p) if g == self.generation => p,
            _ => u32::MAX,
        }
    }

    fn set(&mut self, op: OpId, pos: u32) {
        self.slots[op.index()] = (self.generation, pos);
    }
}

thread_local! {
    static POSITIONS: std::cell::RefCell<Positions> =
        const { std::cell::RefCell::new(Positions { generation: 0, slots: Vec::new() }) };
}

fn verify_isolated(ir: &Ir, op: OpId, positions: &mut Positions, errors: &mut Vec<Diagnostic>) -> bool {
    let mut isolated = Vec::new();
    if let Err(d) = verify_tree(ir, op, positions, &mut isolated) {
        errors.extend(d);
        return false;
    }
    let mut ok = true;
    for child in isolated {
        ok &= verify_isolated(ir, child, positions, errors);
    }
    ok
}

/// Verifies `op` and non-isolated descendants; isolated descendants are queued.
fn verify_tree(ir: &Ir, op: OpId, positions: &mut Positions, isolated: &mut Vec<OpId>) -> Result<(), Vec<Diagnostic>> {
    verify_op(ir, op, positions)?;
    for &r in ir.regions(op) {
        for &b in ir.region_blocks(r) {
            for (i, child) in ir.block_ops(b).enumerate() {
                positions.set(child, i as u32);
                if ir.op_def(child).is_some_and(|d| d.has(Traits::ISOLATED_FROM_ABOVE)) {
                    isolated.push(child);
                } else {
                    verify_tree(ir, child, positions, isolated)?;
                }
            }
        }
    }
    if let Some(f) = ir.op_def(op).and_then(|d| d.verify_regions)
        && let Err(e) = f(ir, op)
    {
        return Err(from_verify_error(ir, op, e));
    }
    Ok(())
}

fn verify_op(ir: &Ir, op: OpId, positions: &Positions) -> Result<(), Vec<Diagnostic>> {
    // MLIR's order: region/result/operand counts, then the ODS invariants
    // (type constraints), then the op's other traits, then its verifier.
    verify_counts(ir, op).map_err(|d| vec![d])?;
    if let Some(c) = ir.op_def(op).and_then(|d| d.spec)
        && let Err(e) = crate::opspec::verify_spec(ir, op, c)
    {
        return Err(from_verify_error(ir, op, e));
    }
    if let Some(f) = ir.op_def(op).and_then(|d| d.invariants)
        && let Err(e) = f(ir, op)
    {
        return Err(from_verify_error(ir, op, e));
    }
    verify_traits(ir, op).map_err(|d| vec![d])?;
    if let Some(f) = ir.op_def(op).and_then(|d| d.verify)
        && let Err(e) = f(ir, op)
    {
        return Err(from_verify_error(ir, op, e));
    }
    if let Some(c) = ir.op_def(op).and_then(|d| d.spec)
        && let Err(e) = crate::opspec::verify_spec_late(ir, op, c)
    {
        return Err(from_verify_error(ir, op, e));
    }
    verify_dominance(ir, op, positions).map_err(|d| vec![d])
}

/// MLIR's words for a wrong count of operands, results or regions.
fn arity_error(ir: &Ir, op: OpId, a: crate::dialect::Arity) -> Option<String> {
    let count = |what: &str, n: usize, (min, max): (u16, Option<u16>)| -> Option<String> {
        let (min, n16) = (min as usize, n);
        match max {
            Some(max) if max as usize == min && n16 != min => Some(match (what, min) {
                ("results", 0) => "requires zero results".to_string(),
                ("results", 1) => "requires one result".to_string(),
                ("operands", 0) => "requires zero operands".to_string(),
                ("operands", 1) => "requires a single operand".to_string(),
                _ => format!("expected {min} {what}, but found {n}"),
            }),
            Some(max) if n > max as usize => format!("expected at most {max} {what}, but found {n}").into(),
            _ if n < min => Some(format!("expected {min} or more {what}, but found {n}")),
            _ => None,
        }
    };
    count("operands", ir.operands(op).len(), a.operands)
        .or_else(|| count("results", ir.results(op).len(), a.results))
        .or_else(|| match (a.regions, ir.regions(op).len()) {
            (want, have) if want as usize == have => None,
            (0, _) => Some("requires zero regions".to_string()),
            (1, _) => Some("requires one region".to_string()),
            (want, _) => Some(format!("expected {want} regions")),
        })
}

/// Registration, region and operand/result counts: the traits ODS lists
/// before `OpInvariants`.
fn verify_counts(ir: &Ir, op: OpId) -> Result<(), Diagnostic> {
    let name = ir.op_name(op);
    let Some(def) = ir.op_def(op) else {
        // A name without a dot (`"foo"()`) belongs to no dialect: mlir-opt
        // loads dialects lazily, so one named like a dialect (`"index"()`)
        // is only checked once that dialect is in use, which tests rely on.
        let dialect = name.split_once('.').map_or("", |(d, _)| d);
        if ir.registry.dialect(dialect).is_some_and(|d| !d.allow_unknown_ops) {
            let loc = ir.loc(op);
            return Err(Diagnostic::error(
                loc,
                format!("unregistered operation '{name}' found in dialect ('{dialect}') that does not allow unknown operations"),
            )
            .with_note(loc, format!("see current operation: {}", op_to_generic_string(ir, op))));
        }
        return Ok(());
    };
    if def.has(Traits::ZERO_REGIONS) && !ir.regions(op).is_empty() {
        return Err(op_error(ir, op, "requires zero regions"));
    }
    if let Some(a) = def.arity
        && let Some(msg) = arity_error(ir, op, a)
    {
        return Err(op_error(ir, op, &msg));
    }
    Ok(())
}

/// Structural checks from the op's other traits; its own verifier runs after these.
fn verify_traits(ir: &Ir, op: OpId) -> Result<(), Diagnostic> {
    let Some(def) = ir.op_def(op) else { return Ok(()) };
    if def.has(Traits::TERMINATOR)
        && let Some(b) = ir.parent_block(op)
        && ir.terminator(b) != Some(op)
    {
        return Err(op_error(ir, op, "must be the last operation in the parent block"));
    }
    if def.has(Traits::SAME_OPERANDS_AND_RESULT_TYPE) {
        let mut tys = ir.operands(op).iter().chain(ir.results(op)).map(|v| ir.value_type(*v));
        if let Some(first) = tys.next()
            && tys.any(|t| t != first)
        {
            return Err(op_error(ir, op, "requires the same type for all operands and results"));
        }
    }
    if !def.has(Traits::NO_TERMINATOR) && !def.has(Traits::GRAPH_REGION) {
        for &r in ir.regions(op) {
            for &b in ir.region_blocks(r) {
                match ir.terminator(b) {
                    None => {
                        let loc = ir.loc(op);
                        return Err(Diagnostic::error(loc, "empty block: expect at least a terminator"));
                    }
                    Some(t) => {
                        let is_term = match ir.op_def(t) {
                            Some(d) => d.has(Traits::TERMINATOR),
                            None => true,
                        };
                        if !is_term {
                            let loc = ir.loc(t);
                            return Err(Diagnostic::error(
                                loc,
                                format!("block with no terminator, has {}", op_to_generic_string(ir, t)),
                            ));
                        }
                    }
                }
            }
        }
    }
    if def.has(Traits::SINGLE_BLOCK) {
        for &r in ir.regions(op) {
            if ir.region_blocks(r).len() > 1 {
                return Err(op_error(ir, op, "expects region #0 to have 0 or 1 blocks"));
            }
        }
    }
    Ok(())
}

/// Whether a region's uses are exempt from dominance: graph regions, and
/// regions of unregistered ops (whose kind is unknown, as in MLIR).
fn may_be_graph_region(ir: &Ir, block: BlockId) -> bool {
    match ir.block_parent_op(block) {
        Some(p) => ir.op_def(p).is_none_or(|d| d.has(Traits::GRAPH_REGION)),
        None => true,
    }
}

/// Whether block `a` dominates block `b` in their region's CFG.
fn block_dominates(ir: &Ir, a: BlockId, b: BlockId) -> bool {
    if a == b {
        return true;
    }
    let Some(r) = ir.block_parent(a) else { return false };
    let blocks = ir.region_blocks(r);
    if blocks.first() == Some(&a) {
        return true;
    }
    // Is `b` reachable from the entry without passing through `a`?
    let mut seen = rustc_hash::FxHashSet::default();
    let mut stack = vec![blocks[0]];
    while let Some(x) = stack.pop() {
        if x == a || !seen.insert(x) {
            continue;
        }
        if x == b {
            return false;
        }
        if let Some(t) = ir.terminator(x) {
            stack.extend(ir.successors(t).iter().copied());
        }
    }
    true
}

/// Checks that every operand's definition dominates the use: an earlier op in
/// the same block, an enclosing block's value, or a dominating block.
fn verify_dominance(ir: &Ir, op: OpId, positions: &Positions) -> Result<(), Diagnostic> {
    for (i, &v) in ir.operands(op).iter().enumerate() {
        let (def_block, def_op) = match ir.value_def(v) {
            ValueDef::Result { op: d, .. } => match ir.parent_block(d) {
                Some(b) => (b, Some(d)),
                None => continue,
            },
            ValueDef::BlockArg { block, .. } => (block, None),
            ValueDef::Placeholder => {
                let loc = ir.loc(op);
                return Err(Diagnostic::error(loc, format!("operand #{i} is an unresolved forward reference")));
            }
        };
        // Climb from the user to the ancestor that sits in the defining region.
        let def_region = ir.block_parent(def_block);
        let mut user = op;
        let dominated = loop {
            let Some(ub) = ir.parent_block(user) else { break false };
            if ir.block_parent(ub) == def_region {
                if may_be_graph_region(ir, ub) {
                    break true;
                }
                break if ub == def_block {
                    def_op.is_none_or(|d| d != user && positions.get(d) < positions.get(user))
                } else {
                    block_dominates(ir, def_block, ub)
                };
            }
            match ir.parent_op(user) {
                Some(p) => user = p,
                None => break false,
            }
        };
        if !dominated {
            let loc = ir.loc(op);
            let mut d = Diagnostic::error(loc, format!("operand #{i} does not dominate this use"))
                .with_note(loc, format!("see current operation: {}", op_to_generic_string(ir, op)));
            let (ub, ur) = (ir.parent_block(op), ir.parent_block(op).and_then(|b| ir.block_parent(b)));
            let dr = ir.block_parent(def_block);
            // Whether region `a` strictly encloses region `b`.
            let encloses = |a: Option<crate::RegionId>, b: Option<crate::RegionId>| {
                let mut r = b;
                while let Some(o) = r.and_then(|r| ir.region_parent(r)) {
                    r = ir.parent_block(o).and_then(|b| ir.block_parent(b));
                    if r.is_some() && r == a {
                        return true;
                    }
                }
                false
            };
            if let Some(dop) = def_op {
                let rel = if ub == Some(def_block) {
                    "op in the same block"
                } else if ur == dr {
                    "op in the same region"
                } else if encloses(dr, ur) {
                    "op in a parent region"
                } else if encloses(ur, dr) {
                    "op in a child region"
                } else {
                    "op is neither in a parent nor in a child region"
                };
                d = d.with_note(ir.loc(dop), format!("operand defined here ({rel})"));
            } else if let Some(owner) = ir.block_parent_op(def_block) {
                let index = dr.map_or(0, |r| ir.region_blocks(r).iter().position(|b| *b == def_block).unwrap_or(0));
                let rel = if ur == dr {
                    "in the same region"
                } else if encloses(dr, ur) {
                    "in a parent region"
                } else if encloses(ur, dr) {
                    "in a child region"
                } else {
                    "neither in a parent nor in a child region"
                };
                d = d.with_note(ir.loc(owner), format!("operand defined as a block argument (block #{index} {rel})"));
            }
            return Err(d);
        }
    }
    Ok(())
}
