// RUN: strata-opt %s --symbol-privatize | filecheck %s --check-prefix=ALL
// RUN: strata-opt %s --symbol-privatize=exclude=aap,noot | filecheck %s --check-prefix=EXCL
// RUN: strata-opt %s --pass-pipeline='builtin.module(symbol-privatize{exclude=mies})' | filecheck %s --check-prefix=PIPE

// Every symbol directly in the module becomes private, but those named in `exclude`.
// ALL-LABEL:  func.func private @aap() {
// ALL:        func.func private @noot() {
// ALL:        func.func private @mies() {
// ALL:        func.func private @decl()
// ALL:        func.func private @nested_vis() {
// ALL:        ml_program.global private @w(0 : i32) : i32

// EXCL-LABEL: func.func @aap() {
// EXCL:       func.func @noot() {
// EXCL:       func.func private @mies() {
// EXCL:       func.func private @decl()
// EXCL:       func.func private @nested_vis() {
// EXCL:       ml_program.global private @w(0 : i32) : i32

// PIPE-LABEL: func.func private @aap() {
// PIPE:       func.func private @noot() {
// PIPE:       func.func @mies() {
func.func @aap() {
  return
}
func.func @noot() {
  return
}
func.func @mies() {
  return
}
func.func private @decl()
func.func nested @nested_vis() {
  return
}
ml_program.global public @w(0 : i32) : i32
