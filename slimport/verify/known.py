"""Names verify recognises in a failure: what to install, and what is Python 2.

Plain tables, no TensorFlow: import name -> the distribution to ``pip install``
(a pip line is printed only for the names listed here: a PyPI project that shares
a tree's module name, ``utils`` or ``evaluation``, is an unrelated one), where
trees that are not on PyPI come from, the
Python 2 modules, builtins and attributes that TF1-era trees still use, and the
numpy aliases numpy 2 removed (TensorFlow 2.21 runs on numpy 2).
"""
from typing import Optional, Tuple

# Import name -> PyPI distribution. The longest dotted
# prefix of a missing module wins (google.protobuf before google).
DISTRIBUTIONS = {
    "cv2": "opencv-python-headless",
    "PIL": "pillow",
    "sklearn": "scikit-learn",
    "skimage": "scikit-image",
    "yaml": "PyYAML",
    "bs4": "beautifulsoup4",
    "dateutil": "python-dateutil",
    "google.protobuf": "protobuf",
    "Crypto": "pycryptodome",
    "attr": "attrs",
    "jwt": "PyJWT",
    "git": "GitPython",
    "serial": "pyserial",
    "usb": "pyusb",
    "OpenSSL": "pyOpenSSL",
    "magic": "python-magic",
    "docx": "python-docx",
    "Levenshtein": "python-Levenshtein",
    "gflags": "python-gflags",
    "IPython": "ipython",
    "absl": "absl-py",
    "tf_slim": "tf-slim",
    "tf_keras": "tf-keras",
    "tensorflow_hub": "tensorflow-hub",
    "tensorflow_datasets": "tensorflow-datasets",
    "tensorflow_probability": "tensorflow-probability",
    "tensorflow_addons": "tensorflow-addons",
    "tensorflow_text": "tensorflow-text",
    "apache_beam": "apache-beam",
    "pycocotools": "pycocotools",
    "tensorflow_estimator": "tensorflow-estimator",
    "tensorflow_model_optimization": "tensorflow-model-optimization",
    "tensorflow_io": "tensorflow-io",
    "tensorflow_serving": "tensorflow-serving-api",
    "google.cloud.storage": "google-cloud-storage",
    "googleapiclient": "google-api-python-client",
    "zmq": "pyzmq",
    "skvideo": "scikit-video",
    "Bio": "biopython",
    "past": "future",
    "pyximport": "Cython",
    "shapely": "shapely",
    "easydict": "easydict",
    "imgaug": "imgaug",
    "lmdb": "lmdb",
    "editdistance": "editdistance",
    "termcolor": "termcolor",
    "tabulate": "tabulate",
    "flask": "Flask",
    "werkzeug": "Werkzeug",
    "moviepy": "moviepy",
    "SimpleITK": "SimpleITK",
}

# Import names of PyPI packages installed under the same name that TF-era trees
# (and the packages verify is run on) import. A missing one is a missing package,
# even when the tree happens to hold a module of that name (keras has
# keras/src/backend/jax/ and a test importing the real jax).
COMMON_PACKAGES = frozenset({
    "numpy", "scipy", "pandas", "matplotlib", "h5py", "six", "mock", "tqdm", "requests",
    "lxml", "contextlib2", "dlib", "imageio", "torch", "torchvision", "jax", "jaxlib",
    "flax", "optax", "onnx", "onnxruntime", "openvino", "grain", "tensorflow",
    "tensorboard", "tf2onnx", "pytest", "nose", "pydot", "graphviz", "sympy", "numba",
    "Cython", "seaborn", "nltk", "gensim", "jieba", "boto3", "redis", "psutil", "absl",
    "tf_keras", "keras", "tf_slim",
})

# Top-level packages of trees that are not on PyPI: where to get them.
_RESEARCH_SLIM = ("research/slim of github.com/tensorflow/models (not on PyPI): "
                  "check it out and give its directory with --path")
ELSEWHERE = {
    # slimport is not on PyPI either; slim_ext is part of it.
    "slim_ext": "slim_ext is part of slimport (not on PyPI): in a clone of slimport, "
                "pip install '.[tf]' with the Python that runs the checks",
    "nets": _RESEARCH_SLIM,
    "deployment": _RESEARCH_SLIM,
    "preprocessing": _RESEARCH_SLIM,
    "datasets": _RESEARCH_SLIM,
}

# Python 2 standard modules -> their Python 3 names.
PY2_MODULES = {
    "urllib2": "urllib.request", "urlparse": "urllib.parse", "cPickle": "pickle",
    "StringIO": "io", "cStringIO": "io", "Queue": "queue", "ConfigParser": "configparser",
    "httplib": "http.client", "HTMLParser": "html.parser", "Tkinter": "tkinter",
    "__builtin__": "builtins", "thread": "_thread", "cookielib": "http.cookiejar",
    "commands": "subprocess", "SocketServer": "socketserver", "xmlrpclib": "xmlrpc.client",
    "copy_reg": "copyreg", "htmlentitydefs": "html.entities", "robotparser":
    "urllib.robotparser", "UserDict": "collections", "md5": "hashlib", "sets": "set",
}

# Python 2 builtins -> what Python 3 code uses.
PY2_BUILTINS = {
    "xrange": "range", "unicode": "str", "basestring": "str", "long": "int",
    "unichr": "chr", "raw_input": "input", "reduce": "functools.reduce", "file": "open",
    "execfile": "exec(open(path).read())", "cmp": "(a > b) - (a < b)",
    "buffer": "memoryview", "reload": "importlib.reload", "intern": "sys.intern",
    "apply": "f(*args, **kwargs)",
}

# Attributes that only Python 2 objects had -> the Python 3 spelling.
PY2_ATTRIBUTES = {
    "iteritems": "items()", "itervalues": "values()", "iterkeys": "keys()",
    "has_key": "`key in d`", "maxint": "sys.maxsize", "getcwdu": "os.getcwd()",
    "izip": "zip", "imap": "map", "ifilter": "filter", "izip_longest":
    "itertools.zip_longest", "letters": "string.ascii_letters", "lowercase":
    "string.ascii_lowercase", "uppercase": "string.ascii_uppercase",
    "maketrans": "str.maketrans", "func_name": "__name__", "im_func": "__func__",
}

# numpy names removed in numpy 2 (most were deprecated aliases since 1.20).
NUMPY_REMOVED = {
    "int": "int", "float": "float", "bool": "bool", "object": "object", "str": "str",
    "long": "int", "unicode": "str", "complex": "complex", "float_": "np.float64",
    "complex_": "np.complex128", "string_": "np.bytes_", "unicode_": "np.str_",
    "asscalar": "a.item()", "product": "np.prod", "cumproduct": "np.cumprod",
    "alltrue": "np.all", "sometrue": "np.any", "round_": "np.round", "NaN": "np.nan",
    "NAN": "np.nan", "Inf": "np.inf", "PINF": "np.inf", "NINF": "-np.inf",
    "infty": "np.inf", "in1d": "np.isin", "trapz": "np.trapezoid",
}


def is_package_name(module: str) -> bool:
    """True when the top-level name is one verify knows to be a PyPI package (or research/slim)."""
    top = module.split(".")[0]
    return top in COMMON_PACKAGES or top in ELSEWHERE or any(
        name.split(".")[0] == top for name in DISTRIBUTIONS)


def distribution(module: str) -> Tuple[Optional[str], Optional[str]]:
    """What provides a missing module: ``(pip distribution, None)``, ``(None, where)``,
    or ``(None, None)`` when verify does not know.

    Args:
      module: the missing module's dotted name (``cv2``, ``google.protobuf.text_format``).

    Returns:
      The PyPI distribution to install, for import names this module lists (a
      name alone says nothing: PyPI's ``utils`` or ``evaluation`` are unrelated
      projects), or where trees that are not on PyPI come from.
    """
    top = module.split(".")[0]
    if top in ELSEWHERE:
        return None, ELSEWHERE[top]
    parts = module.split(".")
    for length in range(len(parts), 0, -1):
        prefix = ".".join(parts[:length])
        if prefix in DISTRIBUTIONS:
            return DISTRIBUTIONS[prefix], None
    return (top, None) if top in COMMON_PACKAGES else (None, None)
