"""Frontends: model formats -> one IR module (the onnx frontend is strata.frontends.onnx).

Each frontend imports its heavy dependency (onnx, torch) lazily, inside the functions that
need it, so that importing a frontend package stays as light as `import strata`."""
