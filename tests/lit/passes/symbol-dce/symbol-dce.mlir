// RUN: strata-opt %s --split-input-file --symbol-dce | filecheck %s

// Public symbols and non-symbols are roots; private (and nested) symbols live only while
// something live references them: calls, attributes (inside arrays and dictionaries),
// global loads. Chains are followed; a cycle of dead functions goes; references to
// unknown symbols are ignored.
// CHECK-LABEL: func.func private @live_decl()
// CHECK-NEXT:  func.func private @live_via_call() {
// CHECK-NEXT:    return
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func private @live_via_attr() {
// CHECK-NEXT:    return
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func private @chain_a() {
// CHECK-NEXT:    call @chain_b() : () -> ()
// CHECK-NEXT:    return
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func private @chain_b() {
// CHECK-NEXT:    call @live_decl() : () -> ()
// CHECK-NEXT:    return
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func @public_unused() {
// CHECK-NEXT:    return
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func @entry() -> i32 attributes {refs = [@live_via_attr, {k = @unknown}]} {
// CHECK-NEXT:    call @live_via_call() : () -> ()
// CHECK-NEXT:    call @chain_a() : () -> ()
// CHECK-NEXT:    %live_global = ml_program.global_load_const @live_global : i32
// CHECK-NEXT:    return %live_global : i32
// CHECK-NEXT:  }
// CHECK-NEXT:  ml_program.global private @live_global(1 : i32) : i32
func.func private @dead() {
  return
}
func.func private @dead_decl()
func.func private @live_decl()
func.func private @live_via_call() {
  return
}
func.func private @live_via_attr() {
  return
}
func.func private @chain_a() {
  func.call @chain_b() : () -> ()
  return
}
func.func private @chain_b() {
  func.call @live_decl() : () -> ()
  return
}
func.func private @cycle_a() {
  func.call @cycle_b() : () -> ()
  return
}
func.func private @cycle_b() {
  func.call @cycle_a() : () -> ()
  return
}
func.func nested @nested_unused() {
  return
}
func.func @public_unused() {
  return
}
func.func @entry() -> i32 attributes {refs = [@live_via_attr, {k = @unknown}]} {
  func.call @live_via_call() : () -> ()
  func.call @chain_a() : () -> ()
  %0 = ml_program.global_load_const @live_global : i32
  return %0 : i32
}
ml_program.global private @dead_global(0 : i32) : i32
ml_program.global private @live_global(1 : i32) : i32

// -----

// Nested symbol tables: a public module's private and nested symbols go unless referenced
// (here through a nested reference from outside); its public ones stay.
// CHECK:  module @inner {
// CHECK-NEXT:    func.func nested @inner_nested_used() {
// CHECK-NEXT:      return
// CHECK-NEXT:    }
// CHECK-NEXT:    func.func @inner_public() {
// CHECK-NEXT:      return
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @user() attributes {ref = @inner::@inner_nested_used} {
// CHECK-NEXT:    return
// CHECK-NEXT:  }
module @outer {
  module @inner {
    func.func private @inner_dead() {
      return
    }
    func.func nested @inner_nested_unused() {
      return
    }
    func.func nested @inner_nested_used() {
      return
    }
    func.func @inner_public() {
      return
    }
  }
  func.func @user() attributes {ref = @inner::@inner_nested_used} {
    return
  }
}
