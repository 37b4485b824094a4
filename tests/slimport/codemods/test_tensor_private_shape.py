"""tensor_private_shape's tree fact: which trees give something a ``_shape`` of their own."""
import pytest

from slimport.codemods.tensor_private_shape import binds_private_shape


@pytest.mark.parametrize("text", [
    "self._shape = shape\n",
    "box._shape += [1]\n",
    "class Box:\n    _shape = None\n",
    "class Box:\n    _shape: tuple\n",
    "def _shape(self):\n    pass\n",
    "setattr(box, '_shape', 3)\n",
    "__slots__ = ('_shape', 'dtype')\n",
])
def test_binds(text):
    assert binds_private_shape(["import os\n", text])


@pytest.mark.parametrize("text", [
    "print(x._shape)\n",
    "if x._shape == y._shape:\n    pass\n",
    "ok = x._shape != y and x._shape >= z\n",
    "x._shape_tuple()\n",
    "self._shape_val = 1\n",
    "my_shape = x.shape\n",
])
def test_does_not_bind(text):
    assert not binds_private_shape([text])
