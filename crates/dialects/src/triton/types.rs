//! Triton's `!tt.ptr<T>` / `!tt.ptr<T, addrspace>` type (kept as text,
//! canonicalized here: address space 1 is the default and left out), and
//! the type predicates and helpers the ops' checks share.

use hivm_ir::{Ir, Type, TypeData};

use crate::triton_gpu::text::normalize;
use crate::util::split_top_level;

/// `ptr<...>`'s pointee text and address space.
pub(crate) fn ptr_parts(body: &str) -> Option<(String, u32)> {
    let inner = body.strip_prefix("ptr")?.trim_start().strip_prefix('<')?.strip_suffix('>')?;
    let parts = split_top_level(inner);
    match parts.as_slice() {
        [t] if !t.is_empty() => Some((normalize(t), 1)),
        [t, n] if !t.is_empty() => Some((normalize(t), n.trim().parse().ok()?)),
        _ => None,
    }
}

pub(crate) fn ptr_body(pointee: &str, space: u32) -> String {
    if space == 1 { format!("ptr<{pointee}>") } else { format!("ptr<{pointee}, {space}>") }
}

/// Validates and canonicalizes a `!tt.` type body.
pub(crate) fn check_type(body: &str) -> Result<String, String> {
    let body = body.trim();
    let mnemonic = body.split(|c: char| c == '<' || c.is_whitespace()).next().unwrap_or(body);
    if mnemonic != "ptr" {
        return Err(format!("unknown  type `{mnemonic}` in dialect `tt`"));
    }
    let inner = body["ptr".len()..].trim_start();
    if !inner.starts_with('<') {
        return Err("expected '<'".into());
    }
    let Some((pointee, space)) = ptr_parts(body) else {
        return Err("expected a pointee type and an optional integer address space in '!tt.ptr'".into());
    };
    if !starts_type(&pointee) {
        return Err("expected non-function type".into());
    }
    Ok(ptr_body(&pointee, space))
}

/// Whether `text` starts as a (non-function) type does.
fn starts_type(text: &str) -> bool {
    let word: String = text.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    let int = |w: &str| {
        let digits = w.strip_prefix("si").or_else(|| w.strip_prefix("ui")).or_else(|| w.strip_prefix('i'));
        digits.is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
    };
    let shaped = |inner: Option<&str>| inner.is_some_and(|i| !i.trim().is_empty());
    let inner = text.strip_prefix(word.as_str()).and_then(|r| r.strip_prefix('<')).and_then(|r| r.strip_suffix('>'));
    text.starts_with('!')
        || matches!(word.as_str(), "index" | "none")
        || (matches!(word.as_str(), "complex" | "tuple" | "vector" | "tensor" | "memref") && shaped(inner))
        || hivm_ir::types::FloatKind::from_keyword(&word).is_some()
        || int(&word)
}

/// The pointee text of a `!tt.ptr` type.
pub(crate) fn pointee_text(ir: &Ir, t: Type) -> Option<String> {
    match ir.type_data(t) {
        TypeData::Opaque { dialect, body } if dialect == "tt" => ptr_parts(body).map(|(p, _)| p),
        _ => None,
    }
}

pub(crate) fn is_ptr(ir: &Ir, t: Type) -> bool {
    pointee_text(ir, t).is_some()
}

/// A pointer to a tensor (`TT_TensorPtr`).
pub(crate) fn is_tensor_ptr(ir: &Ir, t: Type) -> bool {
    pointee_text(ir, t).is_some_and(|p| p.starts_with("tensor<"))
}

pub(crate) fn is_memdesc(ir: &Ir, t: Type) -> bool {
    matches!(ir.type_data(t), TypeData::Opaque { dialect, body } if dialect == "ttg" && body.starts_with("memdesc<"))
}

/// Shape, element type and encoding of a ranked tensor.
pub(crate) fn tensor(ir: &Ir, t: Type) -> Option<(&[i64], Type, Option<hivm_ir::Attribute>)> {
    match ir.type_data(t) {
        TypeData::RankedTensor { shape, elem, encoding } => Some((shape, *elem, *encoding)),
        _ => None,
    }
}

/// The element type of a tensor, or the type itself.
pub(crate) fn scalar_of(ir: &Ir, t: Type) -> Type {
    tensor(ir, t).map_or(t, |(_, e, _)| e)
}

pub(crate) fn is_float(ir: &Ir, t: Type) -> bool {
    matches!(ir.type_data(t), TypeData::Float(_))
}

pub(crate) fn is_int(ir: &Ir, t: Type) -> bool {
    matches!(ir.type_data(t), TypeData::Integer { .. })
}

/// A scalar Triton element: float, integer or pointer.
pub(crate) fn is_element(ir: &Ir, t: Type) -> bool {
    is_float(ir, t) || is_int(ir, t) || is_ptr(ir, t)
}

/// Type constraints, with the summaries of Triton's ODS definitions.
#[derive(Copy, Clone, Debug)]
pub(crate) enum C {
    /// `TT_Type`: a float, integer or pointer, or a tensor of them, or a
    /// tensor pointer.
    Any,
    /// `TT_Tensor`: a ranked tensor of floats, integers or pointers.
    Tensor,
    FloatLike,
    IntLike,
    IntTensor,
    FpIntTensor,
    PtrLike,
    /// A pointer or a tensor of them, or a tensor pointer (loads, stores).
    PtrOrTensorPtr,
    TensorPtr,
    Ptr,
    BoolLike,
    I64Like,
    MemDesc,
}

impl C {
    pub(crate) fn summary(self) -> &'static str {
        match self {
            C::Any => {
                "floating-point or ranked tensor of floating-point values or integer or ranked tensor of integer values or ptr or ranked tensor of ptr values or ptr"
            }
            C::Tensor => "ranked tensor of floating-point or integer or ptr values",
            C::FloatLike => "floating-point or ranked tensor of floating-point values",
            C::IntLike => "integer or ranked tensor of integer values",
            C::IntTensor => "ranked tensor of integer values",
            C::FpIntTensor => "ranked tensor of floating-point or integer values",
            C::PtrLike => "ptr or ranked tensor of ptr values",
            C::PtrOrTensorPtr => "ptr or ranked tensor of ptr values or ptr",
            C::TensorPtr => "ptr",
            C::Ptr => "ptr",
            C::BoolLike => "1-bit signless integer or ranked tensor of 1-bit signless integer values",
            C::I64Like => "64-bit signless integer or ranked tensor of 64-bit signless integer values",
            C::MemDesc => "memory descriptor type (`::mlir::triton::gpu::MemDescType`) in Triton IR type system",
        }
    }

    pub(crate) fn holds(self, ir: &Ir, t: Type) -> bool {
        let elem_of = |pred: &dyn Fn(Type) -> bool| tensor(ir, t).is_some_and(|(_, e, _)| pred(e));
        let like = |pred: &dyn Fn(Type) -> bool| pred(t) || elem_of(pred);
        match self {
            C::Any => like(&|x| is_element(ir, x)) || is_tensor_ptr(ir, t),
            C::Tensor => elem_of(&|x| is_element(ir, x)),
            C::FloatLike => like(&|x| is_float(ir, x)),
            C::IntLike => like(&|x| is_int(ir, x)),
            C::IntTensor => elem_of(&|x| is_int(ir, x)),
            C::FpIntTensor => elem_of(&|x| is_int(ir, x) || is_float(ir, x)),
            C::PtrLike => like(&|x| is_ptr(ir, x)),
            C::PtrOrTensorPtr => like(&|x| is_ptr(ir, x)),
            C::TensorPtr => is_tensor_ptr(ir, t),
            C::Ptr => is_ptr(ir, t),
            C::BoolLike => like(&|x| ir.type_data(x).is_signless_int(1)),
            C::I64Like => like(&|x| ir.type_data(x).is_signless_int(64)),
            C::MemDesc => is_memdesc(ir, t),
        }
    }
}

/// `tensor<shape x elem, encoding>` as text, the encoding in full.
pub(crate) fn tensor_text(ir: &Ir, shape: &[i64], elem: &str, encoding: Option<hivm_ir::Attribute>) -> String {
    let mut s = String::from("tensor<");
    for d in shape {
        if *d == hivm_ir::types::DYNAMIC {
            s.push('?');
        } else {
            s.push_str(&d.to_string());
        }
        s.push('x');
    }
    s.push_str(elem);
    if let Some(e) = encoding {
        s.push_str(", ");
        s.push_str(&hivm_ir::printer::attr_to_string(ir, e));
    }
    s.push('>');
    s
}

/// Text of the type a value of type `t` loads to: its pointee, or a
/// tensor of pointees of the same shape and encoding.
pub(crate) fn loaded_text(ir: &Ir, t: Type) -> Option<String> {
    if let Some(p) = pointee_text(ir, t) {
        return Some(p);
    }
    let (shape, elem, enc) = tensor(ir, t)?;
    let p = pointee_text(ir, elem)?;
    Some(tensor_text(ir, shape, &p, enc))
}

/// Text of `i1` with the shape and encoding of `t` (Triton's `getI1SameShape`).
pub(crate) fn i1_text(ir: &Ir, t: Type) -> String {
    match tensor(ir, t) {
        Some((shape, _, enc)) => tensor_text(ir, shape, "i1", enc),
        None => "i1".into(),
    }
}

/// Parses a type from its text (as built by the helpers above).
pub(crate) fn type_from_text(ir: &mut Ir, text: &str) -> Result<Type, String> {
    let owned = text.to_string();
    let mut p = hivm_ir::parser::Parser::new(ir, &owned, "<type>", 1);
    let t = p.parse_type().map_err(|e| e.msg.clone())?;
    if p.tok.kind != hivm_ir::lexer::Tok::Eof {
        return Err(format!("unexpected text after type '{text}'"));
    }
    Ok(t)
}

pub(crate) fn text_of(ir: &Ir, t: Type) -> String {
    hivm_ir::printer::type_to_string(ir, t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers() {
        assert_eq!(check_type("ptr<f32>").unwrap(), "ptr<f32>");
        assert_eq!(check_type("ptr<f32,1>").unwrap(), "ptr<f32>");
        assert_eq!(check_type("ptr< f32 , 6 >").unwrap(), "ptr<f32, 6>");
        assert_eq!(check_type("ptr<tensor<8x3xf32>>").unwrap(), "ptr<tensor<8x3xf32>>");
        assert!(check_type("ptr<>").is_err());
        assert!(check_type("ptr<foo>").is_err());
        assert!(check_type("ptr<tensor<>>").is_err());
        assert_eq!(check_type("ptr<i1, 3>").unwrap(), "ptr<i1, 3>");
        assert!(check_type("ptr<f32, x>").is_err());
        assert!(check_type("tensordesc<f32>").is_err());
    }
}
