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
from ..scalar_builders import element_type
from . import NotLowerable, lowering
from ._linalg_util import dim_size, filled, map_text
from .attention import one_generic
from .common import elementwise, empty, is_unsigned, ranked, scalars


def _const_tensor(cx, values, elt):
    v = np.asarray(values)
    return scalars(cx).const(v, A.RankedTensorType(v.shape, elt))


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
        raise NotLowerable(f"X of type {cx.orig_type(0)} (integer tokens only; string "
                           "tensors are not lowered)")
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
    y = one_generic(cx, [freq, w], empty(cx, [rows, out_size], f32),
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
    counts = one_generic(cx, ins, filled(cx, [rows, e], A.i64, 0), maps,
                      ["parallel", "parallel", "reduction", "reduction"], body)
    outs = [indexes[g] for _, g in items]
    if outs == list(range(out_size)):
        return counts
    # loops (b, o, e): the n-grams summed into their output columns
    col = _const_tensor(cx, outs, A.i64)

    def gather(s, c, oc, acc):
        o = s.cast(_loop_index(s, 1), A.i64)
        return s.add(acc, s.select(s.cmp("eq", oc, o), c, s.zero(A.i64)))
    return one_generic(cx, [counts, col], freq,
                    [map_text(3, [0, 2]), map_text(3, [2]), map_text(3, [0, 1])],
                    ["parallel", "parallel", "reduction"], gather)


# ------------------------------------------------------------------ TreeEnsemble

_LEQ, _LT, _GTE, _GT, _EQ, _NEQ, _MEMBER = range(7)
_MODE_PRED = {_LEQ: "le", _LT: "lt", _GTE: "ge", _GT: "gt", _EQ: "eq", _NEQ: "ne"}
_AVERAGE, _SUM, _MIN, _MAX = range(4)


class _Forest:
    """The TreeEnsemble attributes, checked."""

    __slots__ = ("splits", "features", "modes", "true_ids", "false_ids", "true_leaf",
                 "false_leaf", "leaf_targets", "leaf_weights", "roots", "missing_true",
                 "members", "n_targets")

    def __init__(self, cx):
        def ints(name, default=None):
            v = cx.attr(name, default)
            if v is None:
                raise NotLowerable(f"attribute '{name}' is required")
            return [int(i) for i in np.asarray(v).reshape(-1)]
        self.splits = [float(v) for v in np.asarray(cx.attr("nodes_splits", [])).reshape(-1)]
        self.features = ints("nodes_featureids")
        self.modes = ints("nodes_modes")
        self.true_ids, self.false_ids = ints("nodes_truenodeids"), ints("nodes_falsenodeids")
        self.true_leaf, self.false_leaf = ints("nodes_trueleafs"), ints("nodes_falseleafs")
        self.leaf_targets = ints("leaf_targetids")
        self.leaf_weights = [float(v) for v in
                             np.asarray(cx.attr("leaf_weights", [])).reshape(-1)]
        self.roots = ints("tree_roots")
        self.n_targets = int(cx.attr("n_targets", 0) or 0)
        n = len(self.modes)
        self.missing_true = ints("nodes_missing_value_tracks_true", [0] * n)
        lens = {len(self.features), len(self.true_ids), len(self.false_ids),
                len(self.true_leaf), len(self.false_leaf), len(self.missing_true), n}
        if len(lens) != 1:
            raise NotLowerable("the nodes_* attributes differ in length")
        if len(self.leaf_targets) != len(self.leaf_weights):
            raise NotLowerable("leaf_targetids and leaf_weights differ in length")
        if any(m not in _MODE_PRED and m != _MEMBER for m in self.modes):
            raise NotLowerable(f"unknown node mode in {self.modes}")
        if any(m != _MEMBER for m in self.modes) and len(self.splits) != n:
            raise NotLowerable("nodes_splits must have one value per node")
        if self.n_targets <= 0 or any(not 0 <= t < self.n_targets
                                      for t in self.leaf_targets):
            raise NotLowerable("leaf_targetids must lie in [0, n_targets)")
        for ids, leaf in ((self.true_ids, self.true_leaf), (self.false_ids, self.false_leaf)):
            for i, is_leaf in zip(ids, leaf):
                if not 0 <= i < (len(self.leaf_weights) if is_leaf else n):
                    raise NotLowerable(f"a branch to {'leaf' if is_leaf else 'node'} {i} "
                                       "out of range")
        if any(not 0 <= r < n for r in self.roots):
            raise NotLowerable("a tree root out of range")
        # members of the set-membership nodes, in node order, NaN-delimited
        self.members = {}
        mv = [float(v) for v in np.asarray(cx.attr("membership_values", [])).reshape(-1)]
        sets, cur = [], []
        for v in mv:
            if np.isnan(v):
                sets.append(cur)
                cur = []
            else:
                cur.append(v)
        member_nodes = [i for i, m in enumerate(self.modes) if m == _MEMBER]
        if len(sets) != len(member_nodes):
            raise NotLowerable(f"{len(sets)} membership sets for {len(member_nodes)} "
                               "set-membership nodes")
        self.members = dict(zip(member_nodes, sets))
        self._check_acyclic()

    def _check_acyclic(self):
        state = {}
        for r in self.roots:
            stack = [(r, False)]
            while stack:
                i, done = stack.pop()
                if done:
                    state[i] = 2
                    continue
                if state.get(i) == 2:
                    continue
                if state.get(i) == 1:
                    raise NotLowerable(f"the trees have a cycle through node {i}")
                state[i] = 1
                stack.append((i, True))
                for c, leaf in ((self.true_ids[i], self.true_leaf[i]),
                                (self.false_ids[i], self.false_leaf[i])):
                    if not leaf:
                        stack.append((c, False))

    def post_order(self, root):
        """The interior nodes under `root`, children before parents."""
        out, seen, stack = [], set(), [(root, False)]
        while stack:
            i, done = stack.pop()
            if done:
                out.append(i)
                continue
            if i in seen:
                continue
            seen.add(i)
            stack.append((i, True))
            for c, leaf in ((self.true_ids[i], self.true_leaf[i]),
                            (self.false_ids[i], self.false_leaf[i])):
                if not leaf:
                    stack.append((c, False))
        return out


@lowering("TreeEnsemble")
def _tree_ensemble(cx):
    x = cx.operands[0]
    xt = ranked(cx, x.type, "X")
    elt = xt.element_type
    if type(elt) is not A.FloatType or xt.rank != 2:
        raise NotLowerable(f"X of type {x.type} (a rank-2 float tensor)")
    out_elt = element_type(cx.result_type())
    if out_elt is not elt:
        raise NotLowerable(f"result element type {out_elt} differs from X's {elt}")
    f = _Forest(cx)
    agg = int(cx.attr("aggregate_function", _SUM))
    post = int(cx.attr("post_transform", 0))
    if agg not in (_AVERAGE, _SUM, _MIN, _MAX):
        raise NotLowerable(f"unknown aggregate_function {agg}")
    if post not in (0, 1, 2, 3):
        raise NotLowerable(f"post_transform {post} ({'PROBIT' if post == 4 else 'unknown'})"
                           " is not lowered")
    n_features = xt.shape[1]
    if n_features != A.DYNAMIC and any(not 0 <= i < n_features for i in f.features):
        raise NotLowerable("a feature id out of range")
    fi = np.finfo(np.float64 if elt is A.f64 else np.float32)
    ident = {_AVERAGE: 0.0, _SUM: 0.0, _MIN: float(fi.max), _MAX: float(fi.min)}[agg]
    rows = dim_size(cx, x, 0)
    n_trees = len(f.roots)

    def body(s, _):
        row = _loop_index(s, 0)
        t = s.cast(_loop_index(s, 1), A.i64)
        feats, targets, leaves = {}, {}, {}

        def feature(i):
            if i not in feats:
                feats[i] = s.op1("tensor.extract", [x, row, s.index(i)], elt)
            return feats[i]

        def leaf(i):
            if i not in leaves:
                tid = f.leaf_targets[i]
                if tid not in targets:
                    targets[tid] = s.cmp("eq", t, s.const(tid, A.i64))
                leaves[i] = s.select(targets[tid], s.const(f.leaf_weights[i], elt),
                                     s.const(ident, elt))
            return leaves[i]

        def cond(i):
            v = feature(f.features[i])
            m = f.modes[i]
            if m == _MEMBER:
                c = s.const(0, A.i1)
                for mv in f.members[i]:
                    c = s.or_(c, s.cmp("eq", v, s.const(mv, elt)))
            else:
                c = s.cmp(_MODE_PRED[m], v, s.const(f.splits[i], elt))
            if f.missing_true[i]:
                c = s.or_(c, s.cmp("uno", v, v))
            return c

        acc = None
        values = {}
        for r in f.roots:
            for i in f.post_order(r):
                if i in values:
                    continue
                tv = leaf(f.true_ids[i]) if f.true_leaf[i] else values[f.true_ids[i]]
                fv = leaf(f.false_ids[i]) if f.false_leaf[i] else values[f.false_ids[i]]
                values[i] = tv if tv is fv else s.select(cond(i), tv, fv)
            v = values[r]
            if agg == _AVERAGE:
                v = s.div(v, s.const(n_trees, elt))
            if acc is None:
                acc = v if agg in (_AVERAGE, _SUM) else \
                    (s.min if agg == _MIN else s.max)(s.const(ident, elt), v)
            elif agg in (_AVERAGE, _SUM):
                acc = s.add(acc, v)
            else:
                acc = (s.min if agg == _MIN else s.max)(acc, v)
        return acc if acc is not None else s.const(ident, elt)
    y = one_generic(cx, [], empty(cx, [rows, f.n_targets], elt), [map_text(2, [0, 1])],
                 ["parallel"] * 2, body)
    return [_post_transform(cx, y, post)]


def _post_transform(cx, y, post):
    """ONNX's ml post transforms over the last dim of rank-2 `y`: NONE, SOFTMAX,
    LOGISTIC, SOFTMAX_ZERO (zeros stay zero and out of the sum)."""
    if post == 0:
        return y
    elt = y.type.element_type
    if post == 2:
        return elementwise(cx, [y], elt, lambda s, v: s.div(
            s.one(elt), s.add(s.one(elt), s.math("exp", s.neg(v)))))
    from .attention import softmax_last
    return softmax_last(cx, y, zero_kept=post == 3)


# ------------------------------------------------------------------ LabelEncoder


def _label_list(cx, kind):
    """The keys or values of a LabelEncoder as a list of numbers (NotLowerable for
    strings)."""
    for suffix in ("floats", "int64s", "tensor"):
        v = cx.attr(f"{kind}_{suffix}", None)
        if v is not None:
            a = np.asarray(v).reshape(-1)
            if a.dtype.kind not in "biuf":
                raise NotLowerable(f"string {kind} are not lowered")
            return a.tolist()
    if cx.attr(f"{kind}_strings", None) is not None or cx.attr("classes_strings", None):
        raise NotLowerable(f"string {kind} are not lowered")
    raise NotLowerable(f"no {kind} given")


@lowering("LabelEncoder")
def _label_encoder(cx):
    x = cx.operands[0]
    ranked(cx, x.type, "X")
    in_elt, out_elt = element_type(x.type), element_type(cx.result_type())
    for e in (in_elt, out_elt):
        if type(e) not in (A.IntegerType, A.FloatType):
            raise NotLowerable(f"element type {e} (numbers only; string tensors are not "
                               "lowered)")
    keys, values = _label_list(cx, "keys"), _label_list(cx, "values")
    if len(keys) != len(values):
        raise NotLowerable(f"{len(keys)} keys for {len(values)} values")
    d = cx.attr("default_tensor", None)
    if d is not None:
        d = np.asarray(d).reshape(-1)
        if d.size != 1 or d.dtype.kind not in "biuf":
            raise NotLowerable("default_tensor must be one number")
        default = d.tolist()[0]
    elif type(out_elt) is A.FloatType:
        default = cx.attr("default_float", -0.0)
    else:
        default = cx.attr("default_int64", -1)

    def body(s, v):
        r = s.const(default, out_elt)
        for k, val in zip(keys, values):
            if type(in_elt) is A.IntegerType and float(k) != int(k):
                continue  # a fractional key matches no integer
            kc = s.const(k if type(in_elt) is A.FloatType else int(k), in_elt)
            r = s.select(s.cmp("eq", v, kc), s.const(val, out_elt), r)
        return r
    return [elementwise(cx, [x], out_elt, body)]
