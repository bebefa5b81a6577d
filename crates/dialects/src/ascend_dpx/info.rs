//! Thread, block and grid queries (`thread_id_x`, `block_dim_y`, ...), the
//! cycle counters, and the block barrier and `yield`.

use hivm_ir::Traits;
use hivm_ir::opspec::{Fixed, OpSpec, ValueDef, one};

const I32_RES: &[ValueDef] = &[one("res").of(Fixed::Int(32))];

const fn query(name: &'static str, traits: Traits) -> OpSpec {
    OpSpec { name, results: I32_RES, format: "attr-dict", traits, ..OpSpec::EMPTY }
}

pub(super) const SPECS: &[OpSpec] = &[
    query("ascend_dpx.thread_id_x", Traits::PURE),
    query("ascend_dpx.thread_id_y", Traits::PURE),
    query("ascend_dpx.thread_id_z", Traits::PURE),
    query("ascend_dpx.block_idx_x", Traits::PURE),
    query("ascend_dpx.block_idx_y", Traits::PURE),
    query("ascend_dpx.block_idx_z", Traits::PURE),
    query("ascend_dpx.block_idx", Traits::PURE),
    query("ascend_dpx.block_dim_x", Traits::PURE),
    query("ascend_dpx.block_dim_y", Traits::PURE),
    query("ascend_dpx.block_dim_z", Traits::PURE),
    query("ascend_dpx.grid_dim_x", Traits::PURE),
    query("ascend_dpx.grid_dim_y", Traits::PURE),
    query("ascend_dpx.grid_dim_z", Traits::PURE),
    query("ascend_dpx.core_id", Traits::PURE),
    // The counters read the clock, so they are not pure.
    query("ascend_dpx.clock32", Traits::NONE),
    OpSpec {
        name: "ascend_dpx.clock64",
        results: &[one("res").of(Fixed::Int(64))],
        format: "attr-dict",
        ..OpSpec::EMPTY
    },
    OpSpec { name: "ascend_dpx.sync_threads", format: "attr-dict", ..OpSpec::EMPTY },
    OpSpec { name: "ascend_dpx.yield", format: "attr-dict", ..OpSpec::EMPTY },
];
