// The MLIR memref descriptor, as device sources declare it for themselves.
#pragma once
template <typename T, size_t Dim>
struct memref_t {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizes[Dim];
  int64_t strides[Dim];
};
