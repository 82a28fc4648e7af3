// RUN: strata-opt %s --split-input-file --verify-diagnostics

// llvm.intr.vector.insert / extract / interleave2: upstream's verifier and parser wording.
llvm.func @f(%a : vector<16385xi8>, %b : vector<[16]xi8>) {
  // expected-error @+1 {{'llvm.intr.vector.insert' op failed to verify that vectors are not bigger than 2^17 bits.}}
  %0 = llvm.intr.vector.insert %a, %b[0] : vector<16385xi8> into vector<[16]xi8>
  llvm.return
}

// -----

llvm.func @f(%a : vector<[8]xf32>, %b : vector<16xf32>) {
  // expected-error @+1 {{'llvm.intr.vector.insert' op failed to verify that it is not inserting scalable into fixed-length vectors.}}
  %0 = llvm.intr.vector.insert %a, %b[0] : vector<[8]xf32> into vector<16xf32>
  llvm.return
}

// -----

llvm.func @f(%a : vector<[8]xf32>, %b : vector<16xf32>) {
  // expected-error @+1 {{'llvm.intr.vector.insert' op failed to verify that all of {dstvec, res} have same type}}
  %0 = "llvm.intr.vector.insert"(%b, %a) <{pos = 0 : i64}> : (vector<16xf32>, vector<[8]xf32>) -> vector<8xf32>
  llvm.return
}

// -----

llvm.func @f(%b : vector<[16]xi8>) {
  // expected-error @+1 {{'llvm.intr.vector.extract' op failed to verify that vectors are not bigger than 2^17 bits.}}
  %0 = llvm.intr.vector.extract %b[0] : vector<16385xi8> from vector<[16]xi8>
  llvm.return
}

// -----

llvm.func @f(%b : vector<16xf32>) {
  // expected-error @+1 {{'llvm.intr.vector.extract' op failed to verify that it is not extracting scalable from fixed-length vectors.}}
  %0 = llvm.intr.vector.extract %b[0] : vector<[8]xf32> from vector<16xf32>
  llvm.return
}

// -----

llvm.func @f(%a : vector<[2]xf16>, %b : vector<[4]xf16>) {
  // expected-error @+1 {{'llvm.intr.vector.interleave2' op failed to verify that all of {vec1, vec2} have same type}}
  %0 = "llvm.intr.vector.interleave2"(%a, %b) : (vector<[2]xf16>, vector<[4]xf16>) -> vector<[8]xf16>
  llvm.return
}

// -----

llvm.func @f(%a : vector<[2]xf16>) {
  // expected-error @+1 {{'llvm.intr.vector.interleave2' op failed to verify that result has twice as many elements as 'vec1'}}
  %0 = "llvm.intr.vector.interleave2"(%a, %a) : (vector<[2]xf16>, vector<[2]xf16>) -> vector<4xf16>
  llvm.return
}

// -----

llvm.func @f(%a : vector<2xf16>) {
  // expected-error @+1 {{'llvm.intr.vector.interleave2' op failed to verify that result has twice as many elements as 'vec1'}}
  %0 = "llvm.intr.vector.interleave2"(%a, %a) : (vector<2xf16>, vector<2xf16>) -> vector<4xf32>
  llvm.return
}

// -----

llvm.func @f(%a : i32) {
  // expected-error @+1 {{'llvm.intr.vector.interleave2' op operand #0 must be LLVM dialect-compatible vector type, but got 'i32'}}
  %0 = "llvm.intr.vector.interleave2"(%a, %a) : (i32, i32) -> vector<8xf32>
  llvm.return
}

// -----

llvm.func @f(%a : vector<4xf32>, %b : vector<[8]xf32>) {
  // expected-error @+1 {{expected '['}}
  %0 = llvm.intr.vector.insert %a, %b : vector<4xf32> into vector<[8]xf32>
  llvm.return
}
