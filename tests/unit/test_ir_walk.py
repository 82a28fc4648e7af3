"""Operation.walk: pre- and post-order over nested regions and blocks (iterative), and
erasing the visited op during the walk."""
from strata.dialects import default_context
from strata.syntax.parser import parse_source

SRC = """
func.func @f(%a: index, %b: i32, %c: i1) -> i32 {
  %0 = arith.addi %b, %b : i32
  %1 = scf.for %i = %a to %a step %a iter_args(%s = %0) -> (i32) {
    %2 = scf.if %c -> (i32) {
      %3 = arith.muli %s, %s : i32
      scf.yield %3 : i32
    } else {
      scf.yield %s : i32
    }
    %4 = arith.subi %2, %s : i32
    scf.yield %4 : i32
  }
  cf.br ^bb1(%1 : i32)
^bb1(%5: i32):
  %6 = arith.xori %5, %5 : i32
  return %6 : i32
}
func.func @g() {
  return
}
"""


def _recursive(op, post_order):
    if not post_order:
        yield op
    for r in op.regions:
        for b in r.blocks:
            for inner in list(b.ops):
                yield from _recursive(inner, post_order)
    if post_order:
        yield op


def test_walk_orders_match_the_recursive_definition():
    m = parse_source(SRC, default_context(), "t.mlir")
    for post in (True, False):
        got = [op.name for op in m.walk(post_order=post)]
        assert got == [op.name for op in _recursive(m, post)]
    assert [op.name for op in m.walk()][-1] == "builtin.module"
    assert [op.name for op in m.walk(post_order=False)][0] == "builtin.module"
    leaf = next(op for op in m.walk() if op.name == "arith.addi")
    assert list(leaf.walk()) == [leaf] and list(leaf.walk(False)) == [leaf]


def test_visited_op_may_be_erased():
    m = parse_source(SRC, default_context(), "t.mlir")
    seen = []
    for op in m.walk():
        seen.append(op.name)
        if op.name == "arith.xori":
            op.results[0].replace_all_uses_with(op.operand(0))
            op.erase()
        if op.name == "scf.if":  # post-order: its regions were walked already
            op.results[0].replace_all_uses_with(op.regions[0].blocks[0].args[0]
                                                if op.regions[0].blocks[0].args else
                                                op.parent.args[1])
            op.erase()
    assert seen.count("arith.xori") == 1 and "func.return" in seen
    names = [op.name for op in m.walk()]
    assert "arith.xori" not in names and "scf.if" not in names
    assert names.count("func.return") == 2
