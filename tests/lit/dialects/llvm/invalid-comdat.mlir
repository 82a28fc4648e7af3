// RUN: strata-opt %s --split-input-file --verify-diagnostics

// llvm.comdat / llvm.comdat_selector and comdat references: upstream's wording.
llvm.comdat @__llvm_comdat {
  // expected-error @+1 {{only comdat selector symbols can appear in a comdat region}}
  llvm.return
}

// -----

llvm.mlir.global @not_comdat(0 : i32) : i32
// expected-error @+1 {{expected comdat symbol}}
llvm.mlir.global @invalid_global_comdat(0 : i32) comdat(@not_comdat) : i32

// -----

llvm.comdat @__llvm_comdat {
  // expected-error @+1 {{custom op 'llvm.comdat_selector' expected string or keyword containing one of the following enum values for attribute 'comdat' [any, exactmatch, largest, nodeduplicate, samesize]}}
  llvm.comdat_selector @any bogus
}

// -----

llvm.comdat @__llvm_comdat {
  llvm.comdat_selector @any any
}
// expected-error @+1 {{expected comdat symbol}}
llvm.func @f() comdat(@__llvm_comdat::@other) {
  llvm.return
}
