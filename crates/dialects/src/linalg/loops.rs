//! The loop nest of a structured linalg op, for clients that execute or
//! bufferize it (the CPU twin, one-shot-bufferize): one indexing map per
//! operand, the iterator kinds, and where the inputs end. Every op keeps its
//! body as a region (named ops build it when parsed), so this and the body
//! are all an executor needs.

use hivm_ir::affine::{AffineExpr, AffineMap};
use hivm_ir::{Ir, OpId, Value};

use crate::util::{i64_array, opaque_arg, segment};

/// A structured op's iteration space.
#[derive(Clone, Debug, PartialEq)]
pub struct Loops {
    /// Operands before this one are inputs; the rest are inits (outs).
    pub inputs: usize,
    /// One map per operand, from the loops to the operand's indices (no
    /// results for a scalar or rank-0 operand).
    pub maps: Vec<AffineMap>,
    /// Per loop: `true` parallel, `false` reduction.
    pub parallel: Vec<bool>,
}

fn rank(ir: &Ir, v: Value) -> usize {
    ir.type_data(ir.value_type(v)).rank()
}

fn identity(loops: usize) -> AffineMap {
    AffineMap { num_dims: loops as u32, num_symbols: 0, results: (0..loops as u32).map(AffineExpr::Dim).collect() }
}

/// The map reading loops `dims`, in order.
fn select(loops: usize, dims: impl Iterator<Item = usize>) -> AffineMap {
    AffineMap { num_dims: loops as u32, num_symbols: 0, results: dims.map(|d| AffineExpr::Dim(d as u32)).collect() }
}

/// Identity maps over the init's rank, scalars and rank-0 operands read
/// once (the elementwise named ops' and `linalg.map`'s convention).
fn elementwise(ir: &Ir, op: OpId, inputs: usize) -> Result<Loops, String> {
    let operands = ir.operands(op);
    let Some(&init) = operands.last() else { return Err("has no init".into()) };
    let loops = rank(ir, init);
    let mut maps = Vec::new();
    for v in operands {
        let r = rank(ir, *v);
        let shaped = ir.type_data(ir.value_type(*v)).is_shaped();
        maps.push(if !shaped || r == 0 {
            select(loops, std::iter::empty())
        } else if r == loops {
            identity(loops)
        } else {
            return Err(format!("has an operand of rank {r} beside an init of rank {loops}"));
        });
    }
    Ok(Loops { inputs, maps, parallel: vec![true; loops] })
}

/// The loop nest of `op`, or why it has none the executor understands.
pub fn loops(ir: &Ir, op: OpId) -> Result<Loops, String> {
    let name = ir.op_name(op);
    let operands = ir.operands(op);
    let n = operands.len();
    match name {
        "linalg.generic" => {
            let inputs = segment(ir, op, 0).len();
            let maps = ir
                .get_attr(op, "indexing_maps")
                .and_then(|a| super::interface::maps_of(ir, a))
                .ok_or("has no indexing maps")?;
            let iters = match ir.get_attr(op, "iterator_types").map(|a| ir.attr_data(a)) {
                Some(hivm_ir::AttrData::Array(items)) => items.clone(),
                _ => return Err("has no iterator types".into()),
            };
            let mut parallel = Vec::new();
            for it in iters {
                match opaque_arg(ir, it, "iterator_type") {
                    Some("parallel") => parallel.push(true),
                    Some("reduction") => parallel.push(false),
                    Some(other) => return Err(format!("has a '{other}' iterator")),
                    None => return Err("has a malformed iterator type".into()),
                }
            }
            Ok(Loops { inputs, maps, parallel })
        }
        "linalg.fill" => {
            let loops = operands.get(1).map_or(0, |v| rank(ir, *v));
            Ok(Loops {
                inputs: 1,
                maps: vec![select(loops, std::iter::empty()), identity(loops)],
                parallel: vec![true; loops],
            })
        }
        "linalg.map" => elementwise(ir, op, n.saturating_sub(1)),
        "linalg.reduce" => {
            let inits = n / 2;
            let loops = operands.first().map_or(0, |v| rank(ir, *v));
            let dims = i64_array(ir, op, "dimensions");
            let kept = || (0..loops).filter(|d| !dims.contains(&(*d as i64)));
            let mut maps = vec![identity(loops); n - inits];
            maps.extend((0..inits).map(|_| select(loops, kept())));
            let parallel = (0..loops).map(|d| !dims.contains(&(d as i64))).collect();
            Ok(Loops { inputs: n - inits, maps, parallel })
        }
        "linalg.broadcast" => {
            let loops = operands.get(1).map_or(0, |v| rank(ir, *v));
            let dims = i64_array(ir, op, "dimensions");
            let kept = (0..loops).filter(|d| !dims.contains(&(*d as i64)));
            Ok(Loops { inputs: 1, maps: vec![select(loops, kept), identity(loops)], parallel: vec![true; loops] })
        }
        "linalg.transpose" => {
            // init[i] = input[j] where permutation[i] = j: input dim j is loop i.
            let perm = i64_array(ir, op, "permutation");
            let loops = perm.len();
            let mut inverse = vec![0; loops];
            for (i, p) in perm.iter().enumerate() {
                *usize::try_from(*p).ok().and_then(|p| inverse.get_mut(p)).ok_or("has a bad permutation")? = i;
            }
            Ok(Loops {
                inputs: 1,
                maps: vec![select(loops, inverse.into_iter()), identity(loops)],
                parallel: vec![true; loops],
            })
        }
        "linalg.matmul" | "linalg.batch_matmul" | "linalg.batch_reduce_matmul" | "linalg.contract" => {
            let maps = super::structured::matmul_family_maps(ir, op);
            let parallel = match name {
                "linalg.contract" => maps.last().map(super::interface::iterators_from_output).unwrap_or_default(),
                "linalg.batch_matmul" => vec![true, true, true, false],
                "linalg.batch_reduce_matmul" => vec![false, true, true, false],
                _ => vec![true, true, false],
            };
            Ok(Loops { inputs: 2, maps, parallel })
        }
        "linalg.matmul_transpose_a" | "linalg.matmul_transpose_b" => {
            // C[m, n] += A[k, m] * B[k, n], or A[m, k] * B[n, k]: loops (m, n, k).
            let a: &[usize] = if name.ends_with("_a") { &[2, 0] } else { &[0, 2] };
            let b: &[usize] = if name.ends_with("_a") { &[2, 1] } else { &[1, 2] };
            let maps = vec![select(3, a.iter().copied()), select(3, b.iter().copied()), select(3, [0, 1].into_iter())];
            Ok(Loops { inputs: 2, maps, parallel: vec![true, true, false] })
        }
        _ => {
            if super::elementwise::lookup(name).is_some() {
                return elementwise(ir, op, segment(ir, op, 0).len());
            }
            if let Some(spec) = super::named::lookup(name) {
                return Ok(Loops {
                    inputs: segment(ir, op, 0).len(),
                    maps: super::named::indexing_maps(ir, op, spec),
                    parallel: spec.iterators(),
                });
            }
            Err("is not a structured op with a known loop nest".into())
        }
    }
}

/// Whether `name` is an elementwise named op (linalg's `elemwise_*` and
/// MLIR 22 names, hfusion's `elemwise_*`, `compare`, `select`, `cast`, ...):
/// structured ops outside the linalg dialect that [`loops`] describes too.
pub fn is_named_elementwise(name: &str) -> bool {
    super::elementwise::lookup(name).is_some()
}

/// Whether `op` is an op [`loops`] describes.
pub fn is_structured(ir: &Ir, op: OpId) -> bool {
    let name = ir.op_name(op);
    name.starts_with("linalg.") && !matches!(name, "linalg.yield" | "linalg.index") && loops(ir, op).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const KERNEL: &str = r#"
func.func @f(%a: memref<2x3xf32>, %t: memref<3x2xf32>, %r: memref<2xf32>, %b: memref<4x2x3xf32>, %c: memref<2x2xf32>, %s: f32) {
  linalg.transpose ins(%a : memref<2x3xf32>) outs(%t : memref<3x2xf32>) permutation = [1, 0]
  linalg.reduce ins(%a : memref<2x3xf32>) outs(%r : memref<2xf32>) dimensions = [1]
    (%x: f32, %y: f32) {
      %z = arith.addf %x, %y : f32
      linalg.yield %z : f32
    }
  linalg.broadcast ins(%a : memref<2x3xf32>) outs(%b : memref<4x2x3xf32>) dimensions = [0]
  linalg.matmul ins(%a, %t : memref<2x3xf32>, memref<3x2xf32>) outs(%c : memref<2x2xf32>)
  linalg.map { arith.addf } ins(%c, %c : memref<2x2xf32>, memref<2x2xf32>) outs(%c : memref<2x2xf32>)
  linalg.add ins(%c, %c : memref<2x2xf32>, memref<2x2xf32>) outs(%c : memref<2x2xf32>)
  linalg.fill ins(%s : f32) outs(%c : memref<2x2xf32>)
  return
}
"#;

    fn results(m: &AffineMap) -> Vec<u32> {
        m.results.iter().map(|e| if let AffineExpr::Dim(d) = e { *d } else { 99 }).collect()
    }

    #[test]
    fn named_ops_have_their_loop_nests() {
        let mut ir = Ir::new(crate::shared_registry());
        let m = hivm_ir::parser::Parser::new(&mut ir, KERNEL, "k.mlir", 0).parse_module().map_err(|e| e.msg).unwrap();
        assert!(hivm_ir::verifier::verify_all(&ir, m).is_empty());
        let mut ops = Vec::new();
        ir.walk(m, &mut |o| {
            if ir.op_name(o).starts_with("linalg.") && ir.parent_op(o).is_some_and(|p| ir.is_op(p, "func.func")) {
                ops.push(o);
            }
        });
        let nests: Vec<Loops> = ops.iter().map(|o| loops(&ir, *o).unwrap()).collect();
        let maps = |k: usize| nests[k].maps.iter().map(results).collect::<Vec<_>>();
        // transpose: init[i, j] = input[j, i].
        assert_eq!(maps(0), [vec![1, 0], vec![0, 1]]);
        // reduce over dim 1: the init drops it, which is a reduction loop.
        assert_eq!((maps(1), nests[1].parallel.clone()), (vec![vec![0, 1], vec![0]], vec![true, false]));
        // broadcast along dim 0: the input reads dims 1 and 2.
        assert_eq!(maps(2), [vec![1, 2], vec![0, 1, 2]]);
        assert_eq!((maps(3), nests[3].inputs), (vec![vec![0, 2], vec![2, 1], vec![0, 1]], 2));
        assert_eq!((maps(4).len(), nests[4].inputs), (3, 2));
        assert_eq!((maps(5), nests[5].inputs), (vec![vec![0, 1]; 3], 2));
        assert_eq!(maps(6), [vec![], vec![0, 1]]);
        assert!(ops.iter().all(|o| is_structured(&ir, *o)));
    }
}
