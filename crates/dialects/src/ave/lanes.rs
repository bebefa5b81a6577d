//! Ops that build or move lanes: broadcasts of a scalar or of a vector's
//! first lane, the index sequence `vci`, select, (de)interleave, pack and
//! unpack, slide, and the layout-only cast.

use hivm_ir::Traits;
use hivm_ir::opspec::{AttrDef, AttrKind, OpSpec, ValueDef, attr, default_attr, one, opt_attr};

use super::{MASK, VCI_TYPE};

/// `#ave<layout_change DENSE>`, written only in the attribute dictionary.
const LAYOUT_CHANGE: AttrKind = AttrKind::Any;

const PAIR_OPERANDS: &[ValueDef] = &[one("src1"), one("src2").like("src1")];
const PAIR_RES: &[ValueDef] = &[one("res1"), one("res2").like("res1")];
const LAYOUT_ATTRS: &[AttrDef] = &[opt_attr("layout_change", LAYOUT_CHANGE)];
const PACK_OPERANDS: &[ValueDef] = &[one("src")];
const PACK_ATTRS: &[AttrDef] = &[default_attr("part", AttrKind::Int(32), "0")];
const PACK_RES: &[ValueDef] = &[one("res")];

const fn interleave(name: &'static str) -> OpSpec {
    OpSpec {
        name,
        operands: PAIR_OPERANDS,
        attrs: LAYOUT_ATTRS,
        results: PAIR_RES,
        format: "$src1 `,` $src2 attr-dict `:` type($src1) `,` type($res1)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    }
}

const fn pack(name: &'static str) -> OpSpec {
    OpSpec {
        name,
        operands: PACK_OPERANDS,
        attrs: PACK_ATTRS,
        results: PACK_RES,
        format: "$src `,` $part attr-dict `:` type($src) `->` type($res)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    }
}

pub(super) const SPECS: &[OpSpec] = &[
    OpSpec {
        name: "ave.hir.scalar_broadcast",
        operands: &[one("src")],
        results: &[one("res")],
        format: "$src attr-dict `:` type($src) `->` type($res)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "ave.hir.vector_broadcast",
        operands: &[one("src"), MASK],
        attrs: &[attr("low", AttrKind::Bool)],
        results: &[one("res")],
        format: "$src `,` $mask `,` $low attr-dict `:` type($src) `,` type($mask) `->` type($res)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "ave.hir.broadcast",
        operands: &[one("src"), MASK],
        results: &[one("res")],
        format: "$src `,` $mask attr-dict `:` type($src) `,` type($mask) `->` type($res)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "ave.hir.vci",
        operands: &[one("index")],
        attrs: &[attr("increase_p", VCI_TYPE)],
        results: &[one("res")],
        format: "$index `,` $increase_p attr-dict `:` type($index) `,` type($res)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "ave.hir.vsel",
        operands: &[MASK, one("true_value").like("res"), one("false_value").like("res")],
        results: &[one("res")],
        format: "$mask `,` $true_value `,` $false_value attr-dict `:` type($mask) `,` type($res)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    interleave("ave.hir.vintlv"),
    interleave("ave.hir.vdintlv"),
    pack("ave.hir.vpack"),
    pack("ave.hir.vunpack"),
    OpSpec {
        name: "ave.hir.vslide",
        operands: &[one("src1"), one("src2").like("src1"), one("slide_amount")],
        results: &[one("result").like("src1")],
        format: concat!(
            "$src1 `,` $src2 `,` $slide_amount attr-dict `:` ",
            "type($src1) `,` type($slide_amount) `->` type($result)"
        ),
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "ave.hir.vector.layout_cast",
        operands: &[one("src")],
        results: &[one("res")],
        format: "$src attr-dict `:` type($src) `->` type($res)",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
];
