// --verify-diagnostics fails (exit 1) on a diagnostic nobody announced, on an
// announcement nothing met, and on one whose severity differs; unexpected ones are
// reported as they happen, unmet ones after the last chunk, as mlir-opt does.
// (CHECK lines spell the annotations as {{expected}}-... so that they are not
// annotations themselves.)
// RUN: not strata-opt %s --split-input-file --verify-diagnostics 2>&1 | filecheck %s --match-full-lines --strict-whitespace

// CHECK:{{.*}}verify_failures.mlir:11:1: error: unexpected error: custom op 'nobody_expects_me' is unknown (tried 'builtin.nobody_expects_me' as well)
// CHECK-NEXT:nobody_expects_me
// CHECK-NEXT:^
nobody_expects_me

// -----

// An error announced as a warning.
// CHECK-NEXT:{{.*}}verify_failures.mlir:19:4: error: 'error' diagnostic emitted when expecting a 'warning'
// CHECK-NEXT:// {{expected}}-warning @+1 {{[{][{]}}custom op 'wrong_severity' is unknown{{[}][}]}}
// CHECK-NEXT:   ^
// expected-warning @+1 {{custom op 'wrong_severity' is unknown}}
wrong_severity

// -----

// A note announced on the wrong line: it is unexpected where it comes, and the
// announcement is unmet.
// CHECK-NEXT:{{.*}}verify_failures.mlir:31:3: error: unexpected note: previously defined here
// CHECK-NEXT:  %x = arith.constant 1 : i32
// CHECK-NEXT:  ^
func.func @twice() {
  // expected-error @+2 {{redefinition of SSA value '%x'}}
  %x = arith.constant 1 : i32
  %x = arith.constant 3 : i32 // expected-note {{previously defined here}}
  return
}

// -----

// Unmet announcements come last, in file order; @unknown ones twice, like mlir-opt.
// CHECK-NEXT:{{.*}}verify_failures.mlir:19:4: error: expected warning "custom op 'wrong_severity' is unknown" was not produced
// CHECK-NEXT:// {{expected}}-warning @+1 {{[{][{]}}custom op 'wrong_severity' is unknown{{[}][}]}}
// CHECK-NEXT:   ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// CHECK-NEXT:{{.*}}verify_failures.mlir:32:34: error: expected note "previously defined here" was not produced
// CHECK-NEXT:  %x = arith.constant 3 : i32 // {{expected}}-note {{[{][{]}}previously defined here{{[}][}]}}
// CHECK-NEXT:                                 ^~~~~~~~~~~~~~~~~~~~~~~
// CHECK-NEXT:{{.*}}verify_failures.mlir:50:4: error: expected error "never produced" was not produced
// CHECK-NEXT:// {{expected}}-error @+1 {{[{][{]}}never produced{{[}][}]}}
// CHECK-NEXT:   ^~~~~~~~~~~~~~
// CHECK-NEXT:<unknown>:0: error: expected remark "nor this" was not produced
// CHECK-NEXT:<unknown>:0: error: expected remark "nor this" was not produced
// expected-error @+1 {{never produced}}
func.func @fine() {
  return
}
// expected-remark @unknown {{nor this}}
