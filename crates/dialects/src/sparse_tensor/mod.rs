//! MLIR's `sparse_tensor` dialect, as far as its attributes go: the tensor
//! encoding `#sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense,
//! d1 : compressed), posWidth = 32, ... }>` (`encoding.rs`, with the
//! numeric values it holds in `literal.rs`) and the dimension slice
//! `#sparse_tensor<slice(1, ?, 2)>`. Both are kept as text in the form
//! mlir-opt 22 prints, which the dialect's attribute check produces;
//! encodings print through `#sparse` aliases, as upstream's do, and are
//! checked against the tensor type that holds them.

mod encoding;
mod lexer;
mod literal;

use hivm_ir::Dialect;
use hivm_ir::dialect::{error_at, located_error};

use encoding::{Encoding, parse_slice_params};
use lexer::{Kind, Lexer};

/// The mnemonic a body starts with.
fn mnemonic(body: &str) -> &str {
    let end = body.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(body.len());
    &body[..end]
}

/// Validates an attribute body and returns it as mlir-opt prints it.
fn check_attr(body: &str) -> Result<String, String> {
    // The verbose form `#sparse_tensor<slice(...)>` (the only one a slice
    // has) or `#sparse_tensor<encoding<...>>`, whose errors the parser
    // locates from the `#`.
    if let Some(inner) = body.strip_prefix('<').and_then(|b| b.strip_suffix('>')) {
        let shift = "#sparse_tensor<".len() + inner.len() - inner.trim_start().len();
        return check_mnemonic(inner.trim(), true).map_err(|m| match located_error(&m) {
            Some((at, msg)) => error_at(at as usize + shift, msg),
            None => error_at(shift, m),
        });
    }
    check_mnemonic(body, false)
}

fn check_mnemonic(body: &str, verbose: bool) -> Result<String, String> {
    match mnemonic(body) {
        "encoding" => Ok(Encoding::parse(body, "encoding".len())?.print()),
        "slice" => {
            let mut l = Lexer::new(body, "slice".len());
            let slice = parse_slice_params(&mut l, 0)?;
            if l.tok.kind != Kind::Eof {
                return Err(error_at(l.tok.start, "expected '>'"));
            }
            // A slice has no pretty form: it prints verbosely.
            let text = slice.print();
            let inner = &text["#sparse_tensor".len()..];
            Ok(if verbose { inner.to_string() } else { inner[1..inner.len() - 1].to_string() })
        }
        other => Err(format!("unknown attribute `{other}` in dialect `sparse_tensor`")),
    }
}

/// MLIR's `SparseTensorEncodingAttr::verifyEncoding`: the encoding's
/// dimension rank is the tensor's, its values have the element type.
fn check_encoding(body: &str, shape: &[i64], elem: &str) -> Result<(), String> {
    if mnemonic(body) != "encoding" {
        return Ok(());
    }
    let e = Encoding::parse(body, "encoding".len())
        .map_err(|m| located_error(&m).map_or(m.clone(), |(_, msg)| msg.to_string()))?;
    if shape.is_empty() {
        return Err("expected non-scalar sparse tensor".into());
    }
    if e.dim_rank() != shape.len() {
        return Err(format!(
            "dimension-rank mismatch between encoding and tensor shape: {} != {}",
            e.dim_rank(),
            shape.len()
        ));
    }
    if let Some(v) = &e.explicit
        && v.ty != elem
    {
        return Err(format!(
            "explicit value type mismatch between encoding and tensor element type: '{}' != '{elem}'",
            v.ty
        ));
    }
    if let Some(v) = &e.implicit {
        if v.ty != elem {
            return Err(format!(
                "implicit value type mismatch between encoding and tensor element type: '{}' != '{elem}'",
                v.ty
            ));
        }
        if !v.zero {
            return Err("implicit value must be zero".into());
        }
    }
    Ok(())
}

pub fn dialect() -> Dialect {
    let mut d = Dialect::new("sparse_tensor", Vec::new());
    d.check_attr = Some(check_attr);
    d.check_encoding = Some(check_encoding);
    // Upstream's `OpAsmDialectInterface` names encodings `#sparse`.
    d.alias_mnemonics = &["encoding=sparse"];
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canonical(body: &str) -> String {
        check_attr(body).unwrap_or_else(|e| panic!("{body}: {e:?}"))
    }

    fn error(body: &str) -> (u32, String) {
        let m = check_attr(body).expect_err(body);
        located_error(&m).map_or((0, m.clone()), |(at, msg)| (at, msg.to_string()))
    }

    #[test]
    fn encodings_print_as_mlir_does() {
        assert_eq!(
            canonical("encoding<{map=(i,j)->(i:dense,j:compressed)}>"),
            "encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>"
        );
        assert_eq!(
            canonical(
                "encoding<{ map = {a, b} (i = a * 2 + b) -> (a = i floordiv 2 : dense, b = i mod 2 : compressed(nonunique, nonunique)), crdWidth = 8 : i8, }>"
            ),
            "encoding<{ map = (d0) -> (d0 floordiv 2 : dense, d0 mod 2 : compressed(nonunique)), crdWidth = 8 }>"
        );
        assert_eq!(
            canonical("encoding<{ map = (i) -> (i floordiv 2 : dense, i mod 2 : compressed), posWidth = 16 }>"),
            "encoding<{ map = (d0) -> (d0 floordiv 2 : dense, d0 mod 2 : compressed), posWidth = 16 }>"
        );
        assert_eq!(canonical("<slice( 1 ,?,2 )>"), "<slice(1, ?, 2)>");
        assert_eq!(
            canonical("<encoding<{ map = (d0) -> (d0 : compressed), implicitVal = 0.0 : f32 }>>"),
            "encoding<{ map = (d0) -> (d0 : compressed), implicitVal = 0.000000e+00 : f32 }>"
        );
    }

    #[test]
    fn errors_point_into_the_body() {
        let body = "encoding<{ map = (d0) -> (d0 : sparse) }>";
        assert_eq!(error(body), (body.find("sparse").unwrap() as u32, "unknown level format: sparse".into()));
        assert_eq!(error("encoding<{ posWidth = 7 }>").1, "unexpected position bitwidth: 7");
        assert_eq!(
            error("encoding<{ map = (d0, d1) -> (d0 : compressed(soa), d1 : singleton) }>").1,
            "SoA is only applicable to singleton lvlTypes."
        );
        assert_eq!(error("layout<1>").1, "unknown attribute `layout` in dialect `sparse_tensor`");
    }

    #[test]
    fn encodings_fit_their_tensors() {
        let e = "encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed), explicitVal = 1 : i32 }>";
        assert!(check_encoding(e, &[4, 4], "i32").is_ok());
        assert_eq!(
            check_encoding(e, &[4], "i32").unwrap_err(),
            "dimension-rank mismatch between encoding and tensor shape: 2 != 1"
        );
        assert!(check_encoding(e, &[4, 4], "f32").unwrap_err().contains("'i32' != 'f32'"));
        assert_eq!(check_encoding(e, &[], "i32").unwrap_err(), "expected non-scalar sparse tensor");
    }
}
