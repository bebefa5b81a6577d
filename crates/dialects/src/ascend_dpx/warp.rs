//! Warp-level lane exchange: the shuffles (`shfl.up`, `shfl.idx`, ...),
//! `permute` and the warp reductions (`reduce.add`, ...).

use hivm_ir::opspec::{Fixed, OpSpec, ValueDef, one};

const RES: &[ValueDef] = &[one("res")];
const SRC: &[ValueDef] = &[one("src")];
const SHUFFLE_OPERANDS: &[ValueDef] = &[
    one("src"),
    one("lane_mask").of(Fixed::Int(32)),
    one("clamp").of(Fixed::Int(32)),
    one("index").of(Fixed::Int(32)),
];

const fn shuffle(name: &'static str) -> OpSpec {
    OpSpec {
        name,
        operands: SHUFFLE_OPERANDS,
        results: RES,
        format: "$src `,` $lane_mask `,` $clamp `,` $index attr-dict `:` functional-type(operands, results)",
        ..OpSpec::EMPTY
    }
}

const fn reduce(name: &'static str) -> OpSpec {
    OpSpec {
        name,
        operands: SRC,
        results: RES,
        format: "$src attr-dict `:` functional-type(operands, results)",
        ..OpSpec::EMPTY
    }
}

pub(super) const SPECS: &[OpSpec] = &[
    shuffle("ascend_dpx.shfl.up"),
    shuffle("ascend_dpx.shfl.down"),
    shuffle("ascend_dpx.shfl.bfly"),
    shuffle("ascend_dpx.shfl.idx"),
    OpSpec {
        name: "ascend_dpx.permute",
        operands: &[one("src1"), one("src2"), one("selector").of(Fixed::Int(32))],
        results: RES,
        format: "$src1 `,` $src2 `,` $selector attr-dict `:` functional-type(operands, results)",
        ..OpSpec::EMPTY
    },
    reduce("ascend_dpx.reduce.add"),
    reduce("ascend_dpx.reduce.max"),
    reduce("ascend_dpx.reduce.min"),
    reduce("ascend_dpx.reduce.umax"),
    reduce("ascend_dpx.reduce.umin"),
];
