//! linalg's OpDSL named ops with fixed loop nests (MLIR's
//! `LinalgNamedStructuredOps.yaml`): convolutions, depthwise convolutions,
//! poolings, `matvec`/`dot`/`mmt4d` and the quantized matmuls. Each op is
//! one [`NamedOp`] line: its loops, one indexing map per operand (written in
//! terms of the `strides` and `dilations` attributes), and its body. The
//! syntax is `{attrs} ins(...) outs(...) -> T`; the body is built from the
//! operand types; the maps are memoized on the op as MLIR's verifier does.

use hivm_ir::affine::{AffineExpr, AffineMap};
use hivm_ir::attrs::DenseElem;
use hivm_ir::dialect::VerifyError;
use hivm_ir::lexer::Tok;
use hivm_ir::parser::{OpParseResult, PResult, Parser};
use hivm_ir::printer::Printer;
use hivm_ir::{AttrData, Attribute, Ir, OpDef, OpId, Traits, Type, Value};

use super::elementwise::{Body, binary_fn};
use super::interface::{self, Parallel};
use super::structured::{body_block, parse_ins_outs, print_ins_outs, print_results, yield_op};
use crate::util::{push_attr, segment, segment_attr, type_str};

/// Where MLIR caches a named op's indexing maps.
pub(crate) const MEMO: &str = "linalg.memoized_indexing_maps";

/// What the body computes into the init `O`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Payload {
    /// `O + cast(I) * cast(K)`.
    MulAdd,
    /// `O + (cast(I) - cast(IZp)) * (cast(K) - cast(KZp))`.
    MulAddZp,
    /// `fun(O, cast(I))`; the filter only shapes the window.
    Pool(&'static str),
}

/// Which loop-classifying interface the op implements.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kind {
    Plain,
    Convolution,
    Contraction,
}

/// One named op. Maps are comma-separated results over loops `dN`; `SK`
/// and `DK` stand for the K-th stride and dilation; an empty map reads a
/// scalar.
pub(crate) struct NamedOp {
    pub name: &'static str,
    /// One letter per loop: `p`arallel or `r`eduction.
    pub iters: &'static str,
    pub maps: &'static [&'static str],
    /// Length of `strides` and `dilations` (0: the op has neither).
    pub window: usize,
    pub payload: Payload,
    pub kind: Kind,
}

const fn op(
    name: &'static str,
    iters: &'static str,
    maps: &'static [&'static str],
    window: usize,
    payload: Payload,
    kind: Kind,
) -> NamedOp {
    NamedOp { name, iters, maps, window, payload, kind }
}

const fn conv(name: &'static str, iters: &'static str, maps: &'static [&'static str], window: usize) -> NamedOp {
    op(name, iters, maps, window, Payload::MulAdd, Kind::Convolution)
}

const fn conv_q(name: &'static str, iters: &'static str, maps: &'static [&'static str], window: usize) -> NamedOp {
    op(name, iters, maps, window, Payload::MulAddZp, Kind::Convolution)
}

const fn pool(
    name: &'static str,
    iters: &'static str,
    maps: &'static [&'static str],
    window: usize,
    fun: &'static str,
) -> NamedOp {
    op(name, iters, maps, window, Payload::Pool(fun), Kind::Convolution)
}

const fn contraction(name: &'static str, iters: &'static str, maps: &'static [&'static str]) -> NamedOp {
    op(name, iters, maps, 0, Payload::MulAdd, Kind::Contraction)
}

// Input maps of the convolutions, by layout.
const NWC: &str = "d0, d1*S0 + d3*D0, d4";
const NHWC: &str = "d0, d1*S0 + d4*D0, d2*S1 + d5*D1, d6";
const NCHW: &str = "d0, d4, d2*S0 + d5*D0, d3*S1 + d6*D1";
const NGCHW: &str = "d0, d1, d5, d3*S0 + d6*D0, d4*S1 + d7*D1";
const NHWGC: &str = "d0, d1*S0 + d5*D0, d2*S1 + d6*D1, d3, d7";
const NDHWC: &str = "d0, d1*S0 + d5*D0, d2*S1 + d6*D1, d3*S2 + d7*D2, d8";
const NCDHW: &str = "d0, d5, d2*S0 + d6*D0, d3*S1 + d7*D1, d4*S2 + d8*D2";
// Depthwise and pooling inputs.
const DW_NWC: &str = "d0, d1*S0 + d3*D0, d2";
const DW_NCW: &str = "d0, d2, d1*S0 + d3*D0";
const DW_NHWC: &str = "d0, d1*S0 + d4*D0, d2*S1 + d5*D1, d3";
const DW_NCHW: &str = "d0, d3, d1*S0 + d4*D0, d2*S1 + d5*D1";
const DW_NDHWC: &str = "d0, d1*S0 + d4*D0, d2*S1 + d5*D1, d3*S2 + d6*D2, d7";
const M_NHWC: &str = "d0, d1*S0 + d5*D0, d2*S1 + d6*D1, d3";
const M_NDHWC: &str = "d0, d1*S0 + d5*D0, d2*S1 + d6*D1, d3*S2 + d7*D2, d8";
const P_NCW: &str = "d0, d1, d2*S0 + d3*D0";
const P_NCHW: &str = "d0, d1, d2*S0 + d4*D0, d3*S1 + d5*D1";
const P_NDHWC: &str = "d0, d1*S0 + d5*D0, d2*S1 + d6*D1, d3*S2 + d7*D2, d4";
// Outputs.
const O3: &str = "d0, d1, d2";
const O4: &str = "d0, d1, d2, d3";
const O5: &str = "d0, d1, d2, d3, d4";

pub(crate) static OPS: &[NamedOp] = &[
    // Matrix-vector products and friends.
    contraction("linalg.matvec", "pr", &["d0, d1", "d1", "d0"]),
    contraction("linalg.vecmat", "pr", &["d1", "d1, d0", "d0"]),
    contraction("linalg.batch_matvec", "ppr", &["d0, d1, d2", "d0, d2", "d0, d1"]),
    contraction("linalg.batch_vecmat", "ppr", &["d0, d2", "d0, d2, d1", "d0, d1"]),
    contraction("linalg.dot", "r", &["d0", "d0", ""]),
    contraction("linalg.mmt4d", "pprppr", &["d0, d2, d3, d5", "d1, d2, d4, d5", "d0, d1, d3, d4"]),
    contraction("linalg.batch_mmt4d", "ppprppr", &["d0, d1, d3, d4, d6", "d0, d2, d3, d5, d6", "d0, d1, d2, d4, d5"]),
    op("linalg.quantized_matmul", "ppr", &["d0, d2", "d2, d1", "", "", "d0, d1"], 0, Payload::MulAddZp, Kind::Plain),
    op(
        "linalg.quantized_batch_matmul",
        "pppr",
        &["d0, d1, d3", "d0, d3, d2", "", "", "d0, d1, d2"],
        0,
        Payload::MulAddZp,
        Kind::Plain,
    ),
    // Convolutions without channels.
    conv("linalg.conv_1d", "pr", &["d0 + d1", "d1", "d0"], 0),
    conv("linalg.conv_2d", "pprr", &["d0 + d2, d1 + d3", "d2, d3", "d0, d1"], 0),
    conv("linalg.conv_3d", "ppprrr", &["d0 + d3, d1 + d4, d2 + d5", "d3, d4, d5", O3], 0),
    // Convolutions.
    conv("linalg.conv_1d_nwc_wcf", "ppprr", &[NWC, "d3, d4, d2", O3], 1),
    conv("linalg.conv_1d_ncw_fcw", "ppprr", &["d0, d3, d2*S0 + d4*D0", "d1, d3, d4", O3], 1),
    conv("linalg.conv_2d_nhwc_hwcf", "pppprrr", &[NHWC, "d4, d5, d6, d3", O4], 2),
    conv("linalg.conv_2d_nhwc_fhwc", "pppprrr", &[NHWC, "d3, d4, d5, d6", O4], 2),
    conv_q("linalg.conv_2d_nhwc_hwcf_q", "pppprrr", &[NHWC, "d4, d5, d6, d3", "", "", O4], 2),
    conv_q("linalg.conv_2d_nhwc_fhwc_q", "pppprrr", &[NHWC, "d3, d4, d5, d6", "", "", O4], 2),
    conv("linalg.conv_2d_nchw_fchw", "pppprrr", &[NCHW, "d1, d4, d5, d6", O4], 2),
    conv_q("linalg.conv_2d_nchw_fchw_q", "pppprrr", &[NCHW, "d1, d4, d5, d6", "", "", O4], 2),
    conv("linalg.conv_2d_ngchw_fgchw", "ppppprrr", &[NGCHW, "d2, d1, d5, d6, d7", O5], 2),
    conv("linalg.conv_2d_ngchw_gfchw", "ppppprrr", &[NGCHW, "d1, d2, d5, d6, d7", O5], 2),
    conv_q("linalg.conv_2d_ngchw_gfchw_q", "ppppprrr", &[NGCHW, "d1, d2, d5, d6, d7", "", "", O5], 2),
    conv("linalg.conv_2d_nhwgc_gfhwc", "ppppprrr", &[NHWGC, "d3, d4, d5, d6, d7", O5], 2),
    conv_q("linalg.conv_2d_nhwgc_gfhwc_q", "ppppprrr", &[NHWGC, "d3, d4, d5, d6, d7", "", "", O5], 2),
    conv("linalg.conv_3d_ndhwc_dhwcf", "ppppprrrr", &[NDHWC, "d5, d6, d7, d8, d4", O5], 3),
    conv_q("linalg.conv_3d_ndhwc_dhwcf_q", "ppppprrrr", &[NDHWC, "d5, d6, d7, d8, d4", "", "", O5], 3),
    conv("linalg.conv_3d_ncdhw_fcdhw", "ppppprrrr", &[NCDHW, "d1, d5, d6, d7, d8", O5], 3),
    // Depthwise convolutions (`m`: with a channel multiplier).
    conv("linalg.depthwise_conv_1d_nwc_wc", "pppr", &[DW_NWC, "d3, d2", O3], 1),
    conv("linalg.depthwise_conv_1d_ncw_cw", "pppr", &[DW_NCW, "d2, d3", "d0, d2, d1"], 1),
    conv("linalg.depthwise_conv_1d_nwc_wcm", "ppppr", &["d0, d1*S0 + d4*D0, d2", "d4, d2, d3", O4], 1),
    conv("linalg.depthwise_conv_2d_nhwc_hwc", "pppprr", &[DW_NHWC, "d4, d5, d3", O4], 2),
    conv_q("linalg.depthwise_conv_2d_nhwc_hwc_q", "pppprr", &[DW_NHWC, "d4, d5, d3", "", "", O4], 2),
    conv("linalg.depthwise_conv_2d_nchw_chw", "pppprr", &[DW_NCHW, "d3, d4, d5", "d0, d3, d1, d2"], 2),
    conv("linalg.depthwise_conv_2d_nhwc_hwcm", "ppppprr", &[M_NHWC, "d5, d6, d3, d4", O5], 2),
    conv_q("linalg.depthwise_conv_2d_nhwc_hwcm_q", "ppppprr", &[M_NHWC, "d5, d6, d3, d4", "", "", O5], 2),
    conv("linalg.depthwise_conv_3d_ndhwc_dhwc", "pppprrrp", &[DW_NDHWC, "d4, d5, d6, d7", "d0, d1, d2, d3, d7"], 3),
    conv(
        "linalg.depthwise_conv_3d_ncdhw_cdhw",
        "pppprrrp",
        &["d0, d7, d1*S0 + d4*D0, d2*S1 + d5*D1, d3*S2 + d6*D2", "d7, d4, d5, d6", "d0, d7, d1, d2, d3"],
        3,
    ),
    conv(
        "linalg.depthwise_conv_3d_ndhwc_dhwcm",
        "ppppprrrp",
        &[M_NDHWC, "d5, d6, d7, d8, d4", "d0, d1, d2, d3, d8, d4"],
        3,
    ),
    // Poolings.
    pool("linalg.pooling_nwc_sum", "pppr", &[DW_NWC, "d3", O3], 1, "add"),
    pool("linalg.pooling_nwc_max", "pppr", &[DW_NWC, "d3", O3], 1, "max_signed"),
    pool("linalg.pooling_nwc_max_unsigned", "pppr", &[DW_NWC, "d3", O3], 1, "max_unsigned"),
    pool("linalg.pooling_nwc_min", "pppr", &[DW_NWC, "d3", O3], 1, "min_signed"),
    pool("linalg.pooling_nwc_min_unsigned", "pppr", &[DW_NWC, "d3", O3], 1, "min_unsigned"),
    pool("linalg.pooling_ncw_sum", "pppr", &[P_NCW, "d3", O3], 1, "add"),
    pool("linalg.pooling_ncw_max", "pppr", &[P_NCW, "d3", O3], 1, "max_signed"),
    pool("linalg.pooling_nhwc_sum", "pppprr", &[DW_NHWC, "d4, d5", O4], 2, "add"),
    pool("linalg.pooling_nhwc_max", "pppprr", &[DW_NHWC, "d4, d5", O4], 2, "max_signed"),
    pool("linalg.pooling_nhwc_max_unsigned", "pppprr", &[DW_NHWC, "d4, d5", O4], 2, "max_unsigned"),
    pool("linalg.pooling_nhwc_min", "pppprr", &[DW_NHWC, "d4, d5", O4], 2, "min_signed"),
    pool("linalg.pooling_nhwc_min_unsigned", "pppprr", &[DW_NHWC, "d4, d5", O4], 2, "min_unsigned"),
    pool("linalg.pooling_nchw_sum", "pppprr", &[P_NCHW, "d4, d5", O4], 2, "add"),
    pool("linalg.pooling_nchw_max", "pppprr", &[P_NCHW, "d4, d5", O4], 2, "max_signed"),
    pool("linalg.pooling_ndhwc_sum", "ppppprrr", &[P_NDHWC, "d5, d6, d7", O5], 3, "add"),
    pool("linalg.pooling_ndhwc_max", "ppppprrr", &[P_NDHWC, "d5, d6, d7", O5], 3, "max_signed"),
    pool("linalg.pooling_ndhwc_min", "ppppprrr", &[P_NDHWC, "d5, d6, d7", O5], 3, "min_signed"),
];

pub(crate) fn lookup(name: &str) -> Option<&'static NamedOp> {
    OPS.iter().find(|o| o.name == name)
}

impl NamedOp {
    pub(crate) fn iterators(&self) -> Vec<Parallel> {
        self.iters.bytes().map(|c| c == b'p').collect()
    }

    /// The maps with the given strides and dilations substituted.
    fn maps_with(&self, strides: &[i64], dilations: &[i64]) -> Vec<AffineMap> {
        let loops = self.iters.len() as u32;
        self.maps.iter().map(|m| parse_map(m, loops, strides, dilations)).collect()
    }
}

/// A map of the table's notation, built with MLIR's simplifications (so
/// `d1 * 1 + d4 * 1` is `d1 + d4`). The table is fixed: an entry that does
/// not read is a bug the unit test below catches, read here as `0`.
fn parse_map(src: &str, loops: u32, strides: &[i64], dilations: &[i64]) -> AffineMap {
    let atom = |a: &str| -> AffineExpr {
        let a = a.trim();
        let n: usize = a.get(1..).and_then(|n| n.parse().ok()).unwrap_or(0);
        match a.as_bytes().first() {
            Some(b'd') => AffineExpr::Dim(n as u32),
            Some(b'S') => AffineExpr::Constant(strides.get(n).copied().unwrap_or(1)),
            Some(b'D') => AffineExpr::Constant(dilations.get(n).copied().unwrap_or(1)),
            _ => AffineExpr::Constant(0),
        }
    };
    let product = |t: &str| t.split('*').map(atom).reduce(AffineExpr::times).unwrap_or(AffineExpr::Constant(0));
    let sum = |r: &str| r.split('+').map(product).reduce(AffineExpr::plus).unwrap_or(AffineExpr::Constant(0));
    let results = if src.trim().is_empty() { Vec::new() } else { src.split(',').map(sum).collect() };
    AffineMap { num_dims: loops, num_symbols: 0, results }
}

// ----- strides and dilations -----

/// The values of a `strides`/`dilations` attribute, if it satisfies ODS's
/// `RankedI64ElementsAttr<[window]>`.
fn window_values(ir: &Ir, a: Attribute, window: usize) -> Option<Vec<i64>> {
    let AttrData::DenseElements { ty, splat, elems } = ir.attr_data(a) else { return None };
    let td = ir.type_data(*ty);
    let elem = td.element_type()?;
    if !ir.type_data(elem).is_signless_int(64) || td.shape() != Some(&[window as i64][..]) {
        return None;
    }
    let ints: Vec<i64> = elems.iter().map(|e| if let DenseElem::Int(v) = e { *v as i64 } else { 0 }).collect();
    Some(if *splat { vec![ints.first().copied().unwrap_or(0); window] } else { ints })
}

fn constraint(window: usize) -> String {
    format!("failed to satisfy constraint: 64-bit signless int elements attribute of shape [{window}]")
}

/// The first of `strides` and `dilations` present and malformed.
fn bad_window_attr(spec: &NamedOp, get: impl Fn(&str) -> Option<Attribute>, ir: &Ir) -> Option<&'static str> {
    if spec.window == 0 {
        return None;
    }
    ["strides", "dilations"].into_iter().find(|k| get(k).is_some_and(|a| window_values(ir, a, spec.window).is_none()))
}

/// The op's indexing maps: the memoized ones, else the table's with the
/// op's strides and dilations (1 where absent).
pub(crate) fn indexing_maps(ir: &Ir, op: OpId, spec: &NamedOp) -> Vec<AffineMap> {
    if let Some(maps) = ir.get_attr(op, MEMO).and_then(|a| interface::maps_of(ir, a)) {
        return maps;
    }
    let values = |k: &str| {
        ir.get_attr(op, k).and_then(|a| window_values(ir, a, spec.window)).unwrap_or_else(|| vec![1; spec.window])
    };
    spec.maps_with(&values("strides"), &values("dilations"))
}

fn maps_attr(ir: &mut Ir, maps: Vec<AffineMap>) -> Attribute {
    let items = maps.into_iter().map(|m| ir.attr(AttrData::AffineMap(m))).collect();
    ir.attr(AttrData::Array(items))
}

// ----- syntax -----

fn parse(p: &mut Parser<'_>, r: &mut OpParseResult) -> PResult<()> {
    let name = p.ir.sym_str(r.name).to_string();
    let Some(spec) = lookup(&name) else { return p.error(format!("custom op '{name}' is unknown")) };
    if p.consume_if(Tok::Less) {
        let props = p.parse_attribute(None)?;
        p.expect(Tok::Greater, "'>'")?;
        r.properties = Some(props);
    }
    // Attribute and body errors point where MLIR's attribute list would start.
    let start = p.pos();
    let (ins, outs) = parse_ins_outs(p, r)?;
    p.parse_optional_attr_dict(&mut r.attrs)?;
    // Written properties are checked by the verifier, as MLIR does.
    let written = |k: &str| r.attrs.iter().find(|(s, _)| p.ir.sym_str(*s) == k).map(|(_, a)| *a);
    if r.properties.is_none()
        && let Some(k) = bad_window_attr(spec, written, p.ir)
    {
        return p.op_error_at(start, format!("'{name}' op attribute '{k}' {}", constraint(spec.window)));
    }
    if p.consume_if(Tok::Arrow) {
        r.result_types = p.parse_function_result_types()?;
    }
    if ins.len() + outs.len() != spec.maps.len() {
        return p.error(format!(
            "custom op '{name}' [parseNamedStructuredOpRegion] ods-gen generated region expects {} args, got {}",
            spec.maps.len(),
            ins.len() + outs.len()
        ));
    }
    let all: Vec<Value> = ins.iter().chain(&outs).copied().collect();
    // MLIR builds these bodies with unknown locations throughout.
    let loc = p.ir.unknown_loc();
    let (region, block, args) = body_block(p.ir, &all, loc);
    let built = {
        let mut b = Body::new(p.ir, &name, block, loc, &r.attrs);
        build_payload(&mut b, spec.payload, &args)
    };
    let value = match built {
        Ok(v) => v,
        Err(e) => return p.op_error_at(start, e),
    };
    yield_op(p.ir, block, vec![value], loc);
    r.regions.push(region);
    let seg = segment_attr(p.ir, &[ins.len(), outs.len()]);
    push_attr(p, r, "operandSegmentSizes", seg);
    // The maps MLIR's verifier memoizes, unless the text gave them.
    if !r.attrs.iter().any(|(k, _)| p.ir.sym_str(*k) == MEMO) {
        let window = |k: &str| {
            let prop = r.properties.and_then(|d| p.ir.dict_get(d, k));
            let a = prop.or_else(|| r.attrs.iter().find(|(s, _)| p.ir.sym_str(*s) == k).map(|(_, a)| *a));
            a.and_then(|a| window_values(p.ir, a, spec.window)).unwrap_or_else(|| vec![1; spec.window])
        };
        let maps = spec.maps_with(&window("strides"), &window("dilations"));
        let memo = maps_attr(p.ir, maps);
        push_attr(p, r, MEMO, memo);
    }
    r.operands = all;
    Ok(())
}

/// The body's value for the init (the last argument).
fn build_payload(b: &mut Body<'_>, payload: Payload, args: &[Value]) -> Result<Value, String> {
    let out = args[args.len() - 1];
    let acc: Type = b.ir.value_type(out);
    match payload {
        Payload::MulAdd => {
            let (x, y) = (b.cast(args[0], acc, false), b.cast(args[1], acc, false));
            let prod = binary_fn(b, "mul", x, y)?;
            binary_fn(b, "add", out, prod)
        }
        Payload::MulAddZp => {
            let (x, xz) = (b.cast(args[0], acc, false), b.cast(args[2], acc, false));
            let lhs = binary_fn(b, "sub", x, xz)?;
            let (y, yz) = (b.cast(args[1], acc, false), b.cast(args[3], acc, false));
            let rhs = binary_fn(b, "sub", y, yz)?;
            let prod = binary_fn(b, "mul", lhs, rhs)?;
            binary_fn(b, "add", out, prod)
        }
        Payload::Pool(fun) => {
            let x = b.cast(args[0], acc, fun.ends_with("_unsigned"));
            binary_fn(b, fun, out, x)
        }
    }
}

fn print(p: &mut Printer<'_>, op: OpId) {
    let ir = p.ir;
    p.print_optional_attr_dict(op, &["operandSegmentSizes", MEMO]);
    print_ins_outs(p, segment(ir, op, 0), segment(ir, op, 1));
    print_results(p, op);
}

// ----- verification -----

/// `operandSegmentSizes` as MLIR checks it for the ins/outs split.
pub(crate) fn check_segments(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    if ir.get_attr(op, "operandSegmentSizes").is_none() {
        return Err(format!(
            "operand count ({}) does not match with the total size (0) specified in attribute 'operandSegmentSizes'",
            ir.operands(op).len()
        )
        .into());
    }
    crate::util::check_segments(ir, op, 2)
}

/// ODS's operand and result constraints: inits shaped, results ranked tensors.
pub(crate) fn check_types(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let ins = segment(ir, op, 0).len();
    for (i, v) in ir.operands(op).iter().enumerate().skip(ins) {
        let t = ir.value_type(*v);
        if !ir.type_data(t).is_shaped() {
            return Err(format!(
                "operand #{i} must be variadic of shaped of any type values, but got '{}'",
                type_str(ir, t)
            )
            .into());
        }
    }
    for (i, v) in ir.results(op).iter().enumerate() {
        let t = ir.value_type(*v);
        if !interface::is_ranked_tensor(ir, t) {
            return Err(format!(
                "result #{i} must be variadic of ranked tensor of any type values, but got '{}'",
                type_str(ir, t)
            )
            .into());
        }
    }
    Ok(())
}

fn spec_of(ir: &Ir, op: OpId) -> Result<&'static NamedOp, VerifyError> {
    lookup(ir.op_name(op)).ok_or_else(|| VerifyError::from("is not a known named op"))
}

fn verify(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let spec = spec_of(ir, op)?;
    check_segments(ir, op)?;
    if let Some(k) = bad_window_attr(spec, |k| ir.get_attr(op, k), ir) {
        return Err(format!("attribute '{k}' {}", constraint(spec.window)).into());
    }
    check_types(ir, op)?;
    if spec.kind == Kind::Convolution {
        let (ins, inits) = (segment(ir, op, 0).len(), segment(ir, op, 1).len());
        interface::verify_convolution(&indexing_maps(ir, op, spec), &spec.iterators(), ins, inits)?;
    }
    Ok(())
}

/// The checks MLIR runs once the body is verified.
fn verify_regions(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    let spec = spec_of(ir, op)?;
    verify_terminator(ir, op)?;
    let maps = indexing_maps(ir, op, spec);
    interface::verify_structured(ir, op, &maps, spec.iters.len())?;
    if spec.kind == Kind::Contraction {
        let (ins, inits) = (segment(ir, op, 0).len(), segment(ir, op, 1).len());
        interface::verify_contraction(ir, op, &maps, &spec.iterators(), ins, inits)?;
    }
    Ok(())
}

/// `SingleBlockImplicitTerminator<YieldOp>`: a body ends with `linalg.yield`.
pub(crate) fn verify_terminator(ir: &Ir, op: OpId) -> Result<(), VerifyError> {
    for &r in ir.regions(op) {
        for &b in ir.region_blocks(r) {
            if let Some(t) = ir.terminator(b)
                && ir.op_name(t) != "linalg.yield"
            {
                return Err(format!("expects regions to end with 'linalg.yield', found '{}'", ir.op_name(t)).into());
            }
        }
    }
    Ok(())
}

pub fn defs() -> Vec<OpDef> {
    OPS.iter()
        .map(|spec| {
            let inherent: &'static [&'static str] = if spec.window > 0 {
                &["dilations", "operandSegmentSizes", "strides"]
            } else {
                &["operandSegmentSizes"]
            };
            OpDef::new(spec.name)
                .arity((0, None), (0, None), 1)
                .traits(Traits::SINGLE_BLOCK)
                .inherent(inherent)
                .assembly(parse, print)
                .verifier(verify)
                .region_verifier(verify_regions)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every entry's maps read in the notation: dims below the loop count,
    /// strides and dilations below the window, one map per operand.
    #[test]
    fn table_is_well_formed() {
        for spec in OPS {
            assert!(spec.iters.bytes().all(|c| c == b'p' || c == b'r'), "{}", spec.name);
            assert!(spec.maps.len() >= 3, "{}", spec.name);
            for m in spec.maps {
                for atom in m.split([',', '+', '*']).map(str::trim).filter(|a| !a.is_empty()) {
                    let (kind, n) = atom.split_at(1);
                    let n: usize = n.parse().unwrap_or_else(|_| panic!("{}: bad atom {atom}", spec.name));
                    let bound = if kind == "d" { spec.iters.len() } else { spec.window };
                    assert!(matches!(kind, "d" | "S" | "D") && n < bound, "{}: bad atom {atom}", spec.name);
                }
            }
        }
    }

    #[test]
    fn strides_and_dilations_fold_as_mlir_does() {
        let spec = lookup("linalg.conv_2d_nhwc_hwcf").unwrap();
        let mut s = String::new();
        spec.maps_with(&[2, 1], &[1, 2])[0].print(&mut s);
        assert_eq!(s, "(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 * 2 + d4, d2 + d5 * 2, d6)");
    }
}
