"""arith-expand's small-float conversions (strata/transforms/arith) against ml_dtypes,
through the interpreter: f32 -> format -> bit pattern, and format -> f32."""
import numpy as np
import pytest

from strata.dialects import default_context
from strata.interpreter.core import Interpreter
from strata.passes.pipeline import parse_pipeline
from strata.syntax.parser import parse_source

ml_dtypes = pytest.importorskip("ml_dtypes")

_DT = {"f8E4M3FN": "float8_e4m3fn", "f8E5M2": "float8_e5m2",
       "f8E4M3FNUZ": "float8_e4m3fnuz", "f8E5M2FNUZ": "float8_e5m2fnuz",
       "f8E8M0FNU": "float8_e8m0fnu", "f4E2M1FN": "float4_e2m1fn", "bf16": "bfloat16",
       "f8E4M3": "float8_e4m3", "f8E3M4": "float8_e3m4"}
_IN = np.array([0.0, -0.0, 1.0, -1.0, 0.75, 3.0, 1e6, -1e6, np.inf, -np.inf, np.nan,
                448.0, 460.0, 470.0, 1e-30, 0.3, -2.5, 6.5, 0.001, 0.015625, 57344.0,
                61440.0, 2.0 ** -9, 2.0 ** -10, 3 * 2.0 ** -11, 1.5, 5.0, 7.0],
               np.float32)


def _run(name, pipeline="arith-expand"):
    text = f"""
    func.func @trunc(%x: f32) -> i{8 if name != 'bf16' else 16} {{
      %a = arith.truncf %x : f32 to {name}
      %b = arith.bitcast %a : {name} to i{8 if name != 'bf16' else 16}
      return %b : i{8 if name != 'bf16' else 16}
    }}
    func.func @ext(%x: i{8 if name != 'bf16' else 16}) -> f32 {{
      %a = arith.bitcast %x : i{8 if name != 'bf16' else 16} to {name}
      %b = arith.extf %a : {name} to f32
      return %b : f32
    }}"""
    if name == "f4E2M1FN":
        text = text.replace("i8", "i4")
    m = parse_source(text, default_context(), "<test>")
    parse_pipeline(f"builtin.module({pipeline})").run(m)
    m.verify()
    assert "arith.truncf" not in str(m) and "arith.extf" not in str(m)
    return Interpreter(m)


@pytest.mark.parametrize("name", sorted(_DT))
def test_truncf_matches_ml_dtypes(name):
    it = _run(name)
    d = np.dtype(getattr(ml_dtypes, _DT[name]))
    want = _IN.astype(d)
    if name == "f8E8M0FNU":  # the interpreter's special case: zero -> 2**-127
        want = np.where(_IN == 0, np.zeros((), np.uint8).view(d), want)
    bits = want.view(np.uint16 if name == "bf16" else np.uint8)
    for x, w in zip(_IN, bits):
        got = int(it.call("trunc", np.float32(x))[0])
        mask = (1 << (4 if name == "f4E2M1FN" else d.itemsize * 8)) - 1
        if np.isnan(x) and name not in ("f4E2M1FN",):
            back = np.array([got & mask], np.uint16 if name == "bf16" else np.uint8).view(d)
            assert np.isnan(back.astype(np.float32))[0], (name, x, hex(got))
            continue
        assert got & mask == int(w) & mask, (name, float(x), hex(got & mask), hex(int(w)))


@pytest.mark.parametrize("name", sorted(_DT))
def test_extf_matches_ml_dtypes(name):
    it = _run(name)
    d = np.dtype(getattr(ml_dtypes, _DT[name]))
    n = 16 if name == "f4E2M1FN" else 256 if name != "bf16" else 65536
    codes = np.arange(0, n, 1 if n <= 256 else 97)
    raw = codes.astype(np.uint16 if name == "bf16" else np.uint8)
    want = raw.view(d).astype(np.float32) if name != "f4E2M1FN" else \
        raw.view(d).astype(np.float32)
    for c, w in zip(codes, want):
        bits = 4 if name == "f4E2M1FN" else 16 if name == "bf16" else 8
        sc = int(c) - (1 << bits) if int(c) >> (bits - 1) else int(c)
        got = np.float32(it.call("ext", sc)[0])
        if np.isnan(w):
            assert np.isnan(got), (name, hex(int(c)))
        else:
            assert got == w, (name, hex(int(c)), got, w)
