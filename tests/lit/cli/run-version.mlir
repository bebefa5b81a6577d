// hivm-run says its version, and where the twin header is (the folder holds
// hivm_twin.h, byte for byte the header implementations are built against).
// RUN: hivm-run --version | FileCheck %s --check-prefix=VERSION
// VERSION: hivm-run {{[0-9]+\.[0-9]+\.[0-9]+}}
// RUN: rm -rf %t.inc && env HIVM_TWIN_CACHE=%t.inc hivm-run --print-include-dir > %t.dir
// RUN: cat %t.dir | FileCheck %s --check-prefix=DIR
// DIR: {{.*}}include-{{[0-9a-f]+$}}
// RUN: cat $(cat %t.dir)/hivm_twin.h | FileCheck %s --check-prefix=HEADER
// HEADER: #ifndef HIVM_TWIN_H
// HEADER: HIVM_TWIN_UNEMULATED(vcadd)
// RUN: hivm-opt --version | FileCheck %s --check-prefix=OPT
// OPT: {{[0-9]+\.[0-9]+\.[0-9]+}}
