"""removed_stdlib: inspect.getargspec, json.encoder.FLOAT_REPR and the StringIO modules ported."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention, edit

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
        "FLOAT_REPR read and set: Python 2's hook given back",
        before="""
            import json
            from json import encoder

            original = encoder.FLOAT_REPR
            encoder.FLOAT_REPR = lambda o: format(o, '.2f')
            also = json.encoder.FLOAT_REPR
        """,
        after="""
            import json
            from json import encoder
            import slim_ext.py2_json

            original = encoder.FLOAT_REPR
            encoder.FLOAT_REPR = lambda o: format(o, '.2f')
            also = json.encoder.FLOAT_REPR
        """,
    ),
    Edit(
        "FLOAT_REPR set inside a function",
        before="""
            from json import encoder

            def dumps(obj, digits):
              encoder.FLOAT_REPR = lambda o: format(o, '.%df' % digits)
        """,
        after="""
            from json import encoder
            import slim_ext.py2_json

            def dumps(obj, digits):
              encoder.FLOAT_REPR = lambda o: format(o, '.%df' % digits)
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
    Reported("FLOAT_REPR where slim_ext is the file's own name",
             "from json import encoder\nfrom mylib import slim_ext\n"
             "encoder.FLOAT_REPR = lambda o: format(o, '.2f')\n",
             [attention(3, "no FLOAT_REPR hook", fix="import slim_ext.py2_json")]),
    # Python 2's buffer took bytes (PIL's PNG, object detection 0.1.1's
    # detection_inference_test) or text: slim_ext.py2_stringio holds either, as written.
    Edit(
        "import StringIO: the module's name kept",
        before="""
            import StringIO

            buffer = StringIO.StringIO()
            image.save(buffer, format='png')
        """,
        after="""
            import slim_ext.py2_stringio as StringIO

            buffer = StringIO.StringIO()
            image.save(buffer, format='png')
        """,
        findings=[edit(1, "import slim_ext.py2_stringio as StringIO")],
    ),
    Edit("import cStringIO as another name, beside another module",
         "import os, cStringIO as io_\nbuffer = io_.StringIO()\n",
         "import os, slim_ext.py2_stringio as io_\nbuffer = io_.StringIO()\n",
         findings=[edit(1, "`import cStringIO`")]),
    Edit("from StringIO import StringIO", "from StringIO import StringIO\n",
         "from slim_ext.py2_stringio import StringIO\n",
         findings=[edit(1, "from slim_ext.py2_stringio")]),
    Edit("from cStringIO import StringIO as another name",
         "from cStringIO import StringIO as BytesOrText\n",
         "from slim_ext.py2_stringio import StringIO as BytesOrText\n",
         findings=[edit(1, "`from cStringIO import StringIO`")]),
    Reported("from cStringIO import a name slim_ext has not",
             "from cStringIO import StringIO, InputType\n",
             [attention(1, "another name than StringIO", fix="slim_ext.py2_stringio")]),
    Noop("getfullargspec already", "import inspect\nspec = inspect.getfullargspec(f).args\n"),
    Noop("another library as inspect",
         "import mylib as inspect\nnames = inspect.getargspec(f).args\n"),
    Noop("a local named encoder",
         "import json\ntext = json.dumps(1.5)\nencoder = None\nr = encoder.FLOAT_REPR\n"),
    Noop("io's buffers", "import io\nbuffer = io.BytesIO()\n"),
    Noop("FLOAT_REPR's hook imported already (a second run)",
         "import json\nimport slim_ext.py2_json\nr = json.encoder.FLOAT_REPR\n"),
    # TF2 code's leftovers are its authors' business.
    Noop("tf2 code", "import inspect\nimport tensorflow as tf\n"
         "x = tf.image.resize(y, (2, 2), antialias=True)\nnames = inspect.getargspec(f).args\n"),
]
