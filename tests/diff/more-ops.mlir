// Upstream ops beyond the custom-op path, as mlir-opt prints them:
// tensor.from_elements/splat, cf.assert, scf.execute_region (with
// no_inline), scf.index_switch (the default region is the op's first but
// printed last; an empty default's terminator is elided), memref.global
// (visibility, constant, uninitialized, initial values without their type)
// with get_global and assume_alignment, reshapes to and from rank 0, and
// affine.min/max.
memref.global "private" constant @g : memref<2xf32> = dense<[1.0, 2.0]>
memref.global @ext : memref<4xi32>
memref.global "public" @u : memref<3xf16> = uninitialized
memref.global "private" @s : memref<2xi8> = dense<7> {alignment = 64 : i64}

func.func @ops(%a: f32, %n: index, %c: i1, %i: index, %m: memref<4xf32>, %t: tensor<1x1xf32>, %z: memref<f32>) -> i32 {
  %t2 = tensor.from_elements %a, %a : tensor<2xf32>
  %s = tensor.splat %a : tensor<4xf32>
  %d = tensor.splat %a[%n] : tensor<?x3xf32>
  cf.assert %c, "must hold"
  %r = scf.execute_region -> i32 {
    %one = arith.constant 1 : i32
    scf.yield %one : i32
  }
  scf.execute_region no_inline {
    scf.yield
  }
  %sw = scf.index_switch %i -> i32
  case 2 {
    %ten = arith.constant 10 : i32
    scf.yield %ten : i32
  }
  default {
    scf.yield %r : i32
  }
  scf.index_switch %i
  case 1 {
    scf.yield
  }
  case 5 {
    scf.yield
  }
  default {
  }
  %g = memref.get_global @g : memref<2xf32>
  %e = memref.get_global @ext : memref<4xi32>
  %al = memref.assume_alignment %m, 16 : memref<4xf32>
  %col = tensor.collapse_shape %t [] : tensor<1x1xf32> into tensor<f32>
  %exp = tensor.expand_shape %col [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
  %mexp = memref.expand_shape %z [] output_shape [1, 1, 1] : memref<f32> into memref<1x1x1xf32>
  %amin = affine.min affine_map<(d0)[s0] -> (s0, -d0 + 16)>(%i)[%n]
  %amax = affine.max affine_map<(d0, d1) -> (d0, d1, 4)>(%i, %n)
  %aconst = affine.min affine_map<() -> (3)>()
  return %sw : i32
}
