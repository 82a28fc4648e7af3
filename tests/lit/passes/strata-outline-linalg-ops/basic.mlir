// RUN: strata-opt %s --strata-outline-linalg-ops | filecheck %s
// RUN: strata-opt %s --strata-outline-linalg-ops=dedupe=false | filecheck %s --check-prefix=NODEDUPE

// Each linalg op on buffers (also inside scf.if) becomes a call; identical ops share a
// function; captured scalars become arguments, constants are cloned in.

#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @main(%arg0: memref<4xf32>, %arg1: memref<4xf32>, %arg2: f32, %arg3: i1)
// CHECK: call @main__op0(%arg0, %arg1) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT: call @main__op0(%arg1, %arg0) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT: scf.if %arg3 {
// CHECK-NEXT: func.call @main__op1(%arg2, %arg0) : (f32, memref<4xf32>) -> ()
// CHECK-NEXT: }
// CHECK-NEXT: call @main__op2(%arg1) : (memref<4xf32>) -> ()
// CHECK-NEXT: return
// CHECK: func.func private @main__op0(%arg0: memref<4xf32>, %arg1: memref<4xf32>) {
// CHECK-NEXT: %[[C:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: linalg.generic
// CHECK: arith.mulf %{{.*}}, %[[C]] : f32
// CHECK: return
// CHECK: func.func private @main__op1(%arg0: f32, %arg1: memref<4xf32>) {
// CHECK-NEXT: linalg.fill ins(%arg0 : f32) outs(%arg1 : memref<4xf32>)
// CHECK: func.func private @main__op2(%arg0: memref<4xf32>) {
// CHECK-NOT: func.func

// NODEDUPE: call @main__op0(%arg0, %arg1)
// NODEDUPE: call @main__op1(%arg1, %arg0)
// NODEDUPE: func.func private @main__op3(
func.func @main(%a: memref<4xf32>, %b: memref<4xf32>, %s: f32, %c: i1) {
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %two : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%b : memref<4xf32>) outs(%a : memref<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %two : f32
    linalg.yield %m : f32
  }
  scf.if %c {
    linalg.fill ins(%s : f32) outs(%a : memref<4xf32>)
  }
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]}
      outs(%b : memref<4xf32>) {
  ^bb0(%y: f32):
    %m = arith.mulf %y, %three : f32
    linalg.yield %m : f32
  }
  return
}
