"""A module of the tree implicit_relative_imports cases are ported in (its text is not read)."""
