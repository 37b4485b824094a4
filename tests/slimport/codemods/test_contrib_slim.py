"""contrib_slim: the tf_slim path of each contrib.slim name (cases/contrib_slim.py has the
before/after, no-op and text pre-check cases)."""
from __future__ import annotations

import pytest

from slimport.codemods.contrib_slim import tf_slim_path


@pytest.mark.parametrize(
    ("qualified", "expected"),
    [
        ("tensorflow.contrib.slim", "tf_slim"),
        ("tensorflow.contrib.slim.arg_scope", "tf_slim.arg_scope"),
        ("tensorflow.contrib.slim.nets.vgg", "tf_slim.nets.vgg"),
        ("tensorflow.contrib.slim.python.slim", "tf_slim"),
        (
            "tensorflow.contrib.slim.python.slim.data.tfexample_decoder",
            "tf_slim.data.tfexample_decoder",
        ),
        ("tensorflow.compat.v1.contrib.slim.learning", "tf_slim.learning"),
        ("tensorflow.contrib.slimmer", None),
        ("tensorflow.contrib.layers", None),
        ("tf_slim", None),
    ],
)
def test_tf_slim_path(qualified: str, expected: str) -> None:
    assert tf_slim_path(qualified) == expected
