"""Pass infrastructure: pass manager, pipeline syntax, registry, generic passes."""
