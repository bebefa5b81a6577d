//! Printer reproducing `mlir-opt` output byte for byte: generic and custom op
//! forms, regions and block headers, SSA names, and `#map`/`#set` aliases.

mod attrs;
mod dialect_attrs;
mod expansion;
mod float;
mod names;

use rustc_hash::FxHashMap as HashMap;
use std::fmt::Write;

pub use attrs::Elide;
pub use float::{apfloat_to_string, format_float};
use names::Names;

use crate::attrs::{AttrData, Attribute};
use crate::dialect::Traits;
use crate::ir::{BlockId, Ir, OpId, RegionId, Value};
use crate::types::Type;

#[derive(Clone, Copy, Debug, Default)]
pub struct PrintOptions {
    pub generic: bool,
    pub debuginfo: bool,
}

pub struct Printer<'a> {
    pub ir: &'a Ir,
    pub out: String,
    pub options: PrintOptions,
    indent: usize,
    names: Names,
    aliases: HashMap<Attribute, String>,
    /// Set during the alias-collection dry run.
    collecting: Option<Vec<Attribute>>,
    default_dialect: Vec<&'static str>,
    /// Where full output goes when streaming; `out` is flushed into it in chunks.
    sink: Option<&'a mut dyn std::io::Write>,
    io_error: Option<std::io::Error>,
    /// Set when the text held at once outgrew [`MAX_HELD`] or memory: from
    /// then on attributes and types print nothing, and the output is an error.
    overflow: bool,
    /// How deep in attributes and types printing is: the expansion of a
    /// value is checked where it starts, at depth 0.
    value_depth: u32,
    expansion: expansion::Expansion,
    /// The innermost op being printed, and the one printing stopped in.
    printing: Option<OpId>,
    overflow_at: Option<OpId>,
    /// `--mlir-print-debuginfo`: locations seen during the dry run, in order,
    /// with whether their alias may be deferred to the end of the output.
    collected_locs: Vec<(Attribute, bool)>,
    /// Location aliases keyed by value (locations are not uniqued).
    loc_aliases: HashMap<AttrData, String>,
    /// Predecessors of the blocks of the regions being printed (innermost
    /// last), gathered once per region so `// pred:` comments stay linear.
    preds: Vec<(RegionId, HashMap<BlockId, Vec<BlockId>>)>,
    /// Dialect attributes with an alias (by `dialect_attrs::key`).
    dialect_aliases: HashMap<String, String>,
    /// During the dry run: dialect attributes seen, with whether they get
    /// an alias and their alias depth (MLIR orders aliases by depth).
    visited_dialect: HashMap<String, (bool, usize)>,
    /// Those that get an alias, in visit order: key, alias name, depth.
    collected_dialect: Vec<(String, &'static str, usize)>,
    /// `distinct[N]` ids renumbered in print order (when `renumber_distinct`).
    distinct_ids: HashMap<String, usize>,
    renumber_distinct: bool,
}

impl<'a> Printer<'a> {
    fn new(ir: &'a Ir, root: OpId, options: PrintOptions) -> Printer<'a> {
        Printer {
            ir,
            out: String::new(),
            options,
            indent: 0,
            names: Names::compute(ir, root, !options.generic),
            aliases: HashMap::default(),
            collecting: None,
            default_dialect: vec!["builtin"],
            sink: None,
            io_error: None,
            overflow: false,
            value_depth: 0,
            expansion: expansion::Expansion::default(),
            printing: None,
            overflow_at: None,
            collected_locs: Vec::new(),
            loc_aliases: HashMap::default(),
            preds: Vec::new(),
            dialect_aliases: HashMap::default(),
            visited_dialect: HashMap::default(),
            collected_dialect: Vec::new(),
            distinct_ids: HashMap::default(),
            renumber_distinct: true,
        }
    }

    /// Whether printing must stop: the text held at once (one op's, between
    /// flush points) is past [`MAX_HELD`], or room for more could not be
    /// had. Checked where attributes and types start, so aliases that each
    /// double what they stand for (a few hundred bytes of input, 2^40 bytes
    /// of output) end in an error instead of an allocation failure, and
    /// quickly: once set, nothing nested is visited.
    pub(crate) fn over_budget(&mut self) -> bool {
        if !self.overflow {
            let spare = self.out.capacity() - self.out.len();
            if self.out.len() > MAX_HELD
                || (spare < 1 << 16 && self.out.try_reserve(self.out.len().max(1 << 16)).is_err())
            {
                self.stop();
            }
        }
        self.overflow
    }

    fn stop(&mut self) {
        self.overflow = true;
        self.overflow_at = self.printing;
    }

    /// Enters an attribute (`Ok`) or type (`Err`): false when printing must
    /// stop, because of the budget or because a top-level value expands
    /// past [`expansion::MAX_ELEMENTS`]. Pair with [`Printer::leave_value`].
    pub(crate) fn enter_value(&mut self, v: Result<Attribute, Type>) -> bool {
        if self.over_budget() {
            return false;
        }
        if self.value_depth == 0 {
            let n = match v {
                Ok(a) => self.expansion.attr(self.ir, a),
                Err(t) => self.expansion.ty(self.ir, t),
            };
            if n > expansion::MAX_ELEMENTS {
                self.stop();
                return false;
            }
        }
        self.value_depth += 1;
        true
    }

    pub(crate) fn leave_value(&mut self) {
        self.value_depth -= 1;
    }

    /// Bounds memory on large outputs: between ops, buffered text goes to the
    /// sink (or is dropped during the alias dry run).
    fn flush_point(&mut self) {
        if self.out.len() < 1 << 16 {
            return;
        }
        if self.collecting.is_some() {
            self.out.clear();
        } else if let Some(w) = &mut self.sink {
            if self.io_error.is_none()
                && let Err(e) = w.write_all(self.out.as_bytes())
            {
                self.io_error = Some(e);
            }
            self.out.clear();
        }
    }

    /// A printer for isolated snippets (diagnostics), with no SSA names.
    fn snippet(ir: &'a Ir) -> Printer<'a> {
        Printer {
            ir,
            out: String::new(),
            options: PrintOptions::default(),
            indent: 0,
            names: Names::compute_empty(ir),
            aliases: HashMap::default(),
            collecting: None,
            default_dialect: vec!["builtin"],
            sink: None,
            io_error: None,
            overflow: false,
            value_depth: 0,
            expansion: expansion::Expansion::default(),
            printing: None,
            overflow_at: None,
            collected_locs: Vec::new(),
            loc_aliases: HashMap::default(),
            preds: Vec::new(),
            dialect_aliases: HashMap::default(),
            visited_dialect: HashMap::default(),
            collected_dialect: Vec::new(),
            distinct_ids: HashMap::default(),
            // Snippets feed diagnostics and re-parsing: ids stay as written.
            renumber_distinct: false,
        }
    }

    /// Prints an op's trailing ` loc(...)`, through an alias when one exists.
    fn print_trailing_loc(&mut self, loc: Attribute) {
        let ir = self.ir;
        self.out.push_str(" loc(");
        if self.collecting.is_some() {
            self.collected_locs.push((loc, true));
        }
        match self.loc_aliases.get(ir.attr_data(loc)) {
            Some(a) => {
                self.out.push('#');
                self.out.push_str(a);
            }
            None => self.print_loc_body(loc),
        }
        self.out.push(')');
    }

    /// Prints a block argument's ` loc(...)` inline (MLIR never aliases these,
    /// though it still defines an alias for them at the top).
    pub fn print_arg_loc(&mut self, loc: Attribute) {
        if self.collecting.is_some() {
            self.collected_locs.push((loc, false));
        }
        self.out.push_str(" loc(");
        self.print_loc_body(loc);
        self.out.push(')');
    }

    pub(crate) fn alias_for(&mut self, a: Attribute) -> Option<String> {
        if let Some(c) = &mut self.collecting {
            if matches!(self.ir.attr_data(a), AttrData::AffineMap(_) | AttrData::IntegerSet(_)) && !c.contains(&a) {
                c.push(a);
            }
            return None;
        }
        self.aliases.get(&a).cloned()
    }

    fn newline(&mut self) {
        self.out.push('\n');
    }

    /// A line break, then the current indentation (MLIR's `printNewline`).
    pub fn print_newline(&mut self) {
        self.out.push('\n');
        self.write_indent();
    }

    /// Deepens (or, negative, undoes) the indentation of following lines
    /// (MLIR's `increaseIndent` / `decreaseIndent`, two spaces each).
    pub fn indent_by(&mut self, levels: isize) {
        self.indent = self.indent.saturating_add_signed(2 * levels);
    }

    fn write_indent(&mut self) {
        for _ in 0..self.indent {
            self.out.push(' ');
        }
    }

    // ----- values and blocks -----

    pub fn print_value(&mut self, v: Value) {
        self.names.write_value(self.ir, v, &mut self.out);
    }

    /// A value's printed name, as text.
    pub fn value_text(&self, v: Value) -> String {
        let mut s = String::new();
        self.names.write_value(self.ir, v, &mut s);
        s
    }

    pub fn print_values(&mut self, vs: &[Value]) {
        for (i, v) in vs.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.print_value(*v);
        }
    }

    pub fn print_block_name(&mut self, b: BlockId) {
        match self.names.block_id(b) {
            Some(id) => {
                let _ = write!(self.out, "^bb{id}");
            }
            None => self.out.push_str("<<UNKNOWN BLOCK>>"),
        }
    }

    pub fn print_successor(&mut self, b: BlockId) {
        self.print_block_name(b);
    }

    /// `^bb1(%a, %b : i32, i64)` as printed by branch ops.
    pub fn print_successor_and_operands(&mut self, b: BlockId, operands: &[Value]) {
        self.print_block_name(b);
        if !operands.is_empty() {
            self.out.push('(');
            self.print_values(operands);
            self.out.push_str(" : ");
            let tys: Vec<Type> = operands.iter().map(|v| self.ir.value_type(*v)).collect();
            self.print_type_list(&tys);
            self.out.push(')');
        }
    }

    // ----- ops -----

    pub fn print_op(&mut self, op: OpId) {
        self.print_op_impl(op, true);
    }

    /// Prints an op without its `%results = ` (MLIR's `printCustomOrGenericOp`,
    /// used by ops that show a nested op inline, such as `vector.mask`).
    pub fn print_op_without_results(&mut self, op: OpId) {
        self.print_op_impl(op, false);
    }

    fn print_op_impl(&mut self, op: OpId, with_results: bool) {
        let outer = self.printing.replace(op);
        self.print_op_body(op, with_results);
        self.printing = outer;
    }

    fn print_op_body(&mut self, op: OpId, with_results: bool) {
        let ir = self.ir;
        if self.options.debuginfo && self.collecting.is_some() {
            // MLIR's alias walk visits an op's location before its body.
            self.collected_locs.push((ir.loc(op), true));
        }
        let results = ir.results(op);
        if with_results && !results.is_empty() {
            match self.names.groups(op).map(|g| g.to_vec()) {
                Some(groups) => {
                    for (i, start) in groups.iter().enumerate() {
                        if i > 0 {
                            self.out.push_str(", ");
                        }
                        let end = groups.get(i + 1).copied().unwrap_or(results.len() as u32);
                        self.names.write_group_head(results[*start as usize], &mut self.out);
                        if end - start > 1 {
                            let _ = write!(self.out, ":{}", end - start);
                        }
                    }
                }
                None => {
                    self.names.write_group_head(results[0], &mut self.out);
                    if results.len() > 1 {
                        let _ = write!(self.out, ":{}", results.len());
                    }
                }
            }
            self.out.push_str(" = ");
        }
        let def = ir.op_def(op);
        match def.and_then(|d| d.print).filter(|_| !self.options.generic) {
            Some(print) => {
                let name = ir.op_name(op);
                let dd = *self.default_dialect.last().unwrap();
                let short = name
                    .strip_prefix(dd)
                    .and_then(|s| s.strip_prefix('.'))
                    .filter(|s| !s.contains('.') || dd == "builtin");
                self.out.push_str(short.unwrap_or(name));
                let dialect = def.unwrap().default_dialect;
                self.default_dialect.push(dialect.unwrap_or(""));
                print(self, op);
                self.default_dialect.pop();
            }
            None => self.print_generic_op(op),
        }
        // An op shown inline inside another's syntax has no trailing location
        // (its location alias is still defined).
        if self.options.debuginfo && with_results {
            self.print_trailing_loc(ir.loc(op));
        }
    }

    pub fn print_generic_op(&mut self, op: OpId) {
        let ir = self.ir;
        let o = ir.op(op);
        if self.collecting.is_some() {
            // MLIR's alias walk visits a generic op's regions, then its
            // types, then its properties and attributes: aliases are
            // numbered in that order.
            self.default_dialect.push("");
            for r in ir.regions(op) {
                self.print_region_full(*r, true, true, true);
            }
            self.default_dialect.pop();
            self.print_operand_types(op);
            for v in ir.results(op) {
                self.print_type(ir.value_type(*v));
            }
            if let Some(p) = o.properties {
                self.print_attr(p, Elide::Never);
            }
            self.print_attr_dict(o.attrs, &[]);
            return;
        }
        self.out.push('"');
        attrs::escape_into(&mut self.out, ir.sym_str(o.name).as_bytes());
        self.out.push_str("\"(");
        self.print_values(ir.operands(op));
        self.out.push(')');
        let successors = ir.successors(op);
        if !successors.is_empty() {
            self.out.push('[');
            for (i, s) in successors.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.print_block_name(*s);
            }
            self.out.push(']');
        }
        if let Some(p) = o.properties {
            let empty = matches!(ir.attr_data(p), AttrData::Dictionary(e) if e.is_empty());
            if !empty {
                self.out.push_str(" <");
                self.print_attr(p, Elide::Never);
                self.out.push('>');
            }
        }
        let regions = ir.regions(op);
        if !regions.is_empty() {
            self.out.push_str(" (");
            self.default_dialect.push("");
            for (i, r) in regions.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.print_region_full(*r, true, true, true);
            }
            self.default_dialect.pop();
            self.out.push(')');
        }
        self.print_attr_dict(o.attrs, &[]);
        self.out.push_str(" : ");
        self.out.push('(');
        self.print_operand_types(op);
        self.out.push_str(") -> ");
        let results = ir.results(op);
        if results.len() == 1 && !matches!(ir.type_data(ir.value_type(results[0])), crate::TypeData::Function { .. }) {
            self.print_type(ir.value_type(results[0]));
        } else {
            let outs: Vec<Type> = results.iter().map(|v| ir.value_type(*v)).collect();
            self.print_result_types(&outs);
        }
    }

    /// ` {a = 1, ...}` from a dictionary attribute, skipping `elided` names.
    pub fn print_attr_dict(&mut self, dict: Attribute, elided: &[&str]) {
        let entries: Vec<_> = self
            .ir
            .dict_entries(dict)
            .iter()
            .filter(|(k, _)| !elided.contains(&self.ir.sym_str(*k)))
            .copied()
            .collect();
        self.print_attr_entries(&entries);
    }

    fn print_attr_entries(&mut self, entries: &[(crate::attrs::Sym, Attribute)]) {
        if entries.is_empty() {
            return;
        }
        self.out.push_str(" {");
        for (i, (k, v)) in entries.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.print_named_attr(*k, *v);
        }
        self.out.push('}');
    }

    /// All attributes of the op (inherent merged in), minus `elided`.
    pub fn print_optional_attr_dict(&mut self, op: OpId, elided: &[&str]) {
        let entries = self.merged_attrs(op, elided);
        self.print_attr_entries(&entries);
    }

    pub fn print_optional_attr_dict_with_keyword(&mut self, op: OpId, elided: &[&str]) {
        let entries = self.merged_attrs(op, elided);
        if !entries.is_empty() {
            self.out.push_str(" attributes");
            self.print_attr_entries(&entries);
        }
    }

    fn merged_attrs(&self, op: OpId, elided: &[&str]) -> Vec<(crate::attrs::Sym, Attribute)> {
        let ir = self.ir;
        let o = ir.op(op);
        let mut v: Vec<_> = ir.dict_entries(o.attrs).to_vec();
        if let Some(p) = o.properties {
            v.extend_from_slice(ir.dict_entries(p));
        }
        v.retain(|(k, _)| !elided.contains(&ir.sym_str(*k)));
        v.sort_by(|a, b| ir.sym_str(a.0).as_bytes().cmp(ir.sym_str(b.0).as_bytes()));
        v
    }

    // ----- regions -----

    /// Prints a region as custom printers do (`printRegion`).
    pub fn print_region(&mut self, r: RegionId, print_entry_args: bool, print_terminators: bool) {
        self.print_region_full(r, print_entry_args, print_terminators, false);
    }

    pub fn print_region_full(&mut self, r: RegionId, entry_args: bool, terminators: bool, empty_block: bool) {
        let ir = self.ir;
        self.out.push('{');
        self.newline();
        let blocks = ir.region_blocks(r);
        if let Some((&entry, rest)) = blocks.split_first() {
            let force =
                (empty_block && ir.block(entry).first.is_none()) || (entry_args && !ir.block_args(entry).is_empty());
            let with_preds = !rest.is_empty();
            if with_preds {
                self.preds.push((r, region_preds(ir, blocks)));
            }
            self.print_block(entry, force, terminators);
            for &b in rest {
                self.print_block(b, true, true);
            }
            if with_preds {
                self.preds.pop();
            }
        }
        self.write_indent();
        self.out.push('}');
    }

    fn print_block(&mut self, b: BlockId, header: bool, terminator: bool) {
        let ir = self.ir;
        if header {
            self.write_indent();
            self.print_block_name(b);
            let args = ir.block_args(b);
            if !args.is_empty() {
                self.out.push('(');
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.print_value(*a);
                    self.out.push_str(": ");
                    self.print_type(ir.value_type(*a));
                    if self.options.debuginfo {
                        self.print_arg_loc(ir.block_arg_loc(*a).unwrap_or(ir.unknown_loc()));
                    }
                }
                self.out.push(')');
            }
            self.out.push(':');
            self.print_preds(b);
            self.newline();
        }
        self.indent += 2;
        let last = ir.terminator(b);
        let skip_last = !terminator && last.is_some_and(|t| ir.op_def(t).is_some_and(|d| d.has(Traits::TERMINATOR)));
        for op in ir.block_ops(b) {
            if skip_last && Some(op) == last {
                break;
            }
            self.write_indent();
            self.print_op(op);
            self.newline();
            self.flush_point();
        }
        self.indent -= 2;
    }

    fn print_preds(&mut self, b: BlockId) {
        let ir = self.ir;
        let Some(r) = ir.block_parent(b) else { return };
        let mut preds = match self.preds.last() {
            Some((pr, map)) if *pr == r => map.get(&b).cloned().unwrap_or_default(),
            _ => region_preds(ir, ir.region_blocks(r)).remove(&b).unwrap_or_default(),
        };
        if preds.is_empty() {
            if !ir.is_entry_block(b) {
                self.out.push_str("  // no predecessors");
            }
        } else if preds.len() == 1 {
            self.out.push_str("  // pred: ");
            self.print_block_name(preds[0]);
        } else {
            preds.sort_by_key(|p| self.names.block_id(*p));
            let _ = write!(self.out, "  // {} preds: ", preds.len());
            for (i, p) in preds.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.print_block_name(*p);
            }
        }
    }

    // ----- helpers for custom printers -----

    pub fn print_operand_types(&mut self, op: OpId) {
        let ir = self.ir;
        for (i, v) in ir.operands(op).iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.print_type(ir.value_type(*v));
        }
    }

    pub fn print_value_types(&mut self, vs: &[Value]) {
        let tys: Vec<Type> = vs.iter().map(|v| self.ir.value_type(*v)).collect();
        self.print_type_list(&tys);
    }

    /// `(T1, T2) -> R` from operand and result types.
    pub fn print_functional_type(&mut self, op: OpId) {
        let ir = self.ir;
        self.out.push('(');
        self.print_operand_types(op);
        self.out.push_str(") -> ");
        let outs: Vec<Type> = ir.results(op).iter().map(|v| ir.value_type(*v)).collect();
        self.print_result_types(&outs);
    }

    pub fn print_arrow_results(&mut self, op: OpId) {
        let outs: Vec<Type> = self.ir.results(op).iter().map(|v| self.ir.value_type(*v)).collect();
        if !outs.is_empty() {
            self.out.push_str(" -> ");
            self.print_result_types(&outs);
        }
    }

    pub fn push(&mut self, s: &str) {
        self.out.push_str(s);
    }
}

impl Names {
    fn compute_empty(ir: &Ir) -> Names {
        // Naming over an op-less root: cheap and empty.
        let _ = ir;
        Names::empty()
    }
}

/// Prints a top-level op (normally `builtin.module`) with aliases first, followed
/// by a newline, exactly as mlir-opt writes it.
/// The most text the printer holds at once (one op's printed form).
pub const MAX_HELD: usize = 1 << 30;

fn overflow_message() -> String {
    format!(
        "an operation's printed form would exceed {} MiB or {} nested elements (aliases that expand each \
         other?), or memory ran out",
        MAX_HELD >> 20,
        expansion::MAX_ELEMENTS
    )
}

/// Why [`print_top_level_to`] printed nothing more: the op whose printed
/// form was too large (inside an `io::Error` of kind `OutOfMemory`).
#[derive(Debug)]
pub struct TooLarge {
    pub op: Option<OpId>,
}

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&overflow_message())
    }
}

impl std::error::Error for TooLarge {}

pub fn print_top_level(ir: &Ir, root: OpId, options: PrintOptions) -> String {
    let mut p = Printer::new(ir, root, options);
    p.print_with_aliases(root);
    if p.overflow {
        p.out.push_str(&format!(" <<not printed: {}>>", overflow_message()));
    }
    p.out
}

/// Like [`print_top_level`], streaming to `w` with bounded buffering.
pub fn print_top_level_to(
    ir: &Ir,
    root: OpId,
    options: PrintOptions,
    w: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let mut p = Printer::new(ir, root, options);
    p.sink = Some(w);
    p.print_with_aliases(root);
    if let Some(e) = p.io_error.take() {
        return Err(e);
    }
    if p.overflow {
        return Err(std::io::Error::new(std::io::ErrorKind::OutOfMemory, TooLarge { op: p.overflow_at }));
    }
    let rest = std::mem::take(&mut p.out);
    p.sink.take().unwrap().write_all(rest.as_bytes())
}

impl Printer<'_> {
    fn print_with_aliases(&mut self, root: OpId) {
        let ir = self.ir;
        let mut deferred = Vec::new();
        if ir_has_aliasable(ir) || self.options.debuginfo {
            self.collecting = Some(Vec::new());
            self.print_op(root);
            let found = self.collecting.take().unwrap();
            self.out.clear();
            if self.overflow {
                return;
            }
            // Locations: one alias per distinct value, numbered in visit order;
            // only those used by ops may move to the end of the output.
            let mut locs: Vec<(Attribute, bool)> = Vec::new();
            let mut index: HashMap<AttrData, usize> = HashMap::default();
            for (l, deferrable) in std::mem::take(&mut self.collected_locs) {
                match index.get(ir.attr_data(l)) {
                    Some(&i) => locs[i].1 &= deferrable,
                    None => {
                        index.insert(ir.attr_data(l).clone(), locs.len());
                        locs.push((l, deferrable));
                    }
                }
            }
            // MLIR orders aliases by depth (how many aliased attributes
            // nest inside), then by name, then in visit order; each name
            // is numbered in that order (`#map`, `#map1`, ...). Locations
            // are numbered apart, deferrable ones included.
            enum Def {
                Attr(Attribute),
                Dialect(String),
                Loc(Attribute, String),
            }
            let mut defs: Vec<(usize, &'static str, usize, Def)> = Vec::new();
            // A location's definition may use the aliases of those before it.
            let mut loc_names = Vec::new();
            for (i, (l, deferrable)) in locs.into_iter().enumerate() {
                let name = if i == 0 { "loc".to_string() } else { format!("loc{i}") };
                loc_names.push((ir.attr_data(l).clone(), name.clone()));
                if deferrable {
                    deferred.push((l, name));
                } else {
                    defs.push((0, "loc", i, Def::Loc(l, name)));
                }
            }
            let mut named_locs = loc_names.into_iter().enumerate().peekable();
            for (i, a) in found.into_iter().enumerate() {
                let name = if matches!(ir.attr_data(a), AttrData::AffineMap(_)) { "map" } else { "set" };
                defs.push((0, name, i, Def::Attr(a)));
            }
            for (i, (key, name, depth)) in std::mem::take(&mut self.collected_dialect).into_iter().enumerate() {
                defs.push((depth, name, i, Def::Dialect(key)));
            }
            defs.sort_by(|a, b| (a.0, a.1, a.2).cmp(&(b.0, b.1, b.2)));
            let mut counts: HashMap<&'static str, usize> = HashMap::default();
            for (_, base, index, def) in defs {
                if let Def::Loc(l, name) = def {
                    while let Some((_, (data, n))) = named_locs.next_if(|(k, _)| *k < index) {
                        self.loc_aliases.insert(data, n);
                    }
                    let _ = write!(self.out, "#{name} = loc(");
                    self.print_loc_body(l);
                    self.out.push_str(")\n");
                    continue;
                }
                let n = counts.entry(base).or_insert(0);
                let name = if *n == 0 { base.to_string() } else { format!("{base}{n}") };
                *n += 1;
                let _ = write!(self.out, "#{name} = ");
                match def {
                    Def::Attr(a) => {
                        self.print_attr(a, Elide::Never);
                        self.aliases.insert(a, name);
                    }
                    Def::Dialect(key) => {
                        let (dialect, body) = key.split_once('.').unwrap_or((&key, ""));
                        self.print_dialect_attr_in_full(dialect, body);
                        self.dialect_aliases.insert(key, name);
                    }
                    Def::Loc(..) => {}
                }
                self.out.push('\n');
            }
            for (_, (data, n)) in named_locs {
                self.loc_aliases.insert(data, n);
            }
            self.visited_dialect.clear();
        }
        self.print_op(root);
        self.out.push('\n');
        for (l, name) in deferred {
            let _ = write!(self.out, "#{name} = loc(");
            self.print_loc_body(l);
            self.out.push_str(")\n");
        }
    }
}

/// A dialect attribute body with nothing to rewrite when printed: no nested
/// attributes and no distinct ids.
fn plain_body(body: &str) -> bool {
    !body.contains('#') && !body.contains("distinct[")
}

fn ir_has_aliasable(ir: &Ir) -> bool {
    let has_alias_dialects = || {
        (0..ir.attr_count()).any(|i| match ir.attr_data(Attribute(i as u32)) {
            AttrData::AffineMap(_) | AttrData::IntegerSet(_) => true,
            AttrData::Opaque { dialect, body } => ir.registry.dialect(ir.sym_str(*dialect)).is_some_and(|d| {
                !d.alias_mnemonics.is_empty() && (d.alias_mnemonic(body).is_some() || body.contains('#'))
            }),
            _ => false,
        })
    };
    // Dialect types may hold dialect attributes written in place.
    let typed = || {
        (0..ir.type_count())
            .any(|i| matches!(ir.type_data(Type(i as u32)), crate::types::TypeData::Opaque { body, .. } if body.contains('#')))
    };
    has_alias_dialects() || typed()
}

impl Printer<'_> {
    /// `#dialect.body`, through its alias when it has one.
    pub(crate) fn print_dialect_attr(&mut self, dialect: &str, body: &str) {
        if self.collecting.is_some() {
            self.visit_dialect_attr(dialect, body);
        } else if let Some(alias) = self.dialect_alias(dialect, body) {
            self.out.push('#');
            self.out.push_str(&alias);
            return;
        }
        self.print_dialect_attr_in_full(dialect, body);
    }

    /// A dialect attribute inside op syntax (MLIR's `printStrippedAttrOrType`):
    /// its alias when it has one, else its body without the mnemonic.
    pub fn print_stripped_dialect_attr(&mut self, a: Attribute, mnemonic: &str) {
        let AttrData::Opaque { dialect, body } = self.ir.attr_data(a) else {
            return self.print_attr(a, Elide::Never);
        };
        let dialect = self.ir.sym_str(*dialect);
        if self.collecting.is_some() {
            self.visit_dialect_attr(dialect, body);
        } else if let Some(alias) = self.dialect_alias(dialect, body) {
            self.out.push('#');
            self.out.push_str(&alias);
            return;
        }
        match body.strip_prefix(mnemonic).filter(|r| r.starts_with('<')) {
            Some(_) => {
                let rendered = self.render_body(body);
                self.out.push_str(&rendered[mnemonic.len()..]);
            }
            None => self.print_attr(a, Elide::Never),
        }
    }

    /// A dialect type's body with the dialect attributes in it printed
    /// through their aliases (and recorded, during the dry run).
    pub(crate) fn render_type_body(&mut self, body: &str) -> String {
        if self.collecting.is_some() {
            for piece in dialect_attrs::pieces(body) {
                if let dialect_attrs::Piece::Nested { dialect, body } = piece {
                    self.visit_dialect_attr(dialect, body);
                }
            }
        }
        self.render_body(body)
    }

    fn dialect_alias(&self, dialect: &str, body: &str) -> Option<String> {
        if self.dialect_aliases.is_empty() {
            return None;
        }
        self.dialect_aliases.get(&dialect_attrs::key(dialect, body)).cloned()
    }

    /// `#dialect.body` itself, nested attributes through their aliases.
    fn print_dialect_attr_in_full(&mut self, dialect: &str, body: &str) {
        let _ = write!(self.out, "#{dialect}");
        if !plain_body(body) {
            let rendered = self.render_body(body);
            return attrs::push_dialect_symbol(&mut self.out, &rendered);
        }
        attrs::push_dialect_symbol(&mut self.out, body);
    }

    fn render_body(&mut self, body: &str) -> String {
        if plain_body(body) {
            return body.to_string();
        }
        let mut out = String::new();
        for piece in dialect_attrs::pieces(body) {
            match piece {
                dialect_attrs::Piece::Text(t) => out.push_str(t),
                dialect_attrs::Piece::Distinct(n) => {
                    if self.renumber_distinct && self.collecting.is_none() {
                        let next = self.distinct_ids.len();
                        let id = *self.distinct_ids.entry(n.to_string()).or_insert(next);
                        let _ = write!(out, "distinct[{id}]");
                    } else {
                        let _ = write!(out, "distinct[{n}]");
                    }
                }
                dialect_attrs::Piece::Nested { dialect, body } => {
                    let alias = self.dialect_alias(dialect, body);
                    match alias.filter(|_| self.collecting.is_none()) {
                        Some(a) => {
                            out.push('#');
                            out.push_str(&a);
                        }
                        None => {
                            let _ = write!(out, "#{dialect}");
                            let inner = self.render_body(body);
                            attrs::push_dialect_symbol(&mut out, &inner);
                        }
                    }
                }
            }
        }
        out
    }

    /// Records a dialect attribute met in the dry run (and those nested in
    /// it); returns whether it gets an alias and its alias depth.
    fn visit_dialect_attr(&mut self, dialect: &str, body: &str) -> (bool, usize) {
        let mnemonic = self.ir.registry.dialect(dialect).and_then(|d| d.alias_mnemonic(body));
        if mnemonic.is_none() && !body.contains('#') {
            return (false, 0);
        }
        let key = dialect_attrs::key(dialect, body);
        if let Some(&v) = self.visited_dialect.get(&key) {
            return v;
        }
        // MLIR records an attribute before what it holds.
        let slot = mnemonic.map(|m| {
            self.collected_dialect.push((key.clone(), m, 0));
            self.collected_dialect.len() - 1
        });
        let mut depth = 0;
        for piece in dialect_attrs::pieces(body) {
            if let dialect_attrs::Piece::Nested { dialect, body } = piece {
                let (aliased, d) = self.visit_dialect_attr(dialect, body);
                depth = depth.max(if aliased { d + 1 } else { d });
            }
        }
        if let Some(s) = slot {
            self.collected_dialect[s].2 = depth;
        }
        self.visited_dialect.insert(key, (slot.is_some(), depth));
        (slot.is_some(), depth)
    }
}

/// Whether "see current operation" notes show locations, as mlir-opt's do
/// under `--mlir-print-debuginfo` (a driver-wide setting, like MLIR's).
pub static NOTE_LOCATIONS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Prints one op in generic form with fresh numbering, as MLIR does for the
/// "see current operation" note.
pub fn op_to_generic_string(ir: &Ir, op: OpId) -> String {
    // Values are numbered from the closest isolated-from-above op (the op
    // itself if it is one), as MLIR numbers diagnostics' ops (local scope).
    let mut scope = op;
    while !ir.op_def(scope).is_some_and(|d| d.has(crate::dialect::Traits::ISOLATED_FROM_ABOVE)) {
        match ir.parent_op(scope) {
            Some(p) => scope = p,
            None => break,
        }
    }
    let debuginfo = NOTE_LOCATIONS.load(std::sync::atomic::Ordering::Relaxed);
    let mut p = Printer::new(ir, scope, PrintOptions { generic: true, debuginfo });
    p.print_op(op);
    // Multi-line ops start on their own line, as MLIR's `appendOp` does.
    if p.out.contains('\n') { format!("\n{}", p.out) } else { p.out }
}

pub fn type_to_string(ir: &Ir, ty: Type) -> String {
    let mut p = Printer::snippet(ir);
    p.print_type(ty);
    p.out
}

/// Text of a ranked `kind` ("tensor" or "memref") type with an optional
/// strided layout and memory space, for messages about types a verifier
/// cannot create (it only reads the IR).
pub fn shaped_type_string(
    ir: &Ir,
    kind: &str,
    shape: &[i64],
    elem: Type,
    strided: Option<(&[i64], i64)>,
    memory_space: Option<Attribute>,
) -> String {
    let mut p = Printer::snippet(ir);
    p.out.push_str(kind);
    p.out.push('<');
    attrs::print_shape(&mut p.out, shape);
    p.print_type(elem);
    if let Some((strides, offset)) = strided {
        p.out.push_str(", ");
        attrs::print_strided(&mut p.out, strides, offset);
    }
    if let Some(m) = memory_space {
        p.out.push_str(", ");
        p.print_attr(m, Elide::May);
    }
    p.out.push('>');
    p.out
}

/// Text of `vector<...>` with the given dims (`[n]` where scalable), for
/// messages about vector types a verifier cannot create.
pub fn vector_type_string(ir: &Ir, shape: &[i64], scalable: &[bool], elem: Type) -> String {
    let mut p = Printer::snippet(ir);
    p.out.push_str("vector<");
    for (i, d) in shape.iter().enumerate() {
        if scalable.get(i) == Some(&true) {
            let _ = write!(p.out, "[{d}]x");
        } else {
            let _ = write!(p.out, "{d}x");
        }
    }
    p.print_type(elem);
    p.out.push('>');
    p.out
}

pub fn attr_to_string(ir: &Ir, a: Attribute) -> String {
    let mut p = Printer::snippet(ir);
    p.print_attr(a, Elide::Never);
    p.out
}

/// Each block's predecessors in `blocks` (one entry per branch to it, so a
/// block reached twice from one terminator is listed twice, as in MLIR), in
/// block order.
fn region_preds(ir: &Ir, blocks: &[BlockId]) -> HashMap<BlockId, Vec<BlockId>> {
    let mut preds: HashMap<BlockId, Vec<BlockId>> = HashMap::default();
    for &pb in blocks {
        if let Some(t) = ir.terminator(pb) {
            for s in ir.successors(t) {
                preds.entry(*s).or_default().push(pb);
            }
        }
    }
    preds
}
