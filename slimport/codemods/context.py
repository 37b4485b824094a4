"""What the engine hands each codemod in libcst's ``CodemodContext.scratch``.

All are optional: a codemod run by ``python -m libcst.tool codemod`` gets none and
works them out itself (``SlimportCodemod.file_ast`` / ``source_line_of`` /
``original_ast``). Facts about the whole tree come another way: as keyword arguments
(``tree_facts``).
"""

# (libcst module, a function giving its stdlib ast): the engine has the text, and
# parses it once, when a codemod first asks.
AST_KEY = "slimport.ast"
# line of the module handed to the codemod (a skeleton, say) -> line of the user's file.
SOURCE_LINE_KEY = "slimport.source_line"
# the stdlib ast of the user's file before any codemod: what earlier codemods rewrote
# (tf.app.flags, tf.contrib, MoXing) still says there whether the file is TF1 code.
ORIGINAL_AST_KEY = "slimport.original_ast"
# slimport.analysis.lines.ModuleCodes: the codes of the module's top-level statements,
# kept over the run of codemods (a finding's line is found by generating its statement).
CODES_KEY = "slimport.module_codes"
