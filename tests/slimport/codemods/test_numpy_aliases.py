"""numpy_aliases: NumPy's removed aliases -> the builtins / NumPy names they meant."""
from __future__ import annotations

import functools

import pytest

from slimport.codemods.numpy_aliases import BUILTIN_ALIASES, RENAMED, NumpyAliasesCommand
from tests.slimport.codemods._helpers import IdempotentCodemodTest, run_codemod

run = functools.partial(run_codemod, NumpyAliasesCommand)


class TestNumpyAliases(IdempotentCodemodTest):
    TRANSFORM = NumpyAliasesCommand

    def test_builtin_aliases_through_any_numpy_name(self) -> None:
        before = """
            import numpy as np
            import numpy
            import numpy as onp

            mask = np.zeros(shape, dtype=np.bool)
            ids = numpy.array(ids, dtype=numpy.int)
            scale = onp.float(3) * np.long(2)
            names = np.array(labels, dtype=np.object)
        """
        after = """
            import numpy as np
            import numpy
            import numpy as onp

            mask = np.zeros(shape, dtype=bool)
            ids = numpy.array(ids, dtype=int)
            scale = float(3) * int(2)
            names = np.array(labels, dtype=object)
        """
        self.assertCodemod(before, after)

    def test_numpy_2_removals(self) -> None:
        before = """
            import numpy as np

            x = np.asarray(x, dtype=np.float_)
            x[np.isnan(x)] = np.NaN
            total = np.product(shape) + np.Inf
        """
        after = """
            import numpy as np

            x = np.asarray(x, dtype=np.float64)
            x[np.isnan(x)] = np.nan
            total = np.prod(shape) + np.inf
        """
        self.assertCodemod(before, after)


NOOP = [
    # A compatibility shim writes the alias back (keras' tf2onnx_lib.py).
    "import numpy as np\nif not hasattr(np, 'object'):\n    np.object = object\n",
    # TensorFlow's own modules keep their aliases (numpy_ops/np_dtypes.py).
    "import numpy as np\nfrom tensorflow.python.framework import dtypes\nfloat_ = np.float_\n",
    "import numpy as np\nx = np.float32(1) + np.int64(2)\ny = np.bool_(True)\n",
    "import numpy as np\nz = np.nan + np.inf\n",
    # Not numpy: another library's attribute, a local np.
    "import jax.numpy as np\nx = np.float\n",
    "import mylib as np\nx = np.int\n",
    "import numpy as np\ndef f(np):\n    return np.float\n",
    "import numpy as np\nx = {'float': 1}\ny = x.float\n",
]


@pytest.mark.parametrize("source", NOOP)
def test_noop_sources_stay_byte_identical(source: str) -> None:
    assert run(source) == (source, [])


def test_a_builtin_the_file_rebinds_is_reported() -> None:
    source = "import numpy as np\ndef f(float):\n    return np.float(float)\n"
    code, [finding] = run(source)
    assert code == source
    assert (finding.line, finding.kind) == (3, "attention")
    assert finding.fix == "use builtins.float"


@pytest.mark.tf
@pytest.mark.parametrize("old", sorted({*BUILTIN_ALIASES, *RENAMED}))
def test_every_replacement_exists_with_this_numpy(old: str) -> None:
    import builtins

    import numpy as np

    if old in RENAMED:
        assert hasattr(np, RENAMED[old])
    else:
        assert hasattr(builtins, BUILTIN_ALIASES[old])
