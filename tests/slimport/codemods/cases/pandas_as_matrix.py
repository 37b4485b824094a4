"""pandas_as_matrix: as_matrix() -> to_numpy() on a certain DataFrame/Series; others reported."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention

CASES = [
    Edit(
        "certain frames and columns",
        before="""
            import pandas as pd

            boxes = pd.read_csv(path)
            kept = boxes[boxes.Confidence > 0]
            ymin = kept.YMin.as_matrix()
            labels = kept['LabelName'].as_matrix()
            corners = boxes.as_matrix(columns=['XMin', 'YMin'])
            table = pd.DataFrame({'a': [1]}).as_matrix()
        """,
        after="""
            import pandas as pd

            boxes = pd.read_csv(path)
            kept = boxes[boxes.Confidence > 0]
            ymin = kept.YMin.to_numpy()
            labels = kept['LabelName'].to_numpy()
            corners = boxes[['XMin', 'YMin']].to_numpy()
            table = pd.DataFrame({'a': [1]}).to_numpy()
        """,
    ),
    Edit(
        # Object detection's OID utilities: the tree's tests hand them pandas frames.
        "a parameter, in a tree that uses pandas and defines no as_matrix",
        before="""
            def boxes(frame):
                return frame.YMin.as_matrix(), frame[['XMin', 'XMax']].as_matrix()
        """,
        after="""
            def boxes(frame):
                return frame.YMin.to_numpy(), frame[['XMin', 'XMax']].to_numpy()
        """,
        options={"tree_methods": frozenset({"boxes"}),
                 "tree_imports": frozenset({"pandas", "numpy"})},
    ),
    # Receivers that may not be pandas': reported, left.
    Reported(
        # Object detection's oid_tfrecord_creation.py.
        "a parameter: the caller's object",
        "def boxes(frame):\n    return frame.YMin.as_matrix()\n",
        [attention(2, "frame.YMin.as_matrix()", fix="to_numpy")],
    ),
    Reported(
        "a parameter, in a tree that also uses SciPy's rotations",
        "def boxes(frame):\n    return frame.as_matrix()\n",
        [attention(2, "frame.as_matrix()", fix="to_numpy")],
        options={"tree_methods": frozenset(),
                 "tree_imports": frozenset({"pandas", "scipy.spatial.transform"})},
    ),
    Reported(
        "a parameter, in a tree that defines an as_matrix",
        "def boxes(frame):\n    return frame.as_matrix()\n",
        [attention(2, "frame.as_matrix()", fix="to_numpy")],
        options={"tree_methods": frozenset({"as_matrix"}), "tree_imports": frozenset({"pandas"})},
    ),
    Reported(
        "a parameter, in a tree that does not use pandas",
        "def boxes(frame):\n    return frame.as_matrix()\n",
        [attention(2, "frame.as_matrix()", fix="to_numpy")],
        options={"tree_methods": frozenset(), "tree_imports": frozenset({"numpy"})},
    ),
    Reported(
        "a name bound to a frame once and to something else once",
        "import pandas as pd\nframe = pd.read_csv(p)\nif x:\n    frame = load()\n"
        "y = frame.as_matrix()\n",
        [attention(5, "frame.as_matrix()", fix="to_numpy")],
    ),
    Reported(
        "not pandas' reader",
        "import mylib as pd\ny = pd.read_csv(p).as_matrix()\n",
        [attention(2, "pd.read_csv(p).as_matrix()", fix="to_numpy")],
    ),
    Reported(
        "arguments as_matrix never took in the spelling ported",
        "import pandas as pd\ny = pd.read_csv(p).as_matrix(['a'], extra)\n",
        [attention(2, "as_matrix(['a'], extra)", fix="to_numpy")],
    ),
    Noop("already to_numpy", "import pandas as pd\nx = pd.read_csv(p).to_numpy()\n"),
    Noop("another library's as_ method", "matrix = sympy_matrix.as_mutable()\n"),
    # TF2 code's leftovers are its authors' business.
    Noop("tf2 code", "import pandas as pd\nimport tensorflow as tf\n"
         "x = tf.image.resize(y, (2, 2), antialias=True)\nz = pd.read_csv(p).as_matrix()\n"),
]
