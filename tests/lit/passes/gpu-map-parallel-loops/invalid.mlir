// RUN: not strata-opt %s --gpu-map-parallel-loops=mapping-policy=sideways 2>&1 | filecheck %s

// CHECK: error: Invalid mapping policy specified.
func.func @f() {
  return
}
