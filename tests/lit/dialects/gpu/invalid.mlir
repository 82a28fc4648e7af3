// RUN: strata-opt %s --split-input-file --verify-diagnostics

// Errors of the gpu dialect, with upstream's wording (iree-opt --verify-diagnostics
// passes this file too).

func.func @launch_func_needs_container_module(%n : index) {
  // expected-error@+1 {{expected the closest surrounding module to have the 'gpu.container_module' attribute}}
  gpu.launch_func @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n)
  return
}

// -----

module attributes {gpu.container_module} {
  func.func @undefined_container(%n : index) {
    // expected-error@+1 {{kernel container 'nowhere' is undefined}}
    gpu.launch_func @nowhere::@k blocks in (%n, %n, %n) threads in (%n, %n, %n)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
  }
  func.func @undefined_kernel(%n : index) {
    // expected-error@+1 {{kernel function '@kernels::@missing' is undefined}}
    gpu.launch_func @kernels::@missing blocks in (%n, %n, %n) threads in (%n, %n, %n)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @device_only(%x : f32) {
      gpu.return
    }
  }
  func.func @not_a_kernel(%n : index, %x : f32) {
    // expected-error@+1 {{kernel function is missing the 'gpu.kernel' attribute}}
    gpu.launch_func @kernels::@device_only blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%x : f32)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x : f32) kernel {
      gpu.return
    }
  }
  func.func @wrong_arg_count(%n : index, %x : f32) {
    // expected-error@+1 {{got 2 kernel operands but expected 1}}
    gpu.launch_func @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%x : f32, %x : f32)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x : f32) kernel {
      gpu.return
    }
  }
  func.func @wrong_arg_type(%n : index, %x : i32) {
    // expected-error@+1 {{type of function argument 0 does not match}}
    gpu.launch_func @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%x : i32)
    return
  }
}

// -----

func.func @launch_body_needs_terminator(%n : index) {
  // expected-note@+1 {{in 'gpu.launch' body region}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    %c = arith.constant 1 : i32
    // expected-error@+1 {{expected 'gpu.terminator' or a terminator with successors}}
    "gpu.yield"(%c) : (i32) -> ()
  }
  return
}

// -----

gpu.module @kernels {
  // expected-error@+1 {{'gpu.func' op expected void return type for kernel function}}
  gpu.func @k() -> f32 kernel {
    %c = arith.constant 1.0 : f32
    gpu.return %c : f32
  }
}

// -----

gpu.module @kernels {
  // expected-note@+1 {{return type declared here}}
  gpu.func @f() -> f32 {
    // expected-error@+1 {{'gpu.return' op expected 1 result operands}}
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @f(%x : i32) -> f32 {
    // expected-error@+1 {{'gpu.return' op unexpected type `'i32'' for operand #0}}
    gpu.return %x : i32
  }
}

// -----

gpu.module @kernels {
  // expected-error@+1 {{'gpu.func' op expected memory space workgroup in attribution}}
  gpu.func @k() workgroup(%w : memref<4xf32, #gpu.address_space<private>>) kernel {
    gpu.return
  }
}

// -----

gpu.module @kernels {
  // expected-error@+1 {{'gpu.func' op expected memref type in attribution}}
  gpu.func @k() private(%p : f32) kernel {
    gpu.return
  }
}

// -----

// expected-error@+1 {{'gpu.func' op expects parent op 'gpu.module'}}
gpu.func @outside_gpu_module() {
  gpu.return
}

// -----

func.func @shuffle_type(%x : index, %o : i32, %w : i32) {
  // expected-error@+1 {{operand #0 must be Integer or Float or fixed-length vector of Integer or Float values of ranks 1, but got 'index'}}
  %r, %v = gpu.shuffle xor %x, %o, %w : index
  return
}

// -----

func.func @shuffle_result_type(%x : f32, %o : i32, %w : i32) {
  // expected-error@+1 {{failed to verify that all of {value, shuffleResult} have same type}}
  %r, %v = "gpu.shuffle"(%x, %o, %w) <{mode = #gpu.shuffle_mode<xor>}> : (f32, i32, i32) -> (i32, i1)
  return
}

// -----

func.func @subgroup_reduce_float_op_on_int(%x : i32) {
  // expected-error@+1 {{`maximumf` reduction operation is not compatible with type 'i32'}}
  %r = gpu.subgroup_reduce maximumf %x : (i32) -> i32
  return
}

// -----

func.func @all_reduce_int_op_on_float(%x : f32) {
  // expected-error@+1 {{`xor` reduction operation is not compatible with type 'f32'}}
  %r = gpu.all_reduce xor %x {} : (f32) -> f32
  return
}

// -----

func.func @all_reduce_region_args(%x : f32) {
  // expected-error@+1 {{expected two region arguments}}
  %r = gpu.all_reduce %x {
  ^bb0(%a : f32):
    gpu.yield %a : f32
  } : (f32) -> f32
  return
}

// -----

func.func @alloc_dynamic_sizes(%n : index) {
  // expected-error@+1 {{'gpu.alloc' op incorrect number of dynamic sizes, has 2, expected 1}}
  %m = gpu.alloc (%n, %n) : memref<?xf32, 1>
  return
}

// -----

func.func @memcpy_shapes(%a : memref<4xf32>, %b : memref<8xf32, 1>) {
  // expected-error@+1 {{'gpu.memcpy' op arguments have incompatible shape}}
  gpu.memcpy %a, %b : memref<4xf32>, memref<8xf32, 1>
  return
}

// -----

func.func @memset_type(%a : memref<4xf32, 1>, %v : i32) {
  // expected-error@+1 {{'gpu.memset' op failed to verify that all of {dst, value} have same element type}}
  gpu.memset %a, %v : memref<4xf32, 1>, i32
  return
}

// -----

func.func @dynamic_shared_memory_space() {
  // expected-error@+1 {{'gpu.dynamic_shared_memory' op address space must be address_space<workgroup>}}
  %m = gpu.dynamic_shared_memory : memref<?xi8>
  return
}

// -----

func.func @bad_dimension() {
  // expected-error@+1 {{custom op 'gpu.thread_id' expected string or keyword containing one of the following enum values for attribute 'dimension' [x, y, z]}}
  %t = gpu.thread_id w
  return
}

// -----

func.func @mma_operand_order(%a : !gpu.mma_matrix<16x16xf16, "AOp">, %b : !gpu.mma_matrix<16x16xf16, "BOp">, %c : !gpu.mma_matrix<16x16xf32, "COp">) {
  // expected-error@+1 {{operands must be in the order AOp, BOp, COp}}
  %d = gpu.subgroup_mma_compute %b, %a, %c : !gpu.mma_matrix<16x16xf16, "BOp">, !gpu.mma_matrix<16x16xf16, "AOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
  return
}

// -----

func.func @rotate_width(%x : f32) {
  // expected-error@+1 {{'gpu.rotate' op attribute 'width' failed to satisfy constraint: 32-bit signless integer attribute whose value is a power of two > 0}}
  %r, %v = gpu.rotate %x, 1, 12 : f32
  return
}

// -----

gpu.module @kernels {
  // expected-error@+1 {{'gpu.func' op gpu.known_block_size must contain exactly 3 elements}}
  gpu.func @k() kernel attributes {gpu.known_block_size = array<i32: 32, 1>} {
    gpu.return
  }
}

// -----

func.func @async_wait_unnamed() {
  // expected-error@+1 {{custom op 'gpu.wait' needs to be named when marked 'async'}}
  gpu.wait async
  return
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @lowered(%arg0: !llvm.ptr) {
      llvm.return
    }
  }
  func.func @lowered_kernel_needs_attribute(%n : index, %m : memref<4xf32>) {
    // expected-error@+1 {{kernel function is missing the 'gpu.kernel' attribute}}
    gpu.launch_func @kernels::@lowered blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%m : memref<4xf32>)
    return
  }
}
