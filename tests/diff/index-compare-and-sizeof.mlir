// The index dialect's comparisons (every predicate), its size query, and
// the names its constants give their results (%idx-3, %true).
func.func @compare(%a: index, %b: index) -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, index) {
  %n = index.constant -3
  %t = index.bool.constant true
  %0 = index.cmp eq(%a, %b)
  %1 = index.cmp ne(%a, %n)
  %2 = index.cmp slt(%a, %b)
  %3 = index.cmp sle(%a, %b)
  %4 = index.cmp sgt(%a, %b) {note = 1 : i32}
  %5 = index.cmp sge(%a, %b)
  %6 = index.cmp ult(%a, %b)
  %7 = index.cmp ule(%a, %b)
  %8 = index.cmp ugt(%a, %b)
  %9 = index.cmp uge(%a, %b)
  %s = index.sizeof
  %w = index.mul %s, %n
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %t, %w : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, index
}
