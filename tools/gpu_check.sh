#!/usr/bin/env bash
# The cuda target on a machine with an NVIDIA GPU (issue 19, item 5): runs from the
# checkout with what is installed (no pip install), in well under 8 minutes.
#
#   tools/gpu_check.sh            # exit status 0 when every step passed
#
# 1. the device: nvidia-smi and what the driver reports to Strata;
# 2. tests/gpu (real device runs: models against onnxruntime or the cpu target, DLPack
#    outputs, buffer reuse, the native host code), through tests/gpu/run.py: pytest when
#    installed, else a plain script;
# 3. the ONNX node suite compiled for the device (tools/gpu_node_suite.py: the node
#    runner's cases with --target cuda, in shards);
#    the host library (tools/gpu_library_check.py: examples/c/run_model.c against the
#    cuda and the cpu library of an MLP);
# 4. bench/models.py --target cuda: MLP b1/b64, ResNet-50 and BERT-base at b1/b32, f32
#    (and f16 where the target has a precision option), against PyTorch eager (TF32
#    off) and torch.compile (inductor) on the GPU.
# Time limits per step (110 + 110 + 40 + 60 + 150 s) keep the whole under 8 minutes.
# Checked without a GPU: `bash -n`, `python tests/gpu/run.py` (skips),
# `python bench/models.py --target cuda --dry-run` (compiles every model ahead).
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
PY=${PYTHON:-python3}
status=0
start=$(date +%s)

echo "== device"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null \
  || echo "nvidia-smi: not available"
$PY - <<'PY' || status=1
import sys
from strata.backends.cuda import runtime
try:
    d = runtime.driver()
except runtime.StrataError as e:
    sys.exit(f"strata: {e}")
print(f"strata: {d.device_count()} device(s), device 0 is {d.device_arch()}")
PY

echo "== tests/gpu (pytest if installed, else the same tests as a plain script)"
timeout 110 $PY tests/gpu/run.py || status=1

echo "== the ONNX node suite on the device (pass rate; failures by op)"
# (in shards, the pass rate printed after each: a cut step still reports; the
#  compiler's warnings go to $TMPDIR/gpu_check_nodes.log)
timeout 110 $PY tools/gpu_node_suite.py -j "$(nproc)" --shards 12 --budget 90 2>"${TMPDIR:-/tmp}/gpu_check_nodes.log" | tail -60 \
  || status=1

echo "== the host library (strata compile --target cuda -o model.so) from C vs the cpu one"
timeout 40 $PY tools/gpu_library_check.py || status=1

# bench/models.py --target cuda (issue 19 item 6): rows are printed as they finish, so a
# step cut by its time limit still reports what it measured.
echo "== bench/models.py --target cuda: MLP at batch 1 and 64"
timeout 60 $PY bench/models.py --target cuda --models mlp1,mlp64 --repeat 20 --rounds 3 --cuda-graphs \
  || status=1
echo "== bench/models.py --target cuda: ResNet-50 and BERT-base at batch 1 and 32"
timeout 150 $PY bench/models.py --target cuda --repeat 10 --rounds 3 \
  --models resnet50-b1,bert-b1,resnet50-b32,bert-b32 || status=1

echo "== done in $(( $(date +%s) - start )) s, status $status"
exit $status
