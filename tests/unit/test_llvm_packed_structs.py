"""convert-to-llvm{fold-aggregates=true}: memref descriptors (and the structs a
function argument's fields are packed back into) are built lazily, as one packed op
that becomes the llvm.insertvalue chain only where something reads the struct whole
([Note: structs packed lazily] in strata/conversion/to_llvm/builder.py): the lowered
module is the one the eager chains made, with far fewer ops made on the way."""
import numpy as np

import strata
from strata.backends.cpu.llvmir import translate_to_llvmir
from strata.compiler import build_pipeline
from strata.conversion.to_llvm import builder as LB
from strata.conversion.to_llvm.builder import LLVMBuilder
from strata.conversion.to_llvm.umbrella import erase_dead_llvm_ops
from strata.conversion.to_llvm.type_converter import MemRefDescriptor, descriptor_type
from strata.dialects import default_context
from strata.ir import attributes as A
from strata.ir import core
from strata.ir.builder import Builder, InsertionPoint
from strata.syntax.parser import parse_source
from strata.syntax.printer import print_op

I64 = A.IntegerType(64)

# descriptors only taken apart (loads, stores, a call, a view), one returned whole,
# one passed whole through a block argument, one stored for a C interface
SRC = """
func.func private @use(%m: memref<?x4xf32>)
func.func @f(%n: index, %s: i1, %arg: memref<8x4xf32>) -> memref<?x4xf32>
    attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc(%n) : memref<?x4xf32>
  %t = memref.alloc() : memref<2x3x4x5xf32>
  %x = memref.load %arg[%c1, %c0] : memref<8x4xf32>
  memref.store %x, %a[%c1, %c1] : memref<?x4xf32>
  memref.store %x, %t[%c1, %c1, %c0, %c1] : memref<2x3x4x5xf32>
  %v = memref.subview %arg[2, 0] [4, 4] [1, 1] : memref<8x4xf32> to memref<4x4xf32, strided<[4, 1], offset: 8>>
  %y = memref.load %v[%c1, %c1] : memref<4x4xf32, strided<[4, 1], offset: 8>>
  memref.store %y, %t[%c0, %c1, %c0, %c1] : memref<2x3x4x5xf32>
  call @use(%a) : (memref<?x4xf32>) -> ()
  memref.dealloc %t : memref<2x3x4x5xf32>
  cf.cond_br %s, ^bb1(%a : memref<?x4xf32>), ^bb2
^bb1(%r: memref<?x4xf32>):
  return %r : memref<?x4xf32>
^bb2:
  %b = memref.alloc(%n) : memref<?x4xf32>
  memref.dealloc %a : memref<?x4xf32>
  cf.br ^bb1(%b : memref<?x4xf32>)
}
"""

PIPELINE = "convert-to-llvm{fold-aggregates=true emit-c-wrappers=true}"


def _lower(lazy, monkeypatch):
    made = []
    create = core.Operation.create.__func__

    def counting(cls, *a, **k):
        op = create(cls, *a, **k)
        made.append(op.name)
        return op
    with monkeypatch.context() as mp:
        mp.setattr(core.Operation, "create", classmethod(counting))
        if not lazy:    # the chains built as each pattern goes, as before
            pack = LLVMBuilder.pack

            def eager(self, st, values):
                return pack(LLVMBuilder(self.b, self.loc), st, values)
            mp.setattr(LLVMBuilder, "pack", eager)
            mp.setattr(MemRefDescriptor, "poison",
                       classmethod(lambda cls, b, st: cls(b.poison(st))))
        m = parse_source(SRC, default_context())
        build_pipeline(PIPELINE).run(m)
    m.verify()
    return print_op(m), translate_to_llvmir(m), made


def test_the_lowered_module_is_the_eager_one_with_fewer_ops_made(monkeypatch):
    text, ir, made = _lower(True, monkeypatch)
    text_before, ir_before, made_before = _lower(False, monkeypatch)
    # the same program: the same LLVM IR, the same ops (a chain's constants may now
    # come before its llvm.mlir.poison: the poison is made when the chain is)
    assert ir == ir_before
    assert sorted(_names(text)) == sorted(_names(text_before))
    assert "unrealized_conversion_cast" not in text
    assert LB.PACKED not in text
    # the structs read whole are still built: the returned one, the block argument
    # and the C interface's copies on the stack
    assert text.count("llvm.insertvalue") >= 3 * 5
    # the rank-4 buffer and the view, only taken apart: no chain made for them
    assert made.count("llvm.insertvalue") <= made_before.count("llvm.insertvalue") - 9 - 9
    assert len(made) < len(made_before)


def _names(text):
    return [w for w in text.split() if w.startswith("llvm.")]


def _block_builder():
    m = parse_source("func.func @g() {\n  return\n}", default_context())
    f = next(op for op in m.walk() if op.name == "func.func")
    blk = f.regions[0].blocks[0]
    return m, blk, Builder(InsertionPoint.before_op(blk.first))


def test_a_descriptor_filled_field_by_field_reads_its_fields_back_without_ops():
    _, blk, bld = _block_builder()
    b = LLVMBuilder(bld, fold=True)
    st = descriptor_type(2, I64)
    d = MemRefDescriptor.poison(b, st)
    p = b.zero()
    cs = [b.int_const(k, I64) for k in range(5)]
    d.set_allocated_ptr(b, p)
    d.set_aligned_ptr(b, p)
    d.set_offset(b, cs[0])
    for i in range(2):
        d.set_size(b, i, cs[1 + i])
        d.set_stride(b, i, cs[3 + i])
    n = len(list(blk.ops))
    assert d.size(b, 1) is cs[2] and d.stride(b, 0) is cs[3] and d.offset(b) is cs[0]
    assert len(list(blk.ops)) == n                      # nothing built to read them
    v = d.value                                          # one packed op
    assert len(list(blk.ops)) == n + 1 and LB.is_packed(v.owner)
    assert [x.value for x in v.owner._operands] == [p, p] + cs
    # an extractvalue of a field through the packed op (and through an insertvalue
    # over it) is the field; of a whole array it is an op
    assert b.extractvalue(v, [4, 1]) is cs[4]
    w = b.insertvalue(v, cs[0], [3, 1])
    assert b.extractvalue(w, [3, 1]) is cs[0] and b.extractvalue(w, [3, 0]) is cs[1]
    assert b.extractvalue(w, [3]).owner.name == "llvm.extractvalue"


def test_a_partly_filled_descriptor_is_the_chain_of_what_was_set():
    _, blk, bld = _block_builder()
    b = LLVMBuilder(bld, fold=True)
    d = MemRefDescriptor.poison(b, descriptor_type(1, I64))
    p = b.zero()
    d.set_aligned_ptr(b, p)
    d.set_stride(b, 0, b.int_const(1, I64))
    v = d.value
    assert v.owner.name == "llvm.insertvalue"
    assert list(v.owner._props["position"].value) == [4, 0]
    assert LB.inserted_value(v, [1]) is p and LB.inserted_value(v, [0]) is None


def test_unread_packed_structs_are_erased_read_ones_become_chains():
    m, blk, bld = _block_builder()
    b = LLVMBuilder(bld, fold=True)
    st = descriptor_type(1, I64)
    p = b.zero()
    c = b.int_const(3, I64)
    unread = b.pack(st, [p, p, c, c, c])
    read = b.pack(st, [p, p, c, c, b.int_const(1, I64)])
    slot = b.alloca(b.int_const(1, I64), st)
    b.store(read, slot)
    assert erase_dead_llvm_ops(m) == 0     # (the constants and the zero are read)
    assert unread.owner is None or unread.owner.parent is None     # erased
    names = [o.name for o in blk.ops]
    assert "builtin.unrealized_conversion_cast" not in names
    assert names.count("llvm.insertvalue") == 5 and names.count("llvm.mlir.poison") == 1
    stored = next(o for o in blk.ops if o.name == "llvm.store")._operands[0].value
    assert [LB.inserted_value(stored, q) for q in ([0], [1], [2], [3, 0])] == [p, p, c, c]


TENSOR_SRC = """
func.func @f(%m: tensor<4x3xf32>, %s: i1) -> tensor<4x3xf32> {
  %r = scf.if %s -> tensor<4x3xf32> {
    %y = arith.addf %m, %m : tensor<4x3xf32>
    scf.yield %y : tensor<4x3xf32>
  } else {
    %z = arith.mulf %m, %m : tensor<4x3xf32>
    scf.yield %z : tensor<4x3xf32>
  }
  return %r : tensor<4x3xf32>
}
"""


def test_lowered_program_computes_the_same():
    # through the CPU target's whole pipeline: buffers chosen in branches (block
    # arguments) and returned
    mat = np.arange(12, dtype=np.float32).reshape(4, 3) - 2.5
    f = strata.compile(parse_source(TENSOR_SRC, default_context()), cache=False)
    np.testing.assert_array_equal(f(mat, np.bool_(True))[0], mat + mat)
    np.testing.assert_array_equal(f(mat, np.bool_(False))[0], mat * mat)
