//! Random kernels for the sync-solver tester: loads, stores, vector ops,
//! scalar UB accesses and (optionally) custom macros and cube matmuls
//! (GM -> nd2nz -> L1 -> mmadL1 -> L0C -> fixpipe -> GM over shared L1 and
//! L0C buffers) under nested loops and ifs, over UB buffers that may alias
//! (and optionally double-buffered tiles local to loops), written without
//! synchronisation.
//! Each kernel comes in two forms: bare, for the solver, and a reference
//! with `pipe_barrier[<PIPE_ALL>]` after every op and hand-placed macro
//! flags, whose numbers cannot depend on pipe timing.

use std::fmt::Write;

pub const GM: &str = "memref<64xf32, #hivm.address_space<gm>>";
pub const UB: &str = "memref<64xf32, #hivm.address_space<ub>>";
/// GM arguments every kernel takes (then an `i1` flag).
pub const GM_ARGS: usize = 3;

/// A xorshift generator: deterministic per seed, so a failing seed reproduces.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len() as u64) as usize]
    }
}

/// What kernels to make.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Roughly how many ops (loops and ifs count as one each).
    pub ops: usize,
    /// UB buffers, placed in `ub_slots` slots of 256 bytes so that some alias.
    pub buffers: usize,
    /// Custom macros with internal, wait and set slots and a pinned id; their
    /// implementations are `mac_a`, `mac_b`, `mac_c` of the tester's C++ file.
    pub macros: bool,
    /// Some loops get a double-buffered tile of their own: a two-address
    /// `pointer_cast` in the body, which rotates by iteration.
    pub multi_buffer: bool,
    /// Cube matmul steps too: each GM argument read as an 8 x 8 matrix.
    pub cube: bool,
}

impl Default for Shape {
    fn default() -> Shape {
        Shape { ops: 0, buffers: 4, macros: true, multi_buffer: false, cube: false }
    }
}

/// The cube steps' types: an 8 x 8 f32 matrix in GM, its fractal in L1
/// (one 16 x 8 fractal, rows 8..16 padding), the 16 x 16 result in L0C.
const GM2: &str = "memref<8x8xf32, #hivm.address_space<gm>>";
const L1: &str = "memref<1x1x16x8xf32, #hivm.address_space<cbuf>>";
const L0C: &str = "memref<1x1x16x16xf32, #hivm.address_space<cc>>";
/// L1 buffers the cube steps share.
const L1_BUFFERS: u64 = 3;

/// One kernel in its two forms.
pub struct Kernel {
    pub bare: String,
    pub reference: String,
}

struct Gen {
    rng: Rng,
    shape: Shape,
    bare: String,
    reference: String,
    depth: usize,
    ivs: usize,
    scratch: usize,
    pinned_used: bool,
    ops: usize,
    /// Double-buffered tiles made so far, and those in scope.
    tiles: usize,
    in_scope: Vec<usize>,
}

impl Gen {
    fn line(&mut self, indent: usize, both: &str, barrier: bool) {
        let pad = "  ".repeat(indent);
        writeln!(self.bare, "{pad}{both}").unwrap();
        writeln!(self.reference, "{pad}{both}").unwrap();
        if barrier {
            writeln!(self.reference, "{pad}hivm.hir.pipe_barrier[<PIPE_ALL>]").unwrap();
        }
    }

    fn reference_only(&mut self, indent: usize, text: &str) {
        writeln!(self.reference, "{}{text}", "  ".repeat(indent)).unwrap();
    }

    fn ub(&mut self) -> String {
        let n = self.shape.buffers + self.in_scope.len();
        let k = self.rng.below(n as u64) as usize;
        match k.checked_sub(self.shape.buffers) {
            Some(t) => format!("%t{}", self.in_scope[t]),
            None => format!("%u{k}"),
        }
    }

    fn gm(&mut self) -> String {
        format!("%g{}", self.rng.below(GM_ARGS as u64))
    }

    fn stmt(&mut self, indent: usize) {
        self.ops += 1;
        if self.shape.cube && self.rng.below(3) == 0 {
            return self.cube_step(indent);
        }
        let choice = if self.depth < 2 { self.rng.below(12) } else { self.rng.below(9) };
        match choice {
            0 | 1 => {
                let (g, u) = (self.gm(), self.ub());
                self.line(indent, &format!("hivm.hir.load ins({g} : {GM}) outs({u} : {UB})"), true);
            }
            2 | 3 => {
                let (u, g) = (self.ub(), self.gm());
                self.line(indent, &format!("hivm.hir.store ins({u} : {UB}) outs({g} : {GM})"), true);
            }
            4 | 5 => {
                let (x, y, z) = (self.ub(), self.ub(), self.ub());
                let op = if self.rng.below(2) == 0 { "vadd" } else { "vmul" };
                self.line(indent, &format!("hivm.hir.{op} ins({x}, {y} : {UB}, {UB}) outs({z} : {UB})"), true);
            }
            6 => {
                let u = self.ub();
                if self.rng.below(2) == 0 {
                    self.line(indent, &format!("memref.store %half, {u}[%c5] : {UB}"), true);
                } else {
                    let n = self.ops;
                    self.line(indent, &format!("%s{n} = memref.load {u}[%c7] : {UB}"), true);
                }
            }
            7 | 8 if self.shape.macros => self.macro_call(indent),
            7 => {
                let (x, z) = (self.ub(), self.ub());
                self.line(indent, &format!("hivm.hir.vexp ins({x} : {UB}) outs({z} : {UB})"), true);
            }
            8 => {
                let (g, u) = (self.gm(), self.ub());
                self.line(indent, &format!("hivm.hir.load ins({g} : {GM}) outs({u} : {UB})"), true);
            }
            9 | 10 => {
                let iv = self.ivs;
                self.ivs += 1;
                let trip = 2 + self.rng.below(2);
                self.line(indent, &format!("scf.for %i{iv} = %c0 to %c{trip} step %c1 {{"), false);
                self.depth += 1;
                let tile = self.shape.multi_buffer && self.rng.below(2) == 0;
                if tile {
                    let t = self.tiles;
                    self.tiles += 1;
                    self.line(indent + 1, &format!("%t{t} = hivm.hir.pointer_cast(%ta{t}, %tb{t}) : {UB}"), false);
                    self.in_scope.push(t);
                }
                self.block(indent + 1);
                if tile {
                    self.in_scope.pop();
                }
                self.depth -= 1;
                self.line(indent, "}", false);
            }
            _ => {
                self.line(indent, "scf.if %flag {", false);
                self.depth += 1;
                self.block(indent + 1);
                self.line(indent, "} else {", false);
                self.block(indent + 1);
                self.depth -= 1;
                self.line(indent, "}", false);
            }
        }
    }

    fn block(&mut self, indent: usize) {
        let n = 1 + self.rng.below(4);
        for _ in 0..n {
            self.stmt(indent);
        }
    }

    /// One of: a GM matrix into an L1 buffer (nd2nz), a matmul of two L1
    /// buffers into L0C (starting over, or accumulating when the kernel's
    /// flag is false), L0C out to a GM matrix (fixpipe).
    fn cube_step(&mut self, indent: usize) {
        let l1 = |g: &mut Gen| format!("%l1_{}", g.rng.below(L1_BUFFERS));
        let gm = |g: &mut Gen| format!("%m{}", g.rng.below(GM_ARGS as u64));
        let text = match self.rng.below(3) {
            0 => {
                let (g, l) = (gm(self), l1(self));
                format!("hivm.hir.nd2nz {{dst_continuous}} ins({g} : {GM2}) outs({l} : {L1})")
            }
            1 => {
                let (a, b) = (l1(self), l1(self));
                let init = if self.rng.below(2) == 0 { "%true" } else { "%flag" };
                format!(
                    "hivm.hir.mmadL1 ins({a}, {b}, {init}, %c8, %c8, %c8 : {L1}, {L1}, i1, index, index, index) \
                     outs(%l0c : {L0C})"
                )
            }
            _ => {
                let g = gm(self);
                format!("hivm.hir.fixpipe {{enable_nz2nd}} ins(%l0c : {L0C}) outs({g} : {GM2})")
            }
        };
        self.line(indent, &text, true);
    }

    fn macro_call(&mut self, indent: usize) {
        let kind = match self.rng.below(3) {
            2 if !self.pinned_used => {
                self.pinned_used = true;
                'c'
            }
            0 => 'a',
            _ => 'b',
        };
        let (g, u) = (self.gm(), self.ub());
        let s = self.scratch;
        self.scratch += 1;
        let wait = "#hivm.sync_event_slot<#hivm.pipe<PIPE_V>, #hivm.pipe<PIPE_MTE2>, wait>";
        let internal = "#hivm.sync_event_slot<internal>";
        let (slots, args) = match kind {
            'a' => (format!("{wait}, {internal}"), "%e0, %e1 : i64, i64"),
            'b' => (
                format!("{wait}, {internal}, #hivm.sync_event_slot<#hivm.pipe<PIPE_V>, #hivm.pipe<PIPE_MTE3>, set>"),
                "%e0, %e1, %e2 : i64, i64, i64",
            ),
            _ => (format!("#hivm.sync_event_slot<internal, <EVENT_ID3>>, {wait}"), "%e3, %e0 : i64, i64"),
        };
        let head = format!(
            "hivm.hir.custom_macro {{hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe_in = #hivm.pipe<PIPE_MTE2>, \
             hivm.pipe_out = #hivm.pipe<PIPE_V>, symbol = \"mac_{kind}\", sync_event_slots = [{slots}]}} \"m\" \
             ins({g} : {GM}) outs({u} : {UB}) tmps(%scr{s} : {UB})"
        );
        // The reference sets the flag the macro waits for, passes the ids
        // itself, and waits for the flag mac_b sets.
        self.reference_only(indent, "hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]");
        writeln!(self.bare, "{}{head}", "  ".repeat(indent)).unwrap();
        writeln!(self.reference, "{}{head} sync_related_args({args})", "  ".repeat(indent)).unwrap();
        if kind == 'b' {
            self.reference_only(indent, "hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID2>]");
        }
        self.reference_only(indent, "hivm.hir.pipe_barrier[<PIPE_ALL>]");
    }
}

/// Kernel `seed` of `shape`. With `shape.ops == 0` the size is itself
/// random (3 to 8 top-level statements).
pub fn kernel(seed: u64, shape: Shape) -> Kernel {
    let mut g = Gen {
        rng: Rng(seed.wrapping_mul(0x9E3779B97F4A7C15) | 1),
        shape: Shape { buffers: shape.buffers.max(1), ..shape },
        bare: String::new(),
        reference: String::new(),
        depth: 0,
        ivs: 0,
        scratch: 0,
        pinned_used: false,
        ops: 0,
        tiles: 0,
        in_scope: Vec::new(),
    };
    for _ in 0..6 {
        g.rng.next_u64();
    }
    if shape.ops == 0 {
        let n = 3 + g.rng.below(6);
        for _ in 0..n {
            g.stmt(2);
        }
    } else {
        while g.ops < shape.ops {
            g.stmt(2);
        }
    }
    let buffers = g.shape.buffers;
    let mut head = String::new();
    writeln!(head, "module attributes {{hacc.target = #hacc.target<\"Ascend910B3\">}} {{").unwrap();
    let gms: Vec<String> = (0..GM_ARGS).map(|i| format!("%g{i}: {GM}")).collect();
    writeln!(head, "  func.func @k({}, %flag: i1) {{", gms.join(", ")).unwrap();
    writeln!(head, "    %half = arith.constant 1.5 : f32").unwrap();
    for c in [0, 1, 2, 3, 5, 7] {
        writeln!(head, "    %c{c} = arith.constant {c} : index").unwrap();
    }
    for e in 0..4 {
        writeln!(head, "    %e{e} = arith.constant {e} : i64").unwrap();
    }
    if shape.cube {
        writeln!(head, "    %true = arith.constant true").unwrap();
        writeln!(head, "    %c8 = arith.constant 8 : index").unwrap();
        for i in 0..GM_ARGS {
            writeln!(head, "    %m{i} = memref.expand_shape %g{i} [[0, 1]] output_shape [8, 8] : {GM} into {GM2}")
                .unwrap();
        }
        // L1 buffers of 512 bytes from 0, L0C at 0.
        for i in 0..L1_BUFFERS {
            writeln!(head, "    %l1a{i} = arith.constant {} : i64", 512 * i).unwrap();
            writeln!(head, "    %l1_{i} = hivm.hir.pointer_cast(%l1a{i}) : {L1}").unwrap();
        }
        writeln!(head, "    %l0c = hivm.hir.pointer_cast(%e0) : {L0C}").unwrap();
    }
    let mut addrs = Vec::new();
    for i in 0..buffers {
        // As many 256-byte slots as buffers, so that buffers sometimes
        // alias: a buffer in a taken slot is a view of the first one there
        // (two pointer_casts writing one slot would be two live buffers
        // over the same bytes, which the twin's ownership check refuses).
        let addr = 256 * g.rng.below(buffers as u64);
        writeln!(head, "    %a{i} = arith.constant {addr} : i64").unwrap();
        match addrs.iter().position(|a| *a == addr) {
            Some(j) => writeln!(head, "    %u{i} = memref.cast %u{j} : {UB} to {UB}").unwrap(),
            None => writeln!(head, "    %u{i} = hivm.hir.pointer_cast(%a{i}) : {UB}").unwrap(),
        }
        addrs.push(addr);
    }
    for s in 0..g.scratch {
        writeln!(head, "    %sa{s} = arith.constant {} : i64", 256 * (buffers + s)).unwrap();
        writeln!(head, "    %scr{s} = hivm.hir.pointer_cast(%sa{s}) : {UB}").unwrap();
    }
    // Each tile's two copies get slots of their own after the scratch.
    for t in 0..g.tiles {
        let base = 256 * (buffers + g.scratch + 2 * t);
        writeln!(head, "    %ta{t} = arith.constant {base} : i64").unwrap();
        writeln!(head, "    %tb{t} = arith.constant {} : i64", base + 256).unwrap();
    }
    let tail = "    return\n  }\n}\n";
    Kernel { bare: format!("{head}{}{tail}", g.bare), reference: format!("{head}{}{tail}", g.reference) }
}

/// The `i`-th GM argument's contents for kernel `seed`: 64 small f32s.
pub fn gm_data(seed: u64, i: u64) -> Vec<u8> {
    let s = seed.wrapping_add(i);
    (0..64u64).flat_map(|k| (((s.wrapping_mul(7).wrapping_add(k * 3) % 17) as f32) - 8.0).to_le_bytes()).collect()
}
