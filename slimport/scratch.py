"""What the engine hands each codemod in libcst's ``CodemodContext.scratch``.

Both are optional: a codemod run by ``python -m libcst.tool codemod`` gets neither
and works them out itself (``SlimportCodemod.file_ast`` / ``source_line_of``).
"""

# (libcst module, its stdlib ast): the engine parsed the text already.
AST_KEY = "slimport.ast"
# line of the module handed to the codemod (a skeleton, say) -> line of the user's file.
SOURCE_LINE_KEY = "slimport.source_line"
