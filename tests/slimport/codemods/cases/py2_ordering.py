"""py2_ordering: Python 2 code's sorts of lists that can hold None; sort(cmp=...)."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention

CASES = [
    Edit(
        # A held-out project's checkpoint-variable matcher (4 of its tests).
        "a list that can hold None, sorted",
        before="""
            from __future__ import print_function

            def conv_names(d):
                conv_list = [k if k[:4] == 'conv' else None for k in d]
                conv_list.sort()
                return conv_list

            scores = [None] * 3
            best = max(scores)
            kept = []
            kept.append(None)
            ordered = sorted(kept, reverse=True)
        """,
        after="""
            from __future__ import print_function
            import slim_ext.py2

            def conv_names(d):
                conv_list = [k if k[:4] == 'conv' else None for k in d]
                conv_list.sort(key=slim_ext.py2.sort_key)
                return conv_list

            scores = [None] * 3
            best = max(scores, key=slim_ext.py2.sort_key)
            kept = []
            kept.append(None)
            ordered = sorted(kept, reverse=True, key=slim_ext.py2.sort_key)
        """,
    ),
    Edit(
        "sort with cmp, the builtin cmp",
        before="""
            names.sort(cmp=lambda a, b: cmp(len(a), len(b)))
            ranked = sorted(scores, cmp=compare, reverse=True)
        """,
        after="""
            import functools
            import slim_ext.py2

            names.sort(key=functools.cmp_to_key(lambda a, b: slim_ext.py2.cmp(len(a), len(b))))
            ranked = sorted(scores, key=functools.cmp_to_key(compare), reverse=True)
        """,
    ),
    Reported(
        "slim_ext is another name here",
        "import xrange_helpers as slim_ext\nx = [None, xrange(1)]\nx.sort()\n",
        [attention(3, "can hold None", fix="key=slim_ext.py2.sort_key")],
    ),
    # Python 3 code: the same sort stays (it fails there unless no None gets in).
    Noop("python 3 code",
         "def conv_names(d):\n    conv_list = [k if k[:4] == 'conv' else None for k in d]\n"
         "    conv_list.sort()\n    return conv_list\n"),
    # Python 2 code whose sorted lists hold no None, or that sorts with a key.
    Noop("python 2 code: no None, a key of its own, a rebound sorted",
         """
            from __future__ import division
            names = [k for k in d if k]
            names.sort()
            maybe = [None, 'a']
            maybe.sort(key=str)
            first = min(maybe, key=len)

            def sorted(xs):
                return xs

            other = sorted(maybe)

            def cmp(a, b):
                return 0

            same = cmp(maybe, names)
        """),
]
