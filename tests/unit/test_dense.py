"""Dense elements attributes: parsing, printing, NumPy views, resources.

The `*_matches_iree_opt` tests use upstream MLIR (`iree-opt`, from the pip package
iree-base-compiler) as the oracle and are skipped when it is not installed.
"""
import random
import re
import shutil
import struct
import subprocess

import numpy as np
import pytest

from strata.ir.attributes import (
    ComplexType, FloatType, IndexType, IntegerType, OpaqueType, RankedTensorType, VectorType,
)
from strata.ir.dense import (
    DenseElementsAttr, DenseParseError, DenseResourceElementsAttr, DenseStringElementsAttr,
    BLOBS, ResourceBlobs, attach_resources, decode_blob, dense_from_numpy, encode_blob,
    format_float_bits, print_resource_section,
    parse_dense_body, parse_dense_literal, print_dense, print_elided, to_numpy,
)

IREE_OPT = shutil.which("iree-opt")
needs_iree = pytest.mark.skipif(IREE_OPT is None, reason="iree-opt not on PATH (pip install "
                                "iree-base-compiler) - upstream MLIR oracle unavailable")


# A tiny type parser: the real one lives in strata.syntax, written separately.
def elt(s):
    if s == "index":
        return IndexType()
    if s.startswith("complex<"):
        return ComplexType(elt(s[8:-1]))
    if s.startswith("!"):
        d, _, rest = s[1:].partition(".")
        return OpaqueType(d, "." + rest)
    m = re.fullmatch(r"(si|ui|i)(\d+)", s)
    if m:
        return IntegerType(int(m[2]), {"i": 0, "si": 1, "ui": 2}[m[1]])
    return FloatType(s)


def ty(s):
    m = re.fullmatch(r"(tensor|vector)<((?:\d+x)*)(.+)>", s)
    shape = tuple(int(d) for d in m[2].split("x")[:-1])
    cls = RankedTensorType if m[1] == "tensor" else VectorType
    return cls(shape, elt(m[3]))


def parse(attr_text):
    """`dense<body> : type` -> attribute."""
    body, t = re.fullmatch(r"dense<(.*)> : (\S+)", attr_text, re.S).groups()
    return parse_dense_body(body, ty(t))


def roundtrip(attr_text):
    return str(parse(attr_text))


# ----------------------------------------------------------------- printing / parsing


@pytest.mark.parametrize("text, expected", [
    ("dense<1> : tensor<4xi32>", None),
    ("dense<[1, 1, 1]> : tensor<3xi32>", "dense<1> : tensor<3xi32>"),
    ("dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>", None),
    ("dense<[[[1], [2]]]> : tensor<1x2x1xi8>", None),
    ("dense<255> : tensor<2xi8>", "dense<-1> : tensor<2xi8>"),
    ("dense<255> : tensor<2xui8>", None),
    ("dense<-0x10> : tensor<2xi32>", "dense<-16> : tensor<2xi32>"),
    ("dense<[true, false]> : tensor<2xi1>", None),
    ("dense<-1> : tensor<2xi1>", "dense<true> : tensor<2xi1>"),
    ("dense<[1, 2]> : vector<2xindex>", None),
    ("dense<[1.5, -2.0]> : tensor<2xf32>", "dense<[1.500000e+00, -2.000000e+00]> : tensor<2xf32>"),
    ("dense<0x7FC00000> : tensor<2xf32>", None),
    ("dense<1.e5> : tensor<f64>", "dense<1.000000e+05> : tensor<f64>"),
    ("dense<(1.0, 2.0)> : tensor<2xcomplex<f32>>",
     "dense<(1.000000e+00,2.000000e+00)> : tensor<2xcomplex<f32>>"),
    ("dense<[(1, 2), (3, 4)]> : tensor<2xcomplex<i32>>", "dense<[(1,2), (3,4)]> : tensor<2xcomplex<i32>>"),
    ('dense<"0x0000803F0000803F"> : tensor<2xf32>', "dense<1.000000e+00> : tensor<2xf32>"),
    ('dense<"0x0100"> : tensor<2xi1>', "dense<[true, false]> : tensor<2xi1>"),
    ("dense<[]> : tensor<0xi32>", "dense<> : tensor<0xi32>"),
    ("dense<> : tensor<0xi32>", None),
    ("dense<[[], []]> : tensor<2x0xi32>", "dense<> : tensor<2x0xi32>"),
    ("dense<7> : tensor<0xi32>", None),  # a splat of no elements keeps its value
    ('dense<"abc"> : tensor<!foo.string>', None),
    ('dense<["a", "a"]> : tensor<2x!foo.string>', 'dense<"a"> : tensor<2x!foo.string>'),
    ('dense<["a\\00b", "\\22q\\\\"]> : tensor<2x!foo.s>', None),
])
def test_roundtrip(text, expected):
    assert roundtrip(text) == (expected or text)


def test_uniqued_and_splat_compaction():
    a = parse("dense<[2, 2]> : tensor<2xi32>")
    assert a is parse("dense<2> : tensor<2xi32>") is DenseElementsAttr(ty("tensor<2xi32>"), [2, 2])
    assert a.is_splat and a.splat_value == 2 and a.raw == b"\x02\0\0\0"
    b = parse("dense<[1, 2]> : tensor<2xi32>")
    assert b is not a and not b.is_splat
    with pytest.raises(ValueError):
        b.splat_value


def test_hex_printing_threshold():
    t = ty("tensor<101xi8>")
    big = DenseElementsAttr(t, np.arange(101, dtype=np.int8))
    assert str(big) == 'dense<"0x' + bytes(range(101)).hex().upper() + '"> : tensor<101xi8>'
    assert print_dense(big, hex_limit=-1).startswith("dense<[0, 1, 2,")
    small = parse("dense<[1, 2]> : tensor<2xi8>")
    assert print_dense(small, hex_limit=1) == 'dense<"0x0102"> : tensor<2xi8>'
    assert print_dense(small, hex_limit=2) == "dense<[1, 2]> : tensor<2xi8>"
    splat = DenseElementsAttr(t, 3)
    assert print_dense(splat, hex_limit=0) == "dense<3> : tensor<101xi8>"  # splats never hex
    s = parse('dense<["a", "b"]> : tensor<2x!foo.s>')
    assert print_dense(s, hex_limit=0) == 'dense<["a", "b"]> : tensor<2x!foo.s>'


def test_elided():
    a = parse("dense<[0, 1, 2, 3]> : tensor<4xi8>")
    assert print_elided(a, 3) == "dense_resource<__elided__> : tensor<4xi8>"
    assert print_elided(a, 4) == "dense<[0, 1, 2, 3]> : tensor<4xi8>"
    assert print_elided(parse("dense<1> : tensor<4xi8>"), 0) == "dense<1> : tensor<4xi8>"
    assert print_elided(parse('dense<["a", "b"]> : tensor<2x!f.s>'), 1).startswith("dense_resource")


def test_hex_raw_data_kept_as_written():
    # MLIR keeps the bytes of a hex literal (no canonicalization); so do we.
    a = parse('dense<"0xFF00"> : tensor<2xi1>')
    assert a.array.tolist() == [True, False]
    assert print_dense(a, 0) == 'dense<"0xFF00"> : tensor<2xi1>'
    b = parse('dense<"0xFFFF0000"> : tensor<2xi12>')
    assert b.array.tolist() == [-1, 0] and print_dense(b, 0).endswith('"0xFFFF0000"> : tensor<2xi12>')
    assert parse('dense<"0x01"> : tensor<0xi8>').is_splat


@pytest.mark.parametrize("t, values, hexdata", [
    ("tensor<3xi12>", [1, 2, 3], "010002000300"),
    ("tensor<3xi33>", [1, 2, 3], "010000000002000000000300000000"),
    ("tensor<2xi128>", [-1, 2], "FF" * 16 + "02" + "00" * 15),
    ("tensor<3xi1>", [True, False, True], "010001"),
    ("tensor<2xcomplex<i8>>", [[1, 2], [3, 4]], "01020304"),
    ("tensor<2xf6E2M3FN>", [0x08, 0x3F], "083F"),
    ("tensor<2xtf32>", [0x1FC00, 0x1EE66], "00FC0166EE01"),
])
def test_raw_layout(t, values, hexdata):
    a = DenseElementsAttr(ty(t), values)
    assert a.raw.hex().upper() == hexdata
    assert a is parse(f'dense<"0x{hexdata}"> : {t}')
    assert a.array.tolist() == values


def test_numpy_views_are_readonly_and_typed():
    a = parse("dense<[[1, 2], [3, 4]]> : tensor<2x2xi16>")
    assert a.array.dtype == np.int16 and a.array.shape == (2, 2)
    with pytest.raises(ValueError):
        a.array[0, 0] = 5
    s = parse("dense<1.5> : tensor<2x3xf32>")
    assert s.array.shape == (2, 3) and s.array.dtype == np.float32 and not s.array.flags.writeable
    assert list(s.values) == [1.5] * 6
    c = parse("dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<f64>>")
    assert c.array.dtype == np.complex128 and list(c.values) == [1 + 2j, 3 + 4j]
    u = parse("dense<[1, 2]> : tensor<2xui64>")
    assert u.array.dtype == np.uint64
    b = parse("dense<[1.0, 2.5]> : tensor<2xbf16>")
    assert b.array.dtype == np.uint16 and b.array.tolist() == [0x3F80, 0x4020]  # bit patterns
    assert list(b.values) == [1.0, 2.5]


def test_dense_from_numpy_and_back():
    for a in [np.arange(6, dtype=np.int32).reshape(2, 3), np.array([True, False]),
              np.linspace(0, 1, 5, dtype=np.float16), np.array([1 + 2j, 3j], np.complex64),
              np.zeros((0, 3), np.float64)]:
        attr = dense_from_numpy(a)
        assert attr.type.shape == a.shape
        np.testing.assert_array_equal(to_numpy(attr), a)
        assert to_numpy(attr).dtype == a.dtype
    # Unsigned NumPy ints become signless MLIR ints, which read back as signed.
    assert to_numpy(dense_from_numpy(np.array([2 ** 64 - 1], np.uint64))).tolist() == [-1]
    assert str(dense_from_numpy(np.array([1, 2], np.uint8))) == "dense<[1, 2]> : tensor<2xi8>"
    assert str(dense_from_numpy(np.array([1, 2], np.uint8), signless=False)).endswith("xui8>")
    assert str(dense_from_numpy(np.array([0.5, 1.0]), ty("tensor<2xbf16>"))) == \
        "dense<[5.000000e-01, 1.000000e+00]> : tensor<2xbf16>"
    with pytest.raises(ValueError):
        DenseElementsAttr(ty("tensor<2xi8>"), [1, 300])
    with pytest.raises(ValueError):
        DenseElementsAttr(ty("tensor<3xi8>"), [1, 2])


def test_string_elements():
    t = ty("tensor<2x2x!foo.s>")
    a = DenseElementsAttr(t, [["a", "b"], ["c", b"\xff"]])
    assert isinstance(a, DenseStringElementsAttr)
    assert str(a) == 'dense<[["a", "b"], ["c", "\\FF"]]> : tensor<2x2x!foo.s>'
    assert list(a.values) == [b"a", b"b", b"c", b"\xff"] and a.array.shape == (2, 2)
    assert a is parse(str(a))
    assert parse('dense<"0x0102"> : tensor<2x!foo.s>').splat_value == b"0x0102"


@pytest.mark.parametrize("text, message, offset", [
    ("dense<[1, 2]> : tensor<3xi32>", "inferred shape of elements literal ([2]) does not match type ([3])", None),
    ("dense<> : tensor<2xi32>", "parsed zero elements, but type ('tensor<2xi32>') expected at least 1", None),
    ("dense<256> : tensor<2xi8>", "integer constant out of range for type", 0),
    ("dense<[1, -129]> : tensor<2xi8>", "integer constant out of range for type", 5),
    ("dense<-0> : tensor<i32>", "integer constant out of range for type", 1),
    ("dense<-1> : tensor<2xui8>", "expected unsigned integer elements, but parsed negative value", 1),
    ("dense<1> : tensor<2xf32>", "unexpected decimal integer literal for a floating point value", 0),
    ("dense<[[1, 2], [3]]> : tensor<2x2xi32>", "tensor literal is invalid; ranks are not consistent between elements", 12),
    ("dense<[1 2]> : tensor<2xi32>", "expected ']'", 2),  # just after the previous token
    ("dense<[1 // c\n 2]> : tensor<2xi32>", "expected ']'", 2),
    ("dense<[1, \n\t2 $]> : tensor<2xi32>", "unexpected character", 8),
    ("dense<1e5> : tensor<2xf32>", "expected '>'", 1),
    ("dense<.5> : tensor<2xf32>", "expected three consecutive dots for an ellipsis", 1),
    ('dense<"0xabc"> : tensor<2xi32>', "expected string containing hex digits starting with `0x`", 0),
    ('dense<"0x010203"> : tensor<2xi8>', "elements hex data size is invalid for provided type: 'tensor<2xi8>'", None),
    ("dense<1> : tensor<2xcomplex<i32>>", "parsed 1 elements, but type ('complex<i32>') expected 2 elements", None),
    ("dense<[1, 2]> : tensor<2x!foo.s>", "expected string token, got 1", None),
])
def test_errors(text, message, offset):
    with pytest.raises(DenseParseError) as e:
        parse(text)
    assert (e.value.message, e.value.offset) == (message, offset)


def test_parse_literal_then_type():
    # The syntax parser reads the literal, then the type after `>`.
    text = 'x = dense<[1, 2]> : tensor<2xi8>'
    lit, end = parse_dense_literal(text, text.index("<") + 1)
    assert text[end:] == " : tensor<2xi8>"
    assert str(lit.build(ty("tensor<2xi8>"))) == "dense<[1, 2]> : tensor<2xi8>"
    with pytest.raises(DenseParseError) as e:
        parse_dense_literal(text, 10)[0].build(ty("tensor<2xf32>"))
    assert e.value.offset == 11 and e.value.note == "add a trailing dot to make the literal a float"


# ----------------------------------------------------------------- resources


def test_lent_blobs_kept_in_place_and_owned_on_request():
    """A read-only memoryview blob is kept as it is (no copy) and may be lent ([Note:
    lent blobs]): `own_lent_blobs` gives the blobs a module reads copies of their own;
    `add` knows a name holds the same bytes when they are in another buffer."""
    from strata.dialects import default_context
    from strata.ir.dense import own_lent_blobs
    from strata.syntax.parser import parse_source
    blobs = ResourceBlobs()
    owner = np.arange(6, dtype=np.float32)
    view = owner.view(np.uint8)
    view.flags.writeable = False
    blobs.set("w", memoryview(view), alignment=4, lent=True)
    assert blobs.lent("w") and np.frombuffer(blobs["w"], np.float32).ctypes.data == \
        owner.ctypes.data
    m = parse_source("ml_program.global private @w(dense_resource<w> : tensor<6xf32>) "
                     ": tensor<6xf32>", default_context())
    assert own_lent_blobs(m, blobs) == 1 and not blobs.lent("w")
    owner[0] = 9       # the owner writes its memory: the blob keeps the old bytes
    assert np.frombuffer(blobs["w"], np.float32).tolist() == list(range(6))
    assert own_lent_blobs(m, blobs) == 0
    assert blobs.add("w", memoryview(np.arange(6, dtype=np.float32).view(np.uint8)),
                     alignment=4) == "w"
    assert blobs.add("w", np.ones(6, np.float32).tobytes(), alignment=4) == "w_1"


def test_blobs_and_dense_resource():
    blobs = ResourceBlobs()
    data = np.array([1, 2, 3], np.int32).tobytes()
    assert blobs.add("blob1", data, alignment=4) == "blob1"
    assert blobs.add("blob1", b"\0" * 12, alignment=4) == "blob1_1"  # name taken
    assert encode_blob(data, 4) == "0x04000000010000000200000003000000"
    assert decode_blob('"0x080000000000803F"') == (8, struct.pack("<f", 1.0))
    with pytest.raises(ValueError):
        decode_blob("0x0300000000")  # alignment not a power of two
    with pytest.raises(ValueError):
        decode_blob("0x0000000000")  # data needs an alignment
    # an empty blob (a tensor with a 0 dim) is upstream's empty blob, alignment 0
    assert decode_blob("0x04000000") == decode_blob("0x00000000") == (0, b"")
    assert ResourceBlobs({"e": "0x04000000"}).entries() == {"e": "0x00000000"}
    a = DenseResourceElementsAttr(ty("tensor<3xi32>"), "blob1")
    assert str(a) == "dense_resource<blob1> : tensor<3xi32>"
    assert to_numpy(a, blobs).tolist() == [1, 2, 3]
    assert str(DenseResourceElementsAttr(ty("tensor<2xf32>"), "weird name")) == \
        'dense_resource<"weird name"> : tensor<2xf32>'
    assert ResourceBlobs(blobs.entries()).entries() == blobs.entries()
    blobs2 = ResourceBlobs({"blob1": encode_blob(data, 4)})
    blobs2.add("weird name", struct.pack("<2f", 1.0, 2.0), alignment=8)
    assert blobs2.print_section() == """{-#
  dialect_resources: {
    builtin: {
      blob1: "0x04000000010000000200000003000000",
      "weird name": "0x080000000000803F00000040"
    }
  }
#-}"""


def test_parser_and_printer_hooks():
    # What strata.syntax does with a module's {-# dialect_resources #-} section.
    attach_resources(None, {("builtin", "test_dense_b"): ("0x0200000001000200", 7),
                            ("other", "x"): ("0x01000000", 9)})
    a = DenseResourceElementsAttr(ty("tensor<2xi16>"), "test_dense_b")
    assert a.resource_key == ("builtin", "test_dense_b") and "test_dense_b" in BLOBS
    assert a.array().tolist() == [1, 2] and BLOBS.alignment("test_dense_b") == 2
    assert print_resource_section({a.resource_key: a, ("builtin", "missing"): None}) == (
        '\n{-#\n  dialect_resources: {\n    builtin: {\n      test_dense_b: "0x0200000001000200"'
        '\n    }\n  }\n#-}\n')
    assert print_resource_section({}) == ""
    with pytest.raises(DenseParseError) as e:
        attach_resources(None, {("builtin", "bad"): ("0x01", 42)})
    assert e.value.offset == 42


# ----------------------------------------------------------------- upstream oracle


def iree_print(attrs, *flags):
    """Print each attribute text through iree-opt; returns the printed attributes."""
    src = "".join(f'"test.op"() {{v = {a}}} : () -> ()\n' for a in attrs)
    out = subprocess.run([IREE_OPT, "--allow-unregistered-dialect", "--mlir-print-local-scope",
                          *flags, "-"], input=src, capture_output=True, text=True, check=True).stdout
    return re.findall(r'"test.op"\(\) \{v = (.*)\} : \(\) -> \(\)', out)


ORACLE_CASES = [
    "dense<1> : tensor<4xi32>", "dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>",
    "dense<[[[1, -2]], [[3, 4]]]> : tensor<2x1x2xi64>", "dense<[1, 2, 3]> : vector<3xi8>",
    "dense<0x7F> : tensor<2xi8>", "dense<255> : tensor<2xi8>", "dense<-128> : tensor<i8>",
    "dense<[0, 65535]> : tensor<2xui16>", "dense<[-5, 5]> : tensor<2xsi16>",
    "dense<[true, false, true]> : tensor<3xi1>", "dense<false> : tensor<2x2xi1>",
    "dense<[1, 7]> : tensor<2xi3>", "dense<[-1, 4095]> : tensor<2xi12>",
    "dense<[4294967296, -1]> : tensor<2xi33>", "dense<[170141183460469231731687303715884105727, -1]> : tensor<2xi128>",
    "dense<[9223372036854775807, -9223372036854775808]> : tensor<2xindex>",
    "dense<18446744073709551615> : tensor<2xui64>",
    "dense<[1.5, -2.25, 0.1, 3.14159265358979]> : tensor<4xf32>",
    "dense<[1.5, -2.25, 0.1, 3.14159265358979]> : tensor<4xf64>",
    "dense<[1.5, -2.25, 0.1, 3.14159265358979]> : tensor<4xf16>",
    "dense<[1.5, -2.25, 0.1, 3.14159265358979]> : tensor<4xbf16>",
    "dense<[1.0e-7, 1.0e-5, 1.0e16, 123456789.0, 0.000123, 65519.0]> : tensor<6xf32>",
    "dense<[1.0e-7, 1.0e-5, 1.0e16, 123456789.0, 0.000123, 1.0e400]> : tensor<6xf64>",
    "dense<[1.0e-8, 6.0e-8, 65520.0, 65504.0]> : tensor<4xf16>",
    "dense<[0x7FC00000, 0xFF800000, 0x80000000, 0x00000001]> : tensor<4xf32>",
    "dense<[0x7FC0, 0xFF80, 0x8000, 0x0001]> : tensor<4xbf16>",
    "dense<-0.0> : tensor<3xf32>", "dense<[1.00000005960464477539062500000000001, 1.0]> : tensor<2xf32>",
    "dense<[470.0, 1000.0, 464.0, 0.1, -1000.0, 0x7F]> : tensor<6xf8E4M3FN>",
    "dense<[1.0e10, 0.1, 0.3, 100.0, 0x7F]> : tensor<5xf8E5M2>",
    "dense<[1000.0, -0.0, 0x80, 0.03]> : tensor<4xf8E4M3FNUZ>",
    "dense<[1.0e10, 1.0e-10, 0.0, 3.0, 0xFF]> : tensor<5xf8E8M0FNU>",
    "dense<[1.0e10, 0.1, -0.0, 7.0, 0xF]> : tensor<5xf4E2M1FN>",
    "dense<[1.0, 0x3F, 0.3]> : tensor<3xf6E2M3FN>", "dense<[1.0, 0x7FFFF, 0.1]> : tensor<3xtf32>",
    "dense<[1.0, 0.1, 1.0e-7]> : tensor<3xf80>", "dense<[1.0, 0.1, 1.0e-7]> : tensor<3xf128>",
    "dense<(1.0, -2.5)> : tensor<2xcomplex<f32>>", "dense<[(1, 2), (3, -4)]> : tensor<2xcomplex<i16>>",
    "dense<[[(1.0, 2.0)], [(0x7FC00000, 4.0)]]> : tensor<2x1xcomplex<f32>>",
    "dense<(1, 255)> : tensor<complex<i8>>", "dense<(1.0, 2.0)> : tensor<complex<f64>>",
    'dense<"0x0000803F"> : tensor<1xf32>', 'dense<"0x0102"> : tensor<2xi8>',
    'dense<"0x01000000"> : tensor<200xi32>', 'dense<"0xFF0FFF0F"> : tensor<2xi12>',
    'dense<"0x0807"> : tensor<2xi4>', "dense<[]> : tensor<0xf32>", "dense<> : tensor<2x0xi1>",
    "dense<[[]]> : tensor<1x0xi32>", "dense<1> : tensor<0xi32>",
    'dense<"abc"> : tensor<!foo.string>', 'dense<["a", "b"]> : tensor<2x!foo.string>',
    'dense<["\\00\\0a\\n\\t\\7f\\80", "\\"q\\\\"]> : tensor<2x!foo.s>',
    "dense<[1, 2]> : vector<1x2xi32>".replace("[1, 2]", "[[1, 2]]"),
    "dense<[" + ", ".join(str(i % 7) for i in range(120)) + "]> : tensor<120xi8>",
    "dense<[" + ", ".join(f"{i}.5" for i in range(101)) + "]> : tensor<101xf16>",
    "dense<[" + ", ".join("true" if i % 3 else "false" for i in range(101)) + "]> : tensor<101xi1>",
    "dense<[" + ", ".join(f"({i}, {-i})" for i in range(60)) + "]> : tensor<60xcomplex<i8>>",
]


@needs_iree
@pytest.mark.parametrize("flags, printer", [
    ((), str),
    (("--mlir-print-elementsattrs-with-hex-if-larger=2",), lambda a: print_dense(a, 2)),
    (("--mlir-print-elementsattrs-with-hex-if-larger=-1",), lambda a: print_dense(a, -1)),
    (("--mlir-elide-elementsattrs-if-larger=3",), lambda a: print_elided(a, 3)),
])
def test_printing_matches_iree_opt(flags, printer):
    expected = iree_print(ORACLE_CASES, *flags)
    assert len(expected) == len(ORACLE_CASES)
    for text, exp in zip(ORACLE_CASES, expected):
        assert printer(parse(text)) == exp, text
        if not exp.startswith("dense_resource"):
            assert parse(exp) is parse(text), text  # what MLIR prints parses back the same


@needs_iree
def test_float_formatting_matches_iree_opt():
    # Random bit patterns of each float kind, written as hex, printed by MLIR in decimal.
    rng = random.Random(1234)
    kinds = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64, "tf32": 19, "f8E5M2": 8,
             "f8E4M3": 8, "f8E3M4": 8, "f8E4M3FN": 8, "f8E5M2FNUZ": 8, "f8E4M3FNUZ": 8,
             "f8E4M3B11FNUZ": 8, "f8E8M0FNU": 8, "f6E2M3FN": 6, "f6E3M2FN": 6, "f4E2M1FN": 4,
             "f80": 80, "f128": 128}
    cases = []
    for name, w in kinds.items():
        pats = list(range(1 << w)) if w <= 8 else [rng.getrandbits(w) for _ in range(300)]
        if name == "f80":  # keep x87's explicit integer bit consistent with the exponent
            pats = [p | 1 << 63 if p >> 64 & 0x7FFF else p & ~(1 << 63) for p in pats]
        if name in ("f32", "f64"):  # values with short decimal forms hit other branches
            pats += [struct.unpack("<Q" if w == 64 else "<I", struct.pack(
                "<d" if w == 64 else "<f", rng.choice([1, -1]) * rng.randint(1, 10 ** 9) /
                10 ** rng.randint(0, 12)))[0] for _ in range(200)]
        cases.append((name, pats))
    texts = [f"dense<[{', '.join(hex(p) for p in pats)}]> : tensor<{len(pats)}x{name}>"
             for name, pats in cases]
    for (name, pats), out in zip(cases, iree_print(texts, "--mlir-print-elementsattrs-with-hex-if-larger=-1")):
        got = [format_float_bits(p, name) for p in pats]
        exp = re.fullmatch(r"dense<\[(.*)\]> : .*", out)[1].split(", ")
        assert got == exp, name


@needs_iree
def test_decimal_parsing_matches_iree_opt():
    rng = random.Random(99)
    lits = [f"{rng.choice(['', '-'])}{rng.randint(0, 99999)}.{rng.randint(0, 10 ** 9)}"
            f"e{rng.randint(-50, 40)}" for _ in range(200)]
    texts = [f"dense<[{', '.join(lits)}]> : tensor<200x{n}>"
             for n in ("f16", "bf16", "f32", "f64", "f8E4M3FN", "f8E5M2FNUZ", "tf32", "f80", "f128")]
    for text, exp in zip(texts, iree_print(texts, "--mlir-print-elementsattrs-with-hex-if-larger=-1")):
        assert print_dense(parse(text), -1) == exp


ERROR_CASES = [
    "dense<256> : tensor<2xi8>", "dense<[1, 2]> : tensor<3xi32>", "dense<> : tensor<2xi32>",
    "dense<[[1, 2], [3, 4]]> : tensor<4xi32>", "dense<[[1, 2], [3]]> : tensor<2x2xi32>",
    "dense<[[1, 2], 3]> : tensor<2x2xi32>", "dense<[1, [2]]> : tensor<2x2xi32>",
    "dense<1.5> : tensor<2xi32>", "dense<true> : tensor<2xi32>", "dense<true> : tensor<2xf32>",
    "dense<1> : tensor<2xf32>", "dense<-0x1> : tensor<2xf32>", "dense<0x1FFFFFFFF> : tensor<2xf32>",
    "dense<0x1FF> : tensor<2xi8>", "dense<-0> : tensor<2xi32>", "dense<1> : tensor<2xsi1>",
    "dense<128> : tensor<2xsi8>", "dense<-1> : tensor<2xui8>", "dense<[1, -256]> : tensor<2xi8>",
    "dense<9223372036854775808> : tensor<2xindex>", "dense<1e5> : tensor<2xf32>",
    "dense<.5> : tensor<2xf32>", "dense<[(1, 2)]> : tensor<2xcomplex<i32>>",
    "dense<[1, 2]> : tensor<2xcomplex<i32>>", "dense<1> : tensor<2xcomplex<i32>>",
    "dense<(1, 2, 3)> : tensor<2xcomplex<i32>>", "dense<[[1, 2]> : tensor<2xi32>",
    "dense<[1 2]> : tensor<2xi32>", "dense<[1, ]> : tensor<2xi32>", "dense<-x> : tensor<2xi32>",
    "dense<foo> : tensor<2xi32>", "dense<[]> : tensor<2xi32>", 'dense<"0xabc"> : tensor<2xi32>',
    'dense<"0x010203"> : tensor<2xi8>', 'dense<"abc"> : tensor<2xi8>', 'dense<"0x"> : tensor<2xi32>',
    'dense<"0x0100"> : tensor<16xi1>', "dense<[1, 2]> : tensor<2x!foo.s>",
    'dense<["a"]> : tensor<1xi32>', "dense<[-1.0]> : tensor<1xf8E8M0FNU>",
    "dense<[0x40]> : tensor<1xf6E2M3FN>", "dense<(1, 2)> : tensor<complex<f64>>",
]


@needs_iree
def test_errors_match_iree_opt():
    src = "\n// -----\n".join(f'"test.op"() {{v = {a}}} : () -> ()' for a in ERROR_CASES) + "\n"
    res = subprocess.run([IREE_OPT, "--allow-unregistered-dialect", "--split-input-file", "-"],
                         input=src, capture_output=True, text=True)
    errors = {int(m[1]): (int(m[2]), m[3]) for m in
              re.finditer(r"^<stdin>:(\d+):(\d+): error: (.*)$", res.stderr, re.M)}
    assert len(errors) == len(ERROR_CASES)
    prefix = len('"test.op"() {v = ')
    for i, text in enumerate(ERROR_CASES):
        col, message = errors[1 + 2 * i]
        with pytest.raises(DenseParseError) as e:
            parse(text)
        offset = e.value.offset
        assert e.value.message == message, text
        # None: MLIR points at the `dense` keyword; else at the token in the body.
        assert (prefix + 1 if offset is None else prefix + len("dense<") + 1 + offset) == col, text


@needs_iree
def test_resource_section_matches_iree_opt():
    blobs = ResourceBlobs()
    blobs.add("blob1", np.array([1, 2, 3], np.int32).tobytes(), alignment=4)
    blobs.add("weird name", np.array([1.0, 2.0], np.float32).tobytes(), alignment=8)
    a = DenseResourceElementsAttr(ty("tensor<3xi32>"), "blob1")
    b = DenseResourceElementsAttr(ty("tensor<2xf32>"), "weird name")
    src = f'"test.op"() {{v = {a}, w = {b}}} : () -> ()\n\n{blobs.print_section()}\n'
    out = subprocess.run([IREE_OPT, "--allow-unregistered-dialect", "-"], input=src,
                         capture_output=True, text=True, check=True).stdout
    assert f"{{v = {a}, w = {b}}}" in out
    assert out.endswith("\n\n" + blobs.print_section() + "\n\n")


def test_blobs_live_as_long_as_their_attributes():
    """[Note: blob lifetimes]: a parsed module's blob stays while its IR names it (and
    prints back), and goes with the last dense_resource attribute naming it; the
    printed text parses back with the same data."""
    import gc

    from strata.dialects import default_context
    from strata.syntax.parser import parse_source
    from strata.syntax.printer import print_op
    text = ('func.func @f() -> tensor<3xf32> {\n'
            '  %0 = arith.constant dense_resource<test_life> : tensor<3xf32>\n'
            '  return %0 : tensor<3xf32>\n}\n'
            '{-#\n  dialect_resources: {\n    builtin: {\n'
            '      test_life: "0x040000000000803F0000004000004040"\n    }\n  }\n#-}\n')
    m = parse_source(text, default_context(), "life.mlir")
    assert "test_life" in BLOBS
    printed = print_op(m)
    assert "test_life: \"0x040000000000803F0000004000004040\"" in printed
    del m
    gc.collect()
    assert "test_life" not in BLOBS
    m = parse_source(printed, default_context(), "life.mlir")
    a = next(o for o in m.walk() if o.name == "arith.constant").properties["value"]
    assert a.array().tolist() == [1.0, 2.0, 3.0]
    # two types over one blob: it stays until both are gone
    b = DenseResourceElementsAttr(ty("tensor<3xi32>"), "test_life")
    del m, a
    gc.collect()
    assert "test_life" in BLOBS and b.array().view(np.float32).tolist() == [1.0, 2.0, 3.0]
    del b
    gc.collect()
    assert "test_life" not in BLOBS
