"""`onnx-shape-inference`: refine the result types of onnx ops from their operands.

    %0 = "onnx.MatMul"(%a, %b) : (tensor<?x4xf32>, tensor<4x8xf32>) -> tensor<*xf32>
      becomes
    %0 = "onnx.MatMul"(%a, %b) : (tensor<?x4xf32>, tensor<4x8xf32>) -> tensor<?x8xf32>

[Note: how types are refined]
Ops are visited in program order (an op's regions before the op, so that If/Loop/Scan
see their bodies' yields). The common operators have Python rules (rules.py); every
other op (outside regions-carrying ones) goes to onnx's own inference as a one-node
model (onnx_fallback.py), so every op gets inference. What a rule or onnx says only
refines the type already there: static dims stay, `?` dims and unknown ranks get filled
in, a contradiction is kept as is and reported as a warning; operands that plainly
contradict each other (dims that cannot broadcast, a reshape that changes the element
count) are an error at the op.

Small integer tensors are followed element by element (`Partial` values: constants,
`Shape` of a tensor, and what Gather/Concat/Slice/Unsqueeze/Cast/Where and integer
arithmetic make of them), so that `Reshape(x, Concat(Shape(x)[0], -1))` gets a static
shape where the dims are known, as ONNX's data propagation does.

[Note: dim symbols in the IR]
A `?` dim stays `?` in its type, but inference knows it as a symbol (see [Note: symbolic
dims] in symbols.py): the arguments' dims are named by their `onnx.dim_params`, other
unknown sizes get fresh names (`?1`, `?2`...; numbers that names already in the IR use
are skipped). `Shape` of a tensor gives its symbols as elements, so
`Reshape(x, Concat(Shape(x)[0], Shape(x)[1], -1, 32))` of `x: ?x128x384` divides
`batch*128*384` by `batch*128*32`: `?x128x12x32`. The symbols of an onnx op's results
are written on the op as the discardable attribute `onnx.dim_params`, in the form of the
arguments' attribute: one string per dim, "" where the dim is static or nothing is
known of it. A single-result op has a flat list; an op with several results has one
list per result. Only ops with at least one named dim get it.

    %0 = "onnx.Add"(%a, %b) {onnx.dim_params = ["batch", ""]}
           : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    %1:2 = "onnx.Split"(%x, %s) {onnx.dim_params = [["batch", ""], ["batch", ""]]} ...

Two dims with the same name have the same size at run time (within one function):
lowerings use that to skip broadcasting checks (onnx-to-linalg). The pass owns the
attribute: it drops what an earlier run wrote on the ops it infers. A value defined
outside the op the pass runs on (a body copied out of its function) keeps the names its
defining op carries.

A refined result used by an op outside the onnx dialect gets a `tensor.cast` back to its
old type for that use; a function returning refined values gets the refined result
types, unless a symbol use refers to it (then the return casts back).

[Note: known values become constants]
A result whose every element the `Partial` values know (numbers, no symbol) is a
compile-time constant even where the op's operands are not: `Gather(Shape(x), 1)` of
`x: ?x128x768` is 128. With `fold-known` (the default) such a result of an onnx op
(default domain, no region, static type, not inside a Loop/Scan body whose types are
still assumptions) is replaced by an `onnx.Constant` holding it, at the op's location,
and the op is erased once nothing uses it: the exporter's shape arithmetic on the static
dims of a dynamically shaped model (GPT-2: ~500 ops) does not reach the lowerings. What
still depends on a `?` dim stays, its known parts constants.

    %s = "onnx.Shape"(%x) : (tensor<?x128x768xf32>) -> tensor<3xi64>
    %d = "onnx.Gather"(%s, %c1) <{axis = 0 : i64}> : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
      becomes
    %d = "onnx.Constant"() <{value = dense<128> : tensor<i64>}> : () -> tensor<i64>
"""
from __future__ import annotations

import numpy as np

from ...dialects import onnx as O
from ...dialects.onnx import table
from ...ir import attributes as A
from ...passes.pass_manager import Option, Pass, Statistic
from ...passes.registry import register_pass
from .core import MAX_PARTIAL, Conflict, InferContext, Partial, make_type, refine
from .regions import infer_loop_body
from .rules import RULES
from .symbols import FRESH, Sym, atom, fresh_numbers_in, text

__all__ = ["OnnxShapeInference"]

_NONE = A.NoneType()
_TENSOR = (A.RankedTensorType, A.UnrankedTensorType)
_DYN = A.DYNAMIC
DIM_PARAMS = "onnx.dim_params"
# Ops erased with the last use of their results by a folded op ([Note: known values
# become constants]).
_DEAD_WHEN_UNUSED = frozenset({"onnx.Constant", "onnx.Shape", "onnx.Size"})
# Constants with more elements are not read (weights say nothing about shapes).
MAX_CONSTANT = 1 << 16


@register_pass
class OnnxShapeInference(Pass):
    name = "onnx-shape-inference"
    summary = "Refine the result types of onnx ops (static and dynamic dims)"

    fallback = Option(bool, True, help="Ask onnx's shape inference for ops without a "
                                       "Python rule")
    rules = Option(bool, True, help="Use the Python rules (false: onnx's inference for "
                                    "every op it can take; for testing)")
    num_refined = Statistic("num-refined", "Number of result types refined")
    num_onnx = Statistic("num-onnx-inferred", "Number of ops given to onnx's inference")
    fold_known = Option(bool, True, help="Replace results whose every element is known "
                                         "by onnx.Constant ops")
    num_if_inlined = Statistic("num-if-inlined", "Number of Ifs replaced by the branch "
                                                  "their known condition takes")
    num_folded = Statistic("num-known-folded", "Number of ops whose known results became "
                                               "constants")

    def run(self, op):
        inference = _Inference(self, op)
        inference.visit(op)
        inference.write_symbols()


def _symbol_references(root):
    """Root names of every symbol reference in properties and attributes."""
    out = set()
    for op in root.walk():
        for d in (op._props, op._attrs):
            for a in d.values():
                if type(a) is A.SymbolRefAttr:
                    out.add(a.root)
    return out


class _Inference:
    __slots__ = ("pass_", "root", "partials", "constants", "globals", "cache", "referenced",
                 "held", "syms", "used_numbers", "next_fresh")

    def __init__(self, pass_, root):
        self.pass_ = pass_
        self.root = root
        self.partials: dict = {}
        self.constants: dict = {}
        self.globals = None
        self.cache: dict = {}
        self.referenced = None
        self.held = None   # warnings held back while a loop body is inferred
        self.syms: dict = {}   # value -> a Sym or None per dim (None: static, not known)
        self.used_numbers = _clear_symbols(root)
        self.next_fresh = 1

    # ---------------------------------------------------------------- walking

    def visit(self, op):
        if not (op.regions and isinstance(op, O.OnnxOp) and self._visit_loop(op)):
            self._visit_regions(op)
        if isinstance(op, O.OnnxOp):
            self.infer(op)
            if op.name == "onnx.If" and self.held is None:
                self._inline_known_if(op)
            elif self.held is None and self.pass_.fold_known and not op.regions:
                self._fold_known(op)
        elif op.name == "func.func" and op.regions and op.regions[0].blocks:
            self.update_signature(op)

    def _visit_regions(self, op):
        for region in op.regions:
            for block in region.blocks:
                o = block.first
                while o is not None:
                    nxt = o.next
                    self.visit(o)
                    o = nxt

    def _visit_loop(self, op):
        """Infer a Loop/Scan body with its arguments typed from the op's operands (see
        [Note: body arguments] in regions.py); False for other ops."""
        if op.name not in ("onnx.Loop", "onnx.Scan"):
            return False
        cls = type(op)
        version = O.opset_version(op)
        schema = table.lookup(cls.op_type, cls.domain, version)
        if schema is None:
            return False

        def attr(name):
            a = op._props.get(name)
            if a is not None:
                return O.python_value(a)
            d = schema.attributes.get(name)
            return d.default if d is not None else None
        return infer_loop_body(self, op, version, attr, lambda: self._visit_regions(op))

    def _inline_known_if(self, op):
        """An If whose condition is known (a shape computation: `Size(x) == 4` of a
        static `x`) is replaced by the branch it takes: the other one may not even be
        lowerable (ops whose shapes only the dead branch leaves unknown). Not inside
        loop bodies, whose types are assumptions until the body is done. A yielded
        tensor of another type than the If's is cast to it."""
        p = self.partial(op.operand(0)) if op._operands else None
        if p is None or len(p.vals) != 1 or p.vals[0] is None or type(p.vals[0]) is Sym or \
                len(op.regions) != 2:
            return
        region = op.regions[0 if p.vals[0] else 1]
        if len(region.blocks) != 1:
            return
        block = region.blocks[0]
        y = block.last
        if y is None or y.name != "onnx.Yield" or len(y._operands) != len(op.results) or \
                any(o.value.type is not r.type and not (
                    isinstance(o.value.type, _TENSOR) and
                    isinstance(r.type, _TENSOR))
                    for o, r in zip(y._operands, op.results)):
            return
        values = [o.value for o in y._operands]
        for inner in list(block.ops):
            if inner is not y:
                inner.move_before(op)
        from ...dialects.tensor import CastOp
        for j, (v, r) in enumerate(zip(values, op.results)):
            if v.type is not r.type:  # the If's type says more (declared by the model)
                cast = CastOp.create([v], [r.type], loc=op.loc)
                op.parent.insert_before(op, cast)
                values[j] = cast.results[0]
        for r, v in zip(op.results, values):
            if r in self.partials:
                self.partials[v] = self.partials.pop(r)
        op.replace_all_uses_with(values)
        op.erase()
        self.pass_.stat("num-if-inlined")

    def _fold_known(self, op):
        """Results of `op` whose every element is known become onnx.Constant ops (see
        [Note: known values become constants])."""
        cls = type(op)
        if cls.domain != "" or cls.op_type == "Constant" or op.parent is None:
            return
        found = []
        for r in op.results:
            p = self.partials.get(r)
            t = r.type
            if p is None or not r.has_uses() or not p.known or \
                    type(t) is not A.RankedTensorType or _DYN in t.shape or \
                    tuple(t.shape) != p.shape:
                continue
            try:
                value = np.array(p.vals, dtype=O.numpy_dtype_of(t.element_type))
            except (TypeError, ValueError, OverflowError):
                continue
            found.append((r, value.reshape(p.shape), p))
        if not found:
            return
        const = O.onnx_op_class("Constant")
        for r, value, p in found:
            c = const.create((), [r.type], {"value": O.elements_from_numpy(value, r.type)},
                             None, (), 0, op.loc)
            op.parent.insert_before(op, c)
            new = c.results[0]
            r.replace_all_uses_with(new)
            self.partials[new] = p
            self.constants[new] = (value, c._props["value"])
        if not any(r.has_uses() for r in op.results):
            defs = [o.value.defining_op for o in op._operands]
            self._erase(op)
            # operands only this op used: constants, and Shape/Size ops (the data
            # they read stays)
            for d in defs:
                if d is not None and d.parent is not None and \
                        d.name in _DEAD_WHEN_UNUSED and \
                        not any(r.has_uses() for r in d.results):
                    self._erase(d)
        self.pass_.stat("num-known-folded")

    def _erase(self, op):
        for r in op.results:
            self.partials.pop(r, None)
            self.syms.pop(r, None)
            self.constants.pop(r, None)
        op.erase()

    def warn(self, message, op):
        if self.held is not None:
            self.held.append((message, op))
        else:
            self.pass_.emit_warning(message, op)

    # ---------------------------------------------------------------- values

    def constant(self, v):
        """(NumPy array, identity key) of a value with a constant definition, or None."""
        if v in self.constants:
            return self.constants[v]
        c = self.constants[v] = self._read_constant(v)
        return c

    def _read_constant(self, v):
        d = v.defining_op if type(v).__name__ == "OpResult" else None
        if d is None:
            return None
        props = d._props
        name = d.name
        a = None
        if name == "onnx.Constant":
            for k, x in props.items():
                if k in ("value", "sparse_value"):
                    a = x
                elif k.startswith("value_"):
                    arr = np.asarray(O.python_value(x))
                    if k in ("value_int", "value_ints"):
                        arr = arr.astype(np.int64)
                    elif k in ("value_float", "value_floats"):
                        arr = arr.astype(np.float32)
                    else:
                        return None
                    return arr, x
        elif name == "arith.constant":
            a = props.get("value")
        elif name == "ml_program.global_load_const":
            g = self._global(props.get("global"))
            a = g._props.get("value") if g is not None else None
        if a is None or not hasattr(a, "type") or not isinstance(a.type, A.ShapedType):
            return None
        if not a.type.has_rank or a.type.num_elements > MAX_CONSTANT:
            return None
        if isinstance(a.type.element_type, O.StringType):
            return None
        try:
            return O.elements_to_numpy(a), a
        except (TypeError, ValueError, KeyError, AttributeError):
            return None  # an unknown resource, an exotic element type

    def _global(self, ref):
        if ref is None:
            return None
        if self.globals is None:
            self.globals = {}
            for op in self.root.walk():
                if op.name == "ml_program.global":
                    n = op._props.get("sym_name")
                    if n is not None:
                        self.globals.setdefault(n.value, op)
        return self.globals.get(ref.leaf)

    def partial(self, v):
        """The Partial value of `v`, if anything is known of its elements."""
        p = self.partials.get(v, 0)
        if p != 0:
            return p
        p = None
        c = self.constant(v)
        if c is not None and c[0].size <= MAX_PARTIAL and c[0].dtype.kind in "iufb":
            arr = c[0]
            conv = int if arr.dtype.kind in "iub" else float
            p = Partial(arr.shape, [conv(x) for x in arr.reshape(-1).tolist()])
        self.partials[v] = p
        return p

    # ---------------------------------------------------------------- symbols

    def dims(self, v):
        """The dims of ranked tensor value `v`: ints, and a Sym for each `?` (a fresh one
        where nothing is known yet, kept for the next reads)."""
        shape = v.type.shape
        known = self.syms.get(v)
        if known is None or len(known) != len(shape):
            known = _outside_symbols(v)
        out, changed = [], known is None or v not in self.syms
        for k, d in enumerate(shape):
            if d != _DYN:
                out.append(d)
                continue
            s = known[k] if known is not None else None
            if s is None:
                s = self.fresh()
                changed = True
            out.append(s)
        if changed:
            self.syms[v] = tuple(d if type(d) is Sym else None for d in out)
        return tuple(out)

    def fresh(self, bound=None):
        """A fresh symbol (`bound`: see Sym)."""
        n = self.next_fresh
        while n in self.used_numbers:
            n += 1
        self.next_fresh = n + 1
        return atom(f"{FRESH}{n}", bound)

    def _record_symbols(self, r, entry):
        """Keep the Syms a rule's `entry` (a shape) gives result `r`'s `?` dims."""
        if type(entry) is not tuple or type(r.type) is not A.RankedTensorType or \
                len(entry) != len(r.type.shape):
            self.syms.pop(r, None)
            return
        syms = tuple(d if type(d) is Sym and t == _DYN else None
                     for d, t in zip(entry, r.type.shape))
        if any(d is not None for d in syms):
            self.syms[r] = syms
        else:
            self.syms.pop(r, None)

    def write_symbols(self):
        """Write the results' symbols on their onnx ops (see [Note: dim symbols in the
        IR])."""
        by_op = {}
        for v, syms in self.syms.items():
            op = getattr(v, "owner", None)
            if type(v).__name__ != "OpResult" or not isinstance(op, O.OnnxOp) or \
                    op.parent is None or type(v.type) is not A.RankedTensorType:
                continue
            names = [text(d) if d is not None and t == _DYN else ""
                     for d, t in zip(syms, v.type.shape)]
            if any(names):
                by_op.setdefault(op, {})[v] = names
        for op, found in by_op.items():
            rs = op.results
            if len(rs) == 1:
                attr = _names_attr(found[rs[0]])
            else:
                attr = A.ArrayAttr([_names_attr(found.get(r, [""] * _rank(r)))
                                    for r in rs])
            op.attributes[DIM_PARAMS] = attr

    # ---------------------------------------------------------------- one op

    def infer(self, op):
        cls = type(op)
        version = O.opset_version(op)
        schema = table.lookup(cls.op_type, cls.domain, version)
        if schema is None:
            return
        cx = InferContext(op, version, schema, self)
        out = None
        fn = RULES.get(op.name) if self.pass_.rules else None
        entries = None
        try:
            if fn is not None:
                out = entries = fn(cx)
            if out is not None:
                out = [self._result_type(cx, j, e) for j, e in enumerate(out)]
            elif self.pass_.fallback and not op.regions:
                out = self._from_onnx(op, schema, version)
        except Conflict as e:
            self.pass_.signal_failure(f"'{op.name}' op shape inference failed: {e}", op)
        if out is None:
            return
        for j, (r, t) in enumerate(zip(op.results, out)):
            if t is None or r.type is _NONE:
                continue
            new, msg = refine(r.type, t)
            if msg is not None:
                self.warn(f"'{op.name}' op result #{j} has type '{r.type}' "
                                        f"but shape inference {msg}", op)
            if new is not r.type:
                self._set_type(r, new)
        for j, r in enumerate(op.results):
            self._record_symbols(r, entries[j] if entries is not None and j < len(entries)
                                 else None)
        for j, p in cx.values.items():
            self.partials[op.results[j]] = p

    def _result_type(self, cx, j, entry):
        """The type a rule's entry for result `j` stands for (None: nothing known)."""
        if entry is ... or j >= len(cx.op.results):
            return None
        if isinstance(entry, A.Type):
            return entry
        old = cx.op.results[j].type
        if not isinstance(old, (A.RankedTensorType, A.UnrankedTensorType)):
            return None
        et = cx.elem[j] or _schema_element(cx, j) or old.element_type
        return make_type(entry, et)

    def _from_onnx(self, op, schema, version):
        from .onnx_fallback import infer_with_onnx
        consts, keys = {}, []
        for i, o in enumerate(op._operands):
            v = o.value
            c = self.constant(v)
            if c is not None:
                consts[i] = c[0]
                keys.append((i, c[1]))
                continue
            p = self.partial(v)
            if p is not None and p.known and isinstance(v.type, A.ShapedType):
                try:
                    dt = O.numpy_dtype_of(v.type.element_type)
                except TypeError:
                    continue
                consts[i] = np.array(p.vals, dtype=dt).reshape(p.shape)
                keys.append((i, tuple(p.shape), tuple(p.vals)))
        key = (op.name, version, tuple(o.value.type for o in op._operands),
               tuple(sorted(op._props.items())), tuple(keys))
        hit = self.cache.get(key)
        if hit is not None:
            if hit[1] is not None:
                self.warn(hit[1], op)
            return hit[0]
        self.pass_.stat("num-onnx-inferred")
        try:
            out = infer_with_onnx(op, schema, version, consts)
        except Exception as e:  # onnx's InferenceError, or its checker on odd input
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            msg = f"'{op.name}' op: onnx shape inference failed: {first}"
            self.warn(msg, op)
            self.cache[key] = (None, msg)
            return None
        self.cache[key] = (out, None)
        return out

    # ---------------------------------------------------------------- updating uses

    def _set_type(self, r, new):
        old = r.type
        r.type = new
        self.pass_.stat("num-refined")
        others = [u for u in r.uses if not _takes_refined(u.owner)]
        if not others:
            return
        if not isinstance(old, (A.RankedTensorType, A.UnrankedTensorType)):
            return
        from ...dialects.tensor import CastOp
        owner = r.owner
        cast = CastOp.create([r], [old], loc=owner.loc)
        owner.parent.insert_after(owner, cast)
        for u in others:
            u.set(cast.results[0])

    def update_signature(self, fn):
        """Give `fn` the types it now returns (or cast back where it is referenced)."""
        ft = fn._props["function_type"].value
        rets = [b.last for b in fn.regions[0].blocks
                if b.last is not None and b.last.name == "func.return"]
        if not rets or any(len(r._operands) != len(ft.results) for r in rets):
            return
        types = list(ft.results)
        for i in range(len(types)):
            got = [r._operands[i].value.type for r in rets]
            if all(t is got[0] for t in got) and got[0] is not types[i]:
                types[i] = got[0]
        if types == list(ft.results):
            return
        if self.referenced is None:
            self.referenced = _symbol_references(self.root)
        name = fn._props.get("sym_name")
        if name is not None and name.value in self.referenced:
            from ...dialects.tensor import CastOp
            for r in rets:
                for i, o in enumerate(r._operands):
                    t = ft.results[i]
                    if o.value.type is not t and isinstance(t, A.ShapedType):
                        cast = CastOp.create([o.value], [t], loc=r.loc)
                        r.parent.insert_before(r, cast)
                        o.set(cast.results[0])
            return
        fn._props["function_type"] = A.TypeAttr(A.FunctionType(ft.inputs, types))


def _names_attr(names):
    return A.ArrayAttr([A.StringAttr(n) for n in names])


def _rank(v):
    return len(v.type.shape) if type(v.type) is A.RankedTensorType else 0


def _param_names(attr):
    """The dim names of an `onnx.dim_params` attribute (flat), or None."""
    if type(attr) is not A.ArrayAttr:
        return None
    return [a.value if type(a) is A.StringAttr else "" for a in attr.value]


def _outside_symbols(v):
    """Syms of `v`'s dims from the IR: a function argument's `onnx.dim_params`, or the
    attribute an op outside the inferred region wrote (the pass clears those inside)."""
    if type(v).__name__ == "BlockArgument":
        block = v.owner
        fn = block.parent_op
        if fn is None or fn.name != "func.func" or fn.regions[0].blocks[0] is not block:
            return None
        arg_attrs = fn._props.get("arg_attrs")
        if arg_attrs is None or v.index >= len(arg_attrs.value):
            return None
        d = arg_attrs.value[v.index]
        names = _param_names(d.value.get(DIM_PARAMS)) if type(d) is A.DictionaryAttr \
            else None
    else:
        op = v.owner
        attr = op._attrs.get(DIM_PARAMS) if op._attrs else None
        if attr is None:
            return None
        if len(op.results) > 1:
            i = v.index
            attr = attr.value[i] if type(attr) is A.ArrayAttr and i < len(attr.value) \
                else None
        names = _param_names(attr)
    if names is None or len(names) != len(v.type.shape):
        return None
    return [atom(n) if n else None for n in names]


def _clear_symbols(root):
    """Drop the `onnx.dim_params` of the onnx ops under `root` (the pass writes them
    again) and return the numbers that fresh names must not take: those of the other
    names the pass sees (arguments, results, values defined outside `root`)."""
    used = set()

    def note(attr):
        if type(attr) is A.ArrayAttr:
            for a in attr.value:
                if type(a) is A.StringAttr:
                    used.update(fresh_numbers_in(a.value))
                else:
                    note(a)
    outside = root.name != "builtin.module"
    for op in root.walk():
        attrs = op._attrs
        if attrs and DIM_PARAMS in attrs:
            if isinstance(op, O.OnnxOp):
                del op.attributes[DIM_PARAMS]
            else:
                note(attrs[DIM_PARAMS])
        if op.name == "func.func":
            for key in ("arg_attrs", "res_attrs"):
                for d in getattr(op._props.get(key), "value", ()):
                    if type(d) is A.DictionaryAttr:
                        note(d.value.get(DIM_PARAMS))
        if outside:
            for o in op._operands:
                d = getattr(o.value, "owner", None)
                if d is not None and type(o.value).__name__ == "OpResult" and d._attrs \
                        and DIM_PARAMS in d._attrs:
                    note(d._attrs[DIM_PARAMS])
    return used


def _takes_refined(op):
    """Whether `op` accepts an operand whose type got more precise."""
    return isinstance(op, (O.OnnxOp, O.YieldOp)) or op.name == "func.return"


def _schema_element(cx, j):
    """The element type of result `j` the schema implies: that of an operand of the same
    type constraint, or the one type a constraint allows."""
    schema = cx.schema
    outs = schema.outputs
    if j < len(outs):
        f = outs[j]
    elif outs and outs[-1].option == table.VARIADIC:
        f = outs[-1]
    else:
        return None
    ins = schema.inputs
    for i, t in enumerate(cx.types):
        fi = ins[i] if i < len(ins) else (ins[-1] if ins and ins[-1].option ==
                                          table.VARIADIC else None)
        if fi is not None and fi.type_str == f.type_str and t is not _NONE and \
                isinstance(t, (A.RankedTensorType, A.UnrankedTensorType)):
            return t.element_type
    if len(f.allowed) == 1:
        s = next(iter(f.allowed))
        if s.startswith("tensor(") and s.endswith(")"):
            return O.element_type_of_name(s[7:-1])
    return None
