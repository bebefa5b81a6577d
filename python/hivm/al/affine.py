"""``al.affine_map`` / ``al.affine_expr``: enough of MLIR's affine bindings to write the
``indexing_map`` of a custom op. Maps print as MLIR prints them (``(d0, d1) -> (d1, d0)``)."""


class affine_expr:
    """An affine expression over dims ``d<i>``, symbols ``s<i>`` and constants."""

    # Binding strength when printing, as MLIR: sums below products.
    _ADD, _MUL, _ATOM = 0, 1, 2

    def __init__(self, kind, *parts):
        self.kind = kind
        self.parts = parts

    @staticmethod
    def get_dim(position):
        return affine_expr("dim", int(position))

    @staticmethod
    def get_symbol(position):
        return affine_expr("sym", int(position))

    @staticmethod
    def get_constant(value):
        return affine_expr("const", int(value))

    @staticmethod
    def _lift(value):
        if isinstance(value, affine_expr):
            return value
        if isinstance(value, int):
            return affine_expr.get_constant(value)
        raise TypeError(f"affine_expr: {value!r} is not an affine expression or int")

    def __add__(self, other):
        return affine_expr("add", self, affine_expr._lift(other))

    __radd__ = __add__

    def __sub__(self, other):
        return self + affine_expr._lift(other) * -1

    def __mul__(self, other):
        return affine_expr("mul", self, affine_expr._lift(other))

    __rmul__ = __mul__

    def __floordiv__(self, other):
        return affine_expr("floordiv", self, affine_expr._lift(other))

    def __mod__(self, other):
        return affine_expr("mod", self, affine_expr._lift(other))

    def ceildiv(self, other):
        return affine_expr("ceildiv", self, affine_expr._lift(other))

    def _text(self):
        """(text, strength)."""
        k = self.kind
        if k == "dim":
            return f"d{self.parts[0]}", self._ATOM
        if k == "sym":
            return f"s{self.parts[0]}", self._ATOM
        if k == "const":
            return str(self.parts[0]), self._ATOM
        lhs, lp = self.parts[0]._text()
        rhs, rp = self.parts[1]._text()
        if k == "add":
            r = self.parts[1]
            if r.kind == "const" and r.parts[0] < 0:
                return f"{lhs} - {-r.parts[0]}", self._ADD
            return f"{lhs} + {rhs}", self._ADD
        op = {"mul": "*", "floordiv": "floordiv", "ceildiv": "ceildiv", "mod": "mod"}[k]
        if lp < self._MUL:
            lhs = f"({lhs})"
        if rp < self._ATOM:
            rhs = f"({rhs})"
        return f"{lhs} {op} {rhs}", self._MUL

    def __str__(self):
        return self._text()[0]

    def __repr__(self):
        return f"affine_expr({self})"


class affine_map:
    """An affine map ``(d0, ..)[s0, ..] -> (exprs)``."""

    def __init__(self, dim_count, symbol_count, results):
        self.dim_count = int(dim_count)
        self.symbol_count = int(symbol_count)
        self.results = [affine_expr._lift(e) for e in results]

    @staticmethod
    def get(dim_count, symbol_count, exprs):
        return affine_map(dim_count, symbol_count, exprs)

    @staticmethod
    def get_identity(n):
        return affine_map(n, 0, [affine_expr.get_dim(i) for i in range(n)])

    @staticmethod
    def get_permutation(permutation):
        return affine_map(len(permutation), 0, [affine_expr.get_dim(i) for i in permutation])

    @staticmethod
    def get_minor_identity(dim_count, result_count):
        first = dim_count - result_count
        return affine_map(dim_count, 0, [affine_expr.get_dim(first + i) for i in range(result_count)])

    def __str__(self):
        dims = ", ".join(f"d{i}" for i in range(self.dim_count))
        syms = "".join(["[", ", ".join(f"s{i}" for i in range(self.symbol_count)), "]"]) if self.symbol_count else ""
        return f"({dims}){syms} -> ({', '.join(str(e) for e in self.results)})"

    def __repr__(self):
        return f"affine_map<{self}>"


# MLIR binding-style names.
AffineMap = affine_map
AffineExpr = affine_expr
