//! The CPU twin: runs kernels with custom ops on the host. The kernel is
//! parsed, verified and brought to memref level with hivm-rs's own passes,
//! then interpreted block by block; custom ops call the user's C/C++
//! implementation compiled against `include/hivm_twin.h`, and a sync
//! checker watches every pipe.

pub mod cache;
pub mod compiler;
pub mod f8;
pub mod fork_lock;
pub mod interp;
pub mod interrupt;
pub mod intrinsics;
pub mod kernel;
pub mod libraries;
pub mod memory;
pub mod mix;
pub mod native;
pub mod npy;
pub mod prepare;
pub mod raw_syscall;
pub mod shm;
pub mod signature;
pub mod sync;
pub mod tester;
pub mod value;
pub mod worker;

use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::Duration;

use hivm_ir::diagnostics::{Diagnostic, SourceBuffer};
use hivm_ir::{Ir, OpId, TypeData};

use interp::{Config, Interp};
pub use kernel::{Prepared, Results};
use memory::{Capacities, Space};
use value::{Elem, MemRefVal, Val};

/// A kernel argument as given on the command line.
#[derive(Clone, Debug)]
pub enum ArgSpec {
    Npy(PathBuf),
    /// An array given in memory (element type, shape, little-endian bytes).
    Array(Elem, Vec<i64>, Vec<u8>),
    Zeros(Vec<i64>, Elem),
    Literal(String),
    /// The same memory as an earlier argument (one array given twice): the
    /// kernel gets that argument's buffer again, as a device kernel given
    /// one pointer twice sees one memory.
    Alias(usize),
}

impl ArgSpec {
    pub fn parse(s: &str) -> Result<ArgSpec, String> {
        if let Some(rest) = s.strip_prefix("zeros:") {
            let parts: Vec<&str> = rest.split('x').collect();
            let (dims, ty) = parts.split_at(parts.len() - 1);
            let elem = Elem::parse(ty[0]).ok_or_else(|| format!("unknown element type '{}' in '{s}'", ty[0]))?;
            let shape = dims
                .iter()
                .map(|d| d.parse::<i64>().ok().filter(|n| *n >= 0))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| format!("bad shape in '{s}' (expected e.g. zeros:4x8xf16)"))?;
            return Ok(ArgSpec::Zeros(shape, elem));
        }
        if s.ends_with(".npy") {
            return Ok(ArgSpec::Npy(PathBuf::from(s)));
        }
        Ok(ArgSpec::Literal(s.to_string()))
    }
}

pub struct RunOptions {
    pub entry: Option<String>,
    pub impls: Vec<PathBuf>,
    pub args: Vec<ArgSpec>,
    pub blocks: u32,
    pub timeout: Duration,
    pub progress: bool,
    pub max_ops: u64,
    /// Keep a timeline of what every pipe did.
    pub trace: bool,
    /// Run the sync solver on the kernel before interpreting it.
    pub sync_solver: bool,
    /// Run one core's part of a split mix kernel by itself: its
    /// `sync_block_wait`s are taken as met and its `sync_block_set`s go
    /// nowhere (each said once, as a warning), so only the core's own pipes
    /// are checked.
    pub part_alone: bool,
}

impl Default for RunOptions {
    /// One block, no arguments, the tools' 30-second call timeout, no op limit.
    fn default() -> RunOptions {
        RunOptions {
            entry: None,
            impls: Vec::new(),
            args: Vec::new(),
            blocks: 1,
            timeout: Duration::from_secs(30),
            progress: false,
            max_ops: u64::MAX,
            trace: false,
            sync_solver: false,
            part_alone: false,
        }
    }
}

/// A memref argument's final contents: element type, shape, bytes.
pub type ArgData = (Elem, Vec<i64>, Vec<u8>);

/// What a run produced: the final contents of memref arguments, sync
/// reports, or the error that stopped it.
pub struct Outcome {
    pub ir: Ir,
    pub source: String,
    pub file: String,
    /// Per argument: element type, shape and bytes (memrefs only).
    pub args: Vec<Option<ArgData>>,
    /// Per argument: whether its element type is unsigned (`ui8` ...), which
    /// `ArgData`'s element type does not say.
    pub unsigned: Vec<bool>,
    pub reports: Vec<(u32, sync::Report)>,
    /// Per block, what every pipe did (with `trace`).
    pub timeline: Vec<(u32, sync::TraceLine)>,
    pub error: Option<Diagnostic>,
}

impl Outcome {
    /// A run that stopped before it started, with the diagnostic why.
    pub fn failed(ir: Ir, source: String, file: String, error: Diagnostic) -> Outcome {
        Outcome {
            ir,
            source,
            file,
            args: vec![],
            unsigned: vec![],
            reports: vec![],
            timeline: vec![],
            error: Some(error),
        }
    }

    pub fn render(&self, d: &Diagnostic) -> String {
        kernel::render(&self.ir, &self.source, &self.file, d)
    }

    /// A timeline line: `block  PIPE  FILE:LINE:COL  op  what [intrinsic]`.
    pub fn format_trace(&self, block: u32, t: &sync::TraceLine) -> String {
        kernel::format_trace(&self.ir, block, t)
    }

    /// A sync report as a located diagnostic.
    pub fn report_diagnostic(&self, block: u32, r: &sync::Report, blocks: u32) -> Diagnostic {
        kernel::report_diagnostic(&self.ir, block, r, blocks)
    }
}

fn parse_error(ir: &mut Ir, e: &hivm_ir::parser::ParseError, buf: &SourceBuffer, file: &str) -> Diagnostic {
    let (line, col) = buf.line_col(e.pos as usize);
    let f = ir.sym(file);
    let loc = ir.attr(hivm_ir::AttrData::Location(hivm_ir::attrs::LocData::FileLineCol { file: f, line, col }));
    Diagnostic::error(loc, e.msg.clone())
}

/// Runs `path` with `opts`.
pub fn run(path: &Path, opts: &RunOptions) -> Outcome {
    let file = path.display().to_string();
    let bytes = std::fs::read(path);
    let mut ir = Ir::new(hivm_dialects::shared_registry());
    let failed = |ir: Ir, error: Diagnostic| Outcome::failed(ir, String::new(), file.clone(), error);
    let source = match bytes.map(String::from_utf8) {
        Ok(Ok(s)) => s,
        Ok(Err(e)) => {
            // The first invalid byte, located as the lexer would locate it.
            let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            let line = valid.iter().filter(|b| **b == b'\n').count() as u32 + 1;
            let col = (valid.len() - valid.iter().rposition(|b| *b == b'\n').map_or(0, |p| p + 1)) as u32 + 1;
            let f = ir.sym(&file);
            let loc = ir.attr(hivm_ir::AttrData::Location(hivm_ir::attrs::LocData::FileLineCol { file: f, line, col }));
            return failed(ir, Diagnostic::error(loc, "input is not valid UTF-8"));
        }
        Err(e) => {
            let loc = ir.unknown_loc();
            return failed(ir, Diagnostic::error(loc, format!("cannot read {file}: {e}")));
        }
    };
    let base_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    run_source(&source, &file, &base_dir, opts)
}

/// Runs kernel `source` (named `file` in diagnostics; `source` attributes
/// are relative to `base_dir`) with `opts`.
pub fn run_source(source: &str, file: &str, base_dir: &Path, opts: &RunOptions) -> Outcome {
    match Prepared::new(source.to_string(), file, base_dir, opts) {
        Ok(p) => {
            let r = p.run(opts);
            p.into_outcome(r)
        }
        Err(failed) => *failed,
    }
}

/// The launch grid of a kernel in triton-to-linalg's form (a
/// `global_kernel` whose last six parameters are i32: the program counts
/// x, y, z, then the program ids) run on several blocks.
struct Grid {
    num: [i64; 3],
    /// Program ids are decoded x-fastest (register-based targets) or
    /// z-fastest (memory-based ones), as `triton-global-kernel-args-to-hivm-op`
    /// decodes `get_block_idx`.
    x_fastest: bool,
}

impl Grid {
    fn program_ids(&self, block: i64) -> [i64; 3] {
        let order: [usize; 3] = if self.x_fastest { [0, 1, 2] } else { [2, 1, 0] };
        let mut ids = [0; 3];
        let mut stride = 1;
        for axis in order {
            ids[axis] = (block / stride) % self.num[axis];
            stride *= self.num[axis];
        }
        ids
    }
}

/// With `--blocks N` > 1, a triton-to-linalg kernel gets its program ids
/// from the block index (the counts given must multiply to N); otherwise
/// the arguments are passed as given.
fn triton_grid(ir: &Ir, entry: OpId, args: &[Val], blocks: u32) -> Result<Option<Grid>, Diagnostic> {
    if blocks <= 1 || !ir.has_attr(entry, "global_kernel") || args.len() < 6 {
        return Ok(None);
    }
    let block = ir.region_blocks(ir.regions(entry)[0])[0];
    let params = ir.block_args(block);
    let tail = &params[params.len() - 6..];
    if !tail.iter().all(|p| ir.type_data(ir.value_type(*p)).is_signless_int(32)) {
        return Ok(None);
    }
    let n = args.len();
    let num = [args[n - 6].int(), args[n - 5].int(), args[n - 4].int()];
    if num.iter().try_fold(1i64, |a, d| if *d > 0 { a.checked_mul(*d) } else { None }) != Some(blocks as i64) {
        return Err(Diagnostic::error(
            ir.loc(entry),
            format!(
                "--blocks {blocks} does not match the launch grid {}x{}x{} given in the program-count arguments",
                num[0], num[1], num[2]
            ),
        ));
    }
    let target = hivm_dialects::hacc::module_target(ir, entry);
    let x_fastest = target.as_deref().is_some_and(hivm_dialects::hacc::is_regbase);
    Ok(Some(Grid { num, x_fastest }))
}

fn pick_entry(ir: &Ir, module: OpId, name: Option<&str>) -> Result<OpId, Diagnostic> {
    if let Some(n) = name {
        return interp::find_func(ir, module, n)
            .ok_or_else(|| Diagnostic::error(ir.loc(module), format!("no function @{n} in the kernel")));
    }
    let body = ir.regions(module)[0];
    let block = ir.region_blocks(body)[0];
    let funcs: Vec<OpId> = ir
        .block_ops(block)
        .filter(|o| {
            ir.is_op(*o, "func.func") && !ir.regions(*o).first().is_none_or(|r| ir.region_blocks(*r).is_empty())
        })
        .collect();
    match funcs.as_slice() {
        [f] => Ok(*f),
        [] => Err(Diagnostic::error(ir.loc(module), "the kernel defines no function to run")),
        _ => {
            let names: Vec<String> = funcs
                .iter()
                .filter_map(|f| ir.get_attr(*f, "sym_name").and_then(|a| ir.as_str(a)).map(|s| format!("@{s}")))
                .collect();
            Err(Diagnostic::error(
                ir.loc(module),
                format!("the kernel defines several functions ({}): choose one with --entry", names.join(", ")),
            ))
        }
    }
}

/// Runs every function of a parsed, verified module with zero-filled
/// arguments, for the fuzzer: each must end normally or with an error at an
/// op. Functions with arguments the twin cannot make are skipped.
pub fn run_all_for_fuzzing(ir: &Ir, module: OpId, max_ops: u64) -> Vec<Result<(), String>> {
    let mut out = Vec::new();
    let body = ir.regions(module).first().and_then(|r| ir.region_blocks(*r).first().copied());
    let Some(block) = body else { return out };
    for f in ir.block_ops(block).filter(|o| ir.is_op(*o, "func.func")).collect::<Vec<_>>() {
        let Some(entry) = ir.regions(f).first().and_then(|r| ir.region_blocks(*r).first().copied()) else { continue };
        let mut specs = Vec::new();
        for a in ir.block_args(entry) {
            let t = ir.value_type(*a);
            match ir.type_data(t) {
                TypeData::MemRef { shape, elem, .. }
                    if shape.iter().all(|d| (0..=64).contains(d)) && Elem::of(ir, *elem).is_some() =>
                {
                    specs.push(ArgSpec::Zeros(shape.clone(), Elem::of(ir, *elem).unwrap()));
                }
                _ if Elem::of(ir, t).is_some() => specs.push(ArgSpec::Literal("0".into())),
                _ => break,
            }
        }
        if specs.len() != ir.block_args(entry).len() {
            continue;
        }
        let config = Config {
            impls: Vec::new(),
            base_dir: PathBuf::from("/nonexistent"),
            timeout: Duration::from_secs(2),
            caps: Capacities::for_target(None),
            regbase: false,
            target: None,
            progress: false,
            trace: false,
            max_steps: max_ops,
            scalar_barriers: false,
            part_alone: false,
        };
        let mut it = Interp::new(ir, config);
        let r = make_args(ir, f, &specs, &mut it).map_err(|d| d.message).and_then(|args| {
            it.start_block(0, 1)?;
            it.call_function(f, args).map(|_| ()).map_err(|e| e.msg)
        });
        it.sync.finish();
        out.push(r);
    }
    out
}

fn make_args(ir: &Ir, func: OpId, specs: &[ArgSpec], it: &mut Interp) -> Result<Vec<Val>, Diagnostic> {
    let entry = ir.region_blocks(ir.regions(func)[0])[0];
    let params = ir.block_args(entry).to_vec();
    let loc = ir.loc(func);
    // Printed only for a message (a launch must not pay for it).
    let sig = |i: usize| hivm_ir::printer::type_to_string(ir, ir.value_type(params[i]));
    if specs.len() != params.len() {
        return Err(Diagnostic::error(
            loc,
            format!(
                "the entry function takes {} argument(s) ({}) but {} --arg were given",
                params.len(),
                (0..params.len()).map(sig).collect::<Vec<_>>().join(", "),
                specs.len()
            ),
        ));
    }
    let mut vals = Vec::new();
    for (i, (p, spec)) in params.iter().zip(specs).enumerate() {
        let t = ir.value_type(*p);
        let bad = |m: String| Diagnostic::error(loc, format!("argument {i} ({}): {m}", sig(i)));
        match ir.type_data(t).clone() {
            TypeData::MemRef { shape, elem, .. } => {
                let elem = Elem::of(ir, elem).ok_or_else(|| bad("unsupported element type".into()))?;
                if let Some((s, _)) = hivm_dialects::util::strides_and_offset(ir, t) {
                    let want = MemRefVal::contiguous(0, elem, shape.clone()).strides;
                    if s.iter().zip(&want).any(|(a, b)| *a != hivm_ir::types::DYNAMIC && a != b) {
                        return Err(bad("only contiguous memref arguments are supported".into()));
                    }
                }
                if let ArgSpec::Alias(k) = spec {
                    let Some(Val::Mem(m)) = vals.get(*k) else {
                        return Err(bad(format!(
                            "the same array as argument {k}, which is no earlier memref argument"
                        )));
                    };
                    if m.elem != elem
                        || m.sizes.len() != shape.len()
                        || m.sizes.iter().zip(&shape).any(|(a, s)| *s != hivm_ir::types::DYNAMIC && a != s)
                    {
                        return Err(bad(format!("the same array as argument {k} ({}), which does not fit", sig(*k))));
                    }
                    vals.push(Val::Mem(m.clone()));
                    continue;
                }
                let (ashape, aelem, bytes) = match spec {
                    ArgSpec::Npy(path) => {
                        let a = npy::read(path).map_err(bad)?;
                        (a.shape, a.elem, Some(std::borrow::Cow::Owned(a.bytes)))
                    }
                    ArgSpec::Zeros(s, e) => (s.clone(), *e, None),
                    ArgSpec::Array(e, s, b) => {
                        let want = s.iter().try_fold(e.size() as i64, |a, d| a.checked_mul(*d));
                        if want != Some(b.len() as i64) {
                            return Err(bad(format!("given {} bytes for shape {s:?} of {}", b.len(), e.name())));
                        }
                        (s.clone(), *e, Some(std::borrow::Cow::Borrowed(b.as_slice())))
                    }
                    ArgSpec::Literal(l) => return Err(bad(format!("'{l}' is a scalar; this argument is a memref"))),
                    ArgSpec::Alias(_) => unreachable!("handled above"),
                };
                // An f8 array comes as its codes (numpy has no f8 dtype).
                let codes = matches!(elem, Elem::F8(_)) && aelem == Elem::Int(8);
                // Same size is not enough between integers: i1 is a byte too.
                let other_int = matches!((aelem, elem), (Elem::Int(a), Elem::Int(b)) if a != b);
                if aelem.size() != elem.size() || (aelem.is_float() != elem.is_float() && !codes) || other_int {
                    return Err(bad(format!("given {} data", aelem.name())));
                }
                if ashape.len() != shape.len()
                    || ashape.iter().zip(&shape).any(|(a, s)| *s != hivm_ir::types::DYNAMIC && a != s)
                {
                    return Err(bad(format!("given shape {ashape:?}")));
                }
                let len = ashape
                    .iter()
                    .try_fold(elem.size() as i64, |a, d| a.checked_mul(*d))
                    .filter(|b| *b < (1 << 40))
                    .ok_or_else(|| bad(format!("shape {ashape:?} is too large")))?;
                let buf = it.mem.alloc(len as usize, Space::Gm).map_err(bad)?;
                if let Some(b) = bytes {
                    it.mem.get_mut(buf).bytes_mut().copy_from_slice(&b);
                }
                let b = it.mem.get(buf);
                it.named.push((b.addr(), b.len() as u64, format!("argument {i}")));
                vals.push(Val::Mem(Rc::new(MemRefVal::contiguous(buf, elem, ashape))));
            }
            _ => {
                let elem = Elem::of(ir, t).ok_or_else(|| bad("unsupported argument type".into()))?;
                let sign = match ir.type_data(t) {
                    hivm_ir::TypeData::Integer { signedness, .. } => *signedness,
                    _ => hivm_ir::types::Signedness::Signless,
                };
                vals.push(scalar_arg(elem, sign, spec).map_err(bad)?);
            }
        }
    }
    Ok(vals)
}

/// A scalar argument: a number as text, or a 0-d array of the parameter's
/// own element size and kind (as memref arguments must match). Integers
/// must fit the parameter's width, read signed or unsigned as its type
/// says (a signless one either way): nothing wraps; a finite float must not
/// round to infinity.
fn scalar_arg(elem: Elem, sign: hivm_ir::types::Signedness, spec: &ArgSpec) -> Result<Val, String> {
    use hivm_ir::types::Signedness;
    if let ArgSpec::Array(e, shape, bytes) = spec
        && shape.is_empty()
    {
        if e.size() != elem.size() || e.is_float() != elem.is_float() || bytes.len() != e.size() {
            return Err(format!("given {} data", e.name()));
        }
        let mut raw = [0u8; 8];
        raw[..bytes.len()].copy_from_slice(bytes);
        let bits = u64::from_le_bytes(raw);
        return Ok(match elem {
            Elem::F16 => Val::Float(half::f16::from_bits(bits as u16).to_f64()),
            Elem::BF16 => Val::Float(half::bf16::from_bits(bits as u16).to_f64()),
            Elem::F32 => Val::Float(f32::from_bits(bits as u32) as f64),
            Elem::F64 => Val::Float(f64::from_bits(bits)),
            Elem::F8(f) => Val::Float(f.decode(bits as u8) as f64),
            _ => Val::Int(value::norm_int(bits as i64, elem.width())),
        });
    }
    let ArgSpec::Literal(l) = spec else {
        return Err("a scalar argument takes a number".into());
    };
    if elem.is_float() {
        let x = l.parse::<f64>().map_err(|_| format!("'{l}' is not a number"))?;
        let r = value::round_float(x, elem);
        // A finite number past the type's range would become inf (or NaN):
        // refused, as out-of-range integers are.
        if x.is_finite() && !r.is_finite() {
            return Err(format!("{l} is out of the range of {}", elem.name()));
        }
        return Ok(Val::Float(r));
    }
    let w = elem.width();
    let digits = l.strip_prefix(['-', '+']).unwrap_or(l);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("'{l}' is not an integer"));
    }
    let (lo, hi) = match sign {
        Signedness::Signless => (-(1i128 << (w - 1)), (1i128 << w) - 1),
        Signedness::Signed => (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1),
        Signedness::Unsigned => (0, (1i128 << w) - 1),
    };
    match l.parse::<i128>() {
        Ok(x) if (lo..=hi).contains(&x) => Ok(Val::Int(value::norm_int(x as i64, w))),
        _ => Err(format!("{l} does not fit in {w} bits (from {lo} to {hi})")),
    }
}

pub use native::include_dir;

/// The MLIR type of a memref argument (`memref<4x8xf16>`), for `--print`'s label.
pub fn memref_type_name(elem: Elem, shape: &[i64]) -> String {
    memref_type_name_as(elem, false, shape)
}

/// [`memref_type_name`], of an unsigned element type when `unsigned`.
pub fn memref_type_name_as(elem: Elem, unsigned: bool, shape: &[i64]) -> String {
    let dims: String = shape.iter().map(|d| format!("{d}x")).collect();
    match elem {
        Elem::Int(w) if unsigned => format!("memref<{dims}ui{w}>"),
        _ => format!("memref<{dims}{}>", elem.name()),
    }
}

/// Formats an array for `--print`, numpy style.
pub fn format_array(elem: Elem, shape: &[i64], bytes: &[u8]) -> String {
    format_array_as(elem, false, shape, bytes)
}

/// [`format_array`], integers read as unsigned when `unsigned`.
pub fn format_array_as(elem: Elem, unsigned: bool, shape: &[i64], bytes: &[u8]) -> String {
    let size = elem.size();
    let items: Vec<String> = bytes
        .chunks(size)
        .map(|c| {
            let mut raw = [0u8; 8];
            raw[..size].copy_from_slice(c);
            let bits = u64::from_le_bytes(raw);
            match elem {
                Elem::F16 => format!("{}", half::f16::from_bits(bits as u16)),
                Elem::BF16 => format!("{}", half::bf16::from_bits(bits as u16)),
                Elem::F32 => format!("{}", f32::from_bits(bits as u32)),
                Elem::F64 => format!("{}", f64::from_bits(bits)),
                Elem::F8(f) => format!("{}", f.decode(bits as u8)),
                Elem::Int(w) if unsigned && w < 64 => format!("{}", bits & ((1u64 << w) - 1)),
                Elem::Int(64) if unsigned => format!("{bits}"),
                Elem::Int(w) => format!("{}", value::norm_int(bits as i64, w)),
                Elem::Index => format!("{}", bits as i64),
            }
        })
        .collect();
    fn nest(items: &[String], shape: &[i64]) -> String {
        match shape {
            [] => items.first().cloned().unwrap_or_default(),
            [_] => format!("[{}]", items.join(", ")),
            [n, rest @ ..] => {
                let chunk = items.len() / (*n).max(1) as usize;
                let parts: Vec<String> = items.chunks(chunk.max(1)).map(|c| nest(c, rest)).collect();
                format!("[{}]", parts.join(",\n "))
            }
        }
    }
    nest(&items, shape)
}
