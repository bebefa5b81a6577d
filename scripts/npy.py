#!/usr/bin/env python3
"""Writes small .npy files without numpy: npy.py OUT.npy DTYPE SHAPE VALUES...
DTYPE is i8/u8/i16/i32/i64/f16/f32/f64; SHAPE like 32 or 4x8; VALUES either a
list of numbers or `range:START:STEP[:MOD]` (START, START+STEP, ...; with MOD,
START + (i * STEP) % MOD)."""
import struct, sys

CODES = {"i8": ("|i1", "b"), "u8": ("|u1", "B"), "i16": ("<i2", "h"), "i32": ("<i4", "i"), "i64": ("<i8", "q"),
         "f16": ("<f2", "e"), "f32": ("<f4", "f"), "f64": ("<f8", "d")}

def main():
    out, dtype, shape_s, *vals = sys.argv[1:]
    descr, fmt = CODES[dtype]
    shape = [int(d) for d in shape_s.split("x")]
    n = 1
    for d in shape:
        n *= d
    conv = float if dtype.startswith("f") else int
    if len(vals) == 1 and vals[0].startswith("range:"):
        _, start, step, *mod = vals[0].split(":")
        if mod:
            data = [conv(start) + (i * conv(step)) % conv(mod[0]) for i in range(n)]
        else:
            data = [conv(start) + i * conv(step) for i in range(n)]
    else:
        data = [conv(v) for v in vals]
    assert len(data) == n, f"{len(data)} values for {n} elements"
    shape_txt = f"({shape[0]},)" if len(shape) == 1 else "(" + ", ".join(map(str, shape)) + ")"
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape_txt)
    total = 10 + len(header) + 1
    header += " " * (-(-total // 64) * 64 - total) + "\n"
    with open(out, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%d%s" % (n, fmt), *data))

main()
