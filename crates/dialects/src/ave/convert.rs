//! Element type conversions: float/int extension and truncation, float ↔
//! integer conversions, and `vtrc` (rounding in place). Most take the half
//! of the lanes to read or write (`<part_even>`) and a HIVM round mode.

use hivm_ir::Traits;
use hivm_ir::opspec::{AttrKind, OpSpec, attr, one, opt_attr};

use super::{MASK, PART_TYPE, PP_TYPE};
use crate::hivm::attrs::kinds::{ROUND_MODE, UNSIGNED_MODE};

const OPERANDS: &[hivm_ir::opspec::ValueDef] = &[one("src"), MASK];
const RES: &[hivm_ir::opspec::ValueDef] = &[one("res")];

/// `$src, $mask : src, res, mask` with the part/pp choices optional.
const EXT_ATTRS: &[hivm_ir::opspec::AttrDef] = &[opt_attr("part", PART_TYPE), opt_attr("pp", PP_TYPE)];

const fn ext_int(name: &'static str) -> OpSpec {
    OpSpec {
        name,
        operands: OPERANDS,
        attrs: EXT_ATTRS,
        results: RES,
        format: "$src `,` $mask attr-dict `:` type($src) `,` type($res) `,` type($mask)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    }
}

pub(super) const SPECS: &[OpSpec] = &[
    OpSpec {
        name: "ave.hir.vextf",
        operands: OPERANDS,
        attrs: &[attr("part", PART_TYPE)],
        results: RES,
        format: "$src `,` $part `,` $mask attr-dict `:` type($src) `,` type($res) `,` type($mask)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    ext_int("ave.hir.vextsi"),
    ext_int("ave.hir.vextui"),
    OpSpec {
        name: "ave.hir.vtrunci",
        operands: OPERANDS,
        attrs: &[
            attr("sat", AttrKind::Bool),
            opt_attr("part", PART_TYPE),
            opt_attr("pp", PP_TYPE),
            opt_attr("uni", UNSIGNED_MODE),
        ],
        results: RES,
        format: "$src `,` $sat `,` $mask attr-dict `:` type($src) `,` type($res) `,` type($mask)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "ave.hir.vtruncf",
        operands: OPERANDS,
        attrs: &[attr("rnd", ROUND_MODE), attr("sat", AttrKind::Bool), attr("part", PART_TYPE)],
        results: RES,
        format: concat!(
            "$src `,` $rnd `,` $sat `,` $part `,` $mask attr-dict `:` ",
            "type($src) `,` type($res) `,` type($mask)"
        ),
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "ave.hir.vfptosi",
        operands: OPERANDS,
        attrs: &[attr("rnd", ROUND_MODE), opt_attr("sat", AttrKind::Bool), opt_attr("part", PART_TYPE)],
        results: RES,
        format: "$src `,` $rnd `,` $mask attr-dict `:` type($src) `,` type($mask) `,` type($res)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "ave.hir.vfptoui",
        operands: OPERANDS,
        attrs: &[attr("rnd", ROUND_MODE), attr("sat", AttrKind::Bool), attr("part", PART_TYPE)],
        results: RES,
        format: concat!(
            "$src `,` $rnd `,` $sat `,` $part `,` $mask attr-dict `:` ",
            "type($src) `,` type($mask) `,` type($res)"
        ),
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "ave.hir.vsitofp",
        operands: OPERANDS,
        attrs: &[opt_attr("rnd", ROUND_MODE), opt_attr("part", PART_TYPE)],
        results: RES,
        format: "$src `,` $mask attr-dict `:` type($src) `,` type($mask) `,` type($res)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "ave.hir.vuitofp",
        operands: OPERANDS,
        attrs: &[opt_attr("rnd", ROUND_MODE), attr("part", PART_TYPE)],
        results: RES,
        format: "$src `,` $part `,` $mask attr-dict `:` type($src) `,` type($mask) `,` type($res)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "ave.hir.vtrc",
        operands: OPERANDS,
        attrs: &[attr("rnd", ROUND_MODE)],
        results: RES,
        format: "$src `,` $rnd `,` $mask attr-dict `:` type($src) `,` type($mask) `,` type($res)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
];
