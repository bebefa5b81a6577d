// The SIMT side of `hivm_regbaseintrins`: a target marker on the module and
// the kernel, SIMT entry and callable markers on functions, and launches
// with and without arguments. Attribute spellings are canonicalized (hex
// thread counts, spaces); the generic form reads back to the same module.
// RUN: hivm-opt %s | FileCheck %s
// RUN: hivm-opt %s --mlir-print-op-generic | hivm-opt | FileCheck %s

// CHECK: module attributes {hivm_regbaseintrins.target = #hivm_regbaseintrins.target<"dav-c310">}
module attributes {hivm_regbaseintrins.target = #hivm_regbaseintrins.target<"dav-c310">} {
  // CHECK: llvm.func @tile_body(%{{.*}}: !llvm.ptr<1>, %{{.*}}: i32) attributes {hivm_regbaseintrins.cconv = #hivm_regbaseintrins.simt_entry<512>}
  llvm.func @tile_body(%src: !llvm.ptr<1>, %len: i32) attributes {hivm_regbaseintrins.cconv = #hivm_regbaseintrins.simt_entry<0x200>} {
    llvm.return
  }
  // CHECK: llvm.func @reduce_step() attributes {hivm_regbaseintrins.cconv = #hivm_regbaseintrins.simt_callable}
  llvm.func @reduce_step() attributes {hivm_regbaseintrins.cconv = #hivm_regbaseintrins.simt_callable} {
    llvm.return
  }
  // CHECK-LABEL: llvm.func @launcher
  // CHECK-SAME: attributes {hivm_regbaseintrins.kernel, hivm_regbaseintrins.target = #hivm_regbaseintrins.target<"dav-c310">}
  llvm.func @launcher(%src: !llvm.ptr<1>, %len: i32) attributes {hivm_regbaseintrins.kernel, hivm_regbaseintrins.target = #hivm_regbaseintrins.target< "dav-c310" >} {
    %x = llvm.mlir.constant(512 : i64) : i64
    %one = llvm.mlir.constant(1 : i64) : i64
    // CHECK: hivm_regbaseintrins.intrins.launch_func @tile_body threads in (%[[X:[0-9]+]], %[[ONE:[0-9]+]], %[[ONE]]) args(%{{.*}}, %{{.*}}) : !llvm.ptr<1>, i32
    hivm_regbaseintrins.intrins.launch_func @tile_body threads in(%x,%one, %one) args(%src, %len) : !llvm.ptr<1>, i32
    // CHECK-NEXT: hivm_regbaseintrins.intrins.launch_func @reduce_step threads in (%[[ONE]], %[[ONE]], %[[ONE]]) {stage = 2 : i32}
    hivm_regbaseintrins.intrins.launch_func @reduce_step threads in (%one, %one, %one) {stage = 2 : i32}
    llvm.return
  }
}
