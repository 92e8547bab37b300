"""The referee's engine: a search over the same rules code that judges records (SPEC §10)."""
