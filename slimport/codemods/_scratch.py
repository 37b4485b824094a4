"""What the engine hands each codemod in libcst's ``CodemodContext.scratch``.

All are optional: a codemod run by ``python -m libcst.tool codemod`` gets neither
and works them out itself (``SlimportCodemod.file_ast`` / ``source_line_of``).
"""

# (libcst module, its stdlib ast): the engine parsed the text already.
AST_KEY = "slimport.ast"
# line of the module handed to the codemod (a skeleton, say) -> line of the user's file.
SOURCE_LINE_KEY = "slimport.source_line"
# the stdlib ast of the user's file before any codemod: what earlier codemods rewrote
# (tf.app.flags, tf.contrib, MoXing) still says there whether the file is TF1 code.
ORIGINAL_AST_KEY = "slimport.original_ast"
# The tree being ported, for a codemod whose edit depends on what else is in it (is
# the platform SDK's folder there?): ``source_tree.SourceTree``. Absent when the
# codemod ports a file on its own (libcst.tool, ``port_source`` without a tree).
TREE_KEY = "slimport.tree"
