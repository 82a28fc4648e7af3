"""The `cuda` target: NVIDIA GPUs through the gpu and nvvm dialects, LLVM's NVPTX backend
(in llvmlite) and the CUDA driver API.

    target.py   CudaTarget: the lowering pipeline (linalg on tensors -> buffers ->
                parallel loops -> gpu.launch -> gpu.module kernels -> nvvm/llvm) and
                loading (PTX JIT'd by the driver)
    ptx.py      LLVM IR -> PTX text (llvmlite's NVPTX target machine)
    ptxas.py    assembling PTX with ptxas (PyPI nvidia-cuda-nvcc) to check it
    runtime.py  the CUDA driver API through ctypes: modules, buffers, launches
    plan.py     the host side of a compiled model as a launch plan

Nothing here needs a GPU to compile: only `runtime.py` talks to a device.
"""
