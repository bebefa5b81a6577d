//! HIVM ops that move data by index or stride, atomically, or between
//! local buffers: gathers and scatters, indirect and strided loads and
//! stores, atomics, `l12ub`/`nz2nd`, and the scalar/local accesses — each
//! one declarative definition with upstream's format. They parse, print
//! and verify structurally; the CPU twin refuses them with a located error.

use hivm_ir::OpDef;
use hivm_ir::opspec::{AttrKind, OpSpec, ValueDef, attr, default_attr, one, opt, opt_attr, var};

use super::attrs::kinds::{ATOMIC_KIND, CACHE_MODIFIER, EVICTION_POLICY};

const RESULT: &[ValueDef] = &[opt("result")];
const RESULT_TENSOR: &[ValueDef] = &[opt("result_tensor")];

const GATHER_LOAD: OpSpec = OpSpec {
    name: "hivm.hir.gather_load",
    operands: &[one("base"), one("indices"), one("burst_len"), opt("mask"), opt("other"), one("dst")],
    attrs: &[
        opt_attr("cache", CACHE_MODIFIER),
        opt_attr("evict", EVICTION_POLICY),
        opt_attr("isVolatile", AttrKind::Bool),
    ],
    results: RESULT,
    format: "`ins` `(` $base `:` type($base) `,` $indices `:` type($indices) `,` $burst_len `:` type($burst_len) \
             (`,` $mask `:` type($mask)^)? (`,` $other `:` type($other)^)? `)` `outs` `(` $dst `:` type($dst) `)` \
             attr-dict (`->` type($result)^)?",
    ..OpSpec::EMPTY
};

const SCATTER_STORE: OpSpec = OpSpec {
    name: "hivm.hir.scatter_store",
    operands: &[one("indices"), one("data"), one("burst_len"), opt("mask"), one("base")],
    attrs: &[opt_attr("cache", CACHE_MODIFIER), opt_attr("evict", EVICTION_POLICY)],
    results: RESULT,
    format: "`ins` `(` $indices `:` type($indices) `,` $data `:` type($data) `,` $burst_len `:` type($burst_len) \
             (`,` $mask `:` type($mask)^)? `)` `outs` `(` $base `:` type($base) `)` attr-dict (`->` type($result)^)?",
    ..OpSpec::EMPTY
};

const INDIRECT_LOAD: OpSpec = OpSpec {
    name: "hivm.hir.indirect_load",
    operands: &[one("src"), one("offsets"), one("dst"), opt("mask"), opt("other")],
    attrs: &[default_attr("isVolatile", AttrKind::Bool, "true")],
    results: RESULT,
    segments: true,
    format: "`ins` `(` $src `:` type($src) `,` $offsets `:` type($offsets) (`,` $mask^ `:` type($mask))? \
             (`,` $other^ `:` type($other))? `)` `outs` `(` $dst `:` type($dst) `)` attr-dict (`->` type($result)^)?",
    ..OpSpec::EMPTY
};

const INDIRECT_STORE: OpSpec = OpSpec {
    name: "hivm.hir.indirect_store",
    operands: &[one("dst"), one("offsets"), one("src"), opt("mask")],
    format: "`ins` `(` $src `:` type($src) `,` $offsets `:` type($offsets) (`,` $mask^ `:` type($mask))? `)` \
             `outs` `(` $dst `:` type($dst) `)` attr-dict",
    ..OpSpec::EMPTY
};

pub(crate) const STRIDE_LOAD: OpSpec = OpSpec {
    name: "hivm.hir.stride_load",
    operands: &[one("src"), one("dst"), one("offset"), one("other"), var("stride"), var("numel")],
    results: RESULT,
    format: "`ins` `(` $src `:` type($src) `)` `outs` `(` $dst `:` type($dst) `)` `offset` `(` $offset `:` type($offset) `)` \
             `other` `(` $other `:` type($other) `)` `strides` `(` `[` $stride `:` type($stride) `]` `)` \
             `numels` `(` `[` $numel `:` type($numel) `]` `)` attr-dict (`->` type($result)^)?",
    ..OpSpec::EMPTY
};

pub(crate) const STRIDE_STORE: OpSpec = OpSpec {
    name: "hivm.hir.stride_store",
    operands: &[one("dst"), one("src"), one("offset"), var("stride"), var("numel")],
    format: "`ins` `(` $src `:` type($src) `)` `outs` `(` $dst `:` type($dst) `)` `offset` `(` $offset `:` type($offset) `)` \
             `strides` `(` `[` $stride `:` type($stride) `]` `)` `numels` `(` `[` $numel `:` type($numel) `]` `)` attr-dict",
    ..OpSpec::EMPTY
};

const EMBEDDING_GATHER: OpSpec = OpSpec {
    name: "hivm.hir.embedding_gather",
    operands: &[one("src"), one("index"), one("dst"), one("bound"), var("offsets"), var("numels")],
    results: &[var("result")],
    format: "`ins` `(` $src `:` type($src) `,` $index `:` type($index) `,` $bound `:` type($bound) `,` \
             `[` $offsets `:` type($offsets) `]` `,` `[` $numels `:` type($numels) `]` `)` \
             `outs` `(` $dst `:` type($dst) `)` attr-dict (`->` type($result)^)?",
    ..OpSpec::EMPTY
};

/// `gatherT`'s operands and syntax, shared with `hfusion.gatherT`.
pub(crate) const GATHER_T_OPERANDS: &[ValueDef] = &[
    one("src"),
    one("index"),
    one("dst"),
    one("bound"),
    one("dim"),
    var("src_stride"),
    var("index_shape"),
    var("offsets"),
];
pub(crate) const GATHER_T_FORMAT: &str = "`ins` `(` $src `:` type($src) `,` $index `:` type($index) `,` $bound `:` type($bound) `,` \
             $dim `:` type($dim) `,` `[` $src_stride `:` type($src_stride) `]` `,` \
             `[` $index_shape `:` type($index_shape) `]` `,` `[` $offsets `:` type($offsets) `]` `)` \
             `outs` `(` $dst `:` type($dst) `)` attr-dict (`->` type($result)^)?";

const GATHER_T: OpSpec = OpSpec {
    name: "hivm.hir.gatherT",
    operands: GATHER_T_OPERANDS,
    results: RESULT,
    format: GATHER_T_FORMAT,
    ..OpSpec::EMPTY
};

const SCATTER_T: OpSpec = OpSpec {
    name: "hivm.hir.scatterT",
    operands: &[
        one("dst"),
        one("value"),
        one("index_tile"),
        one("index_boundary"),
        one("dim"),
        var("dst_stride"),
        var("index_shape"),
        var("offsets"),
    ],
    segments: true,
    format: "`ins` `(` $dst `:` type($dst) `,` $value `:` type($value)`,` $index_tile `:` type($index_tile)`,` \
             $index_boundary `:` type($index_boundary)`,` $dim `:` type($dim)`,` \
             `[` $dst_stride `:` type($dst_stride) `]` `,` `[` $index_shape `:` type($index_shape) `]` `,` \
             `[` $offsets `:` type($offsets) `]` `)` attr-dict",
    ..OpSpec::EMPTY
};

/// `index_put`'s operands and syntax, shared with `hfusion.index_put`.
pub(crate) const INDEX_PUT_OPERANDS: &[ValueDef] = &[
    one("dst"),
    one("index"),
    one("value"),
    one("scatter_dim"),
    one("bound"),
    var("end_offset"),
    var("start_offset"),
    var("dst_stride"),
];
pub(crate) const INDEX_PUT_FORMAT: &str = "`ins` `(` $dst `:` type($dst) `,` $index `:` type($index) `,` \
     $value `:` type($value) `,` $scatter_dim `:` type($scatter_dim) `,` $bound `:` type($bound) `,` \
     `[` $end_offset `:` type($end_offset) `]` `,` `[` $start_offset `:` type($start_offset) `]` `,` \
     `[` $dst_stride `:` type($dst_stride) `]` `)` attr-dict";

const INDEX_PUT: OpSpec =
    OpSpec { name: "hivm.hir.index_put", operands: INDEX_PUT_OPERANDS, format: INDEX_PUT_FORMAT, ..OpSpec::EMPTY };

macro_rules! src_dst_result {
    ($extra:literal) => {
        concat!(
            "attr-dict `ins` `(` $src `:` type($src) `)` `outs` `(` $dst `:` type($dst) `)` ",
            $extra,
            "(`->` type($result_tensor)^)?"
        )
    };
}

/// `l12ub`, `nz2nd`: a plain copy between buffers of different layouts.
const fn copy_like(name: &'static str) -> OpSpec {
    const OPERANDS: &[ValueDef] = &[one("src"), one("dst")];
    OpSpec { name, operands: OPERANDS, results: RESULT_TENSOR, format: src_dst_result!(""), ..OpSpec::EMPTY }
}

const ATOMIC_CAS: OpSpec = OpSpec {
    name: "hivm.hir.atomic_cas",
    operands: &[var("src"), one("dst")],
    results: RESULT_TENSOR,
    format: src_dst_result!(""),
    ..OpSpec::EMPTY
};

const ATOMIC_RMW: OpSpec = OpSpec {
    name: "hivm.hir.atomic_rmw",
    operands: &[one("src"), one("dst")],
    attrs: &[attr("atomic_kind", ATOMIC_KIND)],
    results: RESULT_TENSOR,
    format: src_dst_result!("`atomic_kind` `=` $atomic_kind "),
    ..OpSpec::EMPTY
};

const ATOMIC_XCHG: OpSpec = OpSpec {
    name: "hivm.hir.atomic_xchg",
    operands: &[one("src"), one("dst"), opt("mask")],
    results: RESULT_TENSOR,
    format: src_dst_result!("(`mask` `(` $mask^ `:` type($mask) `)`)? "),
    ..OpSpec::EMPTY
};

const LOAD_SCALAR: OpSpec = OpSpec {
    name: "hivm.hir.load_scalar",
    operands: &[one("addr")],
    results: &[one("result")],
    format: "attr-dict $addr `:` type($addr) `->` type($result)",
    ..OpSpec::EMPTY
};

const LOCAL_LOAD: OpSpec = OpSpec {
    name: "hivm.hir.local_load",
    operands: &[one("addr")],
    results: &[one("result")],
    format: "`ins` `(` $addr `:` type($addr) `)` attr-dict `->` type($result)",
    ..OpSpec::EMPTY
};

const LOCAL_STORE: OpSpec = OpSpec {
    name: "hivm.hir.local_store",
    operands: &[one("addr"), one("data")],
    format: "`ins` `(` $addr `:` type($addr) `,` $data `:` type($data) `)` attr-dict",
    ..OpSpec::EMPTY
};

pub fn defs() -> Vec<OpDef> {
    [
        GATHER_LOAD,
        SCATTER_STORE,
        INDIRECT_LOAD,
        INDIRECT_STORE,
        STRIDE_LOAD,
        STRIDE_STORE,
        EMBEDDING_GATHER,
        GATHER_T,
        SCATTER_T,
        INDEX_PUT,
        copy_like("hivm.hir.l12ub"),
        copy_like("hivm.hir.nz2nd"),
        ATOMIC_CAS,
        ATOMIC_RMW,
        ATOMIC_XCHG,
        LOAD_SCALAR,
        LOCAL_LOAD,
        LOCAL_STORE,
    ]
    .into_iter()
    .map(OpSpec::def)
    .collect()
}
