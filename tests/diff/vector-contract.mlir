// Contractions (matrix products, dot products into scalars, batched and
// mixed-precision ones, other combining kinds, masked ones), outer products,
// scans and the scalable-vector ops, as mlir-opt prints them.
#dot = {indexing_maps = [affine_map<(r) -> (r)>, affine_map<(r) -> (r)>, affine_map<(r) -> ()>], iterator_types = ["reduction"]}
#mm = {
  indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
  iterator_types = ["parallel", "parallel", "reduction"]
}
#bmm = {
  indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>],
  iterator_types = ["parallel", "parallel", "parallel", "reduction"],
  kind = #vector.kind<maxnumf>
}
func.func @contract(%x: vector<16xf32>, %y: vector<16xf32>, %z: f32, %a: vector<2x8xf16>, %b: vector<8x3xf16>, %c: vector<2x3xf32>,
                    %ba: vector<4x2x8xf32>, %bb: vector<4x8x3xf32>, %bc: vector<4x2x3xf32>, %ia: vector<2x8xi8>, %ib: vector<8x3xi8>, %ic: vector<2x3xi32>, %it: vector<3x2xi32>, %ibt: vector<3x8xi8>) -> f32 {
  %0 = vector.contract #dot %x, %y, %z : vector<16xf32>, vector<16xf32> into f32
  %1 = vector.contract #mm %a, %b, %c {note = "mixed"} : vector<2x8xf16>, vector<8x3xf16> into vector<2x3xf32>
  %2 = vector.contract #bmm %ba, %bb, %bc : vector<4x2x8xf32>, vector<4x8x3xf32> into vector<4x2x3xf32>
  %3 = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (n, m)>],
                        iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<xor>} %ia, %ibt, %it
    : vector<2x8xi8>, vector<3x8xi8> into vector<3x2xi32>
  %4 = vector.contract #mm %ia, %ib, %ic {kind = #vector.kind<maxsi>} : vector<2x8xi8>, vector<8x3xi8> into vector<2x3xi32>
  return %0 : f32
}

func.func @masked_and_scalable(%a: vector<2x[4]xf32>, %b: vector<[4]x5xf32>, %c: vector<2x5xf32>, %m: vector<2x5x[4]xi1>) -> vector<2x5xf32> {
  %0 = vector.mask %m { vector.contract #mm %a, %b, %c : vector<2x[4]xf32>, vector<[4]x5xf32> into vector<2x5xf32> } : vector<2x5x[4]xi1> -> vector<2x5xf32>
  return %0 : vector<2x5xf32>
}

func.func @outer(%u: vector<4xf32>, %v: vector<6xf32>, %acc: vector<4x6xf32>, %s: f32, %su: vector<[4]xi32>, %sv: vector<[2]xi32>) {
  %0 = vector.outerproduct %u, %v : vector<4xf32>, vector<6xf32>
  %1 = vector.outerproduct %u, %v, %0 {kind = #vector.kind<minimumf>, tag} : vector<4xf32>, vector<6xf32>
  %2 = vector.outerproduct %u, %v, %1 : vector<4xf32>, vector<6xf32>
  %3 = vector.outerproduct %u, %s : vector<4xf32>, f32
  %4 = vector.outerproduct %u, %s, %3 : vector<4xf32>, f32
  %5 = vector.outerproduct %su, %sv {kind = #vector.kind<and>} : vector<[4]xi32>, vector<[2]xi32>
  %6 = "vector.outerproduct"(%u, %v, %acc) <{kind = #vector.kind<mul>}> {tag} : (vector<4xf32>, vector<6xf32>, vector<4x6xf32>) -> vector<4x6xf32>
  return
}

func.func @scan(%v: vector<3x5x7xi32>, %init: vector<3x7xi32>, %w: vector<9xf32>, %z: vector<f32>) -> vector<3x5x7xi32> {
  %r:2 = vector.scan <maxsi>, %v, %init {reduction_dim = 1 : i64, inclusive = false} : vector<3x5x7xi32>, vector<3x7xi32>
  %s:2 = vector.scan <add>, %w, %z {inclusive = true, reduction_dim = 0 : i64, keep} : vector<9xf32>, vector<f32>
  return %r#0 : vector<3x5x7xi32>
}

func.func @scalable(%big: vector<[16]xf16>, %small: vector<8xf16>, %sub: vector<[4]xf16>) -> index {
  %n = vector.vscale
  %0 = vector.scalable.insert %small, %big[8] : vector<8xf16> into vector<[16]xf16>
  %1 = vector.scalable.insert %sub, %0[0] {tag} : vector<[4]xf16> into vector<[16]xf16>
  %2 = vector.scalable.extract %1[4] : vector<[4]xf16> from vector<[16]xf16>
  %3 = vector.scalable.extract %big[16] : vector<2xf16> from vector<[16]xf16>
  return %n : index
}
