"""matplotlib_api: add_subplot('111') and canvas.tostring_rgb() -> what matplotlib 3.10 has."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention

CASES = [
    Edit(
        # Object detection's visualization_utils: a CDF plot as an image summary.
        "a figure drawn into an image",
        before="""
            import matplotlib; matplotlib.use('Agg')
            import matplotlib.pyplot as plt
            import numpy as np

            def cdf_plot(values):
                fig = plt.figure(frameon=False)
                ax = fig.add_subplot('111')
                ax.plot(values)
                fig.canvas.draw()
                return fig.canvas.tostring_rgb()
        """,
        after="""
            import matplotlib; matplotlib.use('Agg')
            import matplotlib.pyplot as plt
            import numpy as np

            def cdf_plot(values):
                fig = plt.figure(frameon=False)
                ax = fig.add_subplot(111)
                ax.plot(values)
                fig.canvas.draw()
                return np.asarray(fig.canvas.buffer_rgba())[..., :3].tobytes()
        """,
    ),
    Edit(
        "a figure from another module, numpy imported",
        before="""
            def to_image(fig):
                return fig.canvas.tostring_rgb()
        """,
        after="""
            import numpy

            def to_image(fig):
                return numpy.asarray(fig.canvas.buffer_rgba())[..., :3].tobytes()
        """,
        options={"tree_imports": frozenset({"matplotlib.pyplot"})},
    ),
    Reported(
        "numpy's name taken",
        "import matplotlib\nnumpy = None\ndata = fig.canvas.tostring_rgb()\n",
        [attention(3, "tostring_rgb", fix="buffer_rgba")],
    ),
    Noop("a tree that does not use matplotlib",
         "def to_image(fig):\n    return fig.canvas.tostring_rgb()\n",
         options={"tree_imports": frozenset({"numpy"})}),
    Noop("add_subplot with numbers, keywords or a grid spec",
         "import matplotlib.pyplot as plt\nax = fig.add_subplot(111)\n"
         "bx = fig.add_subplot(2, 1, 1)\ncx = fig.add_subplot('11')\n"
         "dx = fig.add_subplot(spec[0])\n"),
    Noop("buffer_rgba already",
         "import matplotlib\nimport numpy as np\n"
         "x = np.asarray(fig.canvas.buffer_rgba())\n"),
]
