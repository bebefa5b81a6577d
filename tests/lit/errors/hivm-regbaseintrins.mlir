// Malformed `hivm_regbaseintrins` attributes and launches, reported with
// the words of upstream's generated parsers and verifiers.
// RUN: not hivm-opt %s -split-input-file 2>&1 | FileCheck %s

// CHECK: [[@LINE+1]]:24: error: failed to parse SIMT_TargetAttr parameter 'value' which is to be a `::llvm::StringRef`
module attributes {t = #hivm_regbaseintrins.target<dav_c310>} {}

// -----

// CHECK: [[@LINE+1]]:24: error: failed to parse SIMT_EntryAttr parameter 'value' which is to be a `uint32_t`
module attributes {t = #hivm_regbaseintrins.simt_entry<-4>} {}

// -----

// CHECK: [[@LINE+1]]:24: error: failed to parse SIMT_EntryAttr parameter 'value' which is to be a `uint32_t`
module attributes {t = #hivm_regbaseintrins.simt_entry<4294967296>} {}

// -----

// CHECK: [[@LINE+1]]:45: error: unknown attribute `entry` in dialect `hivm_regbaseintrins`
module attributes {t = #hivm_regbaseintrins.entry<1>} {}

// -----

llvm.func @body()
llvm.func @narrow(%n: i32) {
  // CHECK: [[@LINE+1]]:3: error: 'hivm_regbaseintrins.intrins.launch_func' op operand #0 must be 64-bit signless integer, but got 'i32'
  "hivm_regbaseintrins.intrins.launch_func"(%n, %n, %n) <{kernel = @body}> : (i32, i32, i32) -> ()
  llvm.return
}
