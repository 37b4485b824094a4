"""implicit_relative_imports: Python 2's `import sibling` inside a package -> `from . import`."""
from pathlib import Path

from tests.slimport.codemods.cases import Edit, Noop, Reported, attention, edit

# attention_ocr's shape, on disk: a datasets/ package (fsns, unittest_utils, queue, shared,
# models/head) beside the project's top-level shared.py.
OCR = Path(__file__).resolve().parents[2] / "data" / "ocr_tree"
IN_PACKAGE = {"path": str(OCR / "datasets" / "fsns_test.py")}

CASES = [
    Edit(
        "a package's own modules",
        before="""
            import fsns
            import unittest_utils as utils
            from fsns import DEFAULT_CONFIG
            from models.head import Head

            def read():
                import fsns
                return fsns.get_split('train')
        """,
        after="""
            from . import fsns
            from . import unittest_utils as utils
            from .fsns import DEFAULT_CONFIG
            from .models.head import Head

            def read():
                from . import fsns
                return fsns.get_split('train')
        """,
        findings=[edit(1, "import fsns -> from . import fsns (Python 2 found datasets/fsns "
                       "first)"),
                  edit(2), edit(3), edit(4), edit(7)],
        **IN_PACKAGE,
    ),
    Edit(
        "python 2 code beside a sibling",
        before="import fsns, unittest_utils\nx = xrange(3)\n",
        after="from . import fsns, unittest_utils\nx = xrange(3)\n",
        **IN_PACKAGE,
    ),
    # Not certain: reported with the fix.
    Reported(
        "a script, a name on the project's path, one of python's own, a submodule",
        """
            import queue
            import shared
            import fsns, os
            import models.head

            if __name__ == '__main__':
                pass
        """,
        [attention(1, "`queue` is also one of Python's own modules", "from . import queue"),
         attention(2, "the project's path has a top-level `shared` too", "from . import shared"),
         attention(3, "names other modules or a submodule too", "from . import fsns"),
         attention(4, "names other modules or a submodule too", "from . import models")],
        **IN_PACKAGE,
    ),
    # keras 3's callbacks/tensorboard.py has `from tensorboard.plugins import projector`:
    # Python 2 found the package's own module and no `plugins` in it; Python 3 imports
    # the top-level package, and `.tensorboard.plugins` would fail on both.
    Reported(
        "a submodule the package's own sibling does not hold",
        """
            from fsns.plugins import projector
            from models.tail import Tail
        """,
        [attention(1, "holds no `fsns.plugins`: an ImportError there; Python 3 imports "
                   "the top-level `fsns.plugins`", "nothing if the top-level"),
         attention(2, "`datasets/models` first on Python 2", "what `datasets/models` holds")],
        **IN_PACKAGE,
    ),
    Reported(
        "a package module that also runs as a script",
        "import fsns\n\nif __name__ == '__main__':\n    fsns.main()\n",
        [attention(1, "also runs as a script", "from . import fsns")],
        **IN_PACKAGE,
    ),
    # A file Python 2 could not parse never ran there: its imports were always absolute
    # (an installed `fsns`, say), whatever its folder holds.
    Noop("an f-string", "import fsns\nname = f'{fsns.NAME}'\n", **IN_PACKAGE),
    Noop("print with keywords", "import fsns\nprint(fsns.NAME, end='')\n", **IN_PACKAGE),
    Noop("an annotation",
         "import fsns\n\ndef read(split: str):\n    return fsns.get_split(split)\n",
         **IN_PACKAGE),
    Noop("a keyword-only parameter", "import fsns\n\ndef read(*, split):\n    return split\n",
         **IN_PACKAGE),
    Noop("raise from", "import fsns\n\ntry:\n    fsns.X\nexcept KeyError as e:\n"
         "    raise ValueError() from e\n", **IN_PACKAGE),
    Edit("print with keywords under print_function, which Python 2 ran",
         before="from __future__ import print_function\nimport fsns\n"
                "print(fsns.NAME, end='')\n",
         after="from __future__ import print_function\nfrom . import fsns\n"
               "print(fsns.NAME, end='')\n",
         **IN_PACKAGE),
    # absolute_import made Python 2 import absolutely too.
    Noop("absolute_import",
         "from __future__ import absolute_import\nimport fsns\n", **IN_PACKAGE),
    Noop("explicit relative and absolute imports of other modules",
         "from . import fsns\nfrom .fsns import X\nimport os\nimport numpy as np\n",
         **IN_PACKAGE),
    # A script outside any package finds its folder's modules on sys.path.
    Noop("a script beside its modules",
         "import datasets\nimport shared\n", path=str(OCR / "evaluate.py")),
    Noop("a name its package folder does not hold", "import fsns\n",
         path=str(OCR / "datasets" / "models" / "x.py")),
]

# The text pre-check: only a file that imports a module other than Python's own can
# import a sibling (the check gate asks it of files too big or broken to port).
TEXT_PRECHECK = {
    "import os\nfrom collections import OrderedDict\nX = 1\n": False,
    "import os\nimport fsns\n": True,
    "from fsns.reader import read\n": True,
    "from . import fsns\n": False,
}
