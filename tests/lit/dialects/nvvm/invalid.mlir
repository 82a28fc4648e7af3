// RUN: strata-opt %s --split-input-file --verify-diagnostics

// Errors of the nvvm dialect, with upstream's wording (iree-opt --verify-diagnostics
// passes this file too).

llvm.func @shfl_result_type(%m : i32, %v : f32, %o : i32, %c : i32) {
  // expected-error@+1 {{'nvvm.shfl.sync' op expected return type to be of type 'f32' but got 'i32' instead}}
  %r = nvvm.shfl.sync bfly %m, %v, %o, %c : f32 -> i32
  llvm.return
}

// -----

llvm.func @shfl_pred_result(%m : i32, %v : f32, %o : i32, %c : i32) {
  // expected-error@+1 {{'nvvm.shfl.sync' op expected second element in the returned struct to be of type 'i1' but got 'i32' instead}}
  %r = nvvm.shfl.sync bfly %m, %v, %o, %c return_value_and_is_valid : f32 -> !llvm.struct<(f32, i32)>
  llvm.return
}

// -----

llvm.func @shfl_struct_without_flag(%m : i32, %v : f32, %o : i32, %c : i32) {
  // expected-error@+1 {{"return_value_and_is_valid" attribute must be specified when the return type is a struct type}}
  %r = nvvm.shfl.sync bfly %m, %v, %o, %c : f32 -> !llvm.struct<(f32, i1)>
  llvm.return
}

// -----

llvm.func @vote_any_type(%m : i32, %p : i1) {
  // expected-error@+1 {{vote.sync 'any', 'all' and 'uni' returns an i1}}
  %r = nvvm.vote.sync any %m, %p -> i32
  llvm.return
}

// -----

llvm.func @cp_async_size(%d : !llvm.ptr<3>, %s : !llvm.ptr<1>) {
  // expected-error@+1 {{expected byte size to be either 4, 8 or 16.}}
  nvvm.cp.async.shared.global %d, %s, 32, cache = ca : !llvm.ptr<3>, !llvm.ptr<1>
  llvm.return
}

// -----

llvm.func @cp_async_cg_size(%d : !llvm.ptr<3>, %s : !llvm.ptr<1>) {
  // expected-error@+1 {{CG cache modifier is only support for 16 bytes copy.}}
  nvvm.cp.async.shared.global %d, %s, 8, cache = cg : !llvm.ptr<3>, !llvm.ptr<1>
  llvm.return
}

// -----

llvm.func @ldmatrix_num(%p : !llvm.ptr<3>) {
  // expected-error@+1 {{expected num attribute to be 1, 2 or 4}}
  %r = nvvm.ldmatrix %p, num = 3, layout = <row>, shape = <m = 8, n = 8>, element_type = <b16> : (!llvm.ptr<3>) -> i32
  llvm.return
}

// -----

// expected-error@+1 {{The optimization level must be a number between 0 and 3.}}
gpu.module @bad_target [#nvvm.target<O = 4>] {
}

// -----

// expected-error@+1 {{duplicate or unknown struct parameter name: arch}}
gpu.module @unknown_target_param [#nvvm.target<arch = "sm_90">] {
}

// -----

llvm.func @unknown_sreg() {
  // expected-error@+1 {{custom op 'nvvm.read.ptx.sreg.tid.w' is unknown}}
  %t = nvvm.read.ptx.sreg.tid.w : i32
  llvm.return
}
