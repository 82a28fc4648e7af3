// RUN: strata-opt %s --split-input-file --verify-diagnostics

// Errors of the nvgpu dialect, with upstream's wording where upstream has the check
// (iree-opt --verify-diagnostics passes this file too).

func.func @ldmatrix_global(%g: memref<64x64xf16>, %i: index) -> vector<4x2xf16> {
  // expected-error@+1 {{expected nvgpu.ldmatrix srcMemref must have a memory space attribute of IntegerAttr(3) or gpu::AddressSpaceAttr(Workgroup)}}
  %r = nvgpu.ldmatrix %g[%i, %i] numTiles = 4 transpose = false : memref<64x64xf16> -> vector<4x2xf16>
  return %r : vector<4x2xf16>
}
