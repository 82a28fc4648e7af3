// RUN: strata-opt %s --split-input-file --verify-diagnostics

// bitcasts of pointers and vectors of pointers: upstream's wording.
llvm.func @f(%arg : vector<4x!llvm.ptr>) {
  // expected-error @+1 {{'llvm.bitcast' op cannot cast vector of pointers to pointer}}
  %0 = llvm.bitcast %arg : vector<4x!llvm.ptr> to !llvm.ptr
  llvm.return
}

// -----

llvm.func @f(%arg : !llvm.ptr) {
  // expected-error @+1 {{'llvm.bitcast' op cannot cast pointer to vector of pointers}}
  %0 = llvm.bitcast %arg : !llvm.ptr to vector<4x!llvm.ptr>
  llvm.return
}

// -----

llvm.func @f(%arg : !llvm.ptr<1>) {
  // expected-error @+1 {{'llvm.bitcast' op cannot cast pointers of different address spaces, use 'llvm.addrspacecast' instead}}
  %0 = llvm.bitcast %arg : !llvm.ptr<1> to !llvm.ptr
  llvm.return
}

// -----

llvm.func @f(%arg : vector<4x!llvm.ptr<1>>) {
  // expected-error @+1 {{'llvm.bitcast' op cannot cast pointers of different address spaces, use 'llvm.addrspacecast' instead}}
  %0 = llvm.bitcast %arg : vector<4x!llvm.ptr<1>> to vector<4x!llvm.ptr>
  llvm.return
}

// -----

llvm.func @f(%arg : vector<4x!llvm.ptr>) {
  // expected-error @+1 {{'llvm.bitcast' op can only cast pointers from and to pointers}}
  %0 = llvm.bitcast %arg : vector<4x!llvm.ptr> to vector<4xi64>
  llvm.return
}

// -----

// expected-error @+1 {{failed to verify 'elementType': VectorElementTypeInterface instance}}
llvm.func @f(%arg : vector<4x!llvm.void>) {
  llvm.return
}
