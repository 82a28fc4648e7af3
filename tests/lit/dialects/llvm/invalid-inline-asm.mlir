// RUN: strata-opt %s --split-input-file --verify-diagnostics

// llvm.inline_asm: upstream's verifier and parser wording.
llvm.func @f(%a : i32) {
  // expected-error @+1 {{'llvm.inline_asm' op tail call kind 'musttail' is not supported by this operation}}
  %8 = llvm.inline_asm tail_call_kind = <musttail> "foo", "=r,=r,r" %a : (i32) -> !llvm.struct<(i8, i8)>
  llvm.return
}

// -----

llvm.func @f(%a : i32) {
  // expected-error @+1 {{custom op 'llvm.inline_asm' expected string or keyword containing one of the following enum values for attribute 'asm_dialect' [att, intel]}}
  %8 = llvm.inline_asm asm_dialect = bogus "foo", "=r,r" %a : (i32) -> i32
  llvm.return
}
