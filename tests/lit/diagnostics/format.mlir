// The diagnostic format: `file:line:col: error: message`, the source line, a caret
// under the column, then the notes (with their source line when they point elsewhere).
// RUN: not strata-opt %s --split-input-file 2>&1 | filecheck %s --match-full-lines --strict-whitespace

// A parse error points at the token.
// CHECK:{{.*}}format.mlir:10:26: error: use of undeclared SSA value name
// CHECK-NEXT:  %0 = arith.addi %arg0, %undefined : i32
// CHECK-NEXT:                         ^
func.func @f(%arg0: i32) -> i32 {
  %0 = arith.addi %arg0, %undefined : i32
  return %0 : i32
}

// -----

// A missing token at the end of a line is reported right after the line's last token.
// CHECK:{{.*}}format.mlir:21:25: error: expected ':'
// CHECK-NEXT:  %0 = arith.addi %a, %a   // no type
// CHECK-NEXT:                        ^
func.func @g(%a: i32) {
  %0 = arith.addi %a, %a   // no type
  return
}

// -----

// A verifier error shows the op in generic form in a note at the same place (so
// without the source line again); a note elsewhere shows its own line.
// CHECK:{{.*}}format.mlir:37:8: error: operand #0 does not dominate this use
// CHECK-NEXT:  %1 = arith.addi %0, %a : i32
// CHECK-NEXT:       ^
// CHECK-NEXT:{{.*}}format.mlir:37:8: note: see current operation: %0 = "arith.addi"(%1, %arg0) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// CHECK-NEXT:{{.*}}format.mlir:38:8: note: operand defined here (op in the same block)
// CHECK-NEXT:  %0 = arith.addi %a, %a : i32
// CHECK-NEXT:       ^
func.func @h(%a: i32) {
  %1 = arith.addi %0, %a : i32
  %0 = arith.addi %a, %a : i32
  return
}

// -----

// An op with regions prints on the lines after the note's text.
// CHECK:{{.*}}format.mlir:51:1: error: 'func.func' op symbol declaration cannot have public visibility
// CHECK-NEXT:"func.func"() ({}) {function_type = () -> (), sym_name = "decl"} : () -> ()
// CHECK-NEXT:^
// CHECK-NEXT:{{.*}}format.mlir:51:1: note: see current operation: {{$}}
// CHECK-NEXT:"func.func"() <{function_type = () -> (), sym_name = "decl"}> ({
// CHECK-NEXT:}) : () -> ()
"func.func"() ({}) {function_type = () -> (), sym_name = "decl"} : () -> ()

// -----

// Redefinitions point back at the first definition.
// CHECK:{{.*}}format.mlir:64:3: error: redefinition of SSA value '%x'
// CHECK-NEXT:  %x = arith.constant 2 : i32
// CHECK-NEXT:  ^
// CHECK-NEXT:{{.*}}format.mlir:63:3: note: previously defined here
// CHECK-NEXT:  %x = arith.constant 1 : i32
// CHECK-NEXT:  ^
func.func @k() {
  %x = arith.constant 1 : i32
  %x = arith.constant 2 : i32
  return
}

// -----

// Errors at the end of the input point after its last character.
// CHECK:{{.*}}format.mlir:74:26: error: expected '}' in attribute dictionary
// CHECK-NEXT:"func.func"() {sym_name = 1
// CHECK-NEXT:                         ^
"func.func"() {sym_name = 1