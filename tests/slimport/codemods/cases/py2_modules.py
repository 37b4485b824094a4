"""py2_modules: Python 2 standard-library modules and names -> Python 3's, or reported."""
from slimport.analysis.py2_code import PY2_MODULES
from slimport.codemods.py2_modules import RENAMED, SPLIT
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention

# Every module the codemod renames or reports is Python 2 evidence too.
assert set(RENAMED) | set(SPLIT) <= PY2_MODULES

CASES = [
    Edit(
        "renamed modules and names",
        before="""
            import cPickle
            import Queue as queue_lib
            from urlparse import urljoin
            from string import letters
            import os
            import string
            import urllib

            here = os.getcwdu()
            alphabet = string.lowercase + string.uppercase
            urllib.urlretrieve(urljoin(base, name), path)
            query = urllib.urlencode({'q': letters})
        """,
        after="""
            import pickle as cPickle
            import queue as queue_lib
            from urllib.parse import urljoin
            from string import ascii_letters as letters
            import os
            import string
            import urllib
            import urllib.parse
            import urllib.request

            here = os.getcwd()
            alphabet = string.ascii_lowercase + string.ascii_uppercase
            urllib.request.urlretrieve(urljoin(base, name), path)
            query = urllib.parse.urlencode({'q': letters})
        """,
    ),
    Reported(
        "split modules and names with no certain spelling",
        """
            import urllib2
            from ConfigParser import SafeConfigParser
            from string import maketrans
            import string
            import sys
            table = string.maketrans('ab', 'cd')
            sys.setdefaultencoding('utf-8')
        """,
        [attention(1, "`urllib2` is Python 2's", fix="urllib.request"),
         attention(2, "`ConfigParser` is Python 2's", fix="configparser"),
         attention(3, "from string import maketrans", fix="str.maketrans"),
         attention(6, "Python 3 has no string.maketrans", fix="bytes.maketrans"),
         attention(7, "sys.setdefaultencoding", fix="remove it")],
    ),
    # A file's own fallback works on Python 3 already.
    Noop("guarded imports",
         """
            try:
                import cPickle as pickle
            except ImportError:
                import pickle
            try:
                from urllib2 import urlopen
            except (ImportError, AttributeError):
                from urllib.request import urlopen
         """),
    Noop("python 3 names, another module as string",
         "import string\nimport mystrings as strings\nx = string.ascii_letters\n"
         "y = strings.letters\nimport queue\n"),
]
