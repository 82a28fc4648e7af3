"""Optimizations inside one level of abstraction (shape inference, fusion, tiling,
packing, vectorization...): each a pass, registered with strata.passes.registry."""
