"""The op parser: generic and custom op forms, regions, blocks and SSA names.

Custom forms are parsed by the op class's `parse(parser, state)` (generated from its
declarative assembly format, or hand-written); they use the OpAsmParser-like methods of
this class (`parse_operand`, `resolve_operands`, `parse_colon_type`, ...).
"""
from __future__ import annotations

import re
import sys
from types import MappingProxyType

from ..ir import attributes as A
from ..ir import location as L
from ..ir.core import (EMPTY_DICT, Block, BlockArgument, Operation, OpResult, Region,
                       UnregisteredOp, Value, link_operands)
from ..ir.diagnostics import ERROR, Diagnostic, DiagnosticError
from ..ir.gc_pause import gc_paused
from .attr_parser import _SIMPLE_TYPES, AttrParser, _DeferredLoc
from .asm_format import uniform_binary
from .lexer import (BARE, CARET, EOF, EXCL, HASH, INT, PERCENT, PUNCT, STRING, SourceLoc,
                    int_literal)

__all__ = ["Parser", "OperationState", "parse_module", "parse_source"]

# A value name as the lexer reads it: all digits, or a letter or `$._-` then any of those.
_ID = r"%(?:[0-9]+(?![A-Za-z_$.\-])|[A-Za-z_$.\-][A-Za-z0-9_$.\-]*)"
# Where a property dictionary `<{...}>` or a function type `(...) -> ...` most likely
# ends (see Parser._parse_memoized): no strings, one level of nested brackets.
_PROPS_EXTENT = re.compile(r'<\{(?:[^{}<>"\n]++|<[^{}<>"\n]*+>)*+\}>').match
_FTYPE_EXTENT = re.compile(r"\([^()\n\"]*\) -> (?:\([^()\n\"]*\)|[^\s(),{}\"]+)").match
_GENERIC_HEAD = re.compile(rf'({_ID}) = "([A-Za-z_][A-Za-z0-9_$.]*)"\(((?:{_ID}(?:, {_ID})*)?)\)').match
# A value name: numeric (the usual case; group 1, without leading zeros) or any other.
_VAL = (r"%(?:(0|[1-9][0-9]*)(?![A-Za-z0-9_$.\-])"
        r"|([0-9]+(?![A-Za-z_$.\-])|[A-Za-z_$.\-][A-Za-z0-9_$.\-]*))")
# One op line in canonical spacing, in one of the two shapes that make up most of real
# (and printed) IR, followed by the trivia up to the next token (see Parser._parse_op_run):
#   `%r = "name"(%a, %b) <{...}> : (...) -> t`: groups 3-9: the name, one or two
#   operands (4-7) or another list (8), then the rest of the line (9), whose meaning is
#   memoized: _GENERIC_TAIL splits it into property dictionary and function type;
#   `%r = dialect.op %a, %b : t`: groups 3-8.
# The trivia after a line, unless a trailing location follows it (on a later line).
_TRIVIA = r"(?:[ \t\r\n]+|//[^\n]*)*+(?!loc(?![A-Za-z0-9_$.]))"
_LINE_END = r"(?=[ \t]*(?:\n|//|\Z))" + _TRIVIA
_GENERIC_LINE = re.compile(
    rf'{_VAL} = "([A-Za-z_][A-Za-z0-9_$.]*)"'
    rf'\((?:{_VAL}(?:, {_VAL})?|((?:{_ID}(?:, {_ID})*)?))\)'
    r"([^\n]*+)" + _TRIVIA).match
_GENERIC_TAIL = re.compile(
    r'(?: (<\{(?:[^{}<>"\n]++|<[^{}<>"\n]*+>)*+\}>))?'
    r' : (\([^()\n"]*\) -> (?:\([^()\n"]*\)|[^\s(),{}"]+))[ \t]*+(?://[^\n]*+)?').fullmatch
_CUSTOM_LINE = re.compile(
    rf"{_VAL} = ([A-Za-z_][A-Za-z0-9_$.]*) {_VAL}, {_VAL} : ([a-z][a-z0-9]*)" +
    _LINE_END).match


_AFTER_OP_NAME = re.compile(r'"(?:[^"\\\n]|\\.)*"(?:[ \t\r\n]+|//[^\n]*)*')


MAX_REGION_NESTING = 1000
_INT_TYPE_TOKEN = re.compile(r"[su]?i[0-9]+\Z").match
DEEP_RECURSION = 20000  # the recursion limit parse_source ensures (see MAX_REGION_NESTING)


class OperationState:
    """What a custom parser collects before the op is created."""

    __slots__ = ("cls", "name", "operands", "types", "properties", "attributes",
                 "successors", "regions", "loc")

    def __init__(self, cls, name, loc):
        self.cls = cls
        self.name = name
        self.operands = []
        self.types = []
        self.properties = {}
        self.attributes = {}
        self.successors = []
        self.regions = []
        self.loc = loc


class _ForwardRef(Value):
    """A use of an SSA name whose definition has not been parsed yet."""

    __slots__ = ("name", "offset")

    def __init__(self, type, name, offset):
        self.type = type
        self.first_use = None
        self.name = name
        self.offset = offset

    @property
    def parent_block(self):
        return None


class _Scope:
    """SSA names of one region (and the blocks defined in it).

    Numeric names defined in sequence (`%7`, `%8`, `%9`: what every printer emits) are
    kept in a list indexed from `base`, 8 bytes each instead of a dict entry and an int;
    other names go in the dict."""

    __slots__ = ("values", "nums", "base", "blocks", "isolated", "forward",
                 "block_forward")

    def __init__(self, isolated):
        self.values = {}
        self.nums = []
        self.base = 0
        self.blocks = {}
        self.isolated = isolated
        self.forward = {} if isolated else None
        self.block_forward = {}

    def get(self, key):
        if type(key) is int:
            i = key - self.base
            nums = self.nums
            if 0 <= i < len(nums):
                return nums[i]
        return self.values.get(key)

    def set(self, key, value):
        if type(key) is int:
            nums = self.nums
            if not nums:
                self.base = key
                nums.append(value)
                return
            if key - self.base == len(nums):
                nums.append(value)
                return
        self.values[key] = value


class Parser(AttrParser):
    # Regex fast paths for the most common op shapes (see _parse_op_run); tests
    # switch them off to check that both paths build the same IR.
    fast_paths = True

    def __init__(self, text, ctx, filename="<stdin>", line_offset=0, col_offset=0):
        super().__init__(text, ctx, filename, line_offset, col_offset)
        self.scopes: list[_Scope] = []
        # Default dialect of unqualified custom op names: "builtin" at the top, then the
        # one of each custom op being parsed ("" when it has none), as upstream.
        self.default_dialects: list[str] = ["builtin"]
        self.resources = {}
        self.external_resources = {}  # owner -> {name: (value, offset)}
        self._memo = {}
        # (op name, property and function type text) -> what _generic_line_info says
        self._line_memo = {}

    # ================================================================== top level

    def parse_top_level(self) -> Operation:
        """Parse a whole buffer; returns the top-level op (a builtin.module)."""
        with gc_paused():
            return self._parse_top_level()

    def _parse_top_level(self) -> Operation:
        block = Block()
        self._push_scope(True)
        while True:
            k = self.kind
            if k == EOF:
                break
            if k == HASH:  # at the top level `#x` / `!x` can only start an alias
                self._parse_attr_alias_def()
            elif k == EXCL:
                self._parse_type_alias_def()
            elif k == PUNCT and self.tok == "{-#":
                self._parse_file_metadata()
            else:
                block.append(self.parse_operation())
        self._pop_scope()
        self._resolve_deferred_locs(block)
        ops = list(block.ops)
        module_cls = self.ctx.get_op("builtin.module")
        if len(ops) == 1 and ops[0].name == "builtin.module":
            top = ops[0]
            top.detach()
        else:
            if module_cls is None:
                self.error("builtin dialect is not registered")
            # mlir-opt's implicit module sits at `file:0:0`, or where its split chunk
            # starts in the file.
            src = self.src
            if src.line_offset or src.col_offset:
                loc = L.FileLineColLoc(src.name, src.line_offset + 1, src.col_offset + 1)
            else:
                loc = L.FileLineColLoc(src.name, 0, 0)
            top = module_cls.create(regions=1, loc=loc)
            top.regions[0].add_block(block)
        if self.resources or self.external_resources:
            from ..ir.dense import DenseParseError, attach_resources
            try:
                attach_resources(top, self.resources, self.external_resources)
            except DenseParseError as e:
                self.error(e.message, e.offset)
        return top

    def _peek_is_alias_def(self):
        name = self.tok[1:]
        if "." in name:
            return False
        save = (self.pos, self.kind, self.tok, self.tok_start)
        self._next()
        is_def = self.kind == PUNCT and self.tok == "="
        self.pos, self.kind, self.tok, self.tok_start = save
        return is_def

    def _parse_attr_alias_def(self):
        name = self.tok[1:]
        if "." in name:
            self.error("attribute names with a '.' are reserved for dialect-defined names")
        if name in self.attr_aliases:
            self.error(f"redefinition of attribute alias id '{name}'")
        self._next()
        self.expect("=", "in attribute alias definition")
        self.attr_aliases[name] = self.parse_attribute()

    def _parse_type_alias_def(self):
        name = self.tok[1:]
        if "." in name:
            self.error("type names with a '.' are reserved for dialect-defined names")
        if name in self.type_aliases:
            self.error(f"redefinition of type alias id '{name}'")
        self._next()
        self.expect("=", "in type alias definition")
        self.type_aliases[name] = self.parse_type()

    def _resolve_deferred_locs(self, block):
        for d in self.deferred_loc_aliases:
            a = self.attr_aliases.get(d.name)
            if a is None:
                self.error("operation location alias was never defined", d.where.offset)
            if not isinstance(a, L.Location):
                self.error(f"expected location, but found '{a}'", d.where.offset)
        if not self.deferred_loc_aliases:
            return
        # Replace the placeholders left on ops and block arguments.
        top_aliases = self.attr_aliases
        for op in self._parsed_top_ops(block):
            if isinstance(op.loc, _DeferredLoc):
                op.loc = top_aliases[op.loc.name]
            for r in op.regions:
                for b in r.blocks:
                    for a in b.args:
                        if isinstance(a.loc, _DeferredLoc):
                            a.loc = top_aliases[a.loc.name]

    @staticmethod
    def _parsed_top_ops(block):
        for top in block.ops:
            yield from top.walk()

    def _parse_file_metadata(self):
        self._next()
        while not (self.kind == PUNCT and self.tok == "#-}"):
            if self.kind != BARE:  # upstream reports these at the token, not before it
                self.error("expected identifier key in file metadata dictionary",
                           self.token_offset())
            key = self.tok
            self._next()
            self.expect(":")
            if key == "dialect_resources":
                self._parse_resource_section(True)
            elif key == "external_resources":
                self._parse_resource_section(False)
            else:
                self.error(f"unknown key '{key}' in file metadata dictionary")
            if not self.consume_if(","):
                break
        if not self.consume_if("#-}"):
            self.error("expected ',' or '#-}'")

    def _parse_resource_section(self, dialect):
        self.expect("{")
        while not self.consume_if("}"):
            if self.kind != BARE:
                self.error("expected identifier key for 'resource' entry",
                           self.token_offset())
            owner = self.tok
            owner_at = self.tok_start
            self._next()
            self.expect(":")
            self.expect("{")
            if dialect:
                # Only a dialect that handles resources may have a section: of Strata's,
                # builtin (its blobs); an unknown dialect's cannot be kept, as upstream.
                if self.ctx.get_dialect(owner) is None:
                    self.error(f"dialect '{owner}' is unknown", owner_at)
                if owner != "builtin":
                    self.error(f"unexpected 'resource' section for dialect '{owner}'",
                               self.token_offset())
            while not self.consume_if("}"):
                if self.kind not in (BARE, STRING):
                    self.error("expected identifier key for 'resource' entry",
                               self.token_offset())
                key = self.tok if self.kind == BARE else self._unescape(self.tok)
                self._next()
                self.expect(":")
                # Any one token: what it must be is the owner's business (dense.py's
                # attach_resources), as upstream's resource handlers decide.
                if self.kind == STRING:
                    value = self._unescape(self.tok)
                elif self.kind == BARE and self.tok in ("true", "false"):
                    value = self.tok == "true"
                elif self.kind == EOF:
                    self.error("expected resource value")
                else:
                    value = None
                start = self.tok_start
                self._next()
                if dialect:
                    self.resources[(owner, key)] = (value, start)
                else:
                    self.external_resources.setdefault(owner, {})[key] = (value, start)
                self.consume_if(",")
            self.consume_if(",")

    # ================================================================== scopes

    def _push_scope(self, isolated):
        self.scopes.append(_Scope(isolated))

    def _pop_scope(self):
        sc = self.scopes.pop()
        for name, (blk, offset) in sc.block_forward.items():
            self.error(f"reference to an undefined block", offset)
        if sc.isolated and sc.forward:
            name, ref = next(iter(sc.forward.items()))
            self.error(f"use of undeclared SSA value name", ref.offset)

    def _lookup(self, key):
        for sc in reversed(self.scopes):
            v = sc.get(key)
            if v is not None:
                return v
            if sc.isolated:
                return None
        return None

    def _isolated_scope(self):
        for sc in reversed(self.scopes):
            if sc.isolated:
                return sc
        return self.scopes[0]

    def _definition_loc(self, key, value):
        """Where `value` was named: its block argument, or the `%name` before its op."""
        if isinstance(value, BlockArgument):
            return value.loc
        loc = getattr(getattr(value, "owner", None), "loc", None)
        if isinstance(loc, SourceLoc) and loc.src is self.src:
            name = _key_str(key).split("#")[0]
            at = self.text.rfind(name, 0, loc.offset)
            if at >= 0:
                return self.loc_at(at).resolve()
        return loc

    def define_value(self, key, value, offset):
        """Bind the SSA name `key` to `value`: the name itself ("%x") for result 0,
        a (name, index) pair for the others of a group ("%x#1")."""
        sc = self.scopes[-1]
        iso = self._isolated_scope()
        fwd = iso.forward.pop(key, None) if iso.forward else None
        if fwd is None:
            prior = self._lookup(key)
            if prior is not None:
                d = Diagnostic(ERROR, self.loc_at(offset).resolve(),
                               f"redefinition of SSA value '{_key_str(key)}'")
                d.attach_note("previously defined here", self._definition_loc(key, prior))
                raise DiagnosticError(d)
        sc.set(key, value)
        if fwd is not None:
            if fwd.type is not value.type:
                d = Diagnostic(ERROR, self.loc_at(offset).resolve(),
                               f"definition of SSA value '{_def_name(key)}' has type "
                               f"'{value.type}'")
                d.attach_note(f"previously used here with type '{fwd.type}'",
                              self.loc_at(fwd.offset).resolve())
                raise DiagnosticError(d)
            fwd.replace_all_uses_with(value)

    # ================================================================== operands

    def parse_operand(self):
        """`%name` or `%name#N`: returns an unresolved reference (key, offset)."""
        if self.kind != PERCENT:
            self.error("expected SSA operand")
        name = self.tok
        offset = self.tok_start
        self._next()
        idx = 0
        if self.kind == HASH and self.tok_start == offset + len(name):
            try:
                idx = int(self.tok[1:], 10)
            except ValueError:
                self.error("invalid SSA value result number")
            self._next()
        return ((_ssa_key(name) if idx == 0 else (name, idx)), offset)

    def parse_optional_operand(self):
        if self.kind == PERCENT:
            return self.parse_operand()
        return None

    def parse_operand_list(self, delim=None):
        """Comma-separated operands; `delim` '(' or '[' wraps them."""
        if delim is not None:
            close = ")" if delim == "(" else "]"
            self.expect(delim)
            if self.consume_if(close):
                return []
        refs = []
        if self.kind == PERCENT:
            refs.append(self.parse_operand())
            while self.kind == PUNCT and self.tok == ",":
                self._next()
                refs.append(self.parse_operand())
        if delim is not None:
            self.expect(close)
        return refs

    def resolve_operand(self, ref, type) -> Value:
        key, offset = ref
        v = self._lookup(key)
        if v is None:
            iso = self._isolated_scope()
            v = iso.forward.get(key)
            if v is None:
                v = iso.forward[key] = _ForwardRef(type, key, offset)
            elif v.type is not type:
                self.error(f"use of value '{_use_name(key)}' expects different type than "
                           f"prior uses: '{type}' vs '{v.type}'", offset)
            return v
        if v.type is not type:
            d = Diagnostic(ERROR, self.loc_at(offset).resolve(),
                           f"use of value '{_use_name(key)}' expects different type than "
                           f"prior uses: '{type}' vs '{v.type}'")
            d.attach_note("prior use here", _value_loc(v))
            raise DiagnosticError(d)
        return v

    def resolve_operands(self, refs, types, offset=None) -> list:
        if len(refs) != len(types):
            where = offset if offset is not None else (refs[0][1] if refs else self.tok_start)
            if getattr(self, "custom_op_name", None):  # upstream's OpAsmParser wording
                self.error(self._custom_prefix() + "number of operands and types do not "
                           f"match: got {len(refs)} operands and {len(types)} types", where)
            self.error(f"{len(refs)} operands present, but expected {len(types)}", where)
        return [self.resolve_operand(r, t) for r, t in zip(refs, types)]

    # ================================================================== operations

    def parse_operation(self) -> Operation:
        start = self.tok_start
        results = None
        if self.kind == PERCENT:
            m = _GENERIC_HEAD(self.text, start) if self.fast_paths else None
            if m is not None:
                # `%r = "name"(%a, %b)` in canonical spacing: one regex for the head.
                res, name, operand_text = m.groups()
                name_start = m.start(2) - 1
                refs = []
                if operand_text:
                    off = m.start(3)
                    for part in operand_text.split(", "):
                        refs.append((_ssa_key(part), off))
                        off += len(part) + 2
                self.reset_to(m.end())
                op = self._parse_generic_op((name_start, name, refs))
                if len(op.results) != 1:
                    if not op.results:
                        self.error("cannot name an operation with no results", start)
                    self.error(f"operation defines {len(op.results)} results but was "
                               f"provided 1 to bind", start)
                self.define_value(_ssa_key(res), op.results[0], start)
                return op
            results = self._parse_result_names()
        k = self.kind
        if k == STRING:
            op = self._parse_generic_op()
        elif k == BARE and not _INT_TYPE_TOKEN(self.tok):  # `i32` is a type token
            # How many results the text binds (OpAsmParser::getNumResults), for custom
            # parsers whose syntax depends on it (`gpu.wait async` must be named).
            self.num_bound_results = sum(c for _, c, _ in results) if results else 0
            op = self._parse_custom_op()
        else:
            if results is not None:
                self.error("expected operation name in quotes")
            self.error("expected operation name in quotes" if k != PUNCT or self.tok != "}"
                       else "expected operation name in quotes")
        if results is not None:
            n = len(op.results)
            want = sum(c for _, c, _ in results)
            if n == 0:
                self.error("cannot name an operation with no results", start)
            if want != n:
                self.error(f"operation defines {n} results but was provided {want} to bind",
                           start)
            i = 0
            for name, count, off in results:
                if count == 1 and len(results) == 1 and n == 1:
                    self.define_value(_ssa_key(name), op.results[0], off)
                    i += 1
                    continue
                for j in range(count):
                    self.define_value(_ssa_key(name) if j == 0 else (name, j), op.results[i],
                                      off)
                    i += 1
        return op

    def _parse_op_run(self, block):
        """Parse consecutive op lines of the two most common shapes (_GENERIC_LINE,
        _CUSTOM_LINE) straight into `block`, without the lexer: `%r = dialect.op %a, %b : t`
        of ops whose format is exactly that (asm_format._is_uniform_binary), and generic ops
        with one result whose property dictionary and function type were seen before
        (memoized by `_parse_memoized`). Stops at the first line that is anything else or anything
        unusual (unknown or forward-referenced names, redefinitions, type mismatches,
        unknown properties...), leaving the lexer on it: the general path then parses that
        line, and words its errors."""
        text = self.text
        start = pos = self.tok_start
        # Runs are usually of one shape: the regex of the last line is tried first.
        first, second = _CUSTOM_LINE, _GENERIC_LINE
        is_custom = True
        m = first(text, pos)
        if m is None:
            m = second(text, pos)
            if m is None:
                return
            first, second = second, first
            is_custom = False
        sc = self.scopes[-1]
        nums = sc.nums
        values = sc.values
        base = sc.base
        # In a region that is not isolated, names of the enclosing regions are visible
        # too: a new name must be checked against them (the general lookup).
        nested = not sc.isolated
        lookup = self._lookup
        forward = self._isolated_scope().forward
        ops_get = self.ctx.ops.get
        tails = self._line_memo
        simple_types = _SIMPLE_TYPES
        loc_cls = self.src.loc_class
        dd = self.default_dialects[-1]
        resolved = {}
        append = block.append
        new = object.__new__
        while True:
            if is_custom:
                rn, rs, name, an, as_, bn, bs, tname = m.groups()
                cls = resolved.get(name)
                if cls is None:
                    cls = ops_get(name)
                    if cls is None and dd and "." not in name:
                        cls = ops_get(dd + "." + name)
                    if cls is None or not (cls.__dict__.get("_uniform_binary") or
                                           uniform_binary(cls)):
                        break
                    resolved[name] = cls
                rtype = t0 = t1 = simple_types.get(tname)
                if rtype is None:
                    break
                props = EMPTY_DICT
                loc_offset = m.start(3)
                vals = None
            else:
                rn, rs, name, an, as_, bn, bs, glist, tail = m.groups()
                key = (name, tail)
                info = tails.get(key)
                if info is None:
                    info = self._generic_line_info(name, tail)
                    if info is None:
                        break
                    tails[key] = info
                cls, props, inputs, rtype = info
                loc_offset = m.start(3) - 1
                vals = None
                if an is None and as_ is None:  # no operands, or more than two
                    if glist:
                        parts = glist.split(", ")
                        if len(parts) != len(inputs):
                            break
                        vals = []
                        for part, t in zip(parts, inputs):
                            c = part[1:]
                            if c.isdigit() and (c[0] != "0" or len(c) == 1):
                                k = int(c)
                                i = k - base
                                v = nums[i] if 0 <= i < len(nums) else lookup(k)
                            else:
                                v = lookup(part)
                            if v is None or v.type is not t:
                                vals = None
                                break
                            vals.append(v)
                        if vals is None:
                            break
                    elif inputs:
                        break
                    else:
                        vals = ()
                elif len(inputs) != (1 if bn is None and bs is None else 2):
                    break
                else:
                    t0 = inputs[0]
                    t1 = inputs[-1]
            if vals is None:  # one or two operands: numbered (an, bn) or named
                if an is not None:
                    k = int(an)
                    i = k - base
                    va = nums[i] if 0 <= i < len(nums) else lookup(k)
                else:
                    va = lookup("%" + as_)
                if va is None or va.type is not t0:
                    break
                if bn is not None:
                    k = int(bn)
                    i = k - base
                    vb = nums[i] if 0 <= i < len(nums) else lookup(k)
                elif bs is not None:
                    vb = lookup("%" + bs)
                else:
                    vals = (va,)
                    vb = va
                if vb is None or vb.type is not t1:
                    break
                if vals is None:
                    vals = (va, vb)
            # The result name must be new.
            if rn is not None:
                res = int(rn)
                in_sequence = nums and res - base == len(nums) and not nested and \
                    not (values and res in values)
                if not in_sequence and lookup(res) is not None:
                    break
            else:
                res = "%" + rs
                in_sequence = False
                if lookup(res) is not None:
                    break
            if forward and res in forward:
                break
            op = new(cls)
            op._operands = link_operands(op, vals)
            r = new(OpResult)
            r.type = rtype
            r.first_use = None
            r.owner = op
            op.results = (r,)
            op._props = props
            op._attrs = EMPTY_DICT
            op.successors = op.regions = ()
            loc = new(loc_cls)
            loc._str = None
            loc.offset = loc_offset
            op.loc = loc
            op.parent = None
            append(op)
            if in_sequence:
                nums.append(r)
            else:
                sc.set(res, r)
                base = sc.base
            pos = m.end()
            m = first(text, pos)
            if m is None:
                m = second(text, pos)
                if m is None:
                    break
                first, second = second, first
                is_custom = not is_custom
        if pos != start:
            self.reset_to(pos)

    def _generic_line_info(self, name, tail):
        """(op class, shared properties, operand types, result type) of a generic op line
        with this name and this text after its operands (property dictionary, function
        type, maybe a comment), when their texts were parsed before (see
        _parse_memoized) and the op is registered with one result; None otherwise (the
        general path parses the line, and fills the memo)."""
        m = _GENERIC_TAIL(tail)
        if m is None:
            return None
        props_text, ft_text = m.groups()
        memo = self._memo
        ft = memo.get(ft_text)
        if ft is None or len(ft.results) != 1:
            return None
        cls = self.ctx.ops.get(name)
        if cls is None:
            return None
        props = EMPTY_DICT
        if props_text is not None:
            props = _shared_props(cls, memo.get(props_text))
            if props is None:
                return None
        return cls, props, ft.inputs, ft.results[0]

    def _parse_props(self):
        self._next()
        if not (self.kind == PUNCT and self.tok == "{"):
            self.error("expected '{' to start properties")
        props = self.parse_attr_dict_body()
        self.expect(">")
        return props

    def _parse_memoized(self, extent, parse):
        """Parse with `parse`, memoized by source text. Generic-form ops repeat the same
        property dictionaries and function types again and again; types and attributes
        are uniqued and aliases cannot change within a file, so equal text means equal
        result. `extent` (a regex) guesses where the text ends; the memo is only used
        when the real parse ended exactly there."""
        start = self.tok_start
        m = extent(self.text, start)
        if m is None:
            return parse()
        key = m.group()
        memo = self._memo
        hit = memo.get(key)
        if hit is not None:
            self.reset_to(m.end())
            return hit
        value = parse()
        if self.tok_start >= m.end() and not self.text[m.end():self.tok_start].strip():
            memo[key] = value
        return value

    def _parse_result_names(self):
        out = []
        while True:
            if self.kind != PERCENT:
                self.error("expected valid ssa identifier")
            name, off = self.tok, self.tok_start
            self._next()
            count = 1
            if self.kind == PUNCT and self.tok == ":":
                self._next()
                if self.kind != INT:
                    self.error("expected integer number of results")
                count = int_literal(self.tok)
                if count < 1:
                    self.error("expected named operation to have at least 1 result")
                self._next()
            out.append((name, count, off))
            if not (self.kind == PUNCT and self.tok == ","):
                break
            self._next()
        self.expect("=", "after SSA name")
        return out

    def _resolve_op_class(self, name, offset):
        cls = self.ctx.ops.get(name)
        if cls is not None:
            return cls
        dialect = name.split(".", 1)[0] if "." in name else ""
        d = self.ctx.get_dialect(dialect)
        # --allow-unregistered-dialect admits ops of dialects Strata does not have; a
        # registered dialect still rejects names it does not define (upstream's dialects
        # do not allow unknown operations, whatever the flag says).
        if d is None and self.ctx.allow_unregistered:
            return UnregisteredOp
        if d is None:
            # Upstream reports this at the token after the quoted name.
            m = _AFTER_OP_NAME.match(self.text, offset)
            self.error(f"operation being parsed with an unregistered dialect. If this is "
                       f"intended, please use -allow-unregistered-dialect with the MLIR "
                       f"tool used", m.end() if m else offset)
        self.error(f"unregistered operation '{name}' found in dialect ('{dialect}') that "
                   f"does not allow unknown operations", offset)

    def _parse_generic_op(self, head=None) -> Operation:
        if head is None:
            start = self.tok_start
            name = self._unescape(self.tok)
            if not name:
                self.error("empty operation name is invalid")
            self._next()
            cls = self._resolve_op_class(name, start)
            self.expect("(", "to start operand list")
            refs = []
            if not self.consume_if(")"):
                refs = self.parse_operand_list()
                self.expect(")", "to end operand list")
        else:
            start, name, refs = head
            cls = self._resolve_op_class(name, start)
        succs = []
        if self.kind == PUNCT and self.tok == "[":
            if cls is not UnregisteredOp and not _terminator(cls):
                self.error("successors in non-terminator")
            self._next()
            succs.append(self.parse_successor())
            while self.consume_if(","):
                succs.append(self.parse_successor())
            self.expect("]")
        props = None
        if self.kind == PUNCT and self.tok == "<":
            props = self._parse_memoized(_PROPS_EXTENT, self._parse_props) \
                if self.fast_paths else self._parse_props()
            if props:
                props = dict(props)
        regions = []
        if self.kind == PUNCT and self.tok == "(":
            self._next()
            isolated = _isolated(cls)
            while True:
                regions.append(self.parse_region(isolated=isolated, op_cls=cls))
                if not self.consume_if(","):
                    break
            self.expect(")", "to end region list")
        attrs = None
        if self.kind == PUNCT and self.tok == "{":
            attrs = self.parse_attr_dict_body()
        self.expect(":", "followed by operation type")
        tstart = self.tok_start
        ft = self._parse_memoized(_FTYPE_EXTENT, self.parse_type) \
            if self.kind == PUNCT and self.tok == "(" and self.fast_paths \
            else self.parse_type()
        if not isinstance(ft, A.FunctionType):
            self.error("expected function type", tstart)
        if len(refs) != len(ft.inputs):  # upstream's parseGenericOperation wording
            self.error(f"expected {len(refs)} operand type{'' if len(refs) == 1 else 's'}"
                       f" but had {len(ft.inputs)}", tstart)
        operands = self.resolve_operands(refs, ft.inputs, tstart)
        loc = self.parse_optional_trailing_loc() or self.loc_at(start)
        if cls is not UnregisteredOp:
            # Inherent attributes written in the attribute dictionary become properties.
            pnames = cls._prop_names
            if attrs and (pnames or cls.traits):
                # ... and so do the segment sizes of AttrSized*Segments ops, as upstream
                # (`{operandSegmentSizes = array<i32: 1, 1, 1, 0>}` on a generic scf.parallel).
                segs = _segment_names(cls)
                for k in [k for k in attrs if k in pnames or k in segs]:
                    if props is None:
                        props = {}
                    props.setdefault(k, attrs.pop(k))
            segs = _segment_names(cls)
            if segs and (props is None or not all(k in props for k in segs)):
                # Segment sizes live in the properties upstream: absent, they read as
                # zeros (and print so), which the verifier then holds to the counts.
                props = dict(props) if props else {}
                for k in segs:
                    if k not in props:
                        n = len(cls._operand_defs if k[0] == "o" else cls._result_defs)
                        props[k] = A.DenseArrayAttr(A.i32, [0] * n)
            if props:
                for k in props:
                    if k not in pnames and k not in ("operandSegmentSizes",
                                                     "resultSegmentSizes"):
                        self.error(f"'{name}' op does not have a property '{k}'", start)
                # Properties the printer always shows with their default value need
                # no storage when they hold it: absent means default for these.
                stored = getattr(cls, "_stored_defaults", None)
                if stored:
                    for k, default in stored:
                        if props.get(k) is default:
                            del props[k]
        return cls.create(operands, ft.results, props, attrs, succs, regions, loc, name)

    def _parse_custom_op(self) -> Operation:
        start = self.tok_start
        name = self.tok
        cls = self.ctx.ops.get(name)
        if cls is None:
            tried = ""
            dname, _, rest = name.partition(".")
            if rest:
                pass
            else:  # no dialect prefix (or nothing after the dot): try the default one
                dname = self.default_dialects[-1]
                cls = self.ctx.ops.get(f"{dname}.{name}")
                tried = f" (tried '{dname}.{name}' as well)"
            if cls is None:
                if self.ctx.get_dialect(dname) is None:
                    d = Diagnostic(ERROR, self.cur_loc().resolve(),
                                   f"Dialect `{dname}' not found for custom op '{name}' "
                                   + tried)
                    d.attach_note("Available dialects: " +
                                  ", ".join(sorted(self.ctx.dialects)))
                    raise DiagnosticError(d)
                self.error(f"custom op '{name}' is unknown{tried}")
        parse = getattr(cls, "parse", None)
        if parse is None:
            self.error(f"custom op '{name}' has no custom assembly form")
        self._next()
        state = OperationState(cls, cls.name, None)
        self.default_dialects.append(cls.default_dialect or "")
        # The op whose custom form is being parsed (asm_format.custom_op_prefix).
        outer_name = getattr(self, "custom_op_name", None)
        outer_offset = getattr(self, "custom_op_offset", None)
        self.custom_op_name = cls.name
        self.custom_op_offset = start  # upstream's getNameLoc()
        try:
            parse(self, state)
        finally:
            self.custom_op_name = outer_name
            self.custom_op_offset = outer_offset
            self.default_dialects.pop()
        loc = self.parse_optional_trailing_loc() or self.loc_at(start)
        op = cls.create(state.operands, state.types, state.properties, state.attributes,
                        state.successors, state.regions, loc)
        # Custom forms may leave out what upstream's parsers add back, e.g. the implicit
        # `scf.yield` of a SingleBlockImplicitTerminator region: the op class finishes it.
        finish = getattr(cls, "finish_parse", None)
        if finish is not None:
            finish(op)
        return op

    # ================================================================== regions, blocks

    def parse_region(self, args=None, isolated=False, op_cls=None) -> Region:
        """`{ ... }`. `args` are entry block arguments already parsed by a custom form,
        as (key, offset, type, loc) tuples."""
        if len(self.scopes) > MAX_REGION_NESTING:
            # Deeper IR would exhaust the recursion of the parser, verifier and printer.
            self.error(f"regions nested more than {MAX_REGION_NESTING} deep",
                       self.tok_start)
        self.expect("{", "to begin a region")
        region = Region()
        self._push_scope(isolated)
        # Only custom forms set a default dialect (in _parse_custom_op); a region of a
        # generic op keeps the enclosing one, as upstream. Errors in the region are not
        # the custom parser's own (no "custom op '...'" prefix).
        outer_custom = getattr(self, "custom_op_name", None)
        self.custom_op_name = None
        try:
            if self.kind == PUNCT and self.tok == "}":
                self._next()
                if args:
                    b = region.add_block(Block())
                    self._define_block_args(b, args)
            else:
                if self.kind == CARET:
                    if args:
                        self.error("invalid block name in region with named arguments")
                else:
                    entry = region.add_block(Block())
                    if args:
                        self._define_block_args(entry, args)
                    self._parse_block_body(entry)
                while self.kind == CARET:
                    self._parse_labeled_block(region)
                self.expect("}", "to end region")
        except BaseException:
            # The error on its way out is the first one; the scope's own checks (undefined
            # blocks, undeclared values) would only hide it.
            self.scopes.pop()
            raise
        finally:
            self.custom_op_name = outer_custom
        self._pop_scope()
        return region

    def _define_block_args(self, block, args):
        for key, offset, t, loc in args:
            prior = self._lookup(key)
            if prior is not None:
                d = Diagnostic(ERROR, self.loc_at(offset).resolve(),
                               f"region entry argument '{_key_str(key)}' is already in use")
                d.attach_note("previously referenced here", self._definition_loc(key, prior))
                raise DiagnosticError(d)
            a = block.add_argument(t, loc if loc is not None else self.loc_at(offset))
            self.define_value(key, a, offset)

    def _parse_block_body(self, block):
        fast = self.fast_paths
        while True:
            if fast and self.kind == PERCENT:
                self._parse_op_run(block)
            k = self.kind
            # Only a block label or '}' ends a block: at the end of the input the next
            # "operation" is missing (upstream's "expected operation name in quotes").
            if k == CARET or (k == PUNCT and self.tok == "}") or \
                    (k == EOF and len(self.scopes) <= 1):
                return
            block.append(self.parse_operation())

    def _get_block(self, name, offset, define):
        sc = self.scopes[-1]
        b = sc.blocks.get(name)
        if b is None:
            b = Block()
            sc.blocks[name] = b
            if not define:
                sc.block_forward[name] = (b, offset)
        elif define:
            if name not in sc.block_forward:
                self.error(f"redefinition of block '{name}'", offset)
        if define:
            sc.block_forward.pop(name, None)
        return b

    def _parse_labeled_block(self, region):
        name, offset = self.tok, self.tok_start
        self._next()
        block = self._get_block(name, offset, True)
        region.add_block(block)
        if self.consume_if("("):
            if not self.consume_if(")"):
                while True:
                    ref = self.parse_operand()
                    self.expect(":", "and type for SSA operand")
                    t = self.parse_type()
                    loc = self.parse_optional_trailing_loc()
                    key, off = ref
                    if isinstance(key, tuple):
                        self.error("invalid block argument name", off)
                    a = block.add_argument(t, loc if loc is not None else self.loc_at(off))
                    self.define_value(key, a, off)
                    if not self.consume_if(","):
                        break
                self.expect(")")
        self.expect(":", "after block name")
        self._parse_block_body(block)

    def parse_successor(self) -> Block:
        if self.kind != CARET:
            self.error("expected block name")
        name, offset = self.tok, self.tok_start
        self._next()
        return self._get_block(name, offset, False)

    def parse_successor_and_operands(self):
        """`^bb1(%a, %b : i32, f32)` -> (block, values)."""
        b = self.parse_successor()
        vals = []
        if self.consume_if("("):
            refs = self.parse_operand_list()
            self.expect(":")
            types = [self.parse_type()]
            while self.consume_if(","):
                types.append(self.parse_type())
            self.expect(")")
            vals = self.resolve_operands(refs, types)
        return b, vals

    # ================================================================== custom-form helpers

    def parse_colon_type(self):
        self.expect(":")
        return self.parse_type()

    def parse_colon_type_list(self):
        self.expect(":")
        return self.parse_type_list()

    def parse_type_list(self):
        ts = [self.parse_type()]
        while self.kind == PUNCT and self.tok == ",":
            self._next()
            ts.append(self.parse_type())
        return ts

    def parse_keyword(self, kw=None) -> str:
        if self.kind != BARE or (kw is not None and self.tok != kw):
            # As upstream's OpAsmParser: at the current token, prefixed in a custom form.
            self.error(self._custom_prefix() +
                       (f"expected '{kw}'" if kw else "expected valid keyword"),
                       self.tok_start)
        t = self.tok
        self._next()
        return t

    def _custom_prefix(self) -> str:
        """`custom op 'name' ` while a custom form is parsed (upstream's CustomOpAsmParser
        prefixes the errors it emits itself, not those of the underlying lexer/parser)."""
        name = getattr(self, "custom_op_name", None)
        return f"custom op '{name}' " if name else ""

    def parse_optional_keyword(self, kw) -> bool:
        if self.kind == BARE and self.tok == kw:
            self._next()
            return True
        return False

    def parse_optional_attr_dict(self, state, with_keyword=False):
        if with_keyword:
            if not self.parse_optional_keyword("attributes"):
                return
        elif not (self.kind == PUNCT and self.tok == "{"):
            return
        d = self.parse_attr_dict_body()
        pnames = getattr(state.cls, "_prop_names", ())
        for k, v in d.items():
            if k in pnames:
                state.properties[k] = v
            else:
                state.attributes[k] = v

    def parse_integer(self) -> int:
        start = self.tok_start
        neg = self.consume_if("-")
        if self.kind != INT:
            self.error(self._custom_prefix() + "expected integer value", start)
        v = int_literal(self.tok)
        self._next()
        return -v if neg else v

    def parse_block_arg_list(self, delim="("):
        """`(%a: i32, %b: f32 loc(...))` for entry block arguments of custom forms."""
        args = []
        close = ")" if delim == "(" else "]"
        self.expect(delim)
        if self.consume_if(close):
            return args
        while True:
            ref = self.parse_operand()
            self.expect(":")
            t = self.parse_type()
            loc = self.parse_optional_trailing_loc()
            args.append((ref[0], ref[1], t, loc))
            if not self.consume_if(","):
                break
        self.expect(close)
        return args


def _segment_names(cls):
    """The segment-size properties the op's AttrSized*Segments traits imply."""
    from ..ir.traits import AttrSizedOperandSegments, AttrSizedResultSegments
    names = cls.__dict__.get("_segment_prop_names")
    if names is None:
        names = frozenset(n for t, n in ((AttrSizedOperandSegments, "operandSegmentSizes"),
                                         (AttrSizedResultSegments, "resultSegmentSizes"))
                          if t in cls.traits)
        cls._segment_prop_names = names
    return names


def _shared_props(cls, parsed):
    """The properties an op of `cls` stores for the parsed dictionary `parsed`, as one
    read-only mapping that ops parsed from the same text share (Operation.properties
    copies it on first write); None when the general path must handle it."""
    if parsed is None:
        return None
    pnames = cls._prop_names
    kept = {}
    for k, v in parsed.items():
        if k not in pnames:
            return None
        kept[k] = v
    for k, default in getattr(cls, "_stored_defaults", None) or ():
        if kept.get(k) is default:
            del kept[k]
    return MappingProxyType(kept) if kept else EMPTY_DICT


def _terminator(cls):
    from ..ir.traits import Terminator
    return Terminator in cls.traits


def _isolated(cls):
    from ..ir.traits import IsolatedFromAbove
    return IsolatedFromAbove in cls.traits


def _ssa_key(name: str):
    """The scope key of an SSA name: numeric names ("%12", the usual case) become ints,
    which take half the memory of the strings in the parser's name tables."""
    c = name[1:]
    if c.isdigit() and (c[0] != "0" or len(c) == 1):
        return int(c)
    return name


def _use_name(key):
    """The `%name` of a use, as upstream words it (without its `#N`)."""
    return _key_str(key).split("#")[0]


def _def_name(key):
    """`%name#N` of a definition (`#0` for the first or only result)."""
    s = _key_str(key)
    return s if "#" in s else s + "#0"


def _key_str(key):
    if isinstance(key, int):
        return f"%{key}"
    if isinstance(key, str):
        return key
    name, idx = key
    return f"{name}#{idx}"


def _value_loc(v):
    if isinstance(v, BlockArgument):
        return v.loc
    owner = getattr(v, "owner", None)
    return owner.loc if owner is not None else None


def parse_source(text: str, ctx, filename: str = "<stdin>", line_offset: int = 0,
                 verify: bool = True, col_offset: int = 0) -> Operation:
    """Parse a whole buffer to its top-level op and verify it. A --split-input-file
    chunk gives where it starts in its file (`line_offset` lines, then `col_offset`
    columns) so that locations are those of the file.

    Raises DiagnosticError with a located diagnostic on malformed or invalid input."""
    if sys.getrecursionlimit() < DEEP_RECURSION:
        # Nested regions recurse through the parser, verifier and printer.
        sys.setrecursionlimit(DEEP_RECURSION)
    with gc_paused():
        p = Parser(text, ctx, filename, line_offset, col_offset)
        op = p.parse_top_level()
        if verify:
            op.verify()
    return op


parse_module = parse_source
