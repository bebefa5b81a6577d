//! The `!torch.` types, kept as text and canonicalized by the dialect's
//! type check: a body is read into [`TorchType`] and written back the way
//! torch-mlir prints it (`vtensor<[2,?],f32>` with no spaces, contained
//! types without their `!torch.` prefix, `tuple<int, float>` with them).
//! The checks on types the ops need (torch-mlir's `isValidSubtype`, the
//! ODS type constraints and their summaries) live here too.

use std::fmt;

use hivm_ir::types::FloatKind;
use hivm_ir::{Ir, Type, TypeData};

/// Torch types without parameters.
const SIMPLE: &[&str] = &[
    "int",
    "float",
    "bool",
    "none",
    "str",
    "number",
    "any",
    "Device",
    "Generator",
    "LinearParams",
    "qint8",
    "qint16",
    "quint8",
    "qint32",
];

/// The quantized element types, which are dtypes but not values.
const QUANTIZED: &[&str] = &["qint8", "qint16", "quint8", "qint32"];

/// Stand-in for a dimension of unknown size (`?`), as torch-mlir's `kUnknownSize`.
pub(crate) const UNKNOWN_SIZE: i64 = -1;

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum TorchType {
    /// `int`, `Device`, ...
    Simple(&'static str),
    /// `tensor` (`value` false) or `vtensor`: sizes (`None`: unranked or
    /// not given), dtype (`None`: `unk`) and sparsity encoding as text.
    Tensor {
        value: bool,
        sizes: Option<Vec<i64>>,
        dtype: Option<String>,
        sparsity: Option<String>,
    },
    Optional(Box<TorchType>),
    List(Box<TorchType>),
    Tuple(Vec<TorchType>),
    Union(Vec<TorchType>),
    Dict(Box<TorchType>, Box<TorchType>),
    /// `nn.Module<"name">`, the name as written between the quotes.
    NnModule(String),
    /// Any type of another dialect, or a builtin one, as printed.
    Other(String),
}

impl fmt::Display for TorchType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |f: &mut fmt::Formatter<'_>, ts: &[TorchType]| {
            f.write_str("<")?;
            for (i, t) in ts.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{t}")?;
            }
            f.write_str(">")
        };
        match self {
            TorchType::Simple(s) => f.write_str(s),
            TorchType::Tensor { value, sizes, dtype, sparsity } => {
                f.write_str(if *value { "vtensor" } else { "tensor" })?;
                if sizes.is_none() && dtype.is_none() {
                    return Ok(());
                }
                f.write_str("<")?;
                match sizes {
                    Some(sizes) => {
                        f.write_str("[")?;
                        for (i, s) in sizes.iter().enumerate() {
                            if i > 0 {
                                f.write_str(",")?;
                            }
                            if *s < 0 { f.write_str("?")? } else { write!(f, "{s}")? }
                        }
                        f.write_str("]")?;
                    }
                    None => f.write_str("*")?,
                }
                write!(f, ",{}", dtype.as_deref().unwrap_or("unk"))?;
                if let Some(s) = sparsity {
                    write!(f, ",{s}")?;
                }
                f.write_str(">")
            }
            TorchType::Optional(t) => write!(f, "optional<{t}>"),
            TorchType::List(t) => write!(f, "list<{t}>"),
            TorchType::Tuple(ts) => {
                f.write_str("tuple")?;
                list(f, ts)
            }
            TorchType::Union(ts) => {
                f.write_str("union")?;
                list(f, ts)
            }
            TorchType::Dict(k, v) => write!(f, "dict<{k}, {v}>"),
            TorchType::NnModule(name) => write!(f, "nn.Module<\"{name}\">"),
            TorchType::Other(t) => f.write_str(t),
        }
    }
}

/// A cursor over a type body.
struct Cursor<'a> {
    s: &'a str,
    i: usize,
}

impl<'a> Cursor<'a> {
    fn rest(&self) -> &'a str {
        &self.s[self.i..]
    }

    fn skip_ws(&mut self) {
        let r = self.rest();
        self.i += r.len() - r.trim_start().len();
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_ws();
        self.rest().chars().next()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.i += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: char) -> Result<(), String> {
        if self.eat(c) { Ok(()) } else { Err(format!("expected '{c}'")) }
    }

    /// A bare identifier (letters, digits, `_`, `$`, `.`), as MLIR's keywords.
    fn keyword(&mut self) -> Option<&'a str> {
        self.skip_ws();
        let r = self.rest();
        if !r.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            return None;
        }
        let n = r.find(|c: char| !(c.is_ascii_alphanumeric() || "_$.".contains(c))).unwrap_or(r.len());
        self.i += n;
        Some(&r[..n])
    }

    /// Whether the keyword `kw` comes next (consumed if so).
    fn eat_keyword(&mut self, kw: &str) -> bool {
        let save = self.i;
        if self.keyword() == Some(kw) {
            return true;
        }
        self.i = save;
        false
    }

    /// An optional integer, with an optional leading minus.
    fn integer(&mut self) -> Result<Option<i64>, String> {
        self.skip_ws();
        let r = self.rest();
        let neg = r.starts_with('-');
        let digits = if neg { r[1..].trim_start() } else { r };
        let n = digits.find(|c: char| !c.is_ascii_digit()).unwrap_or(digits.len());
        if n == 0 {
            return if neg { Err("expected integer value".into()) } else { Ok(None) };
        }
        let v: i64 = digits[..n].parse().map_err(|_| "integer value too large".to_string())?;
        self.i += r.len() - digits.len() + n;
        Ok(Some(if neg { -v } else { v }))
    }

    /// Text up to the next `,` or `>` outside brackets (an arrow's `>`
    /// aside), trimmed.
    fn balanced(&mut self) -> &'a str {
        self.skip_ws();
        let r = self.rest();
        let b = r.as_bytes();
        let (mut depth, mut j) = (0i32, 0usize);
        while j < b.len() {
            match b[j] {
                b'"' => {
                    j += 1;
                    while j < b.len() && b[j] != b'"' {
                        j += if b[j] == b'\\' { 2 } else { 1 };
                    }
                }
                b'-' if b.get(j + 1) == Some(&b'>') => j += 1,
                b'<' | b'(' | b'[' | b'{' => depth += 1,
                b'>' | b')' | b']' | b'}' if depth > 0 => depth -= 1,
                b',' | b'>' if depth == 0 => break,
                _ => {}
            }
            j += 1;
        }
        let j = j.min(b.len());
        self.i += j;
        r[..j].trim_end()
    }
}

/// Reads a type body (without `!torch.`) and requires it to end there.
pub(crate) fn parse(body: &str) -> Result<TorchType, String> {
    let mut c = Cursor { s: body, i: 0 };
    let t = parse_type(&mut c)?;
    c.skip_ws();
    if !c.rest().is_empty() {
        return Err(format!("unexpected characters after type '{}'", body.trim()));
    }
    Ok(t)
}

fn parse_type(c: &mut Cursor<'_>) -> Result<TorchType, String> {
    let Some(kw) = c.keyword() else {
        return Err("expected keyword".into());
    };
    if let Some(s) = SIMPLE.iter().find(|s| **s == kw) {
        return Ok(TorchType::Simple(s));
    }
    match kw {
        "tensor" | "vtensor" => parse_tensor(c, kw == "vtensor"),
        "optional" | "list" => {
            c.expect('<')?;
            let t = Box::new(parse_type(c)?);
            c.expect('>')?;
            Ok(if kw == "list" { TorchType::List(t) } else { TorchType::Optional(t) })
        }
        "tuple" | "union" => {
            c.expect('<')?;
            let mut ts = Vec::new();
            if !c.eat('>') {
                loop {
                    ts.push(parse_type(c)?);
                    if !c.eat(',') {
                        break;
                    }
                }
                c.expect('>')?;
            }
            Ok(if kw == "tuple" { TorchType::Tuple(ts) } else { TorchType::Union(ts) })
        }
        "dict" => {
            c.expect('<')?;
            let k = parse_type(c)?;
            c.expect(',')?;
            let v = parse_type(c)?;
            c.expect('>')?;
            Ok(TorchType::Dict(Box::new(k), Box::new(v)))
        }
        "nn.Module" => {
            c.expect('<')?;
            let text = c.balanced();
            let name = text
                .strip_prefix('"')
                .and_then(|t| t.strip_suffix('"'))
                .filter(|n| !n.is_empty() || text.len() == 2)
                .ok_or("expected string")?;
            let name = name.to_string();
            c.expect('>')?;
            Ok(TorchType::NnModule(name))
        }
        _ => Err(format!("unknown  type `{kw}` in dialect `torch`")),
    }
}

/// `<[2,?],f32>`, `<*,unk>`, `<[],f32,#sparse_tensor.encoding<...>>` or nothing.
fn parse_tensor(c: &mut Cursor<'_>, value: bool) -> Result<TorchType, String> {
    if !c.eat('<') {
        return Ok(TorchType::Tensor { value, sizes: None, dtype: None, sparsity: None });
    }
    let sizes = if c.eat('*') {
        None
    } else {
        c.expect('[')?;
        let mut sizes = Vec::new();
        let mut first = true;
        loop {
            if !first && !c.eat(',') {
                break;
            }
            first = false;
            if c.eat('?') {
                sizes.push(UNKNOWN_SIZE);
                continue;
            }
            match c.integer()? {
                Some(n) => sizes.push(n),
                None => break,
            }
        }
        c.expect(']')?;
        Some(sizes)
    };
    c.expect(',')?;
    let dtype = if c.eat_keyword("unk") {
        None
    } else {
        let text = c.balanced();
        if text.is_empty() {
            return Err("expected non-function type".into());
        }
        Some(text.to_string())
    };
    let sparsity = if c.eat(',') { Some(c.balanced().to_string()) } else { None };
    c.expect('>')?;
    if let Some(d) = &dtype {
        check_dtype(d)?;
    }
    let dtype = dtype.map(|d| canonical_builtin(&d));
    if let Some(sizes) = &sizes
        && let Some(bad) = sizes.iter().find(|s| **s < 0 && **s != UNKNOWN_SIZE)
    {
        return Err(format!("invalid size {bad} for !torch.tensor type"));
    }
    if let Some(s) = &sparsity
        && !s.starts_with("#sparse_tensor.encoding<")
    {
        return Err("invalid sparsity encoding attribute".into());
    }
    Ok(TorchType::Tensor { value, sizes, dtype, sparsity })
}

/// A valid dtype's text without spaces (`complex<f32>`).
fn canonical_builtin(text: &str) -> String {
    text.split_whitespace().collect()
}

fn int_width(text: &str, prefix: &str) -> Option<u32> {
    let d = text.strip_prefix(prefix)?;
    if d.is_empty() || !d.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    d.parse().ok()
}

/// The integer width of an integer type's text (`si32`, `i1`, `ui8`).
fn any_int_width(text: &str) -> Option<u32> {
    int_width(text, "si").or_else(|| int_width(text, "ui")).or_else(|| int_width(text, "i"))
}

/// Whether `text` reads as a type at all (so a wrong one is an invalid
/// dtype, not a syntax error).
fn reads_as_type(text: &str) -> bool {
    let word: String = text.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    text.starts_with('!')
        || text.starts_with('(')
        || matches!(word.as_str(), "index" | "none" | "complex" | "tuple" | "vector" | "tensor" | "memref")
        || FloatKind::from_keyword(&word).is_some()
        || any_int_width(&word).is_some()
}

/// torch-mlir's `isValidTorchDtype`.
fn check_dtype(text: &str) -> Result<(), String> {
    if !reads_as_type(text) {
        return Err("expected non-function type".into());
    }
    if is_valid_dtype(text) { Ok(()) } else { Err(format!("invalid dtype {} for !torch.tensor type", text.trim())) }
}

fn is_valid_dtype(text: &str) -> bool {
    let text = text.trim();
    if let Some(inner) = text.strip_prefix("complex").map(str::trim_start).and_then(|r| r.strip_prefix('<')) {
        return inner.strip_suffix('>').is_some_and(is_valid_dtype);
    }
    if let Some(t) = text.strip_prefix("!torch.") {
        return QUANTIZED.contains(&t) || t == "str";
    }
    let floats = [
        "f16",
        "bf16",
        "f32",
        "f64",
        "f4E2M1FN",
        "f8E5M2",
        "f8E4M3FN",
        "f8E5M2FNUZ",
        "f8E4M3FNUZ",
        "f8E4M3B11FNUZ",
        "f8E8M0FNU",
    ];
    if floats.contains(&text) || text == "i1" {
        return true;
    }
    let sized = |w: Option<u32>| w.is_some_and(|w| [4, 8, 16, 32, 64].contains(&w));
    sized(int_width(text, "si")) || sized(int_width(text, "ui"))
}

/// Validates and canonicalizes a `!torch.` type body.
pub(crate) fn check_type(body: &str) -> Result<String, String> {
    parse(body).map(|t| t.to_string())
}

/// The torch type of `t`, or `Other` with its text.
pub(crate) fn of(ir: &Ir, t: Type) -> TorchType {
    match ir.type_data(t) {
        TypeData::Opaque { dialect, body } if dialect == "torch" => {
            parse(body).unwrap_or_else(|_| TorchType::Other(hivm_ir::printer::type_to_string(ir, t)))
        }
        _ => TorchType::Other(hivm_ir::printer::type_to_string(ir, t)),
    }
}

impl TorchType {
    pub(crate) fn is_vtensor(&self) -> bool {
        matches!(self, TorchType::Tensor { value: true, .. })
    }

    /// torch-mlir's `AnyTorchType`: every torch type but the quantized
    /// element types.
    pub(crate) fn is_any_torch(&self) -> bool {
        match self {
            TorchType::Simple(s) => !QUANTIZED.contains(s),
            TorchType::Other(_) => false,
            _ => true,
        }
    }
}

/// torch-mlir's `isValidSubtype(subtype, type)`.
pub(crate) fn is_subtype(sub: &TorchType, ty: &TorchType) -> bool {
    use TorchType as T;
    if sub == ty {
        return true;
    }
    if let T::Union(members) = sub {
        return members.iter().all(|m| is_subtype(m, ty));
    }
    match ty {
        T::Simple("any") => true,
        T::Simple("number") => matches!(sub, T::Simple("int") | T::Simple("float")),
        T::Optional(inner) => is_subtype(sub, inner) || matches!(sub, T::Simple("none")),
        T::Union(members) => members.iter().any(|m| is_subtype(sub, m)),
        T::Tuple(types) => match sub {
            T::Tuple(subs) => subs.len() == types.len() && subs.iter().zip(types).all(|(s, t)| is_subtype(s, t)),
            _ => false,
        },
        T::Tensor { value, sizes, dtype, .. } => {
            let T::Tensor { value: sub_value, sizes: sub_sizes, dtype: sub_dtype, .. } = sub else {
                return false;
            };
            if value != sub_value {
                return false;
            }
            if dtype.is_some() && sub_dtype != dtype {
                return false;
            }
            match (sizes, sub_sizes) {
                (None, _) => true,
                (Some(_), None) => false,
                (Some(t), Some(s)) => t.len() == s.len() && t.iter().zip(s).all(|(a, b)| *a == UNKNOWN_SIZE || a == b),
            }
        }
        _ => false,
    }
}

/// A builtin tensor's shape (`None`: unranked) and element type text.
pub(crate) fn builtin_tensor(ir: &Ir, t: Type) -> Option<(Option<Vec<i64>>, String)> {
    match ir.type_data(t) {
        TypeData::RankedTensor { shape, elem, .. } => {
            let shape = shape.iter().map(|d| if *d == hivm_ir::types::DYNAMIC { UNKNOWN_SIZE } else { *d }).collect();
            Some((Some(shape), hivm_ir::printer::type_to_string(ir, *elem)))
        }
        TypeData::UnrankedTensor { elem } => Some((None, hivm_ir::printer::type_to_string(ir, *elem))),
        _ => None,
    }
}

/// The builtin element type a dtype converts to (quantized types become
/// signless integers of their width), as torch-mlir's `toBuiltinTensor`.
fn builtin_element(dtype: &str) -> String {
    match dtype {
        "!torch.qint8" | "!torch.quint8" => "i8".into(),
        "!torch.qint16" => "i16".into(),
        "!torch.qint32" => "i32".into(),
        d => d.into(),
    }
}

/// Whether a `!torch.vtensor` and a builtin tensor agree in size and
/// element type (integers by width only), as `torch_c`'s verifiers check.
pub(crate) fn same_size_and_dtype(vtensor: &TorchType, builtin: &(Option<Vec<i64>>, String)) -> bool {
    let TorchType::Tensor { sizes, dtype: Some(dtype), .. } = vtensor else {
        return false;
    };
    let (shape, elem) = builtin;
    if sizes.is_some() != shape.is_some() || (sizes.is_some() && sizes != shape) {
        return false;
    }
    let ours = builtin_element(dtype);
    match (any_int_width(&ours), any_int_width(elem)) {
        (Some(a), Some(b)) => a == b,
        _ => ours == *elem,
    }
}

/// The summaries of the type constraints the ops' checks report.
pub(crate) mod summary {
    pub const ANY_TORCH: &str = "Any type that is legal to pass to a Torch kernel";
    pub const TENSOR: &str = "Multi-dimensional array modeling Torch's Tensor type";
    pub const LIST: &str = "Any Torch list Type";
    pub const INT: &str = "Torch IntType";
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(s: &str) -> String {
        check_type(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn tensors() {
        assert_eq!(canon("vtensor<[3, 4],f32>"), "vtensor<[3,4],f32>");
        assert_eq!(canon("vtensor< [ ?,-1 , 2 ] , si64 >"), "vtensor<[?,?,2],si64>");
        assert_eq!(canon("vtensor<[],f32>"), "vtensor<[],f32>");
        assert_eq!(canon("tensor<*,unk>"), "tensor");
        assert_eq!(canon("tensor<*,bf16>"), "tensor<*,bf16>");
        assert_eq!(canon("vtensor<[2],unk>"), "vtensor<[2],unk>");
        assert_eq!(canon("vtensor<[2],complex< f32 >>"), "vtensor<[2],complex<f32>>");
        assert_eq!(canon("vtensor<[2],!torch.qint8>"), "vtensor<[2],!torch.qint8>");
        assert_eq!(canon("vtensor"), "vtensor");
        assert_eq!(check_type("vtensor<[2],i32>").unwrap_err(), "invalid dtype i32 for !torch.tensor type");
        assert_eq!(check_type("vtensor<[-2],f32>").unwrap_err(), "invalid size -2 for !torch.tensor type");
        assert!(check_type("vtensor<[2],foo>").is_err());
        assert!(check_type("vtensor<[2]>").is_err());
        assert!(check_type("vtensor<[2],f32,#foo>").is_err());
    }

    #[test]
    fn containers() {
        assert_eq!(canon("list<int>"), "list<int>");
        assert_eq!(canon("optional< list<vtensor<[1, 2],f16>> >"), "optional<list<vtensor<[1,2],f16>>>");
        assert_eq!(canon("tuple<int,float>"), "tuple<int, float>");
        assert_eq!(canon("tuple<>"), "tuple<>");
        assert_eq!(canon("union<int , float>"), "union<int, float>");
        assert_eq!(canon("dict<str,vtensor>"), "dict<str, vtensor>");
        assert_eq!(canon("nn.Module<\"m\">"), "nn.Module<\"m\">");
        assert_eq!(canon("Device"), "Device");
        assert_eq!(check_type("foo").unwrap_err(), "unknown  type `foo` in dialect `torch`");
        assert!(check_type("list<!torch.int>").is_err());
        assert!(check_type("int<3>").is_err());
        assert!(check_type("list<int").is_err());
    }

    #[test]
    fn subtypes() {
        let t = |s: &str| parse(s).unwrap();
        assert!(is_subtype(&t("int"), &t("number")));
        assert!(is_subtype(&t("none"), &t("optional<int>")));
        assert!(is_subtype(&t("int"), &t("optional<int>")));
        assert!(!is_subtype(&t("float"), &t("int")));
        assert!(is_subtype(&t("vtensor<[2,3],f32>"), &t("vtensor<[?,3],f32>")));
        assert!(is_subtype(&t("vtensor<[2,3],f32>"), &t("vtensor")));
        assert!(!is_subtype(&t("vtensor<[2,3],f32>"), &t("tensor")));
        assert!(!is_subtype(&t("vtensor<[?,3],f32>"), &t("vtensor<[2,3],f32>")));
        assert!(is_subtype(&t("union<int, float>"), &t("number")));
    }
}
