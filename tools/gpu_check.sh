#!/usr/bin/env bash
# The cuda target on a machine with an NVIDIA GPU (issue 19, item 5): runs from the
# checkout with what is installed (no pip install), in well under 8 minutes.
#
#   tools/gpu_check.sh            # exit status 0 when every step passed
#
# 1. the device: nvidia-smi and what the driver reports to Strata;
# 2. tests/gpu (real device runs: models against onnxruntime, DLPack outputs, buffer
#    reuse);
# 3. the ONNX node suite compiled for the device (onnx_node_runner.py --target cuda);
# 4. bench/models.py --target cuda on the MLPs (against PyTorch eager on the GPU).
# Time limits per step keep the whole under 8 minutes.
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
from strata.backends.cuda import runtime
d = runtime.driver()
print(f"strata: {d.device_count()} device(s), device 0 is {d.device_arch()}")
PY

echo "== tests/gpu"
timeout 120 $PY -m pytest -q -rs tests/gpu || status=1

echo "== the ONNX node suite on the device (pass rate; failures by op)"
timeout 210 $PY tests/e2e/onnx_node_runner.py --target cuda -j "$(nproc)" | tail -40 \
  || status=1

echo "== bench/models.py --target cuda (MLP at batch 1 and 64)"
timeout 120 $PY bench/models.py --target cuda --models mlp1,mlp64 --repeat 20 --rounds 3 \
  || status=1

echo "== done in $(( $(date +%s) - start )) s, status $status"
exit $status
