//! `hivm-check-implementations`: every user custom op must have exactly one
//! definition of its C entry point `_mlir_ciface_<symbol>` among the files it
//! is linked with — its `bitcode` attribute and the `--link-aicore-bitcode`
//! list. Upstream only finds these problems when the device link fails; here
//! they are located errors at compile time. Files may be LLVM bitcode (read in
//! pure Rust) or ELF objects / shared libraries (for host builds).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use hivm_dialects::hivm::custom;
use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{Ir, OpId};

pub struct CheckImplementations {
    pub files: Vec<PathBuf>,
    /// Host builds link host objects instead of the device bitcode the ops
    /// name, so they turn this off (`use-bitcode-attrs=false`).
    pub use_bitcode_attrs: bool,
}

impl CheckImplementations {
    pub fn from_options(options: &str) -> Result<CheckImplementations, String> {
        let mut files = Vec::new();
        let mut use_bitcode_attrs = true;
        for kv in options.split_whitespace() {
            match kv.split_once('=') {
                Some(("files", v)) => files.extend(v.split(',').filter(|s| !s.is_empty()).map(PathBuf::from)),
                Some(("use-bitcode-attrs", v)) => {
                    use_bitcode_attrs = match v {
                        "true" | "1" => true,
                        "false" | "0" => false,
                        _ => return Err(format!("expected true or false for use-bitcode-attrs, got '{v}'")),
                    }
                }
                _ => {
                    return Err(format!(
                        "unknown option '{kv}' for hivm-check-implementations (expected files=a.bc,b.o use-bitcode-attrs=true|false)"
                    ));
                }
            }
        }
        Ok(CheckImplementations { files, use_bitcode_attrs })
    }
}

/// Externally visible functions a file defines.
pub fn defined_symbols(path: &Path) -> Result<Vec<String>, String> {
    let data = std::fs::read(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    if data.starts_with(b"BC\xC0\xDE") || data.starts_with(&[0xDE, 0xC0, 0x17, 0x0B]) {
        return bitcode_symbols(&data).map_err(|e| format!("'{}' is not valid LLVM bitcode: {e}", path.display()));
    }
    if data.starts_with(b"\x7FELF") {
        return elf_symbols(&data).map_err(|e| format!("'{}' is not a valid ELF file: {e}", path.display()));
    }
    Err(format!("'{}' is neither LLVM bitcode nor an ELF object", path.display()))
}

fn bitcode_symbols(data: &[u8]) -> Result<Vec<String>, String> {
    use llvm_bitcode::bitcode::{BitcodeElement, Payload};
    let bc = llvm_bitcode::Bitcode::new(data).map_err(|e| format!("{e:?}"))?;
    const MODULE_BLOCK: u32 = 8;
    const STRTAB_BLOCK: u32 = 23;
    const FUNCTION_RECORD: u64 = 8;
    let mut strtab: Vec<u8> = Vec::new();
    let mut functions: Vec<(u64, u64)> = Vec::new();
    let mut stack: Vec<&BitcodeElement> = bc.elements.iter().collect();
    while let Some(e) = stack.pop() {
        match e {
            BitcodeElement::Block(b) if b.id == STRTAB_BLOCK => {
                for r in b.elements.iter().filter_map(|x| match x {
                    BitcodeElement::Record(r) => Some(r),
                    _ => None,
                }) {
                    let mut r = r.clone();
                    if let Some(Payload::Blob(blob)) = r.take_payload() {
                        strtab = blob;
                    }
                }
            }
            BitcodeElement::Block(b) if b.id == MODULE_BLOCK => {
                for x in &b.elements {
                    match x {
                        BitcodeElement::Record(r) if r.id == FUNCTION_RECORD => {
                            // [strtab offset, size, type, cc, isproto, linkage, ...]
                            let f = r.fields();
                            let (is_proto, linkage) = (f.get(4).copied().unwrap_or(1), f.get(5).copied().unwrap_or(0));
                            // Internal (3) and private (9) linkage are not visible to the linker.
                            if is_proto == 0 && linkage != 3 && linkage != 9 {
                                functions.push((f[0], f[1]));
                            }
                        }
                        BitcodeElement::Block(_) => stack.push(x),
                        _ => {}
                    }
                }
            }
            BitcodeElement::Block(b) => stack.extend(b.elements.iter()),
            _ => {}
        }
    }
    Ok(functions
        .into_iter()
        .filter_map(|(off, len)| strtab.get(off as usize..(off + len) as usize))
        .map(|s| String::from_utf8_lossy(s).into_owned())
        .collect())
}

fn elf_symbols(data: &[u8]) -> Result<Vec<String>, String> {
    use object::{Object, ObjectSymbol};
    let file = object::File::parse(data).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for s in file.symbols().chain(file.dynamic_symbols()) {
        if s.is_definition()
            && s.is_global()
            && s.kind() == object::SymbolKind::Text
            && let Ok(name) = s.name()
        {
            out.push(name.to_string());
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

impl Pass for CheckImplementations {
    fn name(&self) -> &str {
        "hivm-check-implementations"
    }

    fn display_name(&self) -> &str {
        "CheckImplementations"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId) -> Result<(), Diagnostic> {
        let mut table: HashMap<PathBuf, Result<Vec<String>, String>> = HashMap::new();
        for op in super::custom_ops(ir, root) {
            if custom::builtin(ir, op).is_some() {
                continue;
            }
            let Some(symbol) = custom::symbol(ir, op).filter(|s| !s.is_empty()) else { continue };
            let entry = format!("_mlir_ciface_{symbol}");
            let loc = ir.loc(op);
            let mut files = self.files.clone();
            if let Some(bc) = ir.get_attr(op, "bitcode").and_then(|a| ir.as_str(a)).filter(|_| self.use_bitcode_attrs) {
                let p = PathBuf::from(bc);
                if !p.exists() {
                    return Err(Diagnostic::error(
                        loc,
                        format!("'{}' op implementation file '{bc}' does not exist", ir.op_name(op)),
                    ));
                }
                files.push(p);
            }
            let mut defining = Vec::new();
            for f in &files {
                let syms = table.entry(f.clone()).or_insert_with(|| defined_symbols(f));
                match syms {
                    Ok(s) if s.contains(&entry) => defining.push(f.display().to_string()),
                    Ok(_) => {}
                    Err(e) => return Err(Diagnostic::error(loc, e.clone())),
                }
            }
            let searched = if files.is_empty() {
                "no implementation files were given (use the op's `bitcode` attribute or --link-aicore-bitcode)"
                    .to_string()
            } else {
                format!("searched {}", files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(", "))
            };
            match defining.len() {
                1 => {}
                0 => {
                    return Err(Diagnostic::error(
                        loc,
                        format!("'{}' op implementation '{entry}' is not defined; {searched}", ir.op_name(op)),
                    ));
                }
                _ => {
                    return Err(Diagnostic::error(
                        loc,
                        format!(
                            "'{}' op implementation '{entry}' is defined more than once: in {}",
                            ir.op_name(op),
                            defining.join(" and ")
                        ),
                    ));
                }
            }
        }
        Ok(())
    }
}
