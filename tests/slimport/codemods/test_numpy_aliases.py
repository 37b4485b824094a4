"""numpy_aliases: every replacement exists in the installed NumPy (cases/numpy_aliases.py
has the before/after and no-op cases)."""
from __future__ import annotations

import pytest

from slimport.codemods.numpy_aliases import BUILTIN_ALIASES, RENAMED


@pytest.mark.tf
@pytest.mark.parametrize("old", sorted({*BUILTIN_ALIASES, *RENAMED}))
def test_every_replacement_exists_with_this_numpy(old: str) -> None:
    import builtins

    import numpy as np

    if old in RENAMED:
        assert hasattr(np, RENAMED[old])
    else:
        assert hasattr(builtins, BUILTIN_ALIASES[old])
