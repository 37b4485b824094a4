"""sdk_imports: the slim_ext.uai stand-in of each SDK name (cases/sdk_imports.py has the
before/after, no-op and reported cases, in trees with and without the SDK's folder)."""
from __future__ import annotations

from typing import Optional

import pytest

from slimport.codemods.sdk_imports import stand_in


@pytest.mark.parametrize(("qualified", "expected"), [
    ("uaitrain.arch.tensorflow.uflag", "slim_ext.uai.uflag"),
    ("uaitrain.arch.tensorflow.uflag.FLAGS.data_dir", "slim_ext.uai.uflag.FLAGS.data_dir"),
    ("uaitrain.arch.tensorflow.uai_dist.UAITensorFlowDistRunConfigParser",
     "slim_ext.uai.uai_dist.UAITensorFlowDistRunConfigParser"),
    ("uaitrain.arch.tensorflow", "slim_ext.uai"),
    ("uaitrain.arch.tensorflow.uflag.tf", None),
    ("uaitrain.arch.tensorflow.other", None),
    ("uaitrain", None),
    ("uaitrainer.arch.tensorflow.uflag", None),
])
def test_stand_in(qualified: str, expected: Optional[str]) -> None:
    assert stand_in(qualified) == expected
