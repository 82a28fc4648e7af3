"""The `cuda` target: NVIDIA GPUs through the gpu and nvvm dialects, LLVM's NVPTX backend
(in llvmlite) and the CUDA driver API.

    target.py   CudaTarget: the lowering pipeline (linalg on tensors -> buffers ->
                parallel loops -> gpu.launch -> gpu.module kernels -> nvvm/llvm) and
                loading (PTX JIT'd by the driver)
    ptx.py      LLVM IR -> PTX text (llvmlite's NVPTX target machine)
    ptxas.py    assembling PTX with ptxas (PyPI nvidia-cuda-nvcc) to check it
    runtime.py  the CUDA driver API through ctypes: modules, buffers, launches
    host.py     the host side as native code (through the CPU backend) calling a
                small shim that calls the driver: one native call per inference
    plan.py     the host side as a launch plan run in Python (the fallback)
    library.py  `strata compile --target cuda -o model.so`: a host library

Nothing here needs a GPU to compile: only `runtime.py` talks to a device.
"""
