// RUN: strata-opt %s --split-input-file --verify-diagnostics

// icmp/fcmp predicates, insertvalue/extractvalue containers, getelementptr's trailing type and flags: upstream's wording.
llvm.func @f(%a : i32) {
  // expected-error @+1 {{custom op 'llvm.icmp' 'foo' is an incorrect value of the 'predicate' attribute}}
  %0 = llvm.icmp "foo" %a, %a : i32
  llvm.return
}

// -----

llvm.func @f(%a : i32) {
  // expected-error @+1 {{custom op 'llvm.icmp' expected string}}
  %0 = llvm.icmp foo %a, %a : i32
  llvm.return
}

// -----

llvm.func @f(%a : f32) {
  // expected-error @+1 {{custom op 'llvm.fcmp' 'foo' is an incorrect value of the 'predicate' attribute}}
  %0 = llvm.fcmp "foo" %a, %a : f32
  llvm.return
}

// -----

llvm.func @f(%a : f32) {
  // expected-error @+1 {{custom op 'llvm.fcmp' expected string}}
  %0 = llvm.fcmp foo %a, %a : f32
  llvm.return
}

// -----

llvm.func @f(%a : i32, %b : i32) {
  %0 = llvm.insertvalue %a, %b[0] : tensor<*xi32>
  // expected-error @+1 {{custom op 'llvm.insertvalue' expected LLVM IR Dialect type, got 'tensor<*xi32>'}}
  llvm.return
}

// -----

llvm.func @f(%a : i32, %b : i32) {
  %0 = llvm.insertvalue %a, %b[0] : i32
  // expected-error @+1 {{custom op 'llvm.insertvalue' expected LLVM IR structure/array type, got: 'i32'}}
  llvm.return
}

// -----

func.func @f(%b : tensor<*xi32>) {
  %0 = llvm.extractvalue %b[0] : tensor<*xi32>
  // expected-error @+1 {{custom op 'llvm.extractvalue' expected LLVM IR Dialect type, got 'tensor<*xi32>'}}
  return
}

// -----

llvm.func @f(%p : !llvm.ptr, %i : i64) {
  // expected-error @+1 {{custom op 'llvm.getelementptr' invalid kind of type specified: expected builtin.function, but found '!llvm.ptr'}}
  %0 = llvm.getelementptr %p[%i] : !llvm.ptr
  llvm.return
}

// -----

llvm.func @f(%p : !llvm.ptr, %i : i64) {
  // expected-error @+1 {{'llvm.getelementptr' op 'inbounds_flag' cannot be used directly.}}
  %0 = llvm.getelementptr inbounds_flag %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  llvm.return
}

// -----

llvm.func @f(%p : !llvm.ptr, %i : i64) {
  // expected-error @+1 {{'llvm.getelementptr' op 'inbounds_flag' cannot be used directly.}}
  %0 = "llvm.getelementptr"(%p, %i) <{elem_type = i8, noWrapFlags = 1 : i32, rawConstantIndices = array<i32: -2147483648>}> : (!llvm.ptr, i64) -> !llvm.ptr
  llvm.return
}
