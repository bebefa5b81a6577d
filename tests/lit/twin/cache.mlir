// Implementations are cached by content; a change to a header they include
// rebuilds them too.
// RUN: rm -rf %t.hdr %t.cache && mkdir -p %t.hdr && cp %S/Inputs/scale.cpp %S/Inputs/memref.h %t.hdr/
// RUN: echo '#define SCALE 2.0f' > %t.hdr/scale.h && HIVM_TWIN_CACHE=%t.cache hivm-run %s --impl %t.hdr/scale.cpp --arg zeros:4xf32 --print 0 | FileCheck %s --check-prefix=TWO
// RUN: HIVM_TWIN_CACHE=%t.cache hivm-run %s --impl %t.hdr/scale.cpp --arg zeros:4xf32 --print 0 | FileCheck %s --check-prefix=TWO
// RUN: echo '#define SCALE 3.0f' > %t.hdr/scale.h && HIVM_TWIN_CACHE=%t.cache hivm-run %s --impl %t.hdr/scale.cpp --arg zeros:4xf32 --print 0 | FileCheck %s --check-prefix=THREE
// TWO: [0, 2, 4, 6]
// THREE: [0, 3, 6, 9]
func.func @k(%m: memref<4xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "scale"} "scale" outs(%m : memref<4xf32>)
  return
}
