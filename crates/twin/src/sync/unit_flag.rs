//! Unit flags: a matmul (`mad` on PIPE_M) and the `fixpipe` draining its
//! L0C buffer hand the buffer over per unit instead of by set/wait. A
//! matmul whose mode is enabled waits until the last fixpipe that released
//! the buffer (mode with update) has read it; with update it then marks
//! the buffer ready. A fixpipe whose mode is enabled waits until a matmul
//! marked it ready (none did: it hangs); with update it then releases the
//! buffer for the next matmul. Without update, either only waits.

use super::{Class, Clock, M, PIPES, Report, Site, SyncChecker, pipe_name};

/// A unit-flag mode as `#hivm.unit_flag` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Disabled,
    WithoutUpdate,
    WithUpdate,
}

impl Mode {
    pub fn parse(name: &str) -> Option<Mode> {
        Some(match name {
            "DISABLED" => Mode::Disabled,
            "ENABLED_WITHOUT_UPDATE" => Mode::WithoutUpdate,
            "ENABLED_WITH_UPDATE" => Mode::WithUpdate,
            _ => return None,
        })
    }
}

/// The hand-over state of one L0C byte range.
#[derive(Default)]
pub(super) struct Units {
    ranges: Vec<(u64, u64, Option<Clock>, Option<Clock>)>,
    /// Per `unit_flag_group_id`: whether the matmul library's last call
    /// ended with its unit flag off (it then hands over FIX -> M itself).
    off: std::collections::HashMap<i64, bool>,
}

impl Units {
    fn entry(&mut self, start: u64, end: u64) -> &mut (u64, u64, Option<Clock>, Option<Clock>) {
        match self.ranges.iter().position(|r| r.0 < end && start < r.1) {
            Some(i) => &mut self.ranges[i],
            None => {
                self.ranges.push((start, end, None, None));
                self.ranges.last_mut().expect("just pushed")
            }
        }
    }
}

impl SyncChecker {
    /// The matmul library's per-group state (see `Units::off`).
    pub fn unit_flag_group_off(&mut self, group: i64) -> &mut bool {
        self.units.off.entry(group).or_default()
    }

    fn learn(&mut self, pipe: usize, snap: &Clock) {
        for (k, s) in self.known[pipe].iter_mut().zip(snap) {
            *k = (*k).max(*s);
        }
    }

    fn snapshot(&self, pipe: usize) -> Clock {
        let mut s = self.known[pipe].clone();
        s[pipe] = self.count[pipe];
        s
    }

    /// The matmul just issued on M writes L0C `[start, start + len)` in
    /// `mode`: it waits for the buffer's release, and marks it ready.
    pub fn unit_flag_mad(&mut self, start: u64, len: u64, mode: Mode) {
        if mode == Mode::Disabled {
            return;
        }
        let free = self.units.entry(start, start + len).3.clone();
        if let Some(f) = free {
            self.learn(M, &f);
        }
        if mode == Mode::WithUpdate {
            let snap = self.snapshot(M);
            let e = self.units.entry(start, start + len);
            e.2 = Some(snap);
        }
    }

    /// The fixpipe just issued on `fix` reads L0C `[start, start + len)` in
    /// `mode`: it waits for a matmul's ready mark, and releases the buffer.
    pub fn unit_flag_fixpipe(&mut self, fix: usize, start: u64, len: u64, mode: Mode, site: &Site) {
        if mode == Mode::Disabled {
            return;
        }
        let fix = fix.min(PIPES - 1);
        match self.units.entry(start, start + len).2.clone() {
            Some(r) => self.learn(fix, &r),
            None => self.reports.push(Report {
                class: Class::Hang,
                site: site.clone(),
                message: format!(
                    "{} waits on the unit flags of {} that no matmul with ENABLED_WITH_UPDATE has set: this hangs \
                     on hardware",
                    pipe_name(fix),
                    self.describe(start, len)
                ),
                other: None,
            }),
        }
        if mode == Mode::WithUpdate {
            let snap = self.snapshot(fix);
            let e = self.units.entry(start, start + len);
            e.2 = None;
            e.3 = Some(snap);
        }
    }
}
