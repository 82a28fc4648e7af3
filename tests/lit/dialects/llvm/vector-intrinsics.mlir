// RUN: strata-opt %s | filecheck %s
// RUN: strata-opt %s | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | filecheck %s
// RUN: strata-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC

// llvm.intr.vector.insert / extract (custom form), interleave2 / deinterleave2 (generic only).
// CHECK: module {
// CHECK-NEXT:   llvm.func @f(%arg0: vector<4xf32>, %arg1: vector<[8]xf32>, %arg2: vector<16xf32>, %arg3: vector<[4]xf32>) {
// CHECK-NEXT:     %0 = llvm.intr.vector.insert %arg0, %arg1[4] : vector<4xf32> into vector<[8]xf32>
// CHECK-NEXT:     %1 = llvm.intr.vector.insert %arg0, %arg2[0] : vector<4xf32> into vector<16xf32>
// CHECK-NEXT:     %2 = llvm.intr.vector.extract %arg1[0] : vector<4xf32> from vector<[8]xf32>
// CHECK-NEXT:     %3 = llvm.intr.vector.extract %arg1[0] : vector<[4]xf32> from vector<[8]xf32>
// CHECK-NEXT:     %4 = "llvm.intr.vector.interleave2"(%arg0, %arg0) : (vector<4xf32>, vector<4xf32>) -> vector<8xf32>
// CHECK-NEXT:     %5 = "llvm.intr.vector.deinterleave2"(%arg2) : (vector<16xf32>) -> !llvm.struct<(vector<8xf32>, vector<8xf32>)>
// CHECK-NEXT:     llvm.return
// CHECK-NEXT:   }
// CHECK-NEXT: }
// GENERIC: "builtin.module"() ({
// GENERIC-NEXT:   "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void (vector<4xf32>, vector<[8]xf32>, vector<16xf32>, vector<[4]xf32>)>, linkage = #llvm.linkage<external>, sym_name = "f", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
// GENERIC-NEXT:   ^bb0(%arg0: vector<4xf32>, %arg1: vector<[8]xf32>, %arg2: vector<16xf32>, %arg3: vector<[4]xf32>):
// GENERIC-NEXT:     %0 = "llvm.intr.vector.insert"(%arg1, %arg0) <{pos = 4 : i64}> : (vector<[8]xf32>, vector<4xf32>) -> vector<[8]xf32>
// GENERIC-NEXT:     %1 = "llvm.intr.vector.insert"(%arg2, %arg0) <{pos = 0 : i64}> : (vector<16xf32>, vector<4xf32>) -> vector<16xf32>
// GENERIC-NEXT:     %2 = "llvm.intr.vector.extract"(%arg1) <{pos = 0 : i64}> : (vector<[8]xf32>) -> vector<4xf32>
// GENERIC-NEXT:     %3 = "llvm.intr.vector.extract"(%arg1) <{pos = 0 : i64}> : (vector<[8]xf32>) -> vector<[4]xf32>
// GENERIC-NEXT:     %4 = "llvm.intr.vector.interleave2"(%arg0, %arg0) : (vector<4xf32>, vector<4xf32>) -> vector<8xf32>
// GENERIC-NEXT:     %5 = "llvm.intr.vector.deinterleave2"(%arg2) : (vector<16xf32>) -> !llvm.struct<(vector<8xf32>, vector<8xf32>)>
// GENERIC-NEXT:     "llvm.return"() : () -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT: }) : () -> ()

llvm.func @f(%a : vector<4xf32>, %b : vector<[8]xf32>, %c : vector<16xf32>, %d : vector<[4]xf32>) {
  %0 = llvm.intr.vector.insert %a, %b[4] : vector<4xf32> into vector<[8]xf32>
  %1 = llvm.intr.vector.insert %a, %c[0] : vector<4xf32> into vector<16xf32>
  %2 = llvm.intr.vector.extract %b[0] : vector<4xf32> from vector<[8]xf32>
  %3 = llvm.intr.vector.extract %b[0] : vector<[4]xf32> from vector<[8]xf32>
  %4 = "llvm.intr.vector.interleave2"(%a, %a) : (vector<4xf32>, vector<4xf32>) -> vector<8xf32>
  %5 = "llvm.intr.vector.deinterleave2"(%c) : (vector<16xf32>) -> !llvm.struct<(vector<8xf32>, vector<8xf32>)>
  llvm.return
}
