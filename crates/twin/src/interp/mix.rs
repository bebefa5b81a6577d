//! One core of a mix kernel: which ops it runs (cube ops on the cube core,
//! vector ops on the vector cores, scalar and control work on all, as
//! upstream's split-mix-kernel divides a function) and the cross-core
//! flag ops, which meet the other cores in `sync::cross`.

use std::collections::HashMap;

use hivm_dialects::hivm::attrs::enum_value;
use hivm_ir::{Ir, OpId, TypeData};

use super::{Interp, R, RunError};
use crate::sync::{self, Site, cross};

/// Where an op runs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Side {
    Cube,
    Vector,
    Both,
}

/// The running core of a mix kernel.
pub struct MixCore {
    /// `cross::CUBE`, or a vector core (1, 2).
    pub core: usize,
    sides: HashMap<OpId, Side>,
    /// How often this core ran each GM allocation.
    allocs: HashMap<OpId, u64>,
}

impl MixCore {
    pub fn new(core: usize) -> MixCore {
        MixCore { core, sides: HashMap::new(), allocs: HashMap::new() }
    }

    fn runs(&mut self, ir: &Ir, op: OpId) -> bool {
        let side = *self.sides.entry(op).or_insert_with(|| side_of(ir, op));
        match side {
            Side::Both => true,
            Side::Cube => self.core == cross::CUBE,
            Side::Vector => self.core != cross::CUBE,
        }
    }
}

fn side_of_name(core: &str) -> Side {
    match core {
        "CUBE" | "AIC" => Side::Cube,
        "VECTOR" | "AIV" => Side::Vector,
        _ => Side::Both,
    }
}

/// The side an op runs on: its explicit core type (`tcore_type` of the
/// cross-core flag ops, `hivm.tcore_type`, a loop's `hivm.loop_core_type`,
/// a callee's `hivm.func_core_type`), else the memories it touches or
/// makes views of (UB is the vector cores', L1/L0 the cube's: a buffer
/// exists only on its core), else its pipes (M, MTE1 and FIX
/// are the cube's, V and MTE3 the vector cores'), else both.
pub fn side_of(ir: &Ir, op: OpId) -> Side {
    let enum_of = |key: &str, mnemonic: &str| ir.get_attr(op, key).and_then(|a| enum_value(ir, a, mnemonic));
    let name = ir.op_name(op);
    if matches!(name, "hivm.hir.sync_block_set" | "hivm.hir.sync_block_wait") {
        return enum_of("tcore_type", "tcore_type").map_or(Side::Both, side_of_name);
    }
    if let Some(c) = enum_of("hivm.tcore_type", "tcore_type").or_else(|| enum_of("hivm.loop_core_type", "tcore_type")) {
        return side_of_name(c);
    }
    if name == "func.call" {
        let module = ir.top_ancestor(op);
        let callee = ir.get_attr(op, "callee").and_then(|a| match ir.attr_data(a) {
            hivm_ir::AttrData::SymbolRef { root, .. } => Some(ir.sym_str(*root)),
            _ => None,
        });
        let f = callee.and_then(|c| super::find_func(ir, module, c));
        let core = f.and_then(|f| hivm_dialects::hivm::func_core_type(ir, f));
        return core.map_or(Side::Both, side_of_name);
    }
    let mut side = Side::Both;
    for v in ir.operands(op).iter().chain(ir.results(op)) {
        if let TypeData::MemRef { memory_space: Some(a), .. } = ir.type_data(ir.value_type(*v)) {
            match enum_value(ir, *a, "address_space") {
                Some("cbuf" | "ca" | "cb" | "cc") => return Side::Cube,
                Some("ub") => side = Side::Vector,
                _ => {}
            }
        }
    }
    if side != Side::Both || !name.starts_with("hivm.") {
        return side;
    }
    let pipes: Vec<String> = if matches!(name, "hivm.hir.set_flag" | "hivm.hir.wait_flag") {
        ["set_pipe", "wait_pipe"].iter().filter_map(|k| enum_of(k, "pipe").map(str::to_string)).collect()
    } else if name == "hivm.hir.pipe_barrier" {
        enum_of("pipe", "pipe").map(str::to_string).into_iter().collect()
    } else {
        hivm_dialects::hivm::ops::op_pipes(ir, op)
    };
    for p in &pipes {
        match p.as_str() {
            "PIPE_M" | "PIPE_MTE1" | "PIPE_FIX" => return Side::Cube,
            "PIPE_V" | "PIPE_MTE3" => side = Side::Vector,
            _ => {}
        }
    }
    side
}

/// The message of a core stopped because another one failed (the runner
/// reports the other one's error instead).
pub const ABORTED: &str = "stopped: another core of the block failed";

impl Interp<'_> {
    /// Whether the running core executes `op` (always outside mix kernels).
    pub(super) fn runs_here(&mut self, op: OpId) -> bool {
        let ir = self.ir;
        self.mix.as_mut().is_none_or(|m| m.runs(ir, op))
    }

    /// `get_sub_block_idx` / `get_sub_block_num`: a vector core's index
    /// among the block's two; the cube core is alone.
    pub(super) fn sub_block(&self) -> (i64, i64) {
        match &self.mix {
            Some(m) if m.core != cross::CUBE => ((m.core - 1) as i64, (cross::CORES - 1) as i64),
            _ => (0, 1),
        }
    }

    /// A GM allocation in a mix kernel: one buffer that every core sees
    /// (a workspace the cube core writes and the vector cores read), its
    /// accesses checked across cores like the arguments'.
    pub(super) fn mix_gm_alloc(
        &mut self,
        op: OpId,
        elem: crate::value::Elem,
        sizes: Vec<i64>,
        bytes: usize,
    ) -> R<std::rc::Rc<crate::value::MemRefVal>> {
        let Some(m) = self.mix.as_mut() else { return Err(RunError::at(op, "not a mix kernel")) };
        let nth = m.allocs.entry(op).or_default();
        *nth += 1;
        let nth = *nth;
        let Some(link) = self.sync.cross_mut() else { return Err(RunError::at(op, "not a mix kernel")) };
        let shared = link.shared.gm_buffer(link.core, op, nth, bytes).map_err(|e| RunError::at(op, e))?;
        let buf = self.mem.adopt_one(shared);
        let b = self.mem.get(buf);
        let (addr, len) = (b.addr(), b.len() as u64);
        link.gm.push((addr, len));
        let line = hivm_ir::diagnostics::file_line_col(self.ir, self.ir.loc(op))
            .map_or_else(String::new, |(_, l, _)| format!(" of line {l}"));
        self.sync.name_region(addr, len, format!("GM allocation{line}"));
        Ok(std::rc::Rc::new(crate::value::MemRefVal::contiguous(buf, elem, sizes)))
    }

    /// The `hivm.func_core_type` of the function holding `op`.
    fn part_core_type(&self, op: OpId) -> Option<String> {
        let ir = self.ir;
        self.enclosing_func(op).and_then(|f| hivm_dialects::hivm::func_core_type(ir, f)).map(str::to_string)
    }

    /// `sync_block_set` and `sync_block_wait`.
    pub(super) fn sync_block(&mut self, op: OpId, name: &str) -> R<()> {
        let ir = self.ir;
        let mode = cross::Mode::of(ir, op);
        // The cores this one runs with: a mix kernel's block, or every
        // block's core of a kernel that syncs its blocks (INTER_BLOCK).
        let grid = self.sync.cross().map(|l| (l.shared.grid, l.core));
        // One core's part of a split mix kernel run alone (part-alone):
        // checked as any, then its handshake skipped.
        let mut alone = false;
        if self.mix.is_none() && !(grid.is_some() && mode == cross::Mode::InterBlock) {
            // The function holding it, if it is one core's part of a split
            // mix kernel: its partners are not running.
            let part = self.part_core_type(op).filter(|c| c != "MIX");
            alone = part.is_some() && self.config.part_alone;
            if !alone {
                let why = match part {
                    Some(c) if mode == cross::Mode::InterBlock => format!(
                        "this function is one core's part of a mix kernel (hivm.func_core_type<{c}>), run alone, so \
                         the other blocks' cores it synchronises with are not running; run the kernel's MIX entry"
                    ),
                    Some(c) => format!(
                        "this function is one core's part of a mix kernel (hivm.func_core_type<{c}>), run alone, so \
                         the cores it synchronises with are not running; run the kernel's MIX entry (or pass \
                         --part-alone to check its own pipes only)"
                    ),
                    None => "the twin runs the block's cube and vector cores for an entry with \
                             hivm.func_core_type<MIX> (or, without a func_core_type, mix_mode = \"mix\"); only \
                             INTER_BLOCK flags sync the blocks of a kernel for one core type"
                        .to_string(),
                };
                return Err(RunError::at(op, format!("'{name}' runs only in a mix kernel: {why}")));
            }
        }
        let on_cube = match grid {
            Some((g, core)) => g.is_cube(core),
            None => alone && self.part_core_type(op).as_deref() == Some("AIC"),
        };
        if mode == cross::Mode::InterSubblock && on_cube {
            return Err(RunError::at(
                op,
                "INTER_SUBBLOCK_SYNCHRONIZATION syncs a block's vector cores with each other; the cube core runs this op",
            ));
        }
        // A kernel for one core type: the flag's core type must be its own.
        if let Some((g, _)) = grid
            && g.per_block == 1
            && let Some(t) = self.enum_attr(op, "tcore_type", "tcore_type")
            && matches!(t.as_str(), "CUBE" | "VECTOR")
            && (t == "CUBE") != g.cube
        {
            let mine = if g.cube { "cube" } else { "vector" };
            return Err(RunError::at(
                op,
                format!(
                    "this {t} flag runs on the kernel's {mine} cores (as its hivm.func_core_type, or else its first \
                     INTER_BLOCK flag, says)"
                ),
            ));
        }
        let flag = match ir.get_attr(op, "static_flag_id").and_then(|a| ir.as_int(a)) {
            Some(f) => i64::try_from(f).unwrap_or(-1),
            None => self.int(ir.operand(op, 0)),
        };
        if !(0..16).contains(&flag) {
            return Err(RunError::at(op, format!("flag id {flag} is not one of the 16 FFTS flags (0..15)")));
        }
        if alone {
            let set = name == "hivm.hir.sync_block_set";
            self.pipe_attr(op, if set { "tpipe" } else { "pipe" })?;
            let what = if set { "goes nowhere" } else { "is taken as met" };
            self.sync.report(sync::Report {
                class: sync::Class::Warning,
                site: Site { op: Some(op), detail: None },
                message: format!(
                    "'{name}' {what}: this part of a mix kernel runs alone (part-alone), so its handshakes \
                     with the other cores are not checked"
                ),
                other: None,
            });
            return Ok(());
        }
        let site = Site { op: Some(op), detail: None };
        if name == "hivm.hir.sync_block_set" {
            let pipe = self.pipe_attr(op, "tpipe")?;
            self.sync.block_set(pipe, flag, &site, mode);
        } else {
            let pipe = self.pipe_attr(op, "pipe")?;
            let what = format!("sync_block_wait[{}] flag = {flag}", sync::pipe_name(pipe));
            self.sync.block_wait(pipe, flag, &site, what).map_err(|_| RunError::at(op, ABORTED))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ops_run_on_the_side_their_core_type_memories_or_pipes_say() {
        let src = r#"
func.func @f(%g: memref<32xf32>, %h: memref<16x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i64
  %u = memref.alloc() : memref<32xf32, #hivm.address_space<ub>>
  %l1 = hivm.hir.pointer_cast(%z) : memref<1x1x16x16xf16, #hivm.address_space<cbuf>>
  hivm.hir.load ins(%g : memref<32xf32>) outs(%u : memref<32xf32, #hivm.address_space<ub>>)
  hivm.hir.nd2nz {dst_continuous} ins(%h : memref<16x16xf16>) outs(%l1 : memref<1x1x16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_S>, <EVENT_ID0>]
  hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
  hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_S>] flag = 0
  scf.for %i = %c0 to %c1 step %c1 {
  } {hivm.loop_core_type = #hivm.tcore_type<CUBE>}
  return
}
"#;
        let mut ir = Ir::new(hivm_dialects::shared_registry());
        let module = hivm_ir::parser::Parser::new(&mut ir, src, "t.mlir", 0).parse_module().expect("parses");
        let mut sides = Vec::new();
        let func = ir.region_blocks(ir.regions(module)[0])[0];
        let f = ir.block_ops(func).next().expect("func");
        for op in ir.block_ops(ir.region_blocks(ir.regions(f)[0])[0]) {
            sides.push((ir.op_name(op).to_string(), side_of(&ir, op)));
        }
        let want = [
            ("arith.constant", Side::Both),
            ("arith.constant", Side::Both),
            ("arith.constant", Side::Both),
            ("memref.alloc", Side::Vector),
            ("hivm.hir.pointer_cast", Side::Cube),
            ("hivm.hir.load", Side::Vector),
            ("hivm.hir.nd2nz", Side::Cube),
            ("hivm.hir.set_flag", Side::Vector),
            ("hivm.hir.set_flag", Side::Both),
            ("hivm.hir.set_flag", Side::Cube),
            ("hivm.hir.sync_block_wait", Side::Vector),
            ("scf.for", Side::Cube),
            ("func.return", Side::Both),
        ];
        let want: Vec<(String, Side)> = want.iter().map(|(n, s)| (n.to_string(), *s)).collect();
        assert_eq!(sides, want);
    }
}
