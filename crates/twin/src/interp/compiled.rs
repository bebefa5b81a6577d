//! The compiled tier for scalar loops. An `scf.for` whose body (nested
//! loops and ifs included) does only scalar `arith` work and
//! `memref.load`/`store` on memrefs from outside the loop is decoded once
//! into instructions over a file of 64-bit registers (integers as their
//! sign-extended bits, floats as f64 bits), so that running it costs no
//! name dispatch, no attribute lookups and no reference-counted values.
//! The ops compute with `arith.rs`'s own functions, so results are bit for
//! bit the tree walker's; steps are counted per op, so `--max-ops` stops
//! at the same op with the same message; element accesses go through the
//! tree walker's own functions. Loops with anything else (views, HIVM
//! ops, calls) run in the tree walker, as does everything when
//! `HIVM_TWIN_INTERPRET=1` is set (tests compare the two tiers with it).

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use hivm_ir::{AttrData, BlockId, Ir, OpId, Value};

use super::arith::{self, A, Class, Num};
use super::{Interp, R, RunError};
use crate::value::{Elem, MemRefVal, Val, norm_int};

type Reg = u32;

enum Instr {
    Const {
        d: Reg,
        bits: u64,
    },
    /// The commonest integer ops, without a second dispatch.
    Add {
        d: Reg,
        a: Reg,
        b: Reg,
        w: u32,
    },
    Sub {
        d: Reg,
        a: Reg,
        b: Reg,
        w: u32,
    },
    Mul {
        d: Reg,
        a: Reg,
        b: Reg,
        w: u32,
    },
    /// index_cast / extsi / trunci between integers.
    Resize {
        d: Reg,
        a: Reg,
        from: u32,
        w: u32,
    },
    Int {
        code: A,
        d: Reg,
        a: Reg,
        b: Reg,
        w: u32,
    },
    Float {
        code: A,
        d: Reg,
        a: Reg,
        b: Reg,
        e: Elem,
    },
    Negf {
        d: Reg,
        a: Reg,
    },
    Cmpi {
        pred: i64,
        d: Reg,
        a: Reg,
        b: Reg,
        ow: u32,
    },
    Cmpf {
        pred: i64,
        d: Reg,
        a: Reg,
        b: Reg,
    },
    Select {
        d: Reg,
        c: Reg,
        a: Reg,
        b: Reg,
    },
    Cast {
        code: A,
        d: Reg,
        a: Reg,
        from: Elem,
        to: Elem,
    },
    /// `memref.load` / `memref.store` on a memref from outside the loop
    /// (`mem` indexes the program's memref inputs).
    Load {
        d: Reg,
        mem: u32,
        idx: Vec<Reg>,
        float: bool,
    },
    Store {
        v: Reg,
        mem: u32,
        idx: Vec<Reg>,
        float: bool,
    },
    For(Box<Loop>),
    If(Box<Cond>),
}

/// An instruction and the op it comes from (a step, and where errors go).
struct Step {
    op: OpId,
    instr: Instr,
}

/// A block's ops, then its terminator (a step too) and what it yields.
struct Block {
    code: Vec<Step>,
    term: OpId,
    yields: Vec<Reg>,
    /// No loops or ifs: its steps can be counted in one go.
    flat: bool,
}

struct Loop {
    op: OpId,
    bounds: [Reg; 3],
    iv: Reg,
    inits: Vec<Reg>,
    args: Vec<Reg>,
    body: Block,
    results: Vec<Reg>,
}

struct Cond {
    c: Reg,
    then: Block,
    els: Option<Block>,
    results: Vec<Reg>,
}

/// A compiled loop with the values it reads from outside and the results
/// it hands back.
pub(super) struct Program {
    root: Loop,
    inputs: Vec<(Value, Reg, bool)>,
    /// Memrefs the loop reads or writes, all defined outside it.
    memrefs: Vec<Value>,
    /// Which of them it loads from and which it stores to (for the
    /// ownership check, done once for the whole loop).
    loaded: Vec<bool>,
    stored: Vec<bool>,
    regs: usize,
}

struct Compiler<'a> {
    ir: &'a Ir,
    regs: HashMap<Value, Reg>,
    floats: Vec<bool>,
    defined: HashSet<Value>,
    inputs: Vec<(Value, Reg, bool)>,
    memrefs: Vec<Value>,
    loaded: Vec<bool>,
    stored: Vec<bool>,
}

impl Compiler<'_> {
    fn elem(&self, v: Value) -> Option<Elem> {
        Elem::of(self.ir, self.ir.value_type(v))
    }

    fn reg(&mut self, v: Value) -> Option<Reg> {
        let float = self.elem(v)?.is_float();
        if let Some(r) = self.regs.get(&v) {
            return Some(*r);
        }
        let r = self.floats.len() as Reg;
        self.floats.push(float);
        self.regs.insert(v, r);
        Some(r)
    }

    /// A value read; one not defined inside is read from outside.
    fn read(&mut self, v: Value) -> Option<Reg> {
        let r = self.reg(v)?;
        if !self.defined.contains(&v) && !self.inputs.iter().any(|(x, _, _)| *x == v) {
            self.inputs.push((v, r, self.floats[r as usize]));
        }
        Some(r)
    }

    fn def(&mut self, v: Value) -> Option<Reg> {
        self.defined.insert(v);
        self.reg(v)
    }

    /// A memref the loop accesses: it must come from outside the loop.
    fn memref(&mut self, v: Value) -> Option<u32> {
        let is_memref = matches!(self.ir.type_data(self.ir.value_type(v)), hivm_ir::TypeData::MemRef { .. });
        if self.defined.contains(&v) || !is_memref {
            return None;
        }
        if let Some(i) = self.memrefs.iter().position(|m| *m == v) {
            return Some(i as u32);
        }
        self.memrefs.push(v);
        self.loaded.push(false);
        self.stored.push(false);
        Some(self.memrefs.len() as u32 - 1)
    }

    fn block(&mut self, b: BlockId) -> Option<Block> {
        let ir = self.ir;
        let mut code = Vec::new();
        for op in ir.block_ops(b) {
            if ir.is_op(op, "scf.yield") {
                let yields = ir.operands(op).iter().map(|v| self.read(*v)).collect::<Option<Vec<_>>>()?;
                let flat = code.iter().all(|s: &Step| !matches!(s.instr, Instr::For(_) | Instr::If(_)));
                return Some(Block { code, term: op, yields, flat });
            }
            let instr = self.op(op)?;
            code.push(Step { op, instr });
        }
        None
    }

    fn op(&mut self, op: OpId) -> Option<Instr> {
        let ir = self.ir;
        let name = ir.op_name(op);
        if name == "scf.for" {
            return self.for_loop(op).map(|l| Instr::For(Box::new(l)));
        }
        if name == "scf.if" {
            return self.cond(op).map(|c| Instr::If(Box::new(c)));
        }
        if name == "memref.load" {
            let ops = ir.operands(op);
            let mem = self.memref(*ops.first()?)?;
            self.loaded[mem as usize] = true;
            let idx = ops[1..].iter().map(|v| self.read(*v)).collect::<Option<Vec<_>>>()?;
            let res = *ir.results(op).first()?;
            let float = self.elem(res)?.is_float();
            return Some(Instr::Load { d: self.def(res)?, mem, idx, float });
        }
        if name == "memref.store" {
            let ops = ir.operands(op);
            let v = self.read(*ops.first()?)?;
            let float = self.elem(ops[0])?.is_float();
            let mem = self.memref(*ops.get(1)?)?;
            self.stored[mem as usize] = true;
            let idx = ops[2..].iter().map(|v| self.read(*v)).collect::<Option<Vec<_>>>()?;
            return Some(Instr::Store { v, mem, idx, float });
        }
        let code = A::named(name.strip_prefix("arith.")?)?;
        let ops = ir.operands(op);
        let res = *ir.results(op).first()?;
        let re = self.elem(res)?;
        let regs = ops.iter().map(|v| self.read(*v)).collect::<Option<Vec<Reg>>>()?;
        let arity = |n: usize| (regs.len() == n).then_some(());
        let instr = match code.class() {
            Class::Constant => {
                let bits = match ir.get_attr(op, "value").map(|a| ir.attr_data(a))? {
                    AttrData::Integer { value, .. } => norm_int(*value as i64, re.width()) as u64,
                    AttrData::Float { bits, .. } => arith::float_from_bits(*bits as u64, re).to_bits(),
                    _ => return None,
                };
                Instr::Const { d: self.def(res)?, bits }
            }
            Class::Int => {
                arity(2)?;
                let (d, a, b, w) = (self.def(res)?, regs[0], regs[1], re.width());
                match code {
                    A::Addi => Instr::Add { d, a, b, w },
                    A::Subi => Instr::Sub { d, a, b, w },
                    A::Muli => Instr::Mul { d, a, b, w },
                    _ => Instr::Int { code, d, a, b, w },
                }
            }
            Class::Float => {
                arity(2)?;
                Instr::Float { code, d: self.def(res)?, a: regs[0], b: regs[1], e: re }
            }
            Class::Negf => {
                arity(1)?;
                Instr::Negf { d: self.def(res)?, a: regs[0] }
            }
            Class::Cmpi | Class::Cmpf => {
                arity(2)?;
                let pred = ir.get_attr(op, "predicate").and_then(|p| ir.as_int(p)).unwrap_or(0);
                let pred = i64::try_from(pred).ok()?;
                let d = self.def(res)?;
                if code.class() == Class::Cmpi {
                    arith::cmpi(pred, 0, 0, 64)?;
                    Instr::Cmpi { pred, d, a: regs[0], b: regs[1], ow: self.elem(ops[0])?.width() }
                } else {
                    arith::cmpf(pred, 0.0, 0.0)?;
                    Instr::Cmpf { pred, d, a: regs[0], b: regs[1] }
                }
            }
            Class::Select => {
                arity(3)?;
                Instr::Select { d: self.def(res)?, c: regs[0], a: regs[1], b: regs[2] }
            }
            Class::Cast => {
                arity(1)?;
                let from = self.elem(ops[0])?;
                let d = self.def(res)?;
                let ints = !from.is_float() && !re.is_float();
                if ints && matches!(code, A::IndexCast | A::Extsi | A::Trunci) {
                    Instr::Resize { d, a: regs[0], from: from.width(), w: re.width() }
                } else {
                    Instr::Cast { code, d, a: regs[0], from, to: re }
                }
            }
        };
        Some(instr)
    }

    fn for_loop(&mut self, op: OpId) -> Option<Loop> {
        let ir = self.ir;
        let ops = ir.operands(op);
        if ops.len() < 3 {
            return None;
        }
        let bounds = [self.read(ops[0])?, self.read(ops[1])?, self.read(ops[2])?];
        let inits = ops[3..].iter().map(|v| self.read(*v)).collect::<Option<Vec<_>>>()?;
        let body_block = *ir.region_blocks(*ir.regions(op).first()?).first()?;
        let block_args = ir.block_args(body_block);
        let iv = self.def(*block_args.first()?)?;
        let args = block_args[1..].iter().map(|v| self.def(*v)).collect::<Option<Vec<_>>>()?;
        let body = self.block(body_block)?;
        let results = ir.results(op).iter().map(|v| self.def(*v)).collect::<Option<Vec<_>>>()?;
        (args.len() == inits.len() && body.yields.len() == args.len() && results.len() == args.len()).then_some(Loop {
            op,
            bounds,
            iv,
            inits,
            args,
            body,
            results,
        })
    }

    fn cond(&mut self, op: OpId) -> Option<Cond> {
        let ir = self.ir;
        let c = self.read(*ir.operands(op).first()?)?;
        let regions = ir.regions(op);
        let mut branch = |i: usize| -> Option<Option<Block>> {
            match regions.get(i).map(|r| ir.region_blocks(*r)) {
                Some([b]) => self.block(*b).map(Some),
                Some([]) | None => Some(None),
                Some(_) => None,
            }
        };
        let then = branch(0)??;
        let els = branch(1)?;
        let results = ir.results(op).iter().map(|v| self.def(*v)).collect::<Option<Vec<_>>>()?;
        let fits = |b: &Block| b.yields.len() == results.len();
        (fits(&then) && els.as_ref().is_none_or(fits) && (els.is_some() || results.is_empty())).then_some(Cond {
            c,
            then,
            els,
            results,
        })
    }
}

/// `op` (an `scf.for`) compiled, or None when it does more than scalar work.
fn compile(ir: &Ir, op: OpId) -> Option<Program> {
    let mut c = Compiler {
        ir,
        regs: HashMap::new(),
        floats: Vec::new(),
        defined: HashSet::new(),
        inputs: Vec::new(),
        memrefs: Vec::new(),
        loaded: Vec::new(),
        stored: Vec::new(),
    };
    let root = c.for_loop(op)?;
    Some(Program {
        root,
        inputs: c.inputs,
        memrefs: c.memrefs,
        loaded: c.loaded,
        stored: c.stored,
        regs: c.floats.len(),
    })
}

fn f(bits: u64) -> f64 {
    f64::from_bits(bits)
}

impl Interp<'_> {
    /// Runs `op` (an `scf.for`) compiled if it can be; None when it must
    /// run in the tree walker.
    pub(super) fn run_compiled(&mut self, op: OpId) -> Option<R<()>> {
        if !self.compile_loops {
            return None;
        }
        let prog = match self.compiled.get(&op) {
            Some(p) => p.clone()?,
            None => {
                let p = compile(self.ir, op).map(Rc::new);
                self.compiled.insert(op, p.clone());
                p?
            }
        };
        let mut regs = std::mem::take(&mut self.regs);
        regs.clear();
        regs.resize(prog.regs, 0);
        for &(v, r, float) in &prog.inputs {
            regs[r as usize] = match self.get(v) {
                Val::Int(i) if !float => *i as u64,
                Val::Float(x) if float => x.to_bits(),
                // Not what the type says: let the tree walker deal with it.
                _ => {
                    self.regs = regs;
                    return None;
                }
            };
        }
        let mut mems = Vec::with_capacity(prog.memrefs.len());
        for v in &prog.memrefs {
            match self.get(*v) {
                // The tree walker refuses scalar access to L0A/L0B/L0C.
                Val::Mem(m) if self.mem.get(m.buf).space.is_l0() => {
                    self.regs = regs;
                    return None;
                }
                Val::Mem(m) => mems.push(m.clone()),
                _ => {
                    self.regs = regs;
                    return None;
                }
            }
        }
        // What the loop may touch, as if one op: every view it loads from
        // is read, every view it stores to written.
        let pick = |which: &[bool]| prog.memrefs.iter().zip(which).filter(|(_, b)| **b).map(|(v, _)| *v).collect();
        let (reads, writes): (Vec<Value>, Vec<Value>) = (pick(&prog.loaded), pick(&prog.stored));
        if let Err(e) = self.check_accesses(op, &reads, &writes) {
            self.regs = regs;
            return Some(Err(e));
        }
        self.tick_limit = self.next_tick_limit();
        let r = self.exec_loop(&mut regs, &mems, &prog.root);
        if r.is_ok() {
            for (v, reg) in self.ir.results(op).iter().zip(&prog.root.results) {
                let bits = regs[*reg as usize];
                let val = if Elem::of(self.ir, self.ir.value_type(*v)).is_some_and(Elem::is_float) {
                    Val::Float(f(bits))
                } else {
                    Val::Int(bits as i64)
                };
                self.set(*v, val);
            }
        }
        self.regs = regs;
        Some(r)
    }

    /// The step count at which the next check is due: the `--max-ops`
    /// limit, or before that the next periodic one (progress, interrupts).
    fn next_tick_limit(&self) -> u64 {
        const OPS: u64 = crate::interrupt::OPS;
        self.config.max_steps.min(self.steps / OPS * OPS + OPS - 1)
    }

    #[inline]
    fn tick(&mut self, op: OpId) -> R<()> {
        self.steps += 1;
        if self.steps > self.tick_limit {
            if self.steps > self.config.max_steps {
                return Err(super::max_ops_error(op, self.config.max_steps));
            }
            if self.steps.is_multiple_of(crate::interrupt::OPS) {
                self.periodic(op)?;
            }
            self.tick_limit = self.next_tick_limit();
        }
        Ok(())
    }

    fn exec_block(&mut self, regs: &mut [u64], mems: &[Rc<MemRefVal>], b: &Block) -> R<()> {
        // A block without loops or ifs whose steps stay under the next
        // check counts them in one go; otherwise op by op.
        let n = b.code.len() as u64 + 1;
        let bulk = b.flat && self.steps + n <= self.tick_limit;
        if bulk {
            self.steps += n;
        }
        for s in &b.code {
            if !bulk {
                self.tick(s.op)?;
            }
            self.exec_step(regs, mems, s)?;
        }
        if !bulk {
            self.tick(b.term)?;
        }
        Ok(())
    }

    #[inline]
    fn exec_step(&mut self, regs: &mut [u64], mems: &[Rc<MemRefVal>], s: &Step) -> R<()> {
        let r = |x: &Reg| regs[*x as usize];
        let (d, v) = match &s.instr {
            Instr::Const { d, bits } => (*d, *bits),
            Instr::Add { d, a, b, w } => (*d, norm_int((r(a) as i64).wrapping_add(r(b) as i64), *w) as u64),
            Instr::Sub { d, a, b, w } => (*d, norm_int((r(a) as i64).wrapping_sub(r(b) as i64), *w) as u64),
            Instr::Mul { d, a, b, w } => (*d, norm_int((r(a) as i64).wrapping_mul(r(b) as i64), *w) as u64),
            Instr::Resize { d, a, from, w } => {
                let x = r(a) as i64;
                // i1 true sign-extends to all ones.
                let x = if *from == 1 && x == 1 { -1 } else { x };
                (*d, norm_int(x, *w) as u64)
            }
            Instr::Int { code, d, a, b, w } => {
                let v = arith::int_binary(*code, r(a) as i64, r(b) as i64, *w).map_err(|m| RunError::at(s.op, m))?;
                (*d, v as u64)
            }
            Instr::Float { code, d, a, b, e } => (*d, arith::float_binary(*code, f(r(a)), f(r(b)), *e).to_bits()),
            Instr::Negf { d, a } => (*d, (-f(r(a))).to_bits()),
            Instr::Cmpi { pred, d, a, b, ow } => {
                (*d, arith::cmpi(*pred, r(a) as i64, r(b) as i64, *ow).unwrap_or(false) as u64)
            }
            Instr::Cmpf { pred, d, a, b } => (*d, arith::cmpf(*pred, f(r(a)), f(r(b))).unwrap_or(false) as u64),
            Instr::Select { d, c, a, b } => (*d, if r(c) as i64 != 0 { r(a) } else { r(b) }),
            Instr::Cast { code, d, a, from, to } => {
                let x = if from.is_float() { Num::F(f(r(a))) } else { Num::I(r(a) as i64) };
                let v = match arith::cast(*code, *from, *to, x) {
                    Num::I(i) => i as u64,
                    Num::F(x) => x.to_bits(),
                };
                (*d, v)
            }
            Instr::Load { d, mem, idx, float } => {
                let at: Vec<i64> = idx.iter().map(|x| r(x) as i64).collect();
                let v = self.load_element(s.op, &mems[*mem as usize], &at)?;
                (*d, if *float { v.float().to_bits() } else { v.int() as u64 })
            }
            Instr::Store { v, mem, idx, float } => {
                let at: Vec<i64> = idx.iter().map(|x| r(x) as i64).collect();
                let val = if *float { Val::Float(f(r(v))) } else { Val::Int(r(v) as i64) };
                return self.store_element(s.op, &mems[*mem as usize], &at, &val);
            }
            Instr::For(l) => return self.exec_loop(regs, mems, l),
            Instr::If(c) => {
                let branch = if r(&c.c) as i64 != 0 { Some(&c.then) } else { c.els.as_ref() };
                if let Some(b) = branch {
                    self.exec_block(regs, mems, b)?;
                    for (res, y) in c.results.iter().zip(&b.yields) {
                        regs[*res as usize] = regs[*y as usize];
                    }
                }
                return Ok(());
            }
        };
        regs[d as usize] = v;
        Ok(())
    }

    fn exec_loop(&mut self, regs: &mut [u64], mems: &[Rc<MemRefVal>], l: &Loop) -> R<()> {
        let [lb, ub, step] = l.bounds.map(|b| regs[b as usize] as i64);
        if step <= 0 {
            return Err(RunError::at(l.op, format!("scf.for step must be positive, got {step}")));
        }
        for (a, i) in l.args.iter().zip(&l.inits) {
            regs[*a as usize] = regs[*i as usize];
        }
        // Yielded values pass through a scratch list: a yield may swap them.
        let mut carried = vec![0u64; l.args.len()];
        let mut i = lb;
        while i < ub {
            regs[l.iv as usize] = i as u64;
            self.exec_block(regs, mems, &l.body)?;
            for (c, y) in carried.iter_mut().zip(&l.body.yields) {
                *c = regs[*y as usize];
            }
            for (a, c) in l.args.iter().zip(&carried) {
                regs[*a as usize] = *c;
            }
            i += step;
        }
        for (res, a) in l.results.iter().zip(&l.args) {
            regs[*res as usize] = regs[*a as usize];
        }
        Ok(())
    }
}
