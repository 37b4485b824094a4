"""What ``slim_ext.mox``, the stand-in for ``moxing.tensorflow``, provides.

The ``moxing`` codemod ports imports onto ``MOX_MODULE`` and reports every other
MoXing name it finds; slim_ext/mox defines exactly these names
(tests/slim_ext/test_mox.py checks both ways).
"""

MOX_MODULE = "slim_ext.mox"
MOX_NAMES = frozenset({
    "ExportKeys", "ExportSpec", "ModeKeys", "ModelSpec", "file", "get_flag",
    "get_optimizer_fn", "run", "set_flag",
})
MOX_FILE_NAMES = frozenset({
    "File", "append", "copy", "copy_parallel", "exists", "get_size", "glob",
    "is_directory", "list_directory", "make_dirs", "mk_dir", "read", "remove",
    "rename", "walk", "write",
})
