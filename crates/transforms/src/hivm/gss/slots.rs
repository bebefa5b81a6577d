//! `custom_macro` sync slots as the solver sees them (spec §6): pinned ids
//! reserved per pipe pair before solving, pins forced onto the solver's own
//! syncs at a macro, and the function-level errors.

use hivm_dialects::hivm::attrs::{MacroSync, SyncEventSlot};
use hivm_dialects::hivm::custom;
use hivm_ir::{Ir, OpId};

use super::pipes::{self, Pipe};

/// A slot with its pipe pair resolved (explicit, else the macro's in/out).
#[derive(Clone, Debug)]
pub struct Slot {
    pub mode: MacroSync,
    pub explicit: bool,
    pub src: Pipe,
    pub dst: Pipe,
    pub pinned: Option<u32>,
}

pub fn slots_of(ir: &Ir, op: OpId) -> Vec<Slot> {
    let pipes = custom::pipes(ir, op);
    let (pin, pout) = (pipes::from_name(pipes[0]), pipes::from_name(pipes.get(1).unwrap_or(&pipes[0])));
    custom::sync_event_slots(ir, op)
        .into_iter()
        .map(|s: SyncEventSlot| {
            let (src, dst) =
                s.pipes.as_ref().map(|(a, b)| (pipes::from_name(a), pipes::from_name(b))).unwrap_or((pin, pout));
            Slot { mode: s.mode, explicit: s.pipes.is_some(), src, dst, pinned: s.event }
        })
        .collect()
}

#[derive(Clone, Debug, Default)]
pub struct MacroSlots {
    /// Pinned ids per pipe pair, kept out of the solver's colouring.
    pub reserved: Vec<((Pipe, Pipe), Vec<u32>)>,
    /// The first function-level error, with the op it concerns.
    pub conflict: Option<(OpId, String)>,
}

impl MacroSlots {
    pub fn collect(ir: &Ir, func: OpId) -> MacroSlots {
        let mut m = MacroSlots::default();
        let mut seen: Vec<(Pipe, Pipe, u32)> = Vec::new();
        let mut macros = Vec::new();
        ir.walk(func, &mut |o| {
            if ir.is_op(o, custom::MACRO) {
                macros.push(o);
            }
        });
        for op in macros {
            for s in slots_of(ir, op) {
                let Some(id) = s.pinned else { continue };
                if seen.contains(&(s.src, s.dst, id)) {
                    m.conflict = Some((
                        op,
                        "duplicate user-specified sync event id on the same pipe pair across custom_macro ops".into(),
                    ));
                    return m;
                }
                if id >= pipes::hw_event_ids(s.src, s.dst) {
                    m.conflict = Some((
                        op,
                        "user-specified sync event id cannot be satisfied by GraphSyncSolver for this pipe pair".into(),
                    ));
                    return m;
                }
                seen.push((s.src, s.dst, id));
                match m.reserved.iter_mut().find(|(k, _)| *k == (s.src, s.dst)) {
                    Some((_, ids)) => ids.push(id),
                    None => m.reserved.push(((s.src, s.dst), vec![id])),
                }
            }
        }
        m
    }

    /// The id a macro among `ops` pins for exactly (src, dst), if any.
    pub fn pinned_for(&self, ir: &Ir, ops: [Option<OpId>; 2], src: Pipe, dst: Pipe) -> Option<u32> {
        for op in ops.into_iter().flatten() {
            if !ir.is_op(op, custom::MACRO) {
                continue;
            }
            for s in slots_of(ir, op) {
                if s.explicit && s.src == src && s.dst == dst && s.pinned.is_some() {
                    return s.pinned;
                }
            }
        }
        None
    }
}

// ----- room for slots (beyond upstream) -----

/// A macro slot that takes an id of its own (not pinned, and with a pipe
/// pair): internal slots, and wait or set slots with explicit pipes.
pub fn needs_id(s: &Slot) -> bool {
    s.pinned.is_none() && (s.mode == MacroSync::Internal || s.explicit)
}

impl super::solver::Solver<'_> {
    /// When a macro's slot found no free id, the solve runs again with each
    /// such slot holding a colouring node over the macro itself: the
    /// solver's syncs that span the macro must then leave it an id, and
    /// where they cannot, the solver widens or merges its own syncs (or
    /// falls back to barriers) as whenever a pipe pair runs out of ids.
    pub(super) fn reserve_macro_slots(&mut self) {
        self.slot_colours.clear();
        let ir = self.ir;
        let macros: Vec<(super::tree::NodeId, OpId)> = (0..self.tree.nodes.len())
            .filter_map(|n| self.tree.nodes[n].op.filter(|o| ir.is_op(*o, custom::MACRO)).map(|o| (n, o)))
            .collect();
        for (node, op) in macros {
            for (i, slot) in slots_of(ir, op).iter().enumerate() {
                if !needs_id(slot) {
                    continue;
                }
                let cp = self.colour_solver(slot.src, slot.dst).checkpoint();
                let colour = self.colour_solver(slot.src, slot.dst).add_node(1, false);
                let mut pairs = Vec::new();
                let mut fits = true;
                for occ in self.tree.node_occs[node].clone() {
                    let t = &self.tree;
                    let pair = super::solver::Pair {
                        set_occ: Some(occ),
                        wait_occ: Some(occ),
                        src: slot.src,
                        dst: slot.dst,
                        start: t.occs[occ].start,
                        end: t.occs[occ].end,
                        useless: true,
                        could_not_run: true,
                        colour: Some(colour),
                        par1: t.occs[occ].parent,
                        par2: t.occs[occ].parent,
                        ..super::solver::blank_pair()
                    };
                    fits &= self.add_interference(&pair, colour);
                    pairs.push(pair);
                }
                // More slots on one pipe pair than it has ids: nothing to
                // make room for (the slot stays without an id).
                if !fits {
                    self.colour_solver(slot.src, slot.dst).rollback(cp);
                    continue;
                }
                self.colour_solver(slot.src, slot.dst).commit();
                for pair in pairs {
                    let id = self.new_pair(pair);
                    self.commit(id, None);
                }
                self.slot_colours.push(((op, i), colour));
            }
        }
    }

    /// The id the colouring gave slot `i` of `op`, when slots were reserved.
    pub(super) fn slot_id(&self, op: OpId, i: usize, pair: (Pipe, Pipe)) -> Option<u32> {
        let (_, c) = self.slot_colours.iter().find(|(k, _)| *k == (op, i))?;
        self.colours.get(&pair)?.ids(*c).first().copied()
    }
}
