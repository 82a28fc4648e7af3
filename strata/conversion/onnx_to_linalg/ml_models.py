"""Models whose parameters are attributes: TfIdfVectorizer, ai.onnx.ml TreeEnsemble and
LabelEncoder (numeric keys and values).

    TfIdfVectorizer  the pool's n-grams are enumerated at compile time (the trie ONNX
                     describes is only a lookup structure: an n-gram is counted wherever
                     all its tokens match). counts[b, e] = number of (skip, start) with
                     X[b, start + k * skip] == gram_e[k] for every k: one linalg.generic
                     over (row, n-gram, skip, start), the gram tokens as constant
                     columns, the later tokens read by tensor.extract. Unigrams are only
                     counted at skip 1 (ONNX counts them once). A second generic sums the
                     n-grams into their output columns (ngram_indexes), a third applies
                     the TF/IDF/TFIDF weighting.
    TreeEnsemble     each tree becomes a chain of selects over its nodes (every node's
                     condition evaluated, the leaf reached chosen bottom-up), in one
                     generic over (row, target): the leaf's weight when its target is
                     this target, else the aggregate's identity; the trees are combined
                     by SUM/AVERAGE/MIN/MAX, then the post transform.
    LabelEncoder     a chain of compare/selects over the keys, elementwise (numeric keys
                     and values; string tensors are not lowered).
"""
from __future__ import annotations

import numpy as np

from ...ir import attributes as A
from ..scalar_builders import ScalarBuilder, element_type
from . import NotLowerable, lowering
from ._linalg_util import dim_size, filled, map_text
from .common import elementwise, empty, is_unsigned, ranked, scalars


def _const_tensor(cx, values, elt):
    v = np.asarray(values)
    return scalars(cx).const(v, A.RankedTensorType(v.shape, elt))


def _generic(cx, inputs, init, maps, iters, body):
    from ...dialects.linalg import make_generic

    def fn(b, args):
        return [body(ScalarBuilder(b, cx.loc), *args)]
    return make_generic(cx.b, inputs, [init], maps, iters, fn, [init.type],
                        loc=cx.loc).results[0]


def _loop_index(s, d):
    return s.op1("linalg.index", [], A.index, {"dim": A.IntegerAttr(d, A.i64)})


# ------------------------------------------------------------------ TfIdfVectorizer


def _tfidf_grams(cx):
    """The counted n-grams: {tokens: ngram id (0-based)} in [min, max] length, as ONNX
    numbers them (ids run over all pool n-grams, counted or not)."""
    pool = cx.attr("pool_int64s", None)
    if pool is None:
        raise NotLowerable("string pools (pool_strings) are not lowered")
    counts = list(cx.attr("ngram_counts", []))
    lo, hi = cx.attr("min_gram_length", 0), cx.attr("max_gram_length", 0)
    grams = {}
    gid = 0
    for i, start in enumerate(counts):
        end = counts[i + 1] if i + 1 < len(counts) else len(pool)
        n = i + 1
        for j in range((end - start) // n):
            if lo <= n <= hi:
                grams[tuple(pool[start + j * n:start + (j + 1) * n])] = gid
            gid += 1
    return grams


@lowering("TfIdfVectorizer")
def _tfidf(cx):
    x = cx.operands[0]
    xt = ranked(cx, x.type, "X")
    if type(xt.element_type) is not A.IntegerType:
        raise NotLowerable(f"X of element type {cx.orig_type(0)} (integers only)")
    if xt.rank not in (1, 2):
        raise NotLowerable(f"X must have rank 1 or 2, not {xt.rank}")
    mode = cx.attr("mode", "")
    if mode not in ("TF", "IDF", "TFIDF"):
        raise NotLowerable(f"unknown mode '{mode}'")
    indexes = [int(i) for i in cx.attr("ngram_indexes", [])]
    if not indexes or min(indexes) < 0:
        raise NotLowerable("ngram_indexes must be given and non-negative")
    out_size = max(indexes) + 1
    weights = [float(w) for w in cx.attr("weights", [])]
    if weights and len(weights) < out_size:
        raise NotLowerable(f"{len(weights)} weights for {out_size} outputs")
    skips = int(cx.attr("max_skip_count", 0)) + 1
    grams = _tfidf_grams(cx)
    if any(g >= len(indexes) for g in grams.values()):
        raise NotLowerable("fewer ngram_indexes than n-grams in the pool")
    s = scalars(cx)
    from ._shape_util import expand
    x2 = x if xt.rank == 2 else expand(cx, x, [[0, 1]], [1, dim_size(cx, x, 0)])
    rows, cols = dim_size(cx, x2, 0), dim_size(cx, x2, 1)
    signed = not is_unsigned(cx.orig_type(0))
    freq = filled(cx, [rows, out_size], A.i64, 0)
    if grams:
        freq = _tfidf_counts(cx, s, x2, rows, cols, grams, indexes, out_size, skips,
                             signed, freq)
    f32 = A.f32
    w = _const_tensor(cx, weights or [1.0] * out_size, f32)
    use_w = bool(weights)

    def weigh(s, f, wv, _):
        ff = s.cast(f, f32)
        if mode == "TF":
            return ff
        if mode == "IDF":
            return s.select(s.cmp("gt", f, s.zero(A.i64)), wv if use_w else s.one(f32),
                            s.zero(f32))
        return s.mul(wv, ff) if use_w else ff
    y = _generic(cx, [freq, w], empty(cx, [rows, out_size], f32),
                 [map_text(2, [0, 1]), map_text(2, [1]), map_text(2, [0, 1])],
                 ["parallel"] * 2, weigh)
    if xt.rank == 1:
        from ._shape_util import collapse
        y = collapse(cx, y, [[0, 1]])
    return [y]


def _tfidf_counts(cx, s, x, rows, cols, grams, indexes, out_size, skips, signed, freq):
    """freq[b, o] += occurrences of the n-grams numbered into output column o."""
    items = sorted(grams.items(), key=lambda kv: kv[1])
    n_max = max(len(g) for g, _ in items)
    lens = [len(g) for g, _ in items]
    toks = [[g[k] if k < len(g) else 0 for g, _ in items] for k in range(n_max)]
    # unigrams are counted at skip distance 1 only
    max_skip = [1 if n == 1 else skips for n in lens]
    e = len(items)
    cols_i64 = s.cast(cols if not isinstance(cols, int) else s.index(cols), A.i64)
    ins = [x, _const_tensor(cx, list(range(1, skips + 1)), A.i64),
           _const_tensor(cx, lens, A.i64), _const_tensor(cx, max_skip, A.i64)]
    ins += [_const_tensor(cx, t, A.i64) for t in toks]
    # loops (b, e, skip, start)
    maps = [map_text(4, [0, 3]), map_text(4, [2]), map_text(4, [1]), map_text(4, [1])]
    maps += [map_text(4, [1])] * n_max + [map_text(4, [0, 1])]

    def body(s, x0, sd, n, msd, *rest):
        tk, acc = rest[:n_max], rest[n_max]
        i64 = A.i64
        start = s.cast(_loop_index(s, 3), i64)
        last = s.add(start, s.mul(s.sub(n, s.one(i64)), sd))
        ok = s.op1("arith.andi", [s.cmp("le", sd, msd), s.cmp("lt", last, cols_i64)],
                   A.i1)
        ok = s.op1("arith.andi", [ok, s.cmp("eq", s.cast(x0, i64, signed), tk[0])], A.i1)
        if n_max > 1:
            row = _loop_index(s, 0)
            hi = s.sub(cols_i64, s.one(i64))
            for k in range(1, n_max):
                kk = s.const(k, i64)
                pos = s.min(s.add(start, s.mul(kk, sd)), hi)
                xv = s.op1("tensor.extract", [x, row, s.cast(pos, A.index)],
                           x.type.element_type)
                m = s.op1("arith.ori", [s.cmp("ge", kk, n),
                                        s.cmp("eq", s.cast(xv, i64, signed), tk[k])], A.i1)
                ok = s.op1("arith.andi", [ok, m], A.i1)
        return s.add(acc, s.select(ok, s.one(i64), s.zero(i64)))
    counts = _generic(cx, ins, filled(cx, [rows, e], A.i64, 0), maps,
                      ["parallel", "parallel", "reduction", "reduction"], body)
    outs = [indexes[g] for _, g in items]
    if outs == list(range(out_size)):
        return counts
    # loops (b, o, e): the n-grams summed into their output columns
    col = _const_tensor(cx, outs, A.i64)

    def gather(s, c, oc, acc):
        o = s.cast(_loop_index(s, 1), A.i64)
        return s.add(acc, s.select(s.cmp("eq", oc, o), c, s.zero(A.i64)))
    return _generic(cx, [counts, col], freq,
                    [map_text(3, [0, 2]), map_text(3, [2]), map_text(3, [0, 1])],
                    ["parallel", "parallel", "reduction"], gather)
