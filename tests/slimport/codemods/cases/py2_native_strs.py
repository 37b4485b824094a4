"""py2_native_strs: encoded text only formatted into text -> decoded, as Python 2 formatted it."""
from tests.slimport.codemods.cases import Edit, Noop

CASES = [
    Edit(
        # object detection 0.1.1's utils/object_detection_evaluation.py (6 of its tests on
        # Python 2.7 + TF 1.14 look metrics up by these names).
        "a metric named with an encoded category name",
        before="""
            import unicodedata

            class Evaluator(object):

                def names(self, category_name):
                    try:
                        category_name = unicode(category_name, 'utf-8')
                    except TypeError:
                        pass
                    category_name = unicodedata.normalize('NFKD', category_name).encode(
                        'ascii', 'ignore')
                    names = ['AP@{}IOU/{}'.format(0.5, category_name)]
                    names.append('CorLoc/%s' % category_name)
                    return names + ['x/' + category_name, f'{category_name}']
        """,
        after="""
            import unicodedata

            class Evaluator(object):

                def names(self, category_name):
                    try:
                        category_name = unicode(category_name, 'utf-8')
                    except TypeError:
                        pass
                    category_name = unicodedata.normalize('NFKD', category_name).encode(
                        'ascii', 'ignore').decode('ascii')
                    names = ['AP@{}IOU/{}'.format(0.5, category_name)]
                    names.append('CorLoc/%s' % category_name)
                    return names + ['x/' + category_name, f'{category_name}']
        """,
    ),
    Edit(
        # The loop of object_detection_evaluation.py: each pass names the category first.
        "in a loop that binds the name before reading it",
        before="""
            def metric_names(categories, names):
                for idx in range(len(categories)):
                    category_name = categories[idx]['name']
                    category_name = category_name.encode('ascii', 'ignore')
                    names.append('AP/{}'.format(category_name))
        """,
        after="""
            def metric_names(categories, names):
                for idx in range(len(categories)):
                    category_name = categories[idx]['name']
                    category_name = category_name.encode('ascii', 'ignore').decode('ascii')
                    names.append('AP/{}'.format(category_name))
        """,
        options={"tree_python2": "pkg/io.py: import StringIO (line 1)"},
    ),
    Edit(
        # The assignments are numbered alike on both sides, the one whose codec is no
        # literal included: before, the first was decoded with the second's codec.
        "the second of two encodings of a name, the first written as bytes",
        before="""
            import StringIO

            def f(x, y, codec, out):
                label = x.encode(codec)
                out.write(label)
                label = y.encode('ascii')
                print('{}'.format(label))
        """,
        after="""
            import StringIO

            def f(x, y, codec, out):
                label = x.encode(codec)
                out.write(label)
                label = y.encode('ascii').decode('ascii')
                print('{}'.format(label))
        """,
    ),
    Noop("a closure reads the bytes (a read the codemod does not follow)",
         "import StringIO\n\ndef f(x):\n    key = x.encode('ascii')\n    def g():\n"
         "        return key\n    print('{}'.format(key))\n    return g\n"),
    # models-research 2.8's object_detection_evaluation.py: written for Python 2 and 3.
    Noop("the Python 2 branch of code written for both",
         "from __future__ import print_function\nimport six\n\ndef name(category_name):\n"
         "    if six.PY2:\n        category_name = category_name.encode('ascii', 'ignore')\n"
         "    return 'AP/{}'.format(category_name)\n"),
    Noop("a loop that carries the bytes back to a read that is no formatting",
         "import StringIO\n\ndef f(xs, out):\n    name = ''\n    for x in xs:\n"
         "        out.write(name)\n        name = x.encode('ascii')\n"
         "        print('{}'.format(name))\n"),
    Noop("encoded text read as bytes too, or another way",
         "import StringIO\nimport sys\nkey = u'k'.encode('utf-8')\nname = 'n/{}'.format(key)\n"
         "sys.stdout.write(key)\n\n"
         "def f(x):\n    data = x.encode('utf-8')\n    return data\n\n"
         "def g(x, codec):\n    label = x.encode(codec)\n    return '%s' % label\n"),
    Noop("Python 3 code", "name = 'n/{}'.format(x.encode('ascii'))\n"
         "key = x.encode('ascii')\nprint('{}'.format(key))\n"),
]
