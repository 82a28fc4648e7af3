"""Code generation backends: `cpu` (llvm dialect -> LLVM IR -> llvmlite -> host code)."""
