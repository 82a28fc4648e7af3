// `{-# ... #-}` file metadata printed back: the builtin blobs the IR uses, and the
// external resources (kept as upstream's fallback map keeps them: blobs in upper case,
// strings escaped, booleans; sections of the same kind merged, empty groups dropped).
// RUN: strata-opt %s --allow-unregistered-dialect | filecheck %s
// RUN: strata-opt %s --allow-unregistered-dialect | strata-opt --allow-unregistered-dialect | filecheck %s

// CHECK:      "u.op"() {attr = dense_resource<b1> : tensor<2xi16>} : () -> ()
// CHECK:      {-#
// CHECK-NEXT:   dialect_resources: {
// CHECK-NEXT:     builtin: {
// CHECK-NEXT:       b1: "0x0200000001000200"
// CHECK-NEXT:     }
// CHECK-NEXT:   },
// CHECK-NEXT:   external_resources: {
// CHECK-NEXT:     tool: {
// CHECK-NEXT:       flag: true,
// CHECK-NEXT:       blob: "0x08000000AAFF",
// CHECK-NEXT:       "two words": "line\0Aend",
// CHECK-NEXT:       off: false
// CHECK-NEXT:     },
// CHECK-NEXT:     builtin: {
// CHECK-NEXT:       b1: "text"
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: #-}
"u.op"() {attr = dense_resource<b1> : tensor<2xi16>} : () -> ()

{-#
  external_resources: {
    tool: {
      flag: true,
      blob: "0x08000000aaff",
      "two words": "line\nend"
    },
    empty: {}
  },
  dialect_resources: {
    builtin: {
      b1: "0x0200000001000200"
    }
  },
  external_resources: {
    tool: {
      off: false
    },
    builtin: {
      b1: "text"
    }
  }
#-}
