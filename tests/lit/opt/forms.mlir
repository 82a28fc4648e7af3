// The printing flags of strata-opt on one input.
// RUN: strata-opt %s | filecheck %s --check-prefix=CUSTOM
// RUN: strata-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: strata-opt %s --mlir-print-debuginfo | filecheck %s --check-prefix=DEBUG
// RUN: strata-opt %s --mlir-print-debuginfo --mlir-print-local-scope | filecheck %s --check-prefix=LOCAL
// RUN: strata-opt %s --mlir-elide-elementsattrs-if-larger=2 | filecheck %s --check-prefix=ELIDE
// RUN: strata-opt < %s | filecheck %s --check-prefix=CUSTOM
// RUN: strata-opt %s -o %t && filecheck %s --check-prefix=CUSTOM --input-file %t

// CUSTOM: #map = affine_map<(d0) -> (d0 + 1)>
// CUSTOM-LABEL: func.func @f(%arg0: memref<4xf32, #map>, %arg1: i32) -> tensor<3xi32> {
// CUSTOM-NEXT:    %0 = arith.addi %arg1, %arg1 : i32
// CUSTOM-NEXT:    %cst = arith.constant dense<[1, 2, 3]> : tensor<3xi32>
// CUSTOM-NEXT:    return %cst : tensor<3xi32>

// GENERIC: #map = affine_map<(d0) -> (d0 + 1)>
// GENERIC: "func.func"() <{function_type = (memref<4xf32, #map>, i32) -> tensor<3xi32>, sym_name = "f"}> ({
// GENERIC-NEXT:  ^bb0(%arg0: memref<4xf32, #map>, %arg1: i32):
// GENERIC-NEXT:    %0 = "arith.addi"(%arg1, %arg1) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// GENERIC-NEXT:    %1 = "arith.constant"() <{value = dense<[1, 2, 3]> : tensor<3xi32>}> : () -> tensor<3xi32>
// GENERIC-NEXT:    "func.return"(%1) : (tensor<3xi32>) -> ()

// DEBUG: #map = affine_map<(d0) -> (d0 + 1)>
// DEBUG: func.func @f(%arg0: memref<4xf32, #map> loc("{{.*}}forms.mlir":{{[0-9]+}}:14), %arg1: i32 loc("{{.*}}forms.mlir":{{[0-9]+}}:{{[0-9]+}}))
// DEBUG-NEXT:    %0 = arith.addi %arg1, %arg1 : i32 loc(#[[ADD:loc[0-9]+]])
// DEBUG: } loc(#loc)
// DEBUG-NEXT: #loc = loc("{{.*}}forms.mlir":0:0)
// DEBUG: #[[ADD]] = loc("{{.*}}forms.mlir":{{[0-9]+}}:8)

// LOCAL-NOT: #map
// LOCAL: %0 = arith.addi %arg1, %arg1 : i32 loc("{{.*}}forms.mlir":{{[0-9]+}}:8)
// LOCAL: } loc("{{.*}}forms.mlir":0:0)

// ELIDE: %cst = arith.constant dense_resource<__elided__> : tensor<3xi32>
func.func @f(%m: memref<4xf32, affine_map<(d0) -> (d0 + 1)>>, %a: i32) -> tensor<3xi32> {
  %0 = arith.addi %a, %a : i32
  %c = arith.constant dense<[1, 2, 3]> : tensor<3xi32>
  return %c : tensor<3xi32>
}
