"""removed_stdlib: inspect.getargspec and json.encoder.FLOAT_REPR ported; StringIO reported."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention

CASES = [
    Edit(
        "getargspec fields both results have",
        before="""
            import inspect

            takes_cache = 'cache' in inspect.getargspec(func).args
            defaults = inspect.getargspec(func)[3]
            has_kwargs = inspect.getargspec(func).keywords is not None
        """,
        after="""
            import inspect

            takes_cache = 'cache' in inspect.getfullargspec(func).args
            defaults = inspect.getfullargspec(func)[3]
            has_kwargs = inspect.getfullargspec(func).varkw is not None
        """,
    ),
    Edit(
        "FLOAT_REPR reads are guarded",
        before="""
            import json
            from json import encoder

            original = encoder.FLOAT_REPR
            also = json.encoder.FLOAT_REPR
        """,
        after="""
            import json
            from json import encoder

            original = getattr(encoder, 'FLOAT_REPR', float.__repr__)
            also = getattr(json.encoder, 'FLOAT_REPR', float.__repr__)
        """,
    ),
    # What has no certain port is reported and left.
    Reported("getargspec unpacked into four names",
             "import inspect\nargs, varargs, keywords, defaults = inspect.getargspec(f)\n",
             [attention(2, "seven fields", fix="use inspect.getfullargspec")]),
    Reported("getargspec's result stored",
             "import inspect\nspec = inspect.getargspec(f)\n",
             [attention(2, "seven fields", fix="use inspect.getfullargspec")]),
    Reported("getargspec imported by name", "from inspect import getargspec\n",
             [attention(1, "removed in Python 3.11", fix="use getfullargspec")]),
    Reported("a write of FLOAT_REPR",
             "from json import encoder\nencoder.FLOAT_REPR = lambda o: format(o, '.2f')\n",
             [attention(2, "the assignment has no effect", fix="round the floats")]),
    Reported("import StringIO", "import StringIO\nbuffer = StringIO.StringIO()\n",
             [attention(1, "`import StringIO`", fix="io.BytesIO")]),
    Reported("import cStringIO as another name", "import cStringIO as io_\n",
             [attention(1, "`import cStringIO`", fix="io.BytesIO")]),
    Reported("from StringIO import StringIO", "from StringIO import StringIO\n",
             [attention(1, "`from StringIO import ...`", fix="io.BytesIO")]),
    Noop("getfullargspec already", "import inspect\nspec = inspect.getfullargspec(f).args\n"),
    Noop("another library as inspect",
         "import mylib as inspect\nnames = inspect.getargspec(f).args\n"),
    Noop("a local named encoder",
         "import json\ntext = json.dumps(1.5)\nencoder = None\nr = encoder.FLOAT_REPR\n"),
    Noop("io's buffers", "import io\nbuffer = io.BytesIO()\n"),
    # TF2 code's leftovers are its authors' business.
    Noop("tf2 code", "import inspect\nimport tensorflow as tf\n"
         "x = tf.image.resize(y, (2, 2), antialias=True)\nnames = inspect.getargspec(f).args\n"),
]
