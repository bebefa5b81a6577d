// Affine ops take as dimensions and symbols only values their affine scope
// fixes (MLIR's isValidDim / isValidSymbol); mlir-opt 22 gives the same
// diagnostics on this file.
// RUN: hivm-opt %s -split-input-file -verify-diagnostics

func.func @scf_iv_as_dim(%m: memref<100xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error@+1 {{'affine.load' op operand cannot be used as a dimension id}}
    %v = affine.load %m[%i] : memref<100xf32>
  }
  return
}

// -----

func.func @scf_iv_as_symbol(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error@+1 {{'affine.for' op operand cannot be used as a symbol}}
    affine.for %x = 0 to %i {
    }
  }
  return
}

// -----

func.func @if_and_parallel(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error@+1 {{'affine.if' op operand cannot be used as a dimension id}}
    affine.if affine_set<(d0) : (d0 >= 0)>(%i) {
    }
  }
  return
}

// -----

func.func @parallel(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error@+1 {{'affine.parallel' op operand cannot be used as a dimension id}}
    affine.parallel (%x) = (0) to (%i) {
    }
  }
  return
}

// -----

// Valid: pure ops on symbols, dims of top-level buffers, affine induction
// variables and affine.apply of them, values from above a nested region.
func.func @valid(%m: memref<100xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %k = arith.addi %n, %c1 : index
    %v = affine.load %m[%k] : memref<100xf32>
    %u = affine.load %m[symbol(%k)] : memref<100xf32>
    %d = memref.dim %m, %c0 : memref<100xf32>
    %z = affine.load %m[symbol(%d)] : memref<100xf32>
  }
  affine.for %j = 0 to %n {
    %a = affine.apply affine_map<(d0) -> (d0 + 1)>(%j)
    %b = affine.load %m[%a] : memref<100xf32>
    affine.for %l = affine_map<(d0) -> (d0)>(%j) to 100 {
      %c = affine.load %m[%l + %j] : memref<100xf32>
    }
  }
  return
}

// -----

func.func @pure_of_non_symbol(%m: memref<100xf32>) {
  affine.for %i = 0 to 10 {
    %w = arith.addi %i, %i : index
    // expected-error@+1 {{'affine.load' op operand cannot be used as a dimension id}}
    %u = affine.load %m[%w] : memref<100xf32>
  }
  return
}
