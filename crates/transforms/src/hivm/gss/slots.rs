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
