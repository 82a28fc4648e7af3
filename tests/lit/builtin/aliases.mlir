// Type and attribute aliases: defined anywhere above their use in the input, printed
// the way mlir-opt names them (affine maps, sets, distinct attributes and tuples of
// more than 16 types get aliases; everything else prints inline).
// RUN: strata-opt %s --allow-unregistered-dialect | filecheck %s
// RUN: strata-opt %s --allow-unregistered-dialect --mlir-print-op-generic | strata-opt --allow-unregistered-dialect | filecheck %s
// RUN: strata-opt %s --allow-unregistered-dialect --mlir-print-local-scope | filecheck %s --check-prefix=LOCAL

// Aliases come out sorted by depth (one containing another comes later), then types
// before attributes, then name; the same name is numbered in order of first use.
// CHECK: !tuple = tuple<i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32>
// CHECK-NEXT: #map = affine_map<(d0) -> (d0 + 1)>
// CHECK-NEXT: #map1 = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-NEXT: #map2 = affine_map<(d0)[s0] -> (d0 * s0)>
// CHECK-NEXT: #set = affine_set<(d0) : (d0 >= 0)>
// CHECK-NEXT: #distinct = distinct[0]<#map2>
// CHECK-NEXT: module {
// LOCAL-NOT: #map
// LOCAL: module {

// Input alias names do not carry over: the printer names what it prints. Unused
// definitions disappear.
#transpose = affine_map<(i, j) -> (j, i)>
#shift = affine_map<(d0) -> (d0 + 1)>
#unused = affine_map<(d0) -> (d0 * 7)>
#scaled = affine_map<(d0)[s0] -> (d0 * s0)>
#positive = affine_set<(d0) : (d0 >= 0)>
!vec = vector<4xf32>
!big = tuple<i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32>
!small = tuple<i32, i32>
#dict = {level = 2 : i32}

// CHECK-LABEL: func.func @uses
// CHECK-SAME: (%arg0: memref<4xf32, #map>, %arg1: memref<4x4xf32, #map1>, %arg2: vector<4xf32>, %arg3: !tuple, %arg4: tuple<i32, i32>)
// LOCAL-LABEL: func.func @uses
// LOCAL-SAME: (%arg0: memref<4xf32, affine_map<(d0) -> (d0 + 1)>>, %arg1: memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>, %arg2: vector<4xf32>, %arg3: tuple<i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32>, %arg4: tuple<i32, i32>)
func.func @uses(%a: memref<4xf32, #shift>, %b: memref<4x4xf32, #transpose>, %c: !vec, %d: !big, %e: !small) {
  // CHECK-NEXT: "test.op"() {maps = [#map1, #map], nested = {m = #map2, s = #set}, options = {level = 2 : i32}, tag = #distinct, tag2 = #distinct} : () -> ()
  "test.op"() {maps = [#transpose, #shift], nested = {m = #scaled, s = #positive}, options = #dict,
               tag = distinct[5]<#scaled>, tag2 = distinct[5]<#scaled>} : () -> ()
  return
}
