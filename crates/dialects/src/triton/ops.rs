//! Triton's value ops: casts, element-wise math, pointer arithmetic, shape
//! manipulation, program ids, `dot`, external and inline-asm element-wise
//! calls, ranges, histograms, gathers, prints and asserts.

use hivm_ir::dialect::VerifyError;
use hivm_ir::opspec::{AttrKind, Fixed, FormatState, OpSpec, attr, default_attr, one, opt, opt_attr, var};
use hivm_ir::{Ir, OpId, Traits, Type};

use super::types::{C, is_ptr, scalar_of, tensor};
use super::verify::{
    constrain, dims, i32_array, int_attr, is_permutation, same_element_type, same_encoding, same_shape, type_of,
};
use super::{INPUT_PRECISION, PROGRAM_DIM, PROPAGATE_NAN, ROUNDING};

type R = Result<(), VerifyError>;

fn tensor_shape(ir: &Ir, op: OpId, name: &str) -> Vec<i64> {
    type_of(ir, op, name).and_then(|t| tensor(ir, t).map(|(s, _, _)| s.to_vec())).unwrap_or_default()
}

fn verify_int_to_ptr(ir: &Ir, op: OpId) -> R {
    constrain(ir, op, &[("src", C::I64Like), ("result", C::PtrLike)])?;
    same_shape(ir, op)?;
    same_encoding(ir, op)
}

fn verify_ptr_to_int(ir: &Ir, op: OpId) -> R {
    constrain(ir, op, &[("src", C::PtrLike), ("result", C::I64Like)])?;
    same_shape(ir, op)?;
    same_encoding(ir, op)
}

fn bit_width(ir: &Ir, t: Type) -> Option<u32> {
    match ir.type_data(t) {
        hivm_ir::TypeData::Integer { width, .. } => Some(*width),
        hivm_ir::TypeData::Float(k) => Some(k.bit_width()),
        _ => None,
    }
}

fn verify_bitcast(ir: &Ir, op: OpId) -> R {
    constrain(ir, op, &[("src", C::Any), ("result", C::Any)])?;
    same_shape(ir, op)?;
    same_encoding(ir, op)?;
    let (Some(s), Some(d)) = (type_of(ir, op, "src"), type_of(ir, op, "result")) else { return Ok(()) };
    let (s, d) = (scalar_of(ir, s), scalar_of(ir, d));
    if is_ptr(ir, s) != is_ptr(ir, d) {
        return Err("Cannot bitcast pointer to non-pointer type".into());
    }
    if let (Some(a), Some(b)) = (bit_width(ir, s), bit_width(ir, d))
        && a != b
    {
        return Err(format!("Cannot bitcast data-type of size {a} to data-type of size {b}").into());
    }
    Ok(())
}

fn verify_fp_to_fp(ir: &Ir, op: OpId) -> R {
    constrain(ir, op, &[("src", C::FloatLike), ("result", C::FloatLike)])?;
    same_shape(ir, op)?;
    same_encoding(ir, op)
}

fn verify_float_like(ir: &Ir, op: OpId) -> R {
    constrain(ir, op, &[("x", C::FloatLike), ("y", C::FloatLike), ("min", C::FloatLike), ("max", C::FloatLike)])
}

fn verify_int_like(ir: &Ir, op: OpId) -> R {
    constrain(ir, op, &[("x", C::IntLike), ("y", C::IntLike)])
}

fn verify_addptr(ir: &Ir, op: OpId) -> R {
    constrain(ir, op, &[("ptr", C::PtrLike), ("offset", C::IntLike), ("result", C::PtrLike)])?;
    same_shape(ir, op)?;
    same_encoding(ir, op)
}

fn verify_splat(ir: &Ir, op: OpId) -> R {
    constrain(ir, op, &[("src", C::Any), ("result", C::Tensor)])?;
    same_element_type(ir, op)?;
    same_encoding(ir, op)
}

fn verify_unsplat(ir: &Ir, op: OpId) -> R {
    constrain(ir, op, &[("src", C::Tensor)])?;
    if tensor_shape(ir, op, "src").iter().product::<i64>() != 1 {
        return Err("source tensor must have exactly one element".into());
    }
    same_element_type(ir, op)
}

/// `tt.unsplat`'s result: the tensor's element type.
fn infer_unsplat(ir: &mut Ir, st: &FormatState) -> Result<Vec<Type>, String> {
    let t = st.operand_types.first().and_then(|g| g.first()).copied().ok_or("expected a source type")?;
    Ok(vec![scalar_of(ir, t)])
}

fn verify_expand_dims(ir: &Ir, op: OpId) -> R {
    constrain(ir, op, &[("src", C::Tensor), ("result", C::Tensor)])?;
    same_element_type(ir, op)?;
    let src = tensor_shape(ir, op, "src");
    let axis = int_attr(ir, op, "axis").unwrap_or(0);
    if axis < 0 || axis as usize > src.len() {
        return Err(format!("invalid axis {axis} for a tensor of rank {}", src.len()).into());
    }
    let mut want = src.clone();
    want.insert(axis as usize, 1);
    let res = tensor_shape(ir, op, "result");
    if res != want {
        return Err(
            format!("inferred shape {} is incompatible with the result shape {}", dims(&want), dims(&res)).into()
        );
    }
    Ok(())
}

fn verify_reshape(ir: &Ir, op: OpId) -> R {
    constrain(ir, op, &[("src", C::Tensor), ("result", C::Tensor)])?;
    same_element_type(ir, op)?;
    let (s, d) = (tensor_shape(ir, op, "src"), tensor_shape(ir, op, "result"));
    if s.iter().product::<i64>() != d.iter().product::<i64>() {
        return Err("number of src and dst elements of reshape must be the same".into());
    }
    Ok(())
}

fn verify_broadcast(ir: &Ir, op: OpId) -> R {
    constrain(ir, op, &[("src", C::Tensor), ("result", C::Tensor)])?;
    same_element_type(ir, op)?;
    same_encoding(ir, op)?;
    let (s, d) = (tensor_shape(ir, op, "src"), tensor_shape(ir, op, "result"));
    if s.len() != d.len() {
        return Err(format!("source rank {} doesn't match target rank {}", s.len(), d.len()).into());
    }
    for (i, (a, b)) in s.iter().zip(&d).enumerate() {
        if a != b && *a != 1 {
            return Err(format!(
                "Different dimensions at index {i} between source and result.  Broadcast requires the source dimension to be 1."
            )
            .into());
        }
    }
    Ok(())
}

fn verify_cat(ir: &Ir, op: OpId) -> R {
    constrain(ir, op, &[("lhs", C::Tensor), ("rhs", C::Tensor), ("result", C::Tensor)])?;
    if type_of(ir, op, "lhs") != type_of(ir, op, "rhs") {
        return Err("requires all operands to have the same type".into());
    }
    same_element_type(ir, op)
}

fn verify_join(ir: &Ir, op: OpId) -> R {
    constrain(ir, op, &[("lhs", C::Tensor), ("rhs", C::Tensor), ("result", C::Tensor)])?;
    if type_of(ir, op, "lhs") != type_of(ir, op, "rhs") {
        return Err("requires all operands to have the same type".into());
    }
    let mut want = tensor_shape(ir, op, "lhs");
    want.push(2);
    if tensor_shape(ir, op, "result") != want {
        return Err(format!("result shape must be {}", dims(&want)).into());
    }
    same_element_type(ir, op)
}

fn verify_split(ir: &Ir, op: OpId) -> R {
    constrain(ir, op, &[("src", C::Tensor), ("outLHS", C::Tensor), ("outRHS", C::Tensor)])?;
    let src = tensor_shape(ir, op, "src");
    if src.last() != Some(&2) {
        return Err("source tensor's last dimension must have size 2".into());
    }
    let want = &src[..src.len() - 1];
    if tensor_shape(ir, op, "outLHS") != want {
        return Err(format!("result shape must be {}", dims(want)).into());
    }
    same_element_type(ir, op)
}

fn verify_trans(ir: &Ir, op: OpId) -> R {
    constrain(ir, op, &[("src", C::Tensor), ("result", C::Tensor)])?;
    same_element_type(ir, op)?;
    let src = tensor_shape(ir, op, "src");
    let order = i32_array(ir, op, "order").unwrap_or_default();
    if !is_permutation(&order, src.len()) {
        return Err(format!("order must be a permutation of 0..{}, got {}", src.len(), dims(&order)).into());
    }
    let want: Vec<i64> = order.iter().map(|&d| src[d as usize]).collect();
    let res = tensor_shape(ir, op, "result");
    if res != want {
        return Err(
            format!("inferred shape {} is incompatible with the result shape {}", dims(&want), dims(&res)).into()
        );
    }
    Ok(())
}

fn verify_dot(ir: &Ir, op: OpId) -> R {
    constrain(ir, op, &[("a", C::FpIntTensor), ("b", C::FpIntTensor), ("c", C::FpIntTensor), ("d", C::FpIntTensor)])?;
    let (a, b, c) = (tensor_shape(ir, op, "a"), tensor_shape(ir, op, "b"), tensor_shape(ir, op, "c"));
    if a.len() != b.len() || a.len() != c.len() || !(2..=3).contains(&a.len()) {
        return Err("expected operands of rank 2 or 3 with the same rank".into());
    }
    let r = a.len();
    if a[r - 1] != b[r - 2] {
        return Err(format!("expected the K dimensions to match, got {} and {}", a[r - 1], b[r - 2]).into());
    }
    let mut want = a[..r - 1].to_vec();
    want.push(b[r - 1]);
    if c != want {
        return Err(format!("expected the accumulator to have shape {}, got {}", dims(&want), dims(&c)).into());
    }
    Ok(())
}

fn verify_extern(ir: &Ir, op: OpId) -> R {
    constrain(ir, op, &[("srcs", C::Any), ("result", C::Any)])?;
    same_encoding(ir, op)
}

fn verify_make_range(ir: &Ir, op: OpId) -> R {
    constrain(ir, op, &[("result", C::IntTensor)])?;
    let (start, end) = (int_attr(ir, op, "start").unwrap_or(0), int_attr(ir, op, "end").unwrap_or(0));
    let Some(t) = type_of(ir, op, "result") else { return Ok(()) };
    let Some((shape, elem, _)) = tensor(ir, t) else { return Ok(()) };
    if shape.len() != 1 {
        return Err("return type must be a 1D tensor".into());
    }
    if end - start != shape[0] {
        return Err("number of elements in returned tensor, N, must be end - start".into());
    }
    if !ir.type_data(elem).is_signless_int(32) {
        return Err("returned tensor must have i32 elements".into());
    }
    if start > end {
        return Err("start must be less than or equal to end".into());
    }
    Ok(())
}

fn verify_inline_asm(ir: &Ir, op: OpId) -> R {
    constrain(ir, op, &[("args", C::Any), ("result", C::Any)])?;
    if int_attr(ir, op, "packed_element").is_some_and(|n| n <= 0) {
        return Err("packed_element must be positive".into());
    }
    Ok(())
}

fn verify_histogram(ir: &Ir, op: OpId) -> R {
    constrain(ir, op, &[("src", C::IntTensor), ("mask", C::BoolLike), ("result", C::IntTensor)])?;
    if tensor_shape(ir, op, "src").len() != 1 || tensor_shape(ir, op, "result").len() != 1 {
        return Err("histogram operates on 1D tensors".into());
    }
    Ok(())
}

fn verify_gather(ir: &Ir, op: OpId) -> R {
    constrain(ir, op, &[("src", C::Tensor), ("indices", C::IntTensor), ("result", C::Tensor)])?;
    let (src, idx, res) =
        (tensor_shape(ir, op, "src"), tensor_shape(ir, op, "indices"), tensor_shape(ir, op, "result"));
    let axis = int_attr(ir, op, "axis").unwrap_or(0);
    if axis < 0 || axis as usize >= src.len() {
        return Err(format!("gather dimension {axis} must be less than the rank of the source ({})", src.len()).into());
    }
    if src.len() != idx.len() {
        return Err("indices and source must have the same rank".into());
    }
    if res != idx {
        return Err("indices and output shapes must match".into());
    }
    let (Some(s), Some(r)) = (type_of(ir, op, "src"), type_of(ir, op, "result")) else { return Ok(()) };
    if scalar_of(ir, s) != scalar_of(ir, r) {
        return Err("input and output element types must match".into());
    }
    Ok(())
}

fn verify_print(ir: &Ir, op: OpId) -> R {
    constrain(ir, op, &[("args", C::Any)])
}

fn verify_assert(ir: &Ir, op: OpId) -> R {
    constrain(ir, op, &[("condition", C::BoolLike)])
}

fn verify_program_id(_ir: &Ir, _op: OpId) -> R {
    Ok(())
}

const RESULT_LIKE_X: &[hivm_ir::opspec::ValueDef] = &[one("result").like("x")];

/// `$x attr-dict : type($x)` ops whose operands and result share a type.
const fn same_type(name: &'static str, operands: &'static [hivm_ir::opspec::ValueDef], format: &'static str) -> OpSpec {
    OpSpec {
        name,
        operands,
        results: RESULT_LIKE_X,
        format,
        traits: Traits::PURE.with(Traits::ELEMENTWISE).with(Traits::SAME_OPERANDS_AND_RESULT_TYPE),
        ..OpSpec::EMPTY
    }
}

const CAST: &str = "$src attr-dict `:` type($src) `->` type($result)";

pub(super) const SPECS: &[OpSpec] = &[
    OpSpec {
        name: "tt.int_to_ptr",
        operands: &[one("src")],
        results: &[one("result")],
        format: CAST,
        traits: Traits::PURE.with(Traits::ELEMENTWISE),
        verify: Some(verify_int_to_ptr),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.ptr_to_int",
        operands: &[one("src")],
        results: &[one("result")],
        format: CAST,
        traits: Traits::PURE.with(Traits::ELEMENTWISE),
        verify: Some(verify_ptr_to_int),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.bitcast",
        operands: &[one("src")],
        results: &[one("result")],
        format: CAST,
        traits: Traits::PURE.with(Traits::ELEMENTWISE),
        verify: Some(verify_bitcast),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.fp_to_fp",
        operands: &[one("src")],
        attrs: &[opt_attr("rounding", ROUNDING)],
        results: &[one("result")],
        format: "$src attr-dict (`,` `rounding` `=` $rounding^)? `:` type($src) `->` type($result)",
        traits: Traits::PURE.with(Traits::ELEMENTWISE),
        verify: Some(verify_fp_to_fp),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.clampf",
        operands: &[one("x").like("result"), one("min").like("result"), one("max").like("result")],
        attrs: &[attr("propagateNan", PROPAGATE_NAN)],
        results: &[one("result")],
        format: "$x `,` $min `,` $max `,` `propagateNan` `=` $propagateNan attr-dict `:` type($result)",
        traits: Traits::PURE.with(Traits::ELEMENTWISE).with(Traits::SAME_OPERANDS_AND_RESULT_TYPE),
        verify: Some(verify_float_like),
        ..OpSpec::EMPTY
    },
    OpSpec {
        verify: Some(verify_float_like),
        ..same_type("tt.precise_sqrt", &[one("x")], "$x attr-dict `:` type($x)")
    },
    OpSpec {
        verify: Some(verify_float_like),
        ..same_type("tt.precise_divf", &[one("x"), one("y").like("x")], "$x `,` $y attr-dict `:` type($x)")
    },
    OpSpec {
        verify: Some(verify_int_like),
        ..same_type("tt.mulhiui", &[one("x"), one("y").like("x")], "$x `,` $y attr-dict `:` type($x)")
    },
    OpSpec {
        name: "tt.addptr",
        operands: &[one("ptr").like("result"), one("offset")],
        results: &[one("result")],
        format: "$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)",
        traits: Traits::PURE.with(Traits::ELEMENTWISE),
        verify: Some(verify_addptr),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.splat",
        operands: &[one("src")],
        results: &[one("result")],
        format: CAST,
        traits: Traits::PURE,
        verify: Some(verify_splat),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.unsplat",
        operands: &[one("src")],
        results: &[one("result")],
        format: "$src attr-dict `:` type($src)",
        infer: Some(infer_unsplat),
        traits: Traits::PURE,
        verify: Some(verify_unsplat),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.expand_dims",
        operands: &[one("src")],
        attrs: &[attr("axis", AttrKind::Int(32))],
        results: &[one("result")],
        format: CAST,
        traits: Traits::PURE,
        verify: Some(verify_expand_dims),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.reshape",
        operands: &[one("src")],
        attrs: &[opt_attr("allow_reorder", AttrKind::Unit), opt_attr("efficient_layout", AttrKind::Unit)],
        results: &[one("result")],
        format: "$src (`allow_reorder` $allow_reorder^)? (`efficient_layout` $efficient_layout^)? attr-dict `:` type($src) `->` type($result)",
        traits: Traits::PURE,
        verify: Some(verify_reshape),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.broadcast",
        operands: &[one("src")],
        results: &[one("result")],
        format: CAST,
        traits: Traits::PURE,
        verify: Some(verify_broadcast),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.cat",
        operands: &[one("lhs"), one("rhs").like("lhs")],
        results: &[one("result")],
        format: "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)",
        verify: Some(verify_cat),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.join",
        operands: &[one("lhs"), one("rhs").like("lhs")],
        results: &[one("result")],
        format: "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)",
        traits: Traits::PURE,
        verify: Some(verify_join),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.split",
        operands: &[one("src")],
        results: &[one("outLHS"), one("outRHS").like("outLHS")],
        format: "$src attr-dict `:` type($src) `->` type($outLHS)",
        traits: Traits::PURE,
        verify: Some(verify_split),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.trans",
        operands: &[one("src")],
        attrs: &[attr("order", AttrKind::I32Array)],
        results: &[one("result")],
        format: CAST,
        traits: Traits::PURE,
        verify: Some(verify_trans),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.get_program_id",
        attrs: &[attr("axis", PROGRAM_DIM)],
        results: &[one("result").of(Fixed::Int(32))],
        format: "$axis attr-dict `:` type($result)",
        traits: Traits::PURE,
        verify: Some(verify_program_id),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.get_num_programs",
        attrs: &[attr("axis", PROGRAM_DIM)],
        results: &[one("result").of(Fixed::Int(32))],
        format: "$axis attr-dict `:` type($result)",
        traits: Traits::PURE,
        verify: Some(verify_program_id),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.dot",
        operands: &[one("a"), one("b"), one("c").like("d")],
        attrs: &[
            default_attr("inputPrecision", INPUT_PRECISION, "ieee"),
            default_attr("maxNumImpreciseAcc", AttrKind::Int(32), "0"),
        ],
        results: &[one("d")],
        format: "$a`,` $b`,` $c (`,` `inputPrecision` `=` $inputPrecision^)? attr-dict `:` type($a) `*` type($b) `->` type($d)",
        traits: Traits::PURE,
        verify: Some(verify_dot),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.extern_elementwise",
        operands: &[var("srcs")],
        attrs: &[
            attr("libname", AttrKind::Str),
            attr("libpath", AttrKind::Str),
            attr("symbol", AttrKind::Str),
            attr("pure", AttrKind::Bool),
        ],
        results: &[one("result")],
        format: "$srcs attr-dict `:` functional-type(operands, results)",
        traits: Traits::ELEMENTWISE,
        verify: Some(verify_extern),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.make_range",
        attrs: &[attr("start", AttrKind::Int(32)), attr("end", AttrKind::Int(32))],
        results: &[one("result")],
        format: "attr-dict `:` type($result)",
        traits: Traits::PURE,
        verify: Some(verify_make_range),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.elementwise_inline_asm",
        operands: &[var("args")],
        attrs: &[
            attr("asm_string", AttrKind::Str),
            attr("constraints", AttrKind::Str),
            attr("pure", AttrKind::Bool),
            attr("packed_element", AttrKind::Int(32)),
        ],
        results: &[var("result")],
        format: "$asm_string attr-dict ($args^ `:` type($args))? `->` type($result)",
        traits: Traits::ELEMENTWISE,
        verify: Some(verify_inline_asm),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.histogram",
        operands: &[one("src"), opt("mask")],
        results: &[one("result")],
        format: "$src (`,` $mask^)? attr-dict `:` custom<MaskedSrc>($src, $mask) `->` type($result)",
        customs: &[super::customs::MASKED_SRC],
        traits: Traits::PURE,
        verify: Some(verify_histogram),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.gather",
        operands: &[one("src"), one("indices")],
        attrs: &[attr("axis", AttrKind::Int(32)), opt_attr("efficient_layout", AttrKind::Unit)],
        results: &[one("result")],
        format: "$src `[` $indices `]` attr-dict `:` functional-type(operands, results)",
        traits: Traits::PURE,
        verify: Some(verify_gather),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.print",
        operands: &[var("args")],
        attrs: &[attr("prefix", AttrKind::Str), attr("hex", AttrKind::Bool), attr("isSigned", AttrKind::I32Array)],
        format: "$prefix attr-dict (`:` $args^ `:` type($args))?",
        verify: Some(verify_print),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "tt.assert",
        operands: &[one("condition")],
        attrs: &[attr("message", AttrKind::Str)],
        format: "$condition `,` $message attr-dict `:` type($condition)",
        verify: Some(verify_assert),
        ..OpSpec::EMPTY
    },
];
