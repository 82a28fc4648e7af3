// builtin.unrealized_conversion_cast folding (strata/dialects/builtin.py). The CHECK
// lines are what `iree-opt --canonicalize` prints for the first four cases.
// RUN: strata-opt %s --split-input-file --allow-unregistered-dialect --canonicalize | filecheck %s

// A cast of all the results of a cast, back to its input types: the inputs.
// CHECK-LABEL: func.func @round_trip(
//  CHECK-NEXT:   return %arg0, %arg1 : i32, f32
func.func @round_trip(%a: i32, %b: f32) -> (i32, f32) {
  %0:2 = builtin.unrealized_conversion_cast %a, %b : i32, f32 to i64, f64
  %1:2 = builtin.unrealized_conversion_cast %0#0, %0#1 : i64, f64 to i32, f32
  return %1#0, %1#1 : i32, f32
}

// -----

// A cast to its inputs' own types is its inputs.
// CHECK-LABEL: func.func @identity(
//  CHECK-NEXT:   "u.use"(%arg0) : (i32) -> ()
func.func @identity(%a: i32) {
  %0 = builtin.unrealized_conversion_cast %a : i32 to i32
  "u.use"(%0) : (i32) -> ()
  return
}

// -----

// Not when the inner cast's results are used in another order, partly, or come back
// to other types.
// CHECK-LABEL: func.func @no_fold(
//  CHECK-NEXT:   %0:2 = builtin.unrealized_conversion_cast %arg0, %arg1 : i32, i32 to i64, i64
//  CHECK-NEXT:   %1:2 = builtin.unrealized_conversion_cast %0#1, %0#0 : i64, i64 to i32, i32
//  CHECK-NEXT:   %2 = builtin.unrealized_conversion_cast %0#0 : i64 to i32
//  CHECK-NEXT:   %3:2 = builtin.unrealized_conversion_cast %0#0, %0#1 : i64, i64 to i16, i16
//  CHECK-NEXT:   "u.use"(%1#0, %2, %3#0) : (i32, i32, i16) -> ()
func.func @no_fold(%a: i32, %b: i32) {
  %0:2 = builtin.unrealized_conversion_cast %a, %b : i32, i32 to i64, i64
  %1:2 = builtin.unrealized_conversion_cast %0#1, %0#0 : i64, i64 to i32, i32
  %2 = builtin.unrealized_conversion_cast %0#0 : i64 to i32
  %3:2 = builtin.unrealized_conversion_cast %0#0, %0#1 : i64, i64 to i16, i16
  "u.use"(%1#0, %2, %3#0) : (i32, i32, i16) -> ()
  return
}

// -----

// A chain of one-to-one casts collapses.
// CHECK-LABEL: func.func @chain(
//  CHECK-NEXT:   return %arg0 : i8
func.func @chain(%a: i8) -> i8 {
  %0 = builtin.unrealized_conversion_cast %a : i8 to i16
  %1 = builtin.unrealized_conversion_cast %0 : i16 to i8
  %2 = builtin.unrealized_conversion_cast %1 : i8 to i16
  %3 = builtin.unrealized_conversion_cast %2 : i16 to i8
  return %3 : i8
}

// -----

// Where a cast may read its own results (an unregistered op's region, like a graph
// region), it is never folded into them.
// CHECK-LABEL: func.func @graph(
//       CHECK:   %0:2 = builtin.unrealized_conversion_cast %0#1, %arg0 : i32, i32 to i32, i32
//       CHECK:   %1 = builtin.unrealized_conversion_cast %1 : i32 to i32
func.func @graph(%x: i32) {
  "u.graph"() ({
    %0:2 = builtin.unrealized_conversion_cast %0#1, %x : i32, i32 to i32, i32
    %1 = builtin.unrealized_conversion_cast %1 : i32 to i32
    "u.use"(%0#0, %1) : (i32, i32) -> ()
  }) : () -> ()
  return
}
