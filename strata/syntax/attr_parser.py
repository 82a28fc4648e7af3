"""Parsing of types, attributes and locations (the builtin grammar plus dialect hooks)."""
from __future__ import annotations

import itertools
import re

from ..ir import attributes as A
from ..ir import location as L
from ..ir.diagnostics import ERROR, Diagnostic, DiagnosticError
from .lexer import (AT, AT_STRING, BARE, CARET, EOF, EXCL, EXCL_STRING, FLOAT, HASH,
                    HASH_STRING, INT, PERCENT, PUNCT, STRING, Lexer, int_literal,
                    unescape)

_INT_TYPE_RE = re.compile(r"(s|u)?i([0-9]+)\Z")
_SIGN = {None: 0, "s": 1, "u": 2}
_SIMPLE_TYPES: dict = {"index": A.IndexType(), "none": A.NoneType()}
for _n in A.FLOAT_KINDS:
    _SIMPLE_TYPES[_n] = A.FloatType(_n)

MAX_INT_WIDTH = (1 << 24) - 1  # MLIR's IntegerType::kMaxWidth
MAX_NESTING = 512


class AttrParser(Lexer):
    """Types, attributes and locations. The op parser derives from this."""

    def __init__(self, text, ctx, filename="<stdin>", line_offset=0, col_offset=0):
        super().__init__(text, filename, line_offset, col_offset)
        self.ctx = ctx
        self.type_aliases: dict[str, A.Type] = {}
        self.attr_aliases: dict[str, A.Attribute] = {}
        self.deferred_loc_aliases: list = []
        self.depth = 0
        self.resources = None  # set by the module parser

    def _enter(self):
        self.depth += 1
        if self.depth > MAX_NESTING:
            self.error("nesting too deep")

    # ================================================================== types

    def parse_type(self) -> A.Type:
        k = self.kind
        tok = self.tok
        if k == BARE:
            t = _SIMPLE_TYPES.get(tok)
            if t is not None:
                self._next()
                return t
            m = _INT_TYPE_RE.match(tok)
            if m is not None:
                width = int(m.group(2))
                if width >= 1 << 32:  # upstream reads the width as a 32-bit unsigned
                    self.error("invalid integer width")
                if width > MAX_INT_WIDTH:
                    self.error(f"integer bitwidth is limited to {MAX_INT_WIDTH} bits")
                t = _SIMPLE_TYPES[tok] = A.IntegerType(width, _SIGN[m.group(1)])
                self._next()
                return t
            p = _TYPE_KEYWORDS.get(tok)
            if p is not None:
                self._kw_start = self.tok_start  # read by the keyword's parser first
                self._next()
                self._enter()
                try:
                    return p(self)
                finally:
                    self.depth -= 1
            self.error(f"expected non-function type")
        if k == EXCL or k == EXCL_STRING:
            return self._parse_excl_type()
        if k == PUNCT and tok == "(":
            return self.parse_function_type()
        self.error("expected non-function type")

    def parse_optional_type(self):
        if self.kind in (BARE, EXCL, EXCL_STRING) or (self.kind == PUNCT and self.tok == "("):
            if self.kind == BARE and self.tok not in _SIMPLE_TYPES and \
                    self.tok not in _TYPE_KEYWORDS and not _INT_TYPE_RE.match(self.tok):
                return None
            return self.parse_type()
        return None

    def parse_function_type(self) -> A.FunctionType:
        self.expect("(")
        inputs = []
        if not self.consume_if(")"):
            self._enter()
            inputs.append(self.parse_type())
            while self.consume_if(","):
                inputs.append(self.parse_type())
            self.expect(")")
            self.depth -= 1
        self.expect("->", "in function type")
        return A.FunctionType(inputs, self.parse_function_result_types())

    def parse_function_result_types(self):
        if self.at("("):
            self._next()
            if self.consume_if(")"):
                return []
            res = [self.parse_type()]
            while self.consume_if(","):
                res.append(self.parse_type())
            self.expect(")")
            return res
        return [self.parse_type()]

    def parse_type_list_parens(self):
        """`(t1, t2)` or `()`."""
        self.expect("(")
        if self.consume_if(")"):
            return []
        ts = [self.parse_type()]
        while self.consume_if(","):
            ts.append(self.parse_type())
        self.expect(")")
        return ts

    def _parse_excl_type(self):
        if self.kind == EXCL_STRING:
            self.error("unexpected quoted type alias")
        sym = self._dialect_symbol(self.type_aliases)
        if not isinstance(sym, tuple):
            return sym
        dialect_name, mnemonic, start = sym
        d = self.ctx.get_dialect(dialect_name)
        if d is not None and d.parse_type is not None and mnemonic is not None:
            return d.parse_type(self, mnemonic)
        data = self._opaque_symbol_data(mnemonic)
        if d is not None and not self.ctx.allow_unregistered:
            self.error(f"dialect '{dialect_name}' provides no type parsing hook", start)
        if not self.ctx.allow_unregistered:
            self.error(f'`!"{dialect_name}"<"{data}">` type created with unregistered '
                       + _UNREGISTERED_HINT, start)
        return A.OpaqueType(dialect_name, _pretty_symbol_body(data))

    def _dialect_symbol(self, aliases):
        """After `!name` or `#name`: an alias's value, or (dialect, mnemonic or None,
        offset of the symbol data) of `!dialect.mnemonic...` / `!dialect<...>`."""
        tok = self.tok
        start = self.tok_start
        name = tok[1:]
        adjacent_body = self.text.startswith("<", self.pos)
        if "." not in name and not adjacent_body:
            self._next()
            a = aliases.get(name)
            if a is None:
                self.error(f"undefined symbol alias id '{name}'", start + len(tok))
            return a
        self._next()
        if "." in name:
            dialect_name, mnemonic = name.split(".", 1)
            return dialect_name, mnemonic, start + len(dialect_name) + 2
        return name, None, start

    def _opaque_symbol_data(self, mnemonic):
        """The text of an unregistered dialect symbol after `dialect.` (or inside
        `dialect<...>`), read verbatim."""
        if mnemonic is None:
            return self._raw_until_close()
        return mnemonic + self.parse_raw_angle_body()

    def parse_raw_angle_body(self, required=False) -> str:
        """The balanced text `<...>` right after the current token position, verbatim."""
        if not (self.kind == PUNCT and self.tok == "<" and self.tok_start == self._prev_end()):
            if required:
                self.error("expected '<'")
            return ""
        return "<" + self._raw_until_close() + ">"

    def _prev_end(self):
        # Dialect bodies must start right after the identifier; the current '<' token
        # starts where whitespace ended, so compare with the text before it.
        i = self.tok_start
        return i if (i == 0 or not self.text[i - 1].isspace()) else -1

    def _raw_until_close(self, lenient=False) -> str:
        """Given the current token is '<', return the text up to its matching '>'
        (exclusive) and position the lexer after that '>'.

        As MLIR's pretty dialect body: `<[({` nest, a closer must match the innermost
        opener, `->` is no closer, strings are skipped. `lenient` (affine bodies) also
        lets `>=` / `>` stand inside parentheses."""
        text = self.text
        i = self.tok_start + 1
        start = i
        stack = ["<"]
        opener = {">": "<", ")": "(", "]": "[", "}": "{"}
        n = len(text)
        while stack:
            if i >= n:
                self.error("unbalanced '<' character in pretty dialect name", start - 1)
            c = text[i]
            i += 1
            if c == '"':
                while i < n and text[i] != '"' and text[i] != "\n":
                    i += 2 if text[i] == "\\" else 1
                if i >= n or text[i] != '"':
                    self._unterminated(text.rfind('"', 0, i))
                i += 1
            elif c in "<[({":
                stack.append(c)
            elif c == "-":
                if i < n and text[i] == ">":
                    i += 1
            elif c in ">)]}":
                if stack[-1] != opener[c]:
                    if lenient and c == ">" and stack[-1] != "<":
                        continue
                    self.error(f"unbalanced '{stack[-1]}' character in pretty dialect name",
                               start - 1)
                stack.pop()
        body = text[start:i - 1]
        self.pos = i
        self._next()
        return body

    def _parse_dims(self, allow_unranked=True, scalable=False):
        """`4x?x8x` dimension list; returns (shape, scalable_flags) or (None, None) for `*x`."""
        shape = []
        scal = []
        if allow_unranked and self.kind == PUNCT and self.tok == "*":
            self._next()
            self._expect_x()
            return None, None
        while True:
            k = self.kind
            if k == INT:
                tok = self.tok
                if tok.startswith("0x"):  # `0x4xf32`: a 0 dim followed by x
                    shape.append(0)
                    scal.append(False)
                    self.reset_to(self.tok_start + 1)
                    self._expect_x()
                    continue
                d = int(tok)
                if d > _INT64_MAX:  # a dimension is an int64, as upstream
                    self.error("invalid dimension", self.tok_start)
                shape.append(d)
                scal.append(False)
                self._next()
            elif k == PUNCT and self.tok == "?" and not scalable:
                shape.append(A.DYNAMIC)
                scal.append(False)
                self._next()
            elif scalable and k == PUNCT and self.tok == "[":
                self._next()
                if self.kind != INT:
                    self.error("invalid dimension", self.tok_start)
                if self.tok.startswith("0x"):  # `[0x4]`: MLIR reads 0, then `x4`
                    self.error("missing ']' closing scalable dimension", self.tok_start + 1)
                d = int(self.tok)
                if d > _INT64_MAX:
                    self.error("invalid dimension", self.tok_start)
                shape.append(d)
                scal.append(True)
                self._next()
                if not self.consume_if("]"):
                    self.error("missing ']' closing scalable dimension", self.tok_start)
            else:
                return shape, scal
            self._expect_x()

    def _expect_x(self):
        if self.kind == BARE and self.tok[0] == "x":
            if len(self.tok) == 1:
                self._next()
            else:
                self.reset_to(self.tok_start + 1)
            return
        self.error("expected 'x' in dimension list")

    def _parse_tensor(self):
        self.expect("<", "in tensor type")
        shape, _ = self._parse_dims()
        et_start = self.tok_start
        et = self.parse_type()
        if not _valid_tensor_element(et):
            self.error("invalid tensor element type", et_start)
        if shape is None:
            self.expect(">", "in tensor type")
            return A.UnrankedTensorType(et)
        enc = None
        if self.consume_if(",") and not self.at(">"):  # MLIR accepts `tensor<4xf32,>`
            enc = self.parse_attribute()
        self.expect(">", "in tensor type")
        return A.RankedTensorType(shape, et, enc)

    def _parse_memref(self):
        start = self._kw_start
        self.expect("<", "in memref type")
        shape, _ = self._parse_dims()
        et_start = self.tok_start
        et = self.parse_type()
        if not _valid_memref_element(et):
            self.error("invalid memref element type", et_start)
        if shape is None:
            ms = None
            if self.consume_if(","):
                ms = self.parse_attribute()
                if _is_layout(ms):
                    self.error("cannot have affine map for unranked memref type")
            self.expect(">", "in memref type")
            return A.UnrankedMemRefType(et, ms)
        layout = ms = None
        if self.consume_if(","):
            # A comma-separated list: at most one layout, then at most one memory space.
            while True:
                if self.at(">"):
                    self.error("expected list element")
                a_start = self.tok_start
                a = self.parse_attribute()
                if _is_layout(a):
                    if ms is not None:
                        self.error("expected memory space to be last in memref type",
                                   a_start)
                    if layout is not None:
                        self.error("multiple layouts specified in memref type", a_start)
                    layout = a
                else:
                    if ms is not None:
                        self.error("multiple memory spaces specified in memref type",
                                   a_start)
                    ms = a
                if not self.consume_if(","):
                    break
        self.expect(">", "in memref type")
        if isinstance(layout, A.StridedLayoutAttr):
            if len(layout.strides) != len(shape):
                self.error("expected the number of strides to match the rank", start)
        elif layout is not None and layout.value.num_dims != len(shape):
            self.error("memref layout mismatch between rank and affine map: "
                       f"{len(shape)} != {layout.value.num_dims}", start)
        return A.MemRefType(shape, et, layout, ms)

    def _parse_vector(self):
        start = self._kw_start
        self.expect("<", "in vector type")
        shape, scal = self._parse_dims(allow_unranked=False, scalable=True)
        et = self.parse_type()
        self.expect(">", "in vector type")
        if any(d == 0 for d in shape):
            self.error("vector types must have positive constant sizes but got " +
                       ", ".join(map(str, shape)), start)
        if not isinstance(et, (A.IntegerType, A.IndexType, A.FloatType)) and \
                not getattr(et, "vector_element", False):  # a dialect type's opt-in
            self.error("failed to verify 'elementType': VectorElementTypeInterface "
                       "instance", start)
        return A.VectorType(shape, et, scal)

    def _parse_complex(self):
        self.expect("<", "in complex type")
        et_start = self.tok_start
        et = self.parse_type()
        if not isinstance(et, (A.IntegerType, A.FloatType)):
            self.error("invalid element type for complex", et_start)
        self.expect(">", "in complex type")
        return A.ComplexType(et)

    def _parse_tuple(self):
        self.expect("<", "in tuple type")
        ts = []
        if not self.consume_if(">"):
            ts.append(self.parse_type())
            while self.consume_if(","):
                ts.append(self.parse_type())
            self.expect(">", "in tuple type")
        return A.TupleType(ts)

    # ================================================================== attributes

    def parse_attribute(self, type=None) -> A.Attribute:
        k = self.kind
        tok = self.tok
        if k == INT or k == FLOAT or (k == PUNCT and tok == "-"):
            return self._parse_number_attr(type)
        if k == STRING:
            self._next()
            s = self._unescape(tok)
            if self.kind == PUNCT and self.tok == ":":
                self._next()
                return A.StringAttr(s, self.parse_type())
            return A.StringAttr(s)
        if k == PUNCT:
            if tok == "[":
                return self._parse_array_attr()
            if tok == "{":
                return self.parse_dictionary_attr()
        if k == BARE:
            if tok == "true" or tok == "false":
                self._next()  # never followed by a type, as in MLIR
                return A.BoolAttr(tok == "true")
            p = _ATTR_KEYWORDS.get(tok)
            if p is not None:
                self._kw_start = self.tok_start
                self._next()
                self._enter()
                try:
                    return p(self, type)
                finally:
                    self.depth -= 1
            if tok in _SIMPLE_TYPES or tok in _TYPE_KEYWORDS or _INT_TYPE_RE.match(tok):
                return A.TypeAttr(self.parse_type())
            self.error("expected attribute value")
        if k == AT or k == AT_STRING:
            return self.parse_symbol_ref()
        if k == HASH:
            return self._parse_hash_attr(type)
        if k == HASH_STRING:
            self.error("unexpected quoted attribute alias")
        if k == EXCL or k == EXCL_STRING or (k == PUNCT and tok == "("):
            return A.TypeAttr(self.parse_type())
        self.error("expected attribute value")

    def _unescape(self, tok: str) -> str:
        try:
            return unescape(tok[1:-1])
        except ValueError as e:
            self.error(str(e))

    def parse_string(self) -> str:
        if self.kind != STRING:
            self.error("expected string")
        s = self._unescape(self.tok)
        self._next()
        return s

    def _parse_number_attr(self, type):
        start = self.tok_start
        neg = False
        if self.kind == PUNCT:
            self._next()
            neg = True
            if self.kind != INT and self.kind != FLOAT:
                self.error("expected constant integer or floating point value")
            start = self.tok_start  # MLIR reports at the number, after the minus
        tok = self.tok
        is_float = self.kind == FLOAT
        self._next()
        type_end = None
        if self.kind == PUNCT and self.tok == ":":
            self._next()
            type = self.parse_type()
            type_end = self.tok_start
        return self.make_number(tok, neg, is_float, type, start, type_end)

    def make_number(self, tok, neg, is_float, type, start, type_end=None):
        if type is None:
            type = A.f64 if is_float else A.i64
        if isinstance(type, A.FloatType):
            if is_float:
                # Round the decimal straight to the type, as APFloat does (going through
                # a Python float first would round twice).
                from ..ir.dense import _decimal_bits, _ElemError
                try:
                    return A.FloatAttr(0.0, type, _decimal_bits(type.name, tok, neg))
                except _ElemError as e:  # -1.0 : f8E8M0FNU, as a dense element is
                    self.error(e.message, start)
            if tok.startswith("0x"):
                if neg:
                    self.error("hexadecimal float literal should not have a leading minus",
                               start)
                bits = int(tok, 16)
                if bits >> type.width:
                    self.error(f"hexadecimal float constant out of range for type", start)
                if type.name in ("f64", "f32", "f16", "bf16"):
                    return A.FloatAttr(0.0, type, bits)
                return A.FloatAttr(float("nan"), type, bits)
            d = Diagnostic(ERROR, self.loc_at(start).resolve(),
                           "unexpected decimal integer literal for a floating point value")
            d.attach_note("add a trailing dot to make the literal a float")
            raise DiagnosticError(d)
        if is_float:
            self.error("floating point value not valid for specified type",
                       type_end if type_end is not None else start)
        if not isinstance(type, (A.IntegerType, A.IndexType)):
            self.error("integer literal not valid for specified type", start)
        v = int_literal(tok)
        if neg:
            v = -v
        _check_int_range(self, v, type, start, neg)
        return A.IntegerAttr(v, type)

    def _parse_array_attr(self):
        self._next()
        self._enter()
        vals = []
        if not self.consume_if("]"):
            vals.append(self.parse_attribute())
            while self.consume_if(","):
                vals.append(self.parse_attribute())
            if not self.consume_if("]"):
                self.error("expected ',' or ']'")
        self.depth -= 1
        return A.ArrayAttr(vals)

    def parse_dictionary_attr(self) -> A.DictionaryAttr:
        return A.DictionaryAttr(self.parse_attr_dict_body())

    def parse_attr_dict_body(self) -> dict:
        """`{a = 1, b}` -> dict; the current token must be '{'."""
        self.expect("{", "in attribute dictionary")
        self._enter()
        d = {}
        if not self.consume_if("}"):
            while True:
                k = self.kind
                start = self.tok_start
                if k == BARE:
                    name = self.tok
                elif k == STRING:
                    name = self._unescape(self.tok)
                    if not name:
                        self.error("expected valid attribute name")
                else:
                    self.error("expected attribute name")
                self._next()
                if name in d:
                    self.error(f"duplicate key '{name}' in dictionary attribute", start)
                if self.kind == PUNCT and self.tok == "=":
                    self._next()
                    d[name] = self.parse_attribute()
                else:
                    d[name] = A.UnitAttr()
                if not self.consume_if(","):
                    break
            self.expect("}", "in attribute dictionary")
        self.depth -= 1
        return d

    def parse_symbol_ref(self) -> A.SymbolRefAttr:
        names = [self._symbol_name()]
        while self.kind == PUNCT and self.tok == "::":
            self._next()
            if self.kind not in (AT, AT_STRING):
                self.error("expected nested symbol reference identifier")
            names.append(self._symbol_name())
        return A.SymbolRefAttr(names[0], names[1:])

    def _symbol_name(self) -> str:
        tok = self.tok
        if self.kind == AT:
            self._next()
            return tok[1:]
        if self.kind == AT_STRING:
            self._next()
            return self._unescape(tok[1:])
        self.error("expected symbol name")

    def parse_symbol_name(self) -> str:
        """The `@name` of a custom form (OpAsmParser::parseSymbolName)."""
        if self.kind != AT and self.kind != AT_STRING:
            name = getattr(self, "custom_op_name", None)
            self.error((f"custom op '{name}' " if name else "") +
                       "expected valid '@'-identifier for symbol name", self.tok_start)
        return self._symbol_name()

    def _parse_hash_attr(self, type):
        sym = self._dialect_symbol(self.attr_aliases)
        if not isinstance(sym, tuple):
            return sym
        dialect_name, mnemonic, start = sym
        d = self.ctx.get_dialect(dialect_name)
        if d is not None and d.parse_attribute is not None and mnemonic is not None:
            return d.parse_attribute(self, mnemonic)
        data = self._opaque_symbol_data(mnemonic)
        if d is not None and not self.ctx.allow_unregistered:
            self.error(f"dialect '{dialect_name}' provides no attribute parsing hook", start)
        t = None
        if self.kind == PUNCT and self.tok == ":":
            self._next()
            t = self.parse_type()
        if not self.ctx.allow_unregistered:
            self.error(f'#"{dialect_name}"<"{data}"> : \'{t or "none"}\' attribute created '
                       "with unregistered " + _UNREGISTERED_HINT, start)
        return A.OpaqueAttr(dialect_name, _pretty_symbol_body(data), t)

    def _parse_dense(self, type):
        kw = self._kw_start
        if not (self.kind == PUNCT and self.tok == "<"):
            self.error("expected '<' after 'dense'")
        # The literal is parsed in place, up to its own closing `>`: a bracket-matched
        # cut would misreport a malformed element (`[(10,10]`) as unbalanced text.
        from ..ir import dense
        try:
            lit, end = dense.parse_dense_literal(self.text, self.tok_start + 1)
        except dense.DenseParseError as e:
            self._dense_error(e, kw if e.offset is None else e.offset)
        self.reset_to(end)
        t = self._elements_literal_type(type)
        try:
            return lit.build(t)
        except dense.DenseParseError as e:
            self._dense_error(e, kw if e.offset is None else e.offset)
        except ValueError as e:  # an element type dense storage does not support (i0)
            self.error(str(e), kw)

    def _parse_sparse(self, type):
        kw = self._kw_start
        if not (self.kind == PUNCT and self.tok == "<"):
            self.error("expected '<' after 'sparse'")
        from ..ir import dense
        try:
            indices, values, end = dense.parse_sparse_body(self.text, self.tok_start + 1,
                                                           None)
        except dense.DenseParseError as e:
            self._dense_error(e, kw if e.offset is None else e.offset)
        self.reset_to(end)
        t = self._elements_literal_type(type)
        if not isinstance(t, (A.RankedTensorType, A.VectorType)):
            self.error("elements literal must be a shaped type", kw)
        try:
            a = dense.build_sparse(t, indices, values)
        except dense.DenseParseError as e:
            self.error(str(e.args[0]), kw)
        except ValueError as e:
            self.error(str(e), kw)
        err = a.verify()
        if err:
            self.error(err, kw)
        return a

    def _dense_error(self, e, offset):
        """A dense literal's error at `offset`, with its note (upstream's "add a
        trailing dot to make the literal a float")."""
        if e.note:
            d = Diagnostic(ERROR, self.loc_at(offset).resolve(), e.message)
            d.attach_note(e.note)
            raise DiagnosticError(d)
        self.error(e.message, offset)

    def _elements_literal_type(self, type):
        """parseElementsLiteralType: the shaped type the caller gives (memref.global's
        initial value), else `: type`."""
        if isinstance(type, A.ShapedType):
            return type
        self.expect(":")
        return self.parse_type()

    def _parse_dense_resource(self, type):
        self.expect("<", "after 'dense_resource'")
        if self.kind not in (BARE, STRING):
            self.error("expected identifier key for 'resource' entry", self.tok_start)
        handle = self.tok if self.kind == BARE else self._unescape(self.tok)
        self._next()
        self.expect(">")
        colon = self.tok_start
        t = self._elements_literal_type(type)
        if not isinstance(t, A.ShapedType):
            self.error("`dense_resource` expected a shaped type", colon)
        from ..ir.dense import DenseResourceElementsAttr
        try:
            return DenseResourceElementsAttr(t, handle)
        except (TypeError, ValueError) as e:  # a shaped type Strata does not take yet
            self.error(f"`dense_resource` of type '{t}' is not supported: {e}", colon)

    def _parse_dense_array(self, type):
        self.expect("<", "after 'array'")
        et_start = self.tok_start
        et = self.parse_type()
        if not isinstance(et, (A.IntegerType, A.FloatType)):
            self.error(f"expected integer or float type, got: '{et}'", et_start)
        if et.width % 8 and et is not A.i1:
            self.error("element type bitwidth must be a multiple of 8", et_start)
        vals = []
        if not self.at(">") and not (self.kind == PUNCT and self.tok == ":"):
            self.error("expected ':' after dense array type")
        if self.consume_if(":"):
            while True:
                start = self.tok_start
                if self.kind == BARE and self.tok in ("true", "false"):
                    vals.append(self.tok == "true")
                    self._next()
                else:
                    neg = self.consume_if("-")
                    if self.kind not in (INT, FLOAT):
                        self.error("expected integer or float literal")
                    start = self.tok_start
                    tok, is_float = self.tok, self.kind == FLOAT
                    if et is A.i1:
                        self._next()
                        self.error("expected 'true' or 'false' values for i1 type",
                                   self.tok_start)
                    if is_float and isinstance(et, A.IntegerType):
                        self.error("expected integer literal", start)
                    self._next()
                    if isinstance(et, A.IntegerType):
                        v = int_literal(tok)
                        v = -v if neg else v
                        if not _int_fits(v, et) or (neg and v == 0):  # -0 too, upstream
                            self.error("integer constant out of range")
                        if et.signedness == 0 and v >= 1 << (et.width - 1):
                            v -= 1 << et.width  # signless values print signed
                        vals.append(v)
                    else:  # keep the exact bits (NaN payloads, small float kinds)
                        vals.append(self.make_number(tok, neg, is_float, et, start).bits)
                if not self.consume_if(","):
                    break
        if not self.consume_if(">"):
            self.error("expected '>' to close an array attribute")
        if isinstance(et, A.FloatType):
            return A.DenseArrayAttr(et, bits=vals)
        return A.DenseArrayAttr(et, vals)

    def _parse_affine_map(self, type):
        from ..ir import affine
        return affine.AffineMapAttr(self._parse_affine_body(affine.AffineMap, "affine map"))

    def _parse_affine_set(self, type):
        from ..ir import affine
        return affine.IntegerSetAttr(self._parse_affine_body(affine.IntegerSet,
                                                             "integer set"))

    def _parse_affine_body(self, want, what):
        """After `affine_map` / `affine_set`: `<body>`, the body parsed in place (it
        holds `->`, `>=` and `<=`, so its closing `>` cannot be found beforehand)."""
        from ..ir import affine
        if not (self.kind == PUNCT and self.tok == "<"):
            self.error(f"expected '<' in {what}")
        pos = self.tok_start + 1
        try:
            r, end = affine.parse_affine_prefix(self.text, pos, want)
        except affine.AffineParseError as e:
            at = pos if e.offset is None else e.offset
            if not e.follow_ups:
                self.error(str(e.args[0]), at)
            d = Diagnostic(ERROR, self.loc_at(at).resolve(), str(e.args[0]))
            for msg, offset in e.follow_ups:  # further errors ride along as notes do
                d.notes.append(Diagnostic(ERROR, self.loc_at(offset).resolve(), msg))
            raise DiagnosticError(d) from None
        if end >= len(self.text) or self.text[end] != ">":
            self.error(f"expected '>' in {what}", end)
        self.reset_to(end + 1)
        return r

    def _parse_strided(self, type):
        self.expect("<", "after 'strided'")
        self.expect("[")
        strides = []
        if not self.consume_if("]"):
            while True:
                strides.append(self._parse_int_or_dynamic())
                if not self.consume_if(","):
                    break
            self.expect("]")
        offset = 0
        if self.consume_if(","):
            if not (self.kind == BARE and self.tok == "offset"):
                self.error("expected 'offset' after comma")
            self._next()
            self.expect(":")
            offset = self._parse_int_or_dynamic()
        self.expect(">")
        return A.StridedLayoutAttr(strides, offset)

    def _parse_int_or_dynamic(self):
        if self.consume_if("?"):
            return A.DYNAMIC
        neg = self.consume_if("-")
        if self.kind != INT:
            self.error("expected a 64-bit signed integer or '?'", self.tok_start)
        v = int_literal(self.tok)
        self._next()
        return -v if neg else v

    def _parse_distinct(self, type):
        kw = self._kw_start
        self.expect("[", "after 'distinct'")
        if self.kind != INT:
            self.error("expected distinct ID")
        ident = int_literal(self.tok)
        if ident >> 64:
            self.error("expected an unsigned 64-bit integer", self.tok_start)
        self._next()
        self.expect("]", "to close distinct ID")
        self.expect("<", "after distinct ID")
        # `distinct[0]<>` is how a distinct unit attribute prints.
        ref = A.UnitAttr() if self.at(">") else self.parse_attribute()
        self.expect(">", "to close distinct attribute")
        seen = getattr(self, "_distinct", None)
        if seen is None:
            # Keys must not repeat across parses (id(self) would, once a parser dies).
            seen = self._distinct = {"serial": next(_DISTINCT_SERIAL)}
        key = ("parsed", seen["serial"], ident)
        a = seen.get(ident)
        if a is None:
            a = seen[ident] = A.DistinctAttr(ref, key)
        elif a.referenced is not ref:
            self.error("referenced attribute does not match previous definition: "
                       f"{a.referenced}", kw)
        return a

    def _parse_unit(self, type):
        return A.UnitAttr()

    def _parse_loc_attr(self, type):
        return self.parse_location_body()

    # ================================================================== locations

    def parse_location_body(self) -> L.Location:
        """After `loc`: `(...)`."""
        self.expect("(", "in location")
        loc = self._parse_loc_inner(top=True)
        self.expect(")", "in location")
        return loc

    def _parse_loc_inner(self, top=False) -> L.Location:
        k = self.kind
        if k == BARE:
            tok = self.tok
            if tok == "unknown":
                self._next()
                return L.UnknownLoc()
            if tok == "callsite":
                self._next()
                self.expect("(", "in callsite location")
                callee = self._parse_loc_inner()
                if not (self.kind == BARE and self.tok == "at"):
                    self.error("expected 'at' in callsite location")
                self._next()
                caller = self._parse_loc_inner()
                self.expect(")", "in callsite location")
                return L.CallSiteLoc(callee, caller)
            if tok == "fused":
                self._next()
                md = None
                if self.consume_if("<"):
                    md = self.parse_attribute()
                    self.expect(">", "after fused location metadata")
                self.expect("[", "in fused location")
                locs = []
                if not self.consume_if("]"):
                    locs.append(self._parse_loc_inner())
                    while self.consume_if(","):
                        locs.append(self._parse_loc_inner())
                    self.expect("]", "in fused location")
                return L.FusedLoc(locs, md)
            self.error("expected location instance")
        if k == STRING:
            s = self._unescape(self.tok)
            self._next()
            if self.kind == PUNCT and self.tok == ":":
                self._next()
                line = self._loc_int()
                col = 0
                if self.consume_if(":"):
                    col = self._loc_int()
                end_line = end_col = None
                if self.kind == BARE and self.tok == "to":
                    self._next()
                    if self.consume_if(":"):
                        end_line, end_col = line, self._loc_int()
                    else:
                        end_line = self._loc_int()
                        self.expect(":")
                        end_col = self._loc_int()
                return L.FileLineColLoc(s, line, col, end_line, end_col)
            if self.kind == PUNCT and self.tok == "(":
                self._next()
                child = self._parse_loc_inner()
                self.expect(")", "after child location of NameLoc")
                return L.NameLoc(s, child)
            return L.NameLoc(s)
        if k == HASH:
            name = self.tok[1:]
            a = self.attr_aliases.get(name)
            if a is None:
                if not top:
                    self._next()
                    self.error(f"undefined symbol alias id '{name}'", self.tok_start)
                # The location of an op may name an alias defined further down (mlir-opt
                # prints them after the module); it is resolved at the end.
                a = _DeferredLoc(name, self.cur_loc())
                self.deferred_loc_aliases.append(a)
            elif not isinstance(a, L.Location):
                self.error(f"expected location, but found '{a}'", self.tok_start)
            self._next()
            return a
        self.error("expected location instance")

    def _loc_int(self):
        if self.kind != INT:
            self.error("expected integer line number in FileLineColRange")
        v = int_literal(self.tok)
        self._next()
        return v

    def parse_optional_trailing_loc(self):
        if self.kind == BARE and self.tok == "loc":
            self._next()
            return self.parse_location_body()
        return None


_DISTINCT_SERIAL = itertools.count()
_UNREGISTERED_HINT = ("dialect. If this is intended, please call allowUnregisteredDialects() "
                      "on the MLIRContext, or use -allow-unregistered-dialect with the MLIR "
                      "opt tool used")
_PRETTY_NAME = re.compile(r"[A-Za-z][A-Za-z0-9._]*")


def _pretty_symbol_body(data: str) -> str:
    """How MLIR prints the data of a dialect symbol: `.name<...>` when it is an
    identifier optionally followed by `<...>`, else `<data>`."""
    m = _PRETTY_NAME.match(data)
    if m is not None:
        rest = data[m.end():]
        if not rest or (rest[0] == "<" and rest[-1] == ">"):
            return "." + data
    return "<" + data + ">"


class _DeferredLoc:
    """A `loc(#loc3)` reference to an alias defined later in the file."""

    __slots__ = ("name", "where")

    def __init__(self, name, where):
        self.name = name
        self.where = where


def _is_layout(a):
    from ..ir.affine import AffineMapAttr
    return isinstance(a, (A.StridedLayoutAttr, AffineMapAttr))


def _valid_tensor_element(t) -> bool:
    # MLIR: numbers, vectors and opaque types, or any type of a dialect other than builtin.
    return isinstance(t, (A.IntegerType, A.IndexType, A.FloatType, A.ComplexType,
                          A.VectorType, A.OpaqueType)) or \
        getattr(t, "dialect", "builtin") != "builtin"


def _valid_memref_element(t) -> bool:
    # MLIR: numbers, vectors and memrefs, or types of the MemRefElementTypeInterface.
    return isinstance(t, (A.IntegerType, A.IndexType, A.FloatType, A.ComplexType,
                          A.VectorType, A.MemRefType, A.UnrankedMemRefType)) or \
        getattr(t, "memref_element", False)


_INT64_MAX = (1 << 63) - 1


def _int_fits(v, type) -> bool:
    """Whether `v` is a value of the integer type (signless: either reading)."""
    w = type.width
    if type.signedness == 2:
        return 0 <= v < (1 << w)
    if type.signedness == 1:
        return -(1 << (w - 1)) <= v < (1 << (w - 1))
    return -(1 << (w - 1)) <= v < (1 << w)


def _check_int_range(p, v, type, start, neg=False):
    """Upstream's checks of an integer attribute literal; `neg`: written with a minus
    sign (`-0` is out of range there, as its negation sets no sign bit)."""
    if neg and v == 0:
        p.error("negative integer literal not valid for unsigned integer type"
                if isinstance(type, A.IntegerType) and type.signedness == 2 else
                "integer constant out of range for attribute", start)
    if isinstance(type, A.IndexType):
        w, signed_ok = 64, True
    else:
        w = type.width
        signed_ok = type.signedness != 2
    if type.signedness == 2 if isinstance(type, A.IntegerType) else False:
        if v < 0:
            p.error("negative integer literal not valid for unsigned integer type", start)
        if v >> w:
            p.error("integer constant out of range for attribute", start)
        return
    if w == 0:  # i0, si0: zero is their only value
        lo = hi = 0
    elif isinstance(type, A.IntegerType) and type.signedness == 0:
        lo, hi = -(1 << (w - 1)), (1 << w) - 1  # either reading of the bits
    else:
        lo, hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
    if v < lo or v > hi:
        p.error("integer constant out of range for attribute", start)


_TYPE_KEYWORDS = {
    "tensor": AttrParser._parse_tensor,
    "memref": AttrParser._parse_memref,
    "vector": AttrParser._parse_vector,
    "complex": AttrParser._parse_complex,
    "tuple": AttrParser._parse_tuple,
}

_ATTR_KEYWORDS = {
    "dense": AttrParser._parse_dense,
    "sparse": AttrParser._parse_sparse,
    "dense_resource": AttrParser._parse_dense_resource,
    "array": AttrParser._parse_dense_array,
    "affine_map": AttrParser._parse_affine_map,
    "affine_set": AttrParser._parse_affine_set,
    "strided": AttrParser._parse_strided,
    "distinct": AttrParser._parse_distinct,
    "unit": AttrParser._parse_unit,
    "loc": AttrParser._parse_loc_attr,
}
