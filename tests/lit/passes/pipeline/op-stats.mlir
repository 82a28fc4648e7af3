// print-op-stats and strip-debuginfo, the small generic passes, as upstream prints.
// RUN: strata-opt %s --print-op-stats -o /dev/null 2>&1 | filecheck %s --check-prefix=TABLE
// RUN: strata-opt %s --print-op-stats=json=true -o /dev/null 2>&1 | filecheck %s --check-prefix=JSON
// RUN: strata-opt %s --strip-debuginfo --mlir-print-debuginfo | filecheck %s --check-prefix=STRIP

// TABLE:      Operations encountered:
// TABLE-NEXT: -----------------------
// TABLE-NEXT:     arith.addi     , 2
// TABLE-NEXT:     arith.constant , 1
// TABLE-NEXT:   builtin.module   , 1
// TABLE-NEXT:      func.func     , 1
// TABLE-NEXT:      func.return   , 1

// JSON:      {
// JSON-NEXT:   "arith.addi" : 2,
// JSON-NEXT:   "arith.constant" : 1,
// JSON-NEXT:   "builtin.module" : 1,
// JSON-NEXT:   "func.func" : 1,
// JSON-NEXT:   "func.return" : 1
// JSON-NEXT: }

// STRIP:     #[[LOC:loc[0-9]*]] = loc(unknown)
// STRIP:     func.func @f(%arg0: i32 loc(unknown)) -> i32 {
// STRIP:       arith.addi %arg0, %{{.*}} : i32 loc(#[[LOC]])
// STRIP:     } loc(#[[LOC]])
func.func @f(%arg0: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %0 = arith.addi %arg0, %c1 : i32
  %1 = arith.addi %0, %0 : i32
  return %1 : i32
}
