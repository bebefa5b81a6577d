#!/usr/bin/env python3
"""Generates a kernel of about N HIVM ops for timing the sync solver:
groups of ops (load GM->UB, vector ops, store UB->GM) over a few UB buffers,
every group inside a loop nest of depth 1 to 3 (trip 4), groups one after
another in the function body. gss_gen.py N > kernel.mlir"""
import sys

n = int(sys.argv[1])
G = "memref<64xf32, #hivm.address_space<gm>>"
U = "memref<64xf32, #hivm.address_space<ub>>"
out = []
w = out.append
w("module {")
w(f"  func.func @k(%g0: {G}, %g1: {G}, %g2: {G}) attributes {{hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>}} {{")
w("    %c0 = arith.constant 0 : index")
w("    %c1 = arith.constant 1 : index")
w("    %c4 = arith.constant 4 : index")
for i in range(8):
    w(f"    %a{i} = arith.constant {i * 256} : i64")
    w(f"    %u{i} = hivm.hir.pointer_cast(%a{i}) : {U}")
ops = 0
group = 0
while ops < n:
    depth = 1 + group % 3
    for d in range(depth):
        w("    " + "  " * d + f"scf.for %i{group}_{d} = %c0 to %c4 step %c1 {{")
    pad = "    " + "  " * depth
    b = [(group * 3 + k) % 8 for k in range(3)]
    g = group % 3
    body = [
        f"hivm.hir.load ins(%g{g} : {G}) outs(%u{b[0]} : {U})",
        f"hivm.hir.load ins(%g{(g + 1) % 3} : {G}) outs(%u{b[1]} : {U})",
        f"hivm.hir.vadd ins(%u{b[0]}, %u{b[1]} : {U}, {U}) outs(%u{b[2]} : {U})",
        f"hivm.hir.vmul ins(%u{b[2]}, %u{b[0]} : {U}, {U}) outs(%u{b[1]} : {U})",
        f"hivm.hir.store ins(%u{b[1]} : {U}) outs(%g{(g + 2) % 3} : {G})",
    ]
    for line in body:
        w(pad + line)
    ops += len(body)
    for d in reversed(range(depth)):
        w("    " + "  " * d + "}")
    group += 1
w("    return")
w("  }")
w("}")
print("\n".join(out))
