"""The CPU backend.

`llvmir.translate_to_llvmir(module)` prints an llvm-dialect module as LLVM IR text;
`jit.JitModule(ir, opt_level, symbols)` compiles it in memory for the host and
`jit.emit_object(ir)` to a PIC object file. llvmlite is imported by those functions
only, never by importing this package.
"""
