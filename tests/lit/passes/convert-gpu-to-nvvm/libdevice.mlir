// RUN: strata-opt %s --convert-gpu-to-nvvm | filecheck %s

// Math NVPTX has no instruction for becomes a libdevice call (__nv_<fn>f on f32,
// __nv_<fn> on f64), declared in the kernel's gpu.module; what it has stays an
// intrinsic (sqrt, fabs).

// CHECK: gpu.module @k {
// CHECK-DAG: llvm.func @__nv_sinf(f32) -> f32
// CHECK-DAG: llvm.func @__nv_powf(f32, f32) -> f32
// CHECK-DAG: llvm.func @__nv_atan2(f64, f64) -> f64
// CHECK: %[[S:.*]] = llvm.call @__nv_sinf(%{{.*}}) : (f32) -> f32
// CHECK-NEXT: llvm.call @__nv_powf(%[[S]], %{{.*}}) : (f32, f32) -> f32
// CHECK: llvm.intr.sqrt(%{{.*}}) : (f32) -> f32
// CHECK: llvm.intr.fabs(%{{.*}}) : (f64) -> f64
// CHECK: llvm.call @__nv_atan2(%{{.*}}, %{{.*}}) : (f64, f64) -> f64
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%a: memref<?xf32>, %b: memref<?xf64>) kernel {
      %t = gpu.thread_id x
      %x = memref.load %a[%t] : memref<?xf32>
      %s = math.sin %x : f32
      %p = math.powf %s, %x : f32
      %r = math.sqrt %p : f32
      %y = memref.load %b[%t] : memref<?xf64>
      %e = math.absf %y : f64
      %q = math.atan2 %e, %y : f64
      memref.store %r, %a[%t] : memref<?xf32>
      memref.store %q, %b[%t] : memref<?xf64>
      gpu.return
    }
  }
}
