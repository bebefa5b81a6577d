// Calls the compiled examples/custom-add.mlir kernel through its C wrapper.
#include <stdint.h>
#include <stdio.h>

typedef struct {
  int32_t *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} memref_i32_1d;

void _mlir_ciface_custom_add(memref_i32_1d *out, memref_i32_1d *lhs, memref_i32_1d *rhs);

int main(void) {
  int32_t a[32], b[32], o[32];
  for (int i = 0; i < 32; ++i) {
    a[i] = i;
    b[i] = 1000 * i - 7;
    o[i] = -1;
  }
  memref_i32_1d ma = {a, a, 0, {32}, {1}}, mb = {b, b, 0, {32}, {1}}, mo = {o, o, 0, {32}, {1}};
  _mlir_ciface_custom_add(&mo, &ma, &mb);
  for (int i = 0; i < 32; ++i) printf("%d%c", o[i], i == 31 ? '\n' : ' ');
  return 0;
}
