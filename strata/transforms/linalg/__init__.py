"""Transformations of linalg on tensors, each a pass:

    generalize.py          linalg-generalize-named-ops (and `generalize(op, rewriter)`)
    elementwise_fusion.py  linalg-fuse-elementwise-ops: producer-consumer fusion of generic
                           ops and its clean-up patterns
    reshape_fusion.py      its reshape propagation (expand_shape / collapse_shape folded
                           into structured ops by expanding their loops)
    unit_dims.py           linalg-fold-unit-extent-dims
    collapse_dims.py       strata-linalg-collapse-dims: unit loops dropped and loops over
                           contiguous memory merged (ops on buffers, CPU pipeline)
    contraction_fusion.py  strata-linalg-fold-into-contractions: transposes of operands and
                           additions to the result folded into contractions
    channels_last.py       strata-linalg-depthwise-channels-last: depthwise convolutions of
                           transposed channel-last images run channel-last
"""
from __future__ import annotations

from ...passes.registry import register_pass
from .channels_last import DepthwiseChannelsLast
from .collapse_dims import LinalgCollapseDims, collapse_dims
from .contraction_fusion import FoldIntoContractions
from .elementwise_fusion import LinalgElementwiseOpFusion, fuse_elementwise_ops
from .generalize import LinalgGeneralizeNamedOps, generalize, generalization_patterns
from .unit_dims import LinalgFoldUnitExtentDims, drop_unit_dims

__all__ = ["generalize", "generalization_patterns", "fuse_elementwise_ops", "drop_unit_dims",
           "collapse_dims",
           "LinalgGeneralizeNamedOps", "LinalgElementwiseOpFusion", "LinalgFoldUnitExtentDims",
           "FoldIntoContractions", "DepthwiseChannelsLast", "LinalgCollapseDims"]

for _p in (LinalgGeneralizeNamedOps, LinalgElementwiseOpFusion, LinalgFoldUnitExtentDims,
           FoldIntoContractions, DepthwiseChannelsLast, LinalgCollapseDims):
    register_pass(_p)
