"""tf0_names: every TF1 name the renames write exists in tf.compat.v1 (cases/tf0_names.py has
the before/after, no-op and reported cases)."""
from __future__ import annotations

import pytest

from slimport.tables.tf_api import TF1, tf_api
from slimport.codemods.tf0_names import RENAMES


@pytest.mark.parametrize("old", sorted(RENAMES))
def test_every_new_name_is_in_tf_compat_v1(old: str) -> None:
    assert TF1 in (tf_api().kind(RENAMES[old].new) or ""), RENAMES[old].new
    assert tf_api().missing_from_v1(RENAMES[old].new) is None
