// Malformed `{-# ... #-}` file metadata: upstream's messages at upstream's places (this
// file also passes `iree-opt --verify-diagnostics`).
// RUN: strata-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics

// A dialect that is not registered cannot hold resources.
{-#
  dialect_resources: {
    // expected-error @+1 {{dialect 'nosuch' is unknown}}
    nosuch: {
      k: "0x08000000"
    }
  }
#-}

// -----

// Nor can a registered one that handles none (only builtin does, of Strata's).
{-#
  dialect_resources: {
    arith: {
      // expected-error @+1 {{unexpected 'resource' section for dialect 'arith'}}
      k: "0x08000000"
    }
  }
#-}

// -----

{-#
  dialect_resources: {
    // expected-error @+1 {{unexpected 'resource' section for dialect 'func'}}
    func: {}
  }
#-}

// -----

// Errors about the token are reported at the token, not after the previous one.
{-#
  dialect_resources: {
    builtin: {
      // expected-error @+1 {{expected identifier key for 'resource' entry}}
      12
    }
  }
#-}

// -----

{-#
  external_resources: {
    // expected-error @+1 {{expected identifier key for 'resource' entry}}
    "quoted": {}
  }
#-}

// -----

{-#
  // expected-error @+1 {{expected identifier key in file metadata dictionary}}
  "dialect_resources": {}
#-}


// -----

// A builtin resource is a blob: upstream's words for each way one is not.
"u.op"() {attr = dense_resource<k> : tensor<2xi16>} : () -> ()
{-#
  dialect_resources: {
    builtin: {
      // expected-error @+1 {{expected hex string blob for key 'k'}}
      k: true
    }
  }
#-}

// -----

"u.op"() {attr = dense_resource<k> : tensor<2xi16>} : () -> ()
{-#
  dialect_resources: {
    builtin: {
      // expected-error @+1 {{expected hex string blob for key 'k' to encode alignment in first 4 bytes}}
      k: "0x0100"
    }
  }
#-}

// -----

"u.op"() {attr = dense_resource<k> : tensor<2xi16>} : () -> ()
{-#
  dialect_resources: {
    builtin: {
      // expected-error @+1 {{expected hex string blob for key 'k' to encode alignment in first 4 bytes, but got non-power-of-2 value: 3}}
      k: "0x030000000100"
    }
  }
#-}

// -----

{-#
  external_resources: {
    tool: {
      // expected-error @+1 {{expected string value for key 'n'}}
      n: 12
    }
  }
#-}

// -----

{-#
  external_resources: {
    tool: {
      // expected-error @+1 {{expected hex string blob for key 'b'}}
      b: "0xZZ"
    }
  }
#-}

// -----

// At the end of the input, the last character.
// expected-error @+1 {{expected identifier key in file metadata dictionary}}
{-#
