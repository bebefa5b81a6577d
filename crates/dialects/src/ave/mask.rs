//! Mask (predicate) ops: generating masks from a pattern (`pge`) or a
//! count (`plt`, `pltm`), the logic ops on masks (`preg.*`) and the mask
//! width cast (`preg.cast`).

use hivm_ir::Traits;
use hivm_ir::opspec::{AttrDef, Fixed, OpSpec, ValueDef, attr, one};

use super::{MASK_TYPE, PGE_PATTERN, PREG_CAST_MODE};

const PREG_ATTRS: &[AttrDef] = &[attr("masked_type", MASK_TYPE)];
const UNARY_OPERANDS: &[ValueDef] = &[one("src"), one("mask").like("src")];
const UNARY_RES: &[ValueDef] = &[one("res").like("src")];
const BINARY_OPERANDS: &[ValueDef] = &[one("lhs"), one("rhs").like("lhs"), one("mask").like("lhs")];
const BINARY_RES: &[ValueDef] = &[one("res").like("lhs")];

const fn preg_unary(name: &'static str) -> OpSpec {
    OpSpec {
        name,
        operands: UNARY_OPERANDS,
        attrs: PREG_ATTRS,
        results: UNARY_RES,
        format: "$masked_type $src `,` $mask attr-dict `:` type($src)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    }
}

const fn preg_binary(name: &'static str) -> OpSpec {
    OpSpec {
        name,
        operands: BINARY_OPERANDS,
        attrs: PREG_ATTRS,
        results: BINARY_RES,
        format: "$masked_type $lhs `,` $rhs `,` $mask attr-dict `:` type($lhs)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    }
}

pub(super) const SPECS: &[OpSpec] = &[
    OpSpec {
        name: "ave.hir.pge",
        attrs: &[attr("pattern", PGE_PATTERN)],
        results: &[one("res")],
        format: "$pattern attr-dict `:` type($res)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "ave.hir.plt",
        operands: &[one("true_shape").of(Fixed::Index)],
        results: &[one("res"), one("new_true_shape").of(Fixed::Index)],
        format: "$true_shape attr-dict `:` type($res) `,` type($new_true_shape)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "ave.hir.pltm",
        operands: &[one("offset").of(Fixed::Index), one("ub").of(Fixed::Index)],
        results: &[one("res")],
        format: "$offset `,` $ub attr-dict `:` type($res)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    preg_unary("ave.hir.preg.not"),
    preg_binary("ave.hir.preg.and"),
    preg_binary("ave.hir.preg.or"),
    preg_binary("ave.hir.preg.xor"),
    OpSpec {
        name: "ave.hir.preg.cast",
        operands: &[one("src")],
        attrs: &[attr("preg_cast_mode", PREG_CAST_MODE)],
        results: &[one("res")],
        format: "$src $preg_cast_mode attr-dict `:` type($src) `->` type($res)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
];
