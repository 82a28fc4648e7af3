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

// -----

llvm.module_flags [#llvm.mlir.module_flag<error, "ProfileSummary",
     // expected-error@below {{expected one of [SampleProfile, InstrProf, CSInstrProf] for LLVM ProfileSummary format kinds, got: YoloFmt}}
     #llvm.profile_summary<format = "YoloFmt", total_count = 263646, max_count = 86427,
     // expected-error@above {{failed to parse ModuleFlagProfileSummaryAttr parameter 'format' which is to be a `ProfileSummaryFormatKind`}}
       max_internal_count = 86427, max_function_count = 4691, num_counts = 3712,
       num_functions = 796, is_partial_profile = 0
      // expected-error@below {{failed to parse ModuleFlagAttr parameter 'value' which is to be a `Attribute`}}
>>]
