"""py2_methods: Python 2 special methods and function attributes -> Python 3's."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention

CASES = [
    Edit(
        "special methods and function attributes",
        before="""
            from __future__ import print_function


            class Batch(object):

                def __nonzero__(self):
                    return bool(self.items)

                def __div__(self, n):
                    return Batch(self.items[::n])


            def describe(fn, method):
                return fn.func_name, method.im_func.func_code, method.im_self
        """,
        after="""
            from __future__ import print_function


            class Batch(object):

                def __nonzero__(self):
                    return bool(self.items)
                __bool__ = __nonzero__

                def __div__(self, n):
                    return Batch(self.items[::n])
                __truediv__ = __div__


            def describe(fn, method):
                return fn.__name__, method.__func__.__code__, method.__self__
        """,
    ),
    Reported(
        "__cmp__ and im_class",
        """
            from __future__ import division


            class Version(object):
                def __cmp__(self, other):
                    return 0


            owner = method.im_class
        """,
        [attention(4, "defines __cmp__", fix="__eq__ and __lt__"),
         attention(9, "im_class", fix="type(m.__self__)")],
    ),
    # Written for both already; an attribute the file sets itself; Python 3 code.
    Noop("python 2 code written for both, its own attributes",
         """
            from __future__ import division


            class Box(object):
                def __nonzero__(self):
                    return True
                __bool__ = __nonzero__


            class Task(object):
                def __init__(self, fn):
                    self.func_name = fn.__name__

            name = task.func_name
         """),
    # (A class with __nonzero__ alone is Python 2 evidence itself.)
    Noop("python 3 code", "name = f.func_name\nowner = m.im_func\n"),
]
