"""pandas_as_matrix: as_matrix() -> to_numpy() on a certain DataFrame/Series; others reported."""
from __future__ import annotations

import functools

import pytest

from slimport.codemods.pandas_as_matrix import PandasAsMatrixCommand
from tests.slimport.codemods._helpers import IdempotentCodemodTest, run_codemod

run = functools.partial(run_codemod, PandasAsMatrixCommand)


class TestPandasAsMatrix(IdempotentCodemodTest):
    TRANSFORM = PandasAsMatrixCommand

    def test_certain_frames_and_columns(self) -> None:
        before = """
            import pandas as pd

            boxes = pd.read_csv(path)
            kept = boxes[boxes.Confidence > 0]
            ymin = kept.YMin.as_matrix()
            labels = kept['LabelName'].as_matrix()
            corners = boxes.as_matrix(columns=['XMin', 'YMin'])
            table = pd.DataFrame({'a': [1]}).as_matrix()
        """
        after = """
            import pandas as pd

            boxes = pd.read_csv(path)
            kept = boxes[boxes.Confidence > 0]
            ymin = kept.YMin.to_numpy()
            labels = kept['LabelName'].to_numpy()
            corners = boxes[['XMin', 'YMin']].to_numpy()
            table = pd.DataFrame({'a': [1]}).to_numpy()
        """
        self.assertCodemod(before, after)


NOOP = [
    "import pandas as pd\nx = pd.read_csv(p).to_numpy()\n",
    "matrix = sympy_matrix.as_mutable()\n",
    # TF2 code's leftovers are its authors' business.
    "import pandas as pd\nimport tensorflow as tf\nx = tf.image.resize(y, (2, 2), antialias=True)\n"
    "z = pd.read_csv(p).as_matrix()\n",
]


@pytest.mark.parametrize("source", NOOP)
def test_noop_sources_stay_byte_identical(source: str) -> None:
    assert run(source) == (source, [])


@pytest.mark.parametrize("source", [
    # A parameter: the caller's object (object detection's oid_tfrecord_creation.py).
    "def boxes(frame):\n    return frame.YMin.as_matrix()\n",
    # Bound to a frame once and to something else once.
    ("import pandas as pd\nframe = pd.read_csv(p)\nif x:\n    frame = load()\n"
     "y = frame.as_matrix()\n"),
    # Not pandas' reader.
    "import mylib as pd\ny = pd.read_csv(p).as_matrix()\n",
    # Arguments as_matrix never took in pandas' spelling we port.
    "import pandas as pd\ny = pd.read_csv(p).as_matrix(['a'], extra)\n",
])
def test_uncertain_receivers_are_reported_and_left(source: str) -> None:
    code, findings = run(source)
    assert code == source
    [finding] = findings
    assert finding.kind == "attention" and "to_numpy" in finding.fix
