//! `mmadL1`'s library routine (upstream's `mma_tile`) on the pipes: K is
//! split into parts that fit half of L0A/L0B (ping-pong); per part it waits
//! M -> MTE1 for its L0 half, loads A and B on MTE1 (waiting MTE2 -> MTE1 on
//! the ids in `sync_related_args` before the first load and releasing L1 to
//! MTE2 after the last), hands over MTE1 -> M and multiplies, then frees
//! its half. The twin issues the same accesses and flags, so the solver's
//! ids are checked as the NPU would use them.

use hivm_ir::OpId;

use super::{Interp, R, RunError};
use crate::memory::Space;
use crate::sync::unit_flag::Mode;
use crate::sync::{self, Site};
use crate::value::MemRefVal;

/// The ids of `sync_related_args`, in upstream's order.
#[derive(Clone, Copy)]
pub(super) struct Ids {
    wait_a: i64,
    wait_b: i64,
    free_a: i64,
    free_b: i64,
    k_loop_parity: i64,
    back0: i64,
    back1: i64,
}

/// One L1 operand the library loads on MTE1: the MTE2 -> MTE1 id it
/// waits before the first part, the MTE1 -> MTE2 id it sets after the
/// last (-1: none), and the L0 buffer it fills (None for MX scales, whose
/// L0 place the twin does not model).
pub(super) struct Load<'a> {
    pub wait: i64,
    pub free: i64,
    pub src: &'a MemRefVal,
    pub into: Option<Space>,
}

impl Ids {
    /// A and B as `mmadL1`'s library loads them.
    pub(super) fn loads<'a>(&self, a: &'a MemRefVal, b: &'a MemRefVal) -> [Load<'a>; 2] {
        [
            Load { wait: self.wait_a, free: self.free_a, src: a, into: Some(Space::L0a) },
            Load { wait: self.wait_b, free: self.free_b, src: b, into: Some(Space::L0b) },
        ]
    }

    /// The ids of one batch of `batchMmadL1`: the op is one L1 hand-over,
    /// so only the first batch waits for L1 and only the last releases it
    /// (a loop of `mmadL1`s each given the same ids would wait a flag set
    /// once several times).
    pub(super) fn for_batch(&self, first: bool, last: bool) -> Ids {
        let keep = |id: i64, here: bool| if here { id } else { -1 };
        Ids {
            wait_a: keep(self.wait_a, first),
            wait_b: keep(self.wait_b, first),
            free_a: keep(self.free_a, last),
            free_b: keep(self.free_b, last),
            ..*self
        }
    }

    /// The ids of a library whose L1 handshakes are given per load and
    /// whose L0 ping-pong uses events 0 and 1 that the solver sets before
    /// the first matmul and waits after the last (`mmadmxL1`).
    pub(super) fn ping_pong_only() -> Ids {
        Ids { wait_a: -1, wait_b: -1, free_a: -1, free_b: -1, k_loop_parity: -1, back0: 0, back1: 1 }
    }
}

/// What one call does on the pipes.
pub(super) struct Plan {
    parts: i64,
    double_buffer: bool,
    /// L0A/L0B bytes of one part, and of one ping-pong half.
    a_bytes: u64,
    b_bytes: u64,
    half: u64,
}

impl Interp<'_> {
    pub(super) fn sync_ids(&self, op: OpId, args: &[hivm_ir::Value]) -> R<Ids> {
        let v: Vec<i64> = args.iter().map(|a| self.int(*a)).collect();
        let v = match v.len() {
            0 => vec![-1; 7],
            7 => v,
            n => {
                return Err(RunError::at(op, format!("mmadL1: {n} sync_related_args; its library takes 7 (or none)")));
            }
        };
        for (i, x) in v.iter().enumerate() {
            // The fifth is the K loop's iteration parity, any integer.
            if i != 4 && !(-1..=7).contains(x) {
                return Err(RunError::at(
                    op,
                    format!("mmadL1: sync_related_args #{i} is {x}, not an event id (0..7) or -1"),
                ));
            }
        }
        Ok(Ids {
            wait_a: v[0],
            wait_b: v[1],
            free_a: v[2],
            free_b: v[3],
            k_loop_parity: v[4],
            back0: v[5],
            back1: v[6],
        })
    }

    /// The MTE2 -> MTE1 waits before the first L1 read and the MTE1 -> MTE2
    /// releases after the last, for the operands asked.
    pub(super) fn l1_handshakes(&mut self, ids: &Ids, first: bool, last: bool, site: &dyn Fn(&str) -> Site) {
        if first {
            for id in [ids.wait_a, ids.wait_b] {
                if id >= 0 {
                    self.sync.wait_flag(sync::MTE2, sync::MTE1, id, &site("wait for L1"));
                }
            }
        }
        if last {
            for id in [ids.free_a, ids.free_b] {
                if id >= 0 {
                    self.sync.set_flag(sync::MTE1, sync::MTE2, id, &site("release L1"));
                }
            }
        }
    }

    /// The library's work on the pipes, part by part.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn mmad_pipes(
        &mut self,
        op: OpId,
        ids: &Ids,
        plan: &Plan,
        loads: &[Load],
        c: &MemRefVal,
        bias: Option<&MemRefVal>,
        (init, uf): (bool, Mode),
        site: &dyn Fn(&str) -> Site,
    ) {
        let here = Site { op: Some(op), detail: None };
        let l0 = |this: &Self, space: Space| this.onchip(space).map_or(0, |id| this.mem.get(id).addr());
        let (l0a, l0b) = (l0(self, Space::L0a), l0(self, Space::L0b));
        // The 950 generation's library (regbase) keeps no prologue or
        // epilogue of its own: the solver's bracket sets M -> MTE1 events 0
        // and 1 around the matmuls. Its L0 half alternates with every part
        // through a static of the core, across calls; a single buffer uses
        // event 0 alone.
        let regbase = self.config.regbase;
        let own_back = [(ids.back0, 0i64), (ids.back1, 1i64)];
        for (id, lib) in own_back {
            if id < 0 && !regbase {
                self.sync.set_flag(sync::M, sync::MTE1, lib, &site("L0 ping-pong prologue"));
            }
        }
        for part in 0..plan.parts {
            let (first, last) = (part == 0, part + 1 == plan.parts);
            let ping = if !plan.double_buffer {
                0
            } else if regbase {
                self.l1mmad_ping = 1 - self.l1mmad_ping;
                self.l1mmad_ping as i64
            } else if ids.k_loop_parity != -1 {
                (ids.k_loop_parity * plan.parts + part).rem_euclid(2)
            } else {
                part % 2
            };
            let event = if ping == 0 { own_back[0] } else { own_back[1] };
            let event = if event.0 >= 0 && !regbase { event.0 } else { event.1 };
            if plan.double_buffer || regbase {
                self.sync.wait_flag(sync::M, sync::MTE1, event, &site("wait for its L0 half"));
            } else {
                self.sync.wait_flag(sync::M, sync::MTE1, 0, &site("wait for L0"));
                self.sync.wait_flag(sync::M, sync::MTE1, 1, &site("wait for L0"));
            }
            let off = ping as u64 * plan.half;
            for l in loads {
                if first && l.wait >= 0 {
                    self.sync.wait_flag(sync::MTE2, sync::MTE1, l.wait, &site("wait for L1"));
                }
                self.sync.issue(sync::MTE1);
                let (addr, n) = self.span(l.src);
                self.sync.access(sync::MTE1, addr, n, false, &here);
                match l.into {
                    Some(Space::L0a) => self.sync.access(sync::MTE1, l0a + off, plan.a_bytes, true, &here),
                    Some(_) => self.sync.access(sync::MTE1, l0b + off, plan.b_bytes, true, &here),
                    None => {}
                }
                if last && l.free >= 0 {
                    self.sync.set_flag(sync::MTE1, sync::MTE2, l.free, &site("release L1"));
                }
            }
            if let Some(bv) = bias {
                self.sync.issue(sync::MTE1);
                let (addr, n) = self.span(bv);
                self.sync.access(sync::MTE1, addr, n, false, &here);
            }
            self.sync.handshake(sync::MTE1, sync::M, &site("MTE1 -> M before mad"));
            self.sync.issue(sync::M);
            let (addr, n) = self.span(c);
            // Parts before the last accumulate without marking L0C ready.
            let part_uf = if uf == Mode::Disabled || last { uf } else { Mode::WithoutUpdate };
            self.sync.unit_flag_mad(addr, n, part_uf);
            self.sync.access(sync::M, l0a + off, plan.a_bytes, false, &here);
            self.sync.access(sync::M, l0b + off, plan.b_bytes, false, &here);
            if !(init && first) {
                self.sync.access(sync::M, addr, n, false, &here);
            }
            self.sync.access(sync::M, addr, n, true, &here);
            if plan.double_buffer || regbase {
                self.sync.set_flag(sync::M, sync::MTE1, event, &site("free its L0 half"));
            } else {
                self.sync.set_flag(sync::M, sync::MTE1, 0, &site("free L0"));
                self.sync.set_flag(sync::M, sync::MTE1, 1, &site("free L0"));
            }
        }
        for (id, lib) in own_back {
            if id < 0 && !regbase {
                self.sync.wait_flag(sync::M, sync::MTE1, lib, &site("L0 ping-pong epilogue"));
            }
        }
    }
}

/// `x` rounded up to a multiple of `f` (both positive).
pub(super) fn ceil_to(x: i64, f: i64) -> i64 {
    (x + f - 1) / f * f
}

/// How the library splits K: parts of a multiple of the larger alignment
/// that fit half of L0A (the whole of it without double buffering).
pub(super) fn plan(l0_bytes: i64, size: i64, a_m: i64, b_n: i64, real_k: i64) -> Option<Plan> {
    let align = (32 / size).max(16);
    let mn = ceil_to(a_m.max(b_n), align);
    let part = |len: i64| (len / mn) / align * align;
    let (mut len, mut double_buffer) = (l0_bytes / 2 / size, true);
    let mut k_part = part(len);
    if k_part == 0 {
        double_buffer = false;
        len = l0_bytes / size;
        k_part = part(len);
    }
    if k_part == 0 {
        return None;
    }
    let bytes = |rows: i64| (ceil_to(rows, 16) * k_part * size).min(len * size) as u64;
    Some(Plan {
        parts: (real_k + k_part - 1) / k_part,
        double_buffer,
        a_bytes: bytes(a_m),
        b_bytes: bytes(b_n),
        half: (len * size) as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k_is_split_into_parts_that_fit_half_of_l0() {
        // 910B's 64 KiB L0A, 256 x 256 f16: 64 columns of K per half.
        let p = plan(65536, 2, 256, 256, 256).unwrap();
        assert_eq!((p.parts, p.double_buffer), (4, true));
        assert_eq!(p.a_bytes, 256 * 64 * 2);
        // Small matrices fit in one part.
        assert_eq!(plan(65536, 2, 32, 32, 64).unwrap().parts, 1);
        // Too large for even the whole of L0.
        assert!(plan(65536, 4, 8192, 16, 16).is_none());
    }
}
