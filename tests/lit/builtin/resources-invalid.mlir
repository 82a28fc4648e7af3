// Malformed `{-# ... #-}` file metadata: upstream's messages at upstream's places (this
// file also passes `iree-opt --verify-diagnostics`).
// RUN: strata-opt %s --split-input-file --verify-diagnostics

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

// At the end of the input, the last character.
// expected-error @+1 {{expected identifier key in file metadata dictionary}}
{-#
