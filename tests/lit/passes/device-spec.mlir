// hacc-append-device-spec: the target, its DLTI spec and, on membase
// targets, the HIVMC version attributes.
// RUN: hivm-opt %s -hacc-append-device-spec=target=Ascend910B3 | FileCheck %s --check-prefix=B3
// RUN: hivm-opt %s -hacc-append-device-spec="target=Ascend950PR_9589 custom-aic-number=8 custom-aiv-number=16" | FileCheck %s --check-prefix=PR
// RUN: hivm-opt %s -hacc-append-device-spec="target=Ascend910B1 hivmc-version=0.2.0" | FileCheck %s --check-prefix=VER
// RUN: hivm-opt %s -hacc-append-device-spec | FileCheck %s --check-prefix=NONE
// RUN: hivm-opt %s -hacc-append-device-spec=target=Ascend910B1 -hacc-append-device-spec=target=Ascend310B1 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not hivm-opt %s -hacc-append-device-spec=target=Ascend911 2>&1 | FileCheck %s --check-prefix=BAD

// B3: module attributes {dlti.target_system_spec = #dlti.target_system_spec<"NPU" : #hacc.target_device_spec<#dlti.dl_entry<"AI_CORE_COUNT", 20 : i32>, #dlti.dl_entry<"CUBE_CORE_COUNT", 20 : i32>, #dlti.dl_entry<"VECTOR_CORE_COUNT", 40 : i32>, #dlti.dl_entry<"UB_SIZE", 1572864 : i32>, #dlti.dl_entry<"L1_SIZE", 4194304 : i32>, #dlti.dl_entry<"L0A_SIZE", 524288 : i32>, #dlti.dl_entry<"L0B_SIZE", 524288 : i32>, #dlti.dl_entry<"L0C_SIZE", 1048576 : i32>, #dlti.dl_entry<"UB_ALIGN_SIZE", 256 : i32>, #dlti.dl_entry<"L1_ALIGN_SIZE", 256 : i32>, #dlti.dl_entry<"L0C_ALIGN_SIZE", 4096 : i32>>>, hacc.hivmc_compatible_print = false, hacc.hivmc_version = #hacc.hivmc_version<"0.0.0">, hacc.target = #hacc.target<"Ascend910B3">}

// Regbase targets carry the cache bounds and the arch, and no HIVMC version;
// the custom core counts replace the hardware's.
// PR: #dlti.dl_entry<"AI_CORE_COUNT", 8 : i32>, #dlti.dl_entry<"CUBE_CORE_COUNT", 8 : i32>, #dlti.dl_entry<"VECTOR_CORE_COUNT", 16 : i32>, #dlti.dl_entry<"UB_SIZE", 2031616 : i32>
// PR-SAME: #dlti.dl_entry<"L0C_SIZE", 2097152 : i32>
// PR-SAME: #dlti.dl_entry<"MINIMAL_D_CACHE_SIZE", 262144 : i32>, #dlti.dl_entry<"MAXIMUM_D_CACHE_SIZE", 983040 : i32>, #dlti.dl_entry<"ARCH", "dav-c310">>>, hacc.target = #hacc.target<"Ascend950PR_9589">}

// VER: hacc.hivmc_version = #hacc.hivmc_version<"0.2.0">

// Without a target anywhere the pass does nothing.
// NONE: module {

// TWICE: warning: Overwriting the target by the pass option...
// TWICE: warning: Overwriting the device spec...
// TWICE: #dlti.dl_entry<"UB_SIZE", 2097152 : i32>
// TWICE-SAME: hacc.target = #hacc.target<"Ascend310B1">

// BAD: error: unknown target 'Ascend911' for hacc-append-device-spec

func.func @kernel() {
  return
}
