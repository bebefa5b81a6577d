//! AscendNPU-IR's `hivm_regbaseintrins` dialect, as far as its SIMT side
//! goes: the attributes that mark kernels and their SIMT entries
//! (`#hivm_regbaseintrins.target<"dav-c310">`,
//! `#hivm_regbaseintrins.simt_entry<1024>`,
//! `#hivm_regbaseintrins.simt_callable`) and `intrins.launch_func`, which
//! launches a SIMT function on a grid of threads. Attributes are kept as
//! text in the form upstream's generated printers give.

use hivm_ir::Dialect;
use hivm_ir::opspec::{AttrKind, Fixed, OpSpec, attr, one, var};

const LAUNCH_FUNC: OpSpec = OpSpec {
    name: "hivm_regbaseintrins.intrins.launch_func",
    operands: &[
        one("blockSizeX").of(Fixed::Int(64)),
        one("blockSizeY").of(Fixed::Int(64)),
        one("blockSizeZ").of(Fixed::Int(64)),
        var("opnds"),
    ],
    attrs: &[attr("kernel", AttrKind::SymbolRef)],
    format: "$kernel `threads` `in` ` ` `(`$blockSizeX `,` $blockSizeY `,` $blockSizeZ `)` attr-dict (`args``(`$opnds^`)` `:` type($opnds))?",
    ..OpSpec::EMPTY
};

/// The string of `<"...">`: MLIR's `StringRefParameter`, read with
/// escapes resolved and printed back between plain quotes.
fn string_param(params: &str) -> Option<String> {
    let lit = params.strip_prefix('<')?.strip_suffix('>')?.trim();
    let inner = lit.strip_prefix('"')?.strip_suffix('"')?;
    let b = inner.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' | b'\n' => return None,
            _ => i += 1,
        }
    }
    if i != b.len() {
        return None;
    }
    String::from_utf8(hivm_ir::lexer::unescape(inner.as_bytes())).ok()
}

/// The `uint32_t` of `<N>`.
fn u32_param(params: &str) -> Option<u32> {
    let n = params.strip_prefix('<')?.strip_suffix('>')?.trim();
    match n.strip_prefix("0x") {
        Some(h) => u32::from_str_radix(h, 16).ok(),
        None => n.parse().ok().filter(|_| n.bytes().all(|c| c.is_ascii_digit())),
    }
}

fn check_attr(body: &str) -> Result<String, String> {
    let split = body.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(body.len());
    let (mnemonic, params) = body.split_at(split);
    let failed = |attr: &str, ty: &str| format!("failed to parse {attr} parameter 'value' which is to be a `{ty}`");
    match mnemonic {
        "target" => match string_param(params) {
            Some(s) => Ok(format!("target<\"{s}\">")),
            None => Err(failed("SIMT_TargetAttr", "::llvm::StringRef")),
        },
        "simt_entry" => match u32_param(params) {
            Some(n) => Ok(format!("simt_entry<{n}>")),
            None => Err(failed("SIMT_EntryAttr", "uint32_t")),
        },
        "simt_callable" if params.is_empty() => Ok(body.to_string()),
        "simt_callable" => Err("expected end of attribute `simt_callable`, which has no parameters".into()),
        _ => Err(format!("unknown attribute `{mnemonic}` in dialect `hivm_regbaseintrins`")),
    }
}

pub fn dialect() -> Dialect {
    let mut d = Dialect::new("hivm_regbaseintrins", vec![LAUNCH_FUNC.def()]);
    d.check_attr = Some(check_attr);
    d
}

#[cfg(test)]
mod tests {
    use super::check_attr;

    #[test]
    fn attributes_print_as_upstream() {
        assert_eq!(check_attr("target< \"dav-c310\" >").unwrap(), "target<\"dav-c310\">");
        assert_eq!(check_attr("simt_entry<0x400>").unwrap(), "simt_entry<1024>");
        assert_eq!(check_attr("simt_callable").unwrap(), "simt_callable");
        assert!(check_attr("target<dav>").unwrap_err().contains("::llvm::StringRef"));
        assert!(check_attr("simt_entry<-1>").unwrap_err().contains("uint32_t"));
        assert!(check_attr("kernel").unwrap_err().starts_with("unknown attribute `kernel`"));
    }
}
