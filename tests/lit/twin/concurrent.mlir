// The implementation cache is safe for concurrent use: eight hivm-run
// processes at once on an empty cache, half building one implementation and
// half another, three rounds; every run succeeds with the right numbers.
// RUN: rm -rf %t.conc && mkdir -p %t.conc
// RUN: for r in 1 2 3; do rm -rf %t.conc/cache; for i in 1 2 3 4 5 6 7 8; do case $i in 1|3|5|7) s=a;; *) s=b;; esac; (HIVM_TWIN_CACHE=%t.conc/cache hivm-run %s --impl %S/Inputs/bump_$s.cpp --arg zeros:4xf32 --print 0 > %t.conc/out.$r.$i.$s 2>&1; echo "exit $?" >> %t.conc/out.$r.$i.$s) & done; wait; done
// RUN: cat %t.conc/out.*.a | sort | uniq -c | FileCheck %s --check-prefix=A
// RUN: cat %t.conc/out.*.b | sort | uniq -c | FileCheck %s --check-prefix=B
// RUN: ls %t.conc/cache | FileCheck %s --check-prefix=ENTRIES
// A build killed part-way leaves nothing that a later run uses:
// RUN: rm -rf %t.conc/cache2 && (HIVM_TWIN_CACHE=%t.conc/cache2 timeout -s KILL 0.2 hivm-run %s --impl %S/Inputs/bump_a.cpp --arg zeros:4xf32 || true)
// RUN: HIVM_TWIN_CACHE=%t.conc/cache2 hivm-run %s --impl %S/Inputs/bump_a.cpp --arg zeros:4xf32 --print 0 | FileCheck %s --check-prefix=AFTER
// AFTER: [1, 1, 1, 1]
// A: {{^ *}}12 arg 0 (memref<4xf32>): [1, 1, 1, 1]
// A-NEXT: {{^ *}}12 exit 0
// B: {{^ *}}12 arg 0 (memref<4xf32>): [2, 2, 2, 2]
// B-NEXT: {{^ *}}12 exit 0
// Only whole entries remain: no build folders.
// ENTRIES-NOT: build
// ENTRIES: {{^[0-9a-f]+$}}
// ENTRIES-NEXT: {{^[0-9a-f]+$}}
// ENTRIES-NOT: {{.}}
func.func @k(%m: memref<4xf32>) {
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "bump"} "bump" outs(%m : memref<4xf32>)
  return
}
