// --split-input-file: each chunk is parsed and printed alone; outputs are joined by
// the marker, a failed chunk keeping its place; errors report lines of the whole file.
// RUN: not strata-opt %s --split-input-file 2>%t.err | filecheck %s
// RUN: filecheck %s --input-file %t.err --check-prefix=ERR
// RUN: not strata-opt %s --split-input-file --output-split-marker="// NEXT" 2>/dev/null | filecheck %s --check-prefix=MARK

// CHECK: module {
// CHECK-NEXT:   func.func @first() {
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: // {{-----}}
// CHECK-NEXT: // {{-----}}
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @third() {
// MARK: // NEXT
func.func @first() {
  return
}

// -----

// The second chunk fails: nothing is printed for it.
// ERR: split.mlir:{{[0-9]+}}:3: error: custom op 'bogus' is unknown (tried 'func.bogus' as well)
func.func @second() {
  bogus
}

// -----

// Chunks do not see each other: the same name can be defined again.
func.func @third() {
  return
}
