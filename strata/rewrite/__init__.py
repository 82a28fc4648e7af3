"""Rewriting: patterns, the PatternRewriter, the greedy driver, folding, dialect
conversion."""
