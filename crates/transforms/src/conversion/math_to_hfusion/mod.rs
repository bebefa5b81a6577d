//! `convert-math-to-hfusion` (AscendNPU-IR's lib/Conversion/MathToHFusion):
//! math (and mathExt) ops whose operands are all ranked tensors become
//! named elementwise ops on a fresh `tensor.empty`: `exp`, `log`, `absf`,
//! `ceil`, `floor` linalg's `elemwise_unary`, the rest hfusion's
//! `elemwise_unary`/`elemwise_binary` (`roundeven` is `nearbyint`); `fma`
//! is `fma.rs`. On register-based targets the functions that target lacks
//! (`atan2`, `atanh`, `asin`, `acos`, `sinh`, `acosh`, `asinh`, `lgamma`)
//! stay unconverted, so a tensor one fails the pass, as does any other
//! math op on tensors; scalar math stays. Option: `enable-fma`.

mod fma;

use hivm_ir::diagnostics::Diagnostic;
use hivm_ir::pass::Pass;
use hivm_ir::{Ir, OpId, ValueMap};

use super::to_hfusion::{convert, enum_attr, on_tensors, regbase, to_named_fn};

pub struct MathToHFusion {
    /// Keep supported `fma`s as `hfusion.elemwise_ternary` (on Ascend 950).
    pub enable_fma: bool,
}

impl MathToHFusion {
    pub fn from_options(options: &str) -> Result<MathToHFusion, String> {
        let mut p = MathToHFusion { enable_fma: false };
        for item in options.split_whitespace() {
            match item.split_once('=') {
                Some(("enable-fma", v)) => p.enable_fma = parse_bool(v)?,
                None if item == "enable-fma" => p.enable_fma = true,
                _ => return Err(format!("no such option '{item}' for 'convert-math-to-hfusion'")),
            }
        }
        Ok(p)
    }
}

fn parse_bool(v: &str) -> Result<bool, String> {
    match v {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        _ => Err(format!("invalid boolean value '{v}' for option 'enable-fma'")),
    }
}

/// How an op converts: the named op and its function.
enum To {
    Linalg(&'static str),
    Unary(&'static str),
    Binary(&'static str),
}

/// Op -> conversion, and whether register-based targets have it.
const TABLE: &[(&str, To, bool)] = &[
    ("math.exp", To::Linalg("exp"), true),
    ("math.log", To::Linalg("log"), true),
    ("math.absf", To::Linalg("abs"), true),
    ("math.ceil", To::Linalg("ceil"), true),
    ("math.floor", To::Linalg("floor"), true),
    ("mathExt.ldexp", To::Binary("ldexp"), true),
    ("math.powf", To::Binary("powf"), true),
    ("math.atan2", To::Binary("atan2"), false),
    ("math.copysign", To::Binary("copysign"), true),
    ("math.sqrt", To::Unary("sqrt"), true),
    ("math.rsqrt", To::Unary("rsqrt"), true),
    ("math.tanh", To::Unary("tanh"), true),
    ("math.atan", To::Unary("atan"), true),
    ("math.atanh", To::Unary("atanh"), false),
    ("math.tan", To::Unary("tan"), true),
    ("math.sin", To::Unary("sin"), true),
    ("math.asin", To::Unary("asin"), false),
    ("math.cos", To::Unary("cos"), true),
    ("math.acos", To::Unary("acos"), false),
    ("math.sinh", To::Unary("sinh"), false),
    ("math.cosh", To::Unary("cosh"), true),
    ("math.roundeven", To::Unary("nearbyint"), true),
    ("math.acosh", To::Unary("acosh"), false),
    ("math.asinh", To::Unary("asinh"), false),
    ("math.absi", To::Unary("absi"), true),
    ("math.erf", To::Unary("erf"), true),
    ("math.log2", To::Unary("log2"), true),
    ("math.log10", To::Unary("log10"), true),
    ("math.log1p", To::Unary("log1p"), true),
    ("math.exp2", To::Unary("exp2"), true),
    ("math.expm1", To::Unary("expm1"), true),
    ("mathExt.ilogb", To::Unary("ilogb"), true),
    ("mathExt.lgamma", To::Unary("lgamma"), false),
];

/// Tries the patterns for `op`; `Ok(false)` when none applies.
fn rewrite(ir: &mut Ir, op: OpId, regbase: bool, fma: bool, map: &mut ValueMap) -> Result<bool, Diagnostic> {
    let name = ir.op_name(op);
    if name == "math.fma" {
        return fma::rewrite(ir, op, fma, map);
    }
    let Some((_, to, _)) = TABLE.iter().find(|(n, _, on_regbase)| *n == name && (*on_regbase || !regbase)) else {
        return Ok(false);
    };
    let (named, dialect, mnemonic, fun) = match to {
        To::Linalg(f) => ("linalg.elemwise_unary", "linalg", "unary_fn", *f),
        To::Unary(f) => ("hfusion.elemwise_unary", "hfusion", "unary_fn", *f),
        To::Binary(f) => ("hfusion.elemwise_binary", "hfusion", "binary_fn", *f),
    };
    let f = enum_attr(ir, dialect, mnemonic, fun);
    to_named_fn(ir, op, named, Some(f), map)
}

impl Pass for MathToHFusion {
    fn name(&self) -> &str {
        "convert-math-to-hfusion"
    }

    fn display_name(&self) -> &str {
        "ConvertMathToHFusion"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId) -> Result<(), Diagnostic> {
        // Upstream keeps `fma` only on Ascend 950 (all of it register-based).
        let fma = self.enable_fma && regbase(ir, root) && super::to_hfusion::ascend_950(ir, root);
        let illegal_op = |ir: &Ir, o: OpId| {
            let name = ir.op_name(o);
            (name.starts_with("math.") || name.starts_with("mathExt.")) && on_tensors(ir, o)
        };
        convert(ir, root, illegal_op, |cx, op| {
            // mathExt has no legality in the target: unconverted, it stays.
            let legal_if_left = cx.ir.op_name(op).starts_with("mathExt.");
            Ok(rewrite(cx.ir, op, cx.regbase, fma, cx.map)? || legal_if_left)
        })
    }
}
