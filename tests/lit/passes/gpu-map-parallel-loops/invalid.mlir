// RUN: not strata-opt %s --gpu-map-parallel-loops=mapping-policy=sideways 2>&1 | filecheck %s

// CHECK: Invalid mapping policy specified: sideways
func.func @f() {
  return
}
