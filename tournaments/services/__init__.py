"""Everything that writes: one module per capability."""
