//! hfusion's OpDSL elementwise ops (`elemwise_unary`, `elemwise_binary`,
//! `compare`, `select`, `cast`): the shared syntax and checks are linalg's
//! (`linalg::elementwise`); here are their attributes and the bodies
//! upstream's region builders make for each function.

use hivm_ir::{Type, Value};

use crate::linalg::elementwise::{Body, Named};
use crate::util::type_str;

const MEMO: &str = "hfusion.memoized_indexing_maps";

pub(crate) static ELEMWISE_UNARY: Named =
    Named { name: "hfusion.elemwise_unary", inputs: 1, attrs: &["fun", "cast"], memo: MEMO, body: unary };
pub(crate) static ELEMWISE_BINARY: Named =
    Named { name: "hfusion.elemwise_binary", inputs: 2, attrs: &["fun", "cast"], memo: MEMO, body: binary };
pub(crate) static COMPARE: Named =
    Named { name: "hfusion.compare", inputs: 2, attrs: &["compare_fn"], memo: MEMO, body: compare };
pub(crate) static SELECT: Named = Named { name: "hfusion.select", inputs: 3, attrs: &[], memo: MEMO, body: select };
pub(crate) static CAST: Named = Named {
    name: "hfusion.cast",
    inputs: 1,
    attrs: &["round_mode", "enable_overflow", "enable_saturate", "cast", "unsigned_mode"],
    memo: MEMO,
    body: cast,
};

pub(crate) static LOAD: Named = Named { name: "hfusion.load", inputs: 1, attrs: &[], memo: MEMO, body: load };
pub(crate) static STORE: Named =
    Named { name: "hfusion.store", inputs: 1, attrs: &["atomic_kind"], memo: MEMO, body: store };
pub(crate) static BITCAST: Named = Named { name: "hfusion.bitcast", inputs: 1, attrs: &[], memo: MEMO, body: bitcast };
pub(crate) static ELEMWISE_TERNARY: Named =
    Named { name: "hfusion.elemwise_ternary", inputs: 3, attrs: &["fun", "cast"], memo: MEMO, body: ternary };

/// The input as it is (no conversion).
fn load(_: &mut Body<'_>, args: &[Value]) -> Result<Value, String> {
    Ok(args[0])
}

/// The input converted to the output's type (the atomic kind changes how
/// the backend writes it, not the body).
fn store(b: &mut Body<'_>, args: &[Value]) -> Result<Value, String> {
    let out = b.ir.value_type(args[1]);
    Ok(b.cast(args[0], out, false))
}

fn bitcast(b: &mut Body<'_>, args: &[Value]) -> Result<Value, String> {
    let out = b.ir.value_type(args[1]);
    Ok(b.op("arith.bitcast", &[args[0]], out, Vec::new()))
}

fn ternary(b: &mut Body<'_>, args: &[Value]) -> Result<Value, String> {
    let out = b.ir.value_type(args[3]);
    let unsigned = b.unsigned_cast();
    let v: Vec<Value> = args[..3].iter().map(|a| b.cast(*a, out, unsigned)).collect();
    let float = numeric_kind(b, v[1], v[2])?;
    match (b.enum_value("fun", "ternary_fn", "fma").as_str(), float) {
        ("select", _) => Ok(b.op("arith.select", &v, out, Vec::new())),
        ("fma", true) => Ok(b.op("math.fma", &v, out, Vec::new())),
        (f, _) => Err(format!("unsupported type for {f}: {}", type_str(b.ir, out))),
    }
}

fn unary(b: &mut Body<'_>, args: &[Value]) -> Result<Value, String> {
    let out = b.ir.value_type(args[1]);
    let unsigned = b.unsigned_cast();
    let x = b.cast(args[0], out, unsigned);
    let fun = b.enum_value("fun", "unary_fn", "sqrt");
    let float = b.is_float(x);
    Ok(match fun.as_str() {
        "rec" => {
            let one = b.constant(if float { "1.0" } else { "1" }, out)?;
            b.op(if float { "arith.divf" } else { "arith.divsi" }, &[one, x], out, Vec::new())
        }
        "relu" => {
            let zero = b.constant(if float { "0.0" } else { "0" }, out)?;
            b.op(if float { "arith.maximumf" } else { "arith.maxsi" }, &[zero, x], out, Vec::new())
        }
        "vnot" => {
            let ones = b.constant("-1", out)?;
            b.op("arith.xori", &[ones, x], out, Vec::new())
        }
        "nearbyint" => b.op("math.roundeven", &[x], out, Vec::new()),
        "ilogb" => b.op("mathExt.ilogb", &[x], out, Vec::new()),
        "lgamma" => b.op("mathExt.lgamma", &[x], out, Vec::new()),
        f => b.op(&format!("math.{f}"), &[x], out, Vec::new()),
    })
}

fn binary(b: &mut Body<'_>, args: &[Value]) -> Result<Value, String> {
    let out = b.ir.value_type(args[2]);
    let unsigned = b.unsigned_cast();
    let (l, r) = (b.cast(args[0], out, unsigned), b.cast(args[1], out, unsigned));
    let fun = b.enum_value("fun", "binary_fn", "vand");
    let float = numeric_kind(b, l, r)?;
    let name = match (fun.as_str(), float) {
        ("maxnumf", true) => "arith.maxnumf",
        ("minnumf", true) => "arith.minnumf",
        ("minf", true) => "arith.minimumf",
        ("maxf", true) => "arith.maximumf",
        ("vxor", false) => "arith.xori",
        ("vor", false) => "arith.ori",
        ("vand", false) => "arith.andi",
        ("shrsi", false) => "arith.shrsi",
        ("shli", false) => "arith.shli",
        ("shrui", false) => "arith.shrui",
        ("mod", false) => "arith.remsi",
        ("modui", false) => "arith.remui",
        ("mod" | "modui", true) => "arith.remf",
        ("powf", true) => "math.powf",
        ("atan2", true) => "math.atan2",
        ("copysign", true) => "math.copysign",
        ("powi", false) => "math.ipowi",
        ("floordivsi", false) => "arith.floordivsi",
        ("ceildivsi", false) => "arith.ceildivsi",
        ("ceildivui", false) => "arith.ceildivui",
        ("ldexp", true) => "mathExt.ldexp",
        ("divfhp", true) => "mathExt.divfhp",
        (f, _) => return Err(format!("unsupported type for {f}: {}", type_str(b.ir, out))),
    };
    Ok(b.op(name, &[l, r], out, Vec::new()))
}

/// Whether both operands are floats (`Ok(true)`) or both integers; upstream's
/// builders take nothing else.
fn numeric_kind(b: &Body<'_>, l: Value, r: Value) -> Result<bool, String> {
    match (b.is_float(l) && b.is_float(r), b.is_int(l) && b.is_int(r)) {
        (true, _) => Ok(true),
        (_, true) => Ok(false),
        _ => Err("unsupported non numeric type".into()),
    }
}

/// The `arith.cmpi` and `arith.cmpf` predicates of each function (the
/// unsigned ones have no float form).
fn predicate(fun: &str, float: bool) -> Option<&'static str> {
    let (int, flt) = match fun {
        "veq" => ("eq", Some("oeq")),
        "vne" => ("ne", Some("une")),
        "vlt" => ("slt", Some("olt")),
        "vle" => ("sle", Some("ole")),
        "vgt" => ("sgt", Some("ogt")),
        "vge" => ("sge", Some("oge")),
        "vult" => ("ult", None),
        "vule" => ("ule", None),
        "vugt" => ("ugt", None),
        "vuge" => ("uge", None),
        _ => return None,
    };
    if float { flt } else { Some(int) }
}

fn compare(b: &mut Body<'_>, args: &[Value]) -> Result<Value, String> {
    let fun = b.enum_value("compare_fn", "compare_fn", "veq");
    let (l, r) = (args[0], args[1]);
    let float = numeric_kind(b, l, r)?;
    let pred = predicate(&fun, float).ok_or_else(|| format!("unsupported type for {fun}"))?;
    let p = crate::arith::cmp_predicate(b.ir, float, pred).expect("a predicate of the arith tables");
    let i1 = b.ir.int_type(1);
    Ok(b.op(if float { "arith.cmpf" } else { "arith.cmpi" }, &[l, r], i1, vec![("predicate", p)]))
}

fn select(b: &mut Body<'_>, args: &[Value]) -> Result<Value, String> {
    let (l, r) = (args[1], args[2]);
    numeric_kind(b, l, r)?;
    let t: Type = b.ir.value_type(l);
    Ok(b.op("arith.select", &[args[0], l, r], t, Vec::new()))
}

/// The conversion, marked with the rounding (and unsigned, saturation)
/// modes the backend reads from it.
fn cast(b: &mut Body<'_>, args: &[Value]) -> Result<Value, String> {
    let (x, out) = (args[0], b.ir.value_type(args[1]));
    let from = b.ir.value_type(x);
    let widening_bool = b.ir.type_data(from).is_signless_int(1)
        && match b.ir.type_data(out) {
            hivm_ir::TypeData::Integer { width, .. } => *width > 1,
            hivm_ir::TypeData::Float(k) => k.bit_width() > 1,
            _ => false,
        };
    let unsigned = b.unsigned_cast() || widening_bool;
    let op = if from == out && b.is_float(x) {
        let r = b.op("math.round", &[x], out, Vec::new());
        b.ir.defining_op(r)
    } else {
        b.cast_op(x, out, unsigned)
    };
    let Some(op) = op else { return Ok(x) };
    let round = b.enum_value("round_mode", "round_mode", "rint");
    let a = crate::util::opaque_attr(b.ir, "hfusion", &format!("round_mode<{round}>"));
    b.ir.set_attr(op, "round_mode", a);
    let unsigned_mode = b.enum_value("unsigned_mode", "unsigned_mode", "si2si");
    if unsigned_mode != "si2si" {
        let a = crate::util::opaque_attr(b.ir, "hfusion", &format!("unsigned_mode<{unsigned_mode}>"));
        b.ir.set_attr(op, "unsigned_mode", a);
    }
    if b.bool_attr("enable_saturate", false) {
        let t = b.ir.bool_attr(true);
        b.ir.set_attr(op, "enable_saturate", t);
    }
    Ok(b.ir.result(op, 0))
}
