"""sdk_imports: the platform SDK's uflag / uai_dist -> slim_ext.uai, only when the tree lacks the
SDK's uaitrain/ folder."""
from slimport.analysis.source_tree import SourceTree
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention, edit

SCRIPT = "/src/tree/train_image_classifier.py"
# The tree of the train script, without and with the SDK's folder.
WITHOUT_SDK = SourceTree(frozenset({"/src/tree", "/src/tree/train_image_classifier",
                                    "/src/tree/nets"}))
WITH_SDK = SourceTree(WITHOUT_SDK.paths | {"/src/tree/uaitrain",
                                           "/src/tree/uaitrain/arch/tensorflow/uflag"})
# The train script, as the engine ports it in a tree without the SDK.
IN_THE_TREE = {"tree": WITHOUT_SDK, "path": SCRIPT}

# (before, after) without the SDK folder.
BEFORE_AFTER = {
    "from_package_import_modules": (
        """\
        from uaitrain.arch.tensorflow import uflag      # defines the platform flags
        from uaitrain.arch.tensorflow import uai_dist   # reads the platform TF_CONFIG
        """,
        """\
        from slim_ext.uai import uflag      # defines the platform flags
        from slim_ext.uai import uai_dist   # reads the platform TF_CONFIG
        """,
    ),
    "both_modules_on_one_line": (
        "from uaitrain.arch.tensorflow import uflag, uai_dist as dist\n",
        "from slim_ext.uai import uflag, uai_dist as dist\n",
    ),
    "import_module_as": (
        "import uaitrain.arch.tensorflow.uflag as uflag\n",
        "import slim_ext.uai.uflag as uflag\n",
    ),
    "from_module_import_parser": (
        """\
        from uaitrain.arch.tensorflow.uai_dist import UAITensorFlowDistRunConfigParser

        config = UAITensorFlowDistRunConfigParser()
        """,
        """\
        from slim_ext.uai.uai_dist import UAITensorFlowDistRunConfigParser

        config = UAITensorFlowDistRunConfigParser()
        """,
    ),
    "bare_dotted_imports_spelled_out_at_their_uses": (
        """\
        import uaitrain.arch.tensorflow.uflag
        import uaitrain.arch.tensorflow.uai_dist

        def main(_):
          parser = uaitrain.arch.tensorflow.uai_dist.UAITensorFlowDistRunConfigParser()
          return parser, uaitrain.arch.tensorflow.uflag.FLAGS.data_dir
        """,
        """\
        import slim_ext.uai.uflag
        import slim_ext.uai.uai_dist

        def main(_):
          parser = slim_ext.uai.uai_dist.UAITensorFlowDistRunConfigParser()
          return parser, slim_ext.uai.uflag.FLAGS.data_dir
        """,
    ),
    "import_in_a_function": (
        """\
        def start():
          from uaitrain.arch.tensorflow import uai_dist
          return uai_dist.UAITensorFlowDistRunConfigParser()
        """,
        """\
        def start():
          from slim_ext.uai import uai_dist
          return uai_dist.UAITensorFlowDistRunConfigParser()
        """,
    ),
}

CASES = [
    *[Edit(name.replace("_", " "), before, after, **IN_THE_TREE)
      for name, (before, after) in BEFORE_AFTER.items()],
    Edit(
        "the edit names the mapping at its line",
        before="import os\nfrom uaitrain.arch.tensorflow import uflag\n",
        after="import os\nfrom slim_ext.uai import uflag\n",
        findings=[edit(2, "from uaitrain.arch.tensorflow import uflag -> "
                          "from slim_ext.uai import uflag")],
        **IN_THE_TREE,
    ),
    # A uaitrain/ folder in a sibling directory is not where the script's imports look.
    Edit(
        "the sdk beside the tree is not the tree's",
        before="from uaitrain.arch.tensorflow import uflag\n",
        after="from slim_ext.uai import uflag\n",
        tree=SourceTree(WITHOUT_SDK.paths | {"/src/other/uaitrain"}), path=SCRIPT,
    ),
    Edit(
        "a use the stand-in lacks is reported and the rest moves",
        before="""
            from uaitrain.arch.tensorflow import uflag

            uflag.register_extra_flags()
            print(uflag.FLAGS.data_dir)
        """,
        after="""
            from slim_ext.uai import uflag

            uflag.register_extra_flags()
            print(uflag.FLAGS.data_dir)
        """,
        findings=[edit(1), attention(3, "uaitrain.arch.tensorflow.uflag.register_extra_flags")],
        **IN_THE_TREE,
    ),
    Reported(
        "a file on its own is left and reported",
        "from uaitrain.arch.tensorflow import uflag\n\nprint(uflag.FLAGS.data_dir)\n",
        [attention(1, "not known when a file is ported on its own", fix="slimport rewrite")],
    ),
    # Other SDK packages and modules, the package itself (its modules are attributes only
    # once imported), a name the stand-in does not have: reported, not moved.
    *[Reported(
        f"another sdk name: {source.strip()}",
        source,
        [attention(1, f"{reported}: the tree has no uaitrain/ folder",
                   fix="copy the SDK's uaitrain/ folder into the tree")],
        **IN_THE_TREE,
    ) for source, reported in [
        ("import uaitrain.api.operation as operation\n", "uaitrain.api.operation"),
        ("from uaitrain.arch.tensorflow import uai_train_utils\n",
         "uaitrain.arch.tensorflow.uai_train_utils"),
        ("from uaitrain.arch.pytorch import uflag\n", "uaitrain.arch.pytorch.uflag"),
        ("import uaitrain.arch.tensorflow as uai\n", "uaitrain.arch.tensorflow"),
        ("from uaitrain.arch import tensorflow\n", "uaitrain.arch.tensorflow"),
        ("from uaitrain.arch.tensorflow.uflag import define_more\n",
         "uaitrain.arch.tensorflow.uflag.define_more"),
    ]],
    # The plain package import and other code.
    Noop("no sdk import", "import os\nfrom nets import nets_factory  # uaitrain\n", **IN_THE_TREE),
    Noop("already ported", "from slim_ext.uai import uflag, uai_dist\n", **IN_THE_TREE),
    Noop("a module of the same name elsewhere", "from mylib.arch.tensorflow import uflag\n",
         **IN_THE_TREE),
    Noop("a local uaitrain variable",
         "def f(uaitrain):\n  return uaitrain.arch.tensorflow.uflag\n", **IN_THE_TREE),
    # The tree's own SDK is kept, for its train script and for a module in a subdirectory
    # (Python finds uaitrain/ above it).
    *[Noop(f"the tree's own sdk, {where}: {name.replace('_', ' ')}", before,
           tree=WITH_SDK, path=path)
      for where, path in [("its script", SCRIPT),
                          ("a module in a subdirectory", "/src/tree/nets/nets_factory.py")]
      for name, (before, _) in BEFORE_AFTER.items()],
]
