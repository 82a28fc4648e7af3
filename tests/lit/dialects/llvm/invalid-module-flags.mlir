// RUN: strata-opt %s --split-input-file --verify-diagnostics

// llvm.module_flags and #llvm.mlir.module_flag: upstream's verifier wording.
llvm.func @foo()
// expected-error @+1 {{only integer, integer-like dialect attributes, string, and string-array values are currently supported for unknown key '"yolo"'}}
llvm.module_flags [#llvm.mlir.module_flag<error, "yolo", @foo>]

// -----

// expected-error @+1 {{'CG Profile' key expects an array of '#llvm.cgprofile_entry'}}
llvm.module_flags [#llvm.mlir.module_flag<append, "CG Profile", ["yo"]>]

// -----

// expected-error @+1 {{'CG Profile' key expects an array of '#llvm.cgprofile_entry'}}
llvm.module_flags [#llvm.mlir.module_flag<append, "CG Profile", 3 : i64>]

// -----

// expected-error @+1 {{'ProfileSummary' key expects a '#llvm.profile_summary' attribute}}
llvm.module_flags [#llvm.mlir.module_flag<append, "ProfileSummary", 3 : i64>]

// -----

// expected-error @+1 {{only integer, integer-like dialect attributes, string, and string-array values are currently supported for unknown key '"x"'}}
llvm.module_flags [#llvm.mlir.module_flag<append, "x", ["a", 1 : i32]>]

// -----

// expected-error @+1 {{'llvm.module_flags' op expected a module flag attribute}}
llvm.module_flags [1 : i32]
