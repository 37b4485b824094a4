"""numpy_aliases: NumPy's removed aliases -> the builtins / NumPy names they meant."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention

CASES = [
    Edit(
        "builtin aliases through any numpy name",
        before="""
            import numpy as np
            import numpy
            import numpy as onp

            mask = np.zeros(shape, dtype=np.bool)
            ids = numpy.array(ids, dtype=numpy.int)
            scale = onp.float(3) * np.long(2)
            names = np.array(labels, dtype=np.object)
        """,
        after="""
            import numpy as np
            import numpy
            import numpy as onp

            mask = np.zeros(shape, dtype=bool)
            ids = numpy.array(ids, dtype=int)
            scale = float(3) * int(2)
            names = np.array(labels, dtype=object)
        """,
    ),
    Edit(
        "numpy 2 removals",
        before="""
            import numpy as np

            x = np.asarray(x, dtype=np.float_)
            x[np.isnan(x)] = np.NaN
            total = np.product(shape) + np.Inf
        """,
        after="""
            import numpy as np

            x = np.asarray(x, dtype=np.float64)
            x[np.isnan(x)] = np.nan
            total = np.prod(shape) + np.inf
        """,
    ),
    Edit(
        # Object detection's visualization_utils (a matplotlib figure to an image).
        "binary fromstring of certain bytes, and tostring",
        before="""
            import numpy as np

            image = np.fromstring(fig.canvas.tostring_rgb(), dtype='uint8').reshape(1, 2, 3)
            header = np.fromstring(b'\\x01\\x02', np.uint8, sep='')
            record = np.fromstring(array.tostring(), dtype=np.float32)
            key = sorted(arrays, key=lambda x: x.tostring())
        """,
        after="""
            import numpy as np

            image = np.frombuffer(fig.canvas.tostring_rgb(), dtype='uint8').copy().reshape(1, 2, 3)
            header = np.frombuffer(b'\\x01\\x02', np.uint8).copy()
            record = np.frombuffer(array.tobytes(), dtype=np.float32).copy()
            key = sorted(arrays, key=lambda x: x.tobytes())
        """,
        options={"tree_methods": frozenset()},
    ),
    Reported(
        "fromstring of data that may be a str",
        "import numpy as np\ndef decode(data):\n    return np.fromstring(data, np.uint8)\n",
        [attention(3, "np.fromstring(data, np.uint8)", fix="np.frombuffer(data, dtype).copy()")],
    ),
    Reported(
        "tostring when the tree is not known",
        "import numpy as np\nkey = arr.tostring()\n",
        [attention(2, "arr.tostring()", fix="arr.tobytes()")],
    ),
    Noop("fromstring in text mode, and tostring of a module or of the tree",
         "import numpy as np\nfrom lxml import etree\nx = np.fromstring('1 2', sep=' ')\n"
         "y = etree.tostring(node)\nz = record.tostring()\n",
         options={"tree_methods": frozenset({"tostring"})}),
    Reported(
        "a builtin the file rebinds",
        "import numpy as np\ndef f(float):\n    return np.float(float)\n",
        [attention(3, fix="use builtins.float")],
    ),
    # A compatibility shim writes the alias back (keras' tf2onnx_lib.py).
    Noop("a shim that writes the alias back",
         "import numpy as np\nif not hasattr(np, 'object'):\n    np.object = object\n"),
    # TF1's API through compat.v1 is TF1-era code (object detection 2.x's metrics).
    Edit("a module on compat.v1",
         before="import numpy as np\nimport tensorflow.compat.v1 as tf\n"
                "mask = np.zeros([2], dtype=np.bool)\n",
         after="import numpy as np\nimport tensorflow.compat.v1 as tf\n"
               "mask = np.zeros([2], dtype=bool)\n"),
    # TF 2 code keeps its aliases: its leftovers are its authors' business.
    Noop("tf2 code",
         "import numpy as np\nimport tensorflow as tf\n"
         "mask = np.zeros([2], dtype=np.bool)\nx = tf.image.resize(t, [2, 2], antialias=True)\n"),
    # TensorFlow's own modules keep their aliases (numpy_ops/np_dtypes.py).
    Noop("tensorflow's own module",
         "import numpy as np\nfrom tensorflow.python.framework import dtypes\n"
         "float_ = np.float_\n"),
    Noop("numpy scalar types",
         "import numpy as np\nx = np.float32(1) + np.int64(2)\ny = np.bool_(True)\n"),
    Noop("the names numpy 2 keeps", "import numpy as np\nz = np.nan + np.inf\n"),
    # Not numpy: another library's attribute, a local np.
    Noop("jax.numpy", "import jax.numpy as np\nx = np.float\n"),
    Noop("another library as np", "import mylib as np\nx = np.int\n"),
    Noop("a parameter named np", "import numpy as np\ndef f(np):\n    return np.float\n"),
    Noop("an attribute of another object", "import numpy as np\nx = {'float': 1}\ny = x.float\n"),
]
