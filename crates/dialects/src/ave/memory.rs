//! Ops that touch memory: contiguous loads and masked stores with a
//! distribution pattern, strided and unaligned stores, gather/scatter by
//! an index vector, and the vector memory barrier.

use hivm_ir::Traits;
use hivm_ir::opspec::{Fixed, OpSpec, attr, one, opt, var};

use super::{LOAD_DIST, MASK, STORE_DIST};

const INDICES: hivm_ir::opspec::ValueDef = var("indices").of(Fixed::Index);

pub(super) const SPECS: &[OpSpec] = &[
    OpSpec {
        name: "ave.hir.vload",
        operands: &[one("base"), INDICES],
        attrs: &[attr("pattern", LOAD_DIST)],
        results: &[one("res"), opt("res1")],
        format: "$pattern $base `[` $indices `]` attr-dict `:` type($base) `into` type($res) (`,` type($res1)^)?",
        traits: Traits::PURE,
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "ave.hir.masked_store",
        operands: &[one("base"), INDICES, MASK, one("val")],
        attrs: &[attr("pattern", STORE_DIST)],
        format: concat!(
            "$pattern $base `[` $indices `]` `,` $mask `,` $val attr-dict `:` ",
            "type($base) `,` type($mask) `,` type($val)"
        ),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "ave.hir.unaligned.masked.store",
        operands: &[one("base"), INDICES, MASK, one("val")],
        format: "$base `[` $indices `]` `,` $mask `,` $val attr-dict `:` type($base) `,` type($mask) `,` type($val)",
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "ave.hir.store_with_stride",
        operands: &[one("base"), INDICES, one("stride").of(Fixed::Index), MASK, one("val")],
        format: concat!(
            "$base `[` $indices `]` `,` $stride `,` $mask `,` $val attr-dict `:` ",
            "type($base) `,` type($mask) `,` type($val)"
        ),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "ave.hir.vgather",
        operands: &[one("base"), INDICES, one("index_vec"), MASK],
        results: &[one("res")],
        format: concat!(
            "$base `[` $indices `]` `[` $index_vec `]` `,` $mask attr-dict `:` ",
            "type($base) `,` type($index_vec) `,` type($mask) `into` type($res)"
        ),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "ave.hir.vscatter",
        operands: &[one("base"), INDICES, one("index_vec"), MASK, one("val")],
        format: concat!(
            "$base `[` $indices `]` `[` $index_vec `]` `,` $mask `,` $val attr-dict `:` ",
            "type($base) `,` type($index_vec) `,` type($mask) `,` type($val)"
        ),
        ..OpSpec::EMPTY
    },
    OpSpec {
        name: "ave.hir.membar",
        operands: &[one("src").of(Fixed::Int(32))],
        format: "$src attr-dict",
        ..OpSpec::EMPTY
    },
];
