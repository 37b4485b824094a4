"""moxing: moxing.tensorflow becomes slim_ext.mox, keeping local names; MoXing names slim_ext
does not provide are reported, never rewritten."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention, edit

TEXT_PRECHECK = {
    "import mox\nmox.run()\n": False,
    "import moxing.tensorflow as mox\n": True,
}

CASES = [
    Edit(
        "import moxing.tensorflow as mox",
        before="""
            import tensorflow as tf
            import moxing.tensorflow as mox  # MoXing

            mox.run(input_fn=input_fn, model_fn=model_fn, run_mode=mox.ModeKeys.TRAIN)
        """,
        after="""
            import tensorflow as tf
            import slim_ext.mox as mox  # MoXing

            mox.run(input_fn=input_fn, model_fn=model_fn, run_mode=mox.ModeKeys.TRAIN)
        """,
    ),
    Edit(
        "import moxing.tensorflow without alias",
        before="""
            import moxing.tensorflow

            spec = moxing.tensorflow.ModelSpec(loss=loss)
            moxing.tensorflow.run(input_fn, model_fn, run_mode=moxing.tensorflow.ModeKeys.EVAL)
        """,
        after="""
            import slim_ext.mox

            spec = slim_ext.mox.ModelSpec(loss=loss)
            slim_ext.mox.run(input_fn, model_fn, run_mode=slim_ext.mox.ModeKeys.EVAL)
        """,
    ),
    Edit(
        "from moxing import tensorflow as mox",
        before="""
            from moxing import tensorflow as mox

            opt = mox.get_optimizer_fn('sgd', learning_rate=0.5)
        """,
        after="""
            from slim_ext import mox

            opt = mox.get_optimizer_fn('sgd', learning_rate=0.5)
        """,
    ),
    Edit(
        "from moxing import tensorflow keeps the name",
        before="""
            from moxing import tensorflow

            tensorflow.run(input_fn, model_fn)
        """,
        after="""
            from slim_ext import mox as tensorflow

            tensorflow.run(input_fn, model_fn)
        """,
    ),
    Edit(
        "from moxing.tensorflow import names",
        before="""
            from moxing.tensorflow import ModelSpec, ModeKeys, run as mox_run
        """,
        after="""
            from slim_ext.mox import ModelSpec, ModeKeys, run as mox_run
        """,
    ),
    Edit(
        "the export names are provided",
        before="""
            import moxing.tensorflow as mox

            spec = mox.ExportSpec(inputs_dict={'images': x}, outputs_dict={'logits': y})
            mox.run(input_fn, model_fn, export_model=mox.ExportKeys.TF_SERVING)
        """,
        after="""
            import slim_ext.mox as mox

            spec = mox.ExportSpec(inputs_dict={'images': x}, outputs_dict={'logits': y})
            mox.run(input_fn, model_fn, export_model=mox.ExportKeys.TF_SERVING)
        """,
    ),
    Edit(
        "from import splits off what slim_ext lacks",
        before="""
            from moxing.tensorflow import EarlyStoppingHook, ModelSpec, run
        """,
        after="""
            from moxing.tensorflow import EarlyStoppingHook
            from slim_ext.mox import ModelSpec
            from slim_ext.mox import run
        """,
        findings=[attention(1, "moxing.tensorflow.EarlyStoppingHook: MoXing's "
                               "EarlyStoppingHook has no")],
    ),
    Edit(
        "star import",
        before="from moxing.tensorflow import *\n",
        after="from slim_ext.mox import *\n",
    ),
    Edit(
        "import moxing as mox for the file api",
        before="""
            import moxing as mox

            mox.file.copy_parallel('/cache/data', '/cache/copy')
            mox.tensorflow.run(input_fn, model_fn)
        """,
        after="""
            import slim_ext.mox as mox

            mox.file.copy_parallel('/cache/data', '/cache/copy')
            mox.run(input_fn, model_fn)
        """,
    ),
    Edit(
        "file module imports",
        before="""
            from moxing.framework import file
            from moxing import file as mox_file
            import moxing.framework.file as obs

            file.copy(a, b); mox_file.exists(a); obs.read(a, binary=True)
        """,
        after="""
            from slim_ext.mox import file
            from slim_ext.mox import file as mox_file
            import slim_ext.mox.file as obs

            file.copy(a, b); mox_file.exists(a); obs.read(a, binary=True)
        """,
    ),
    Edit(
        "alias assignment keeps working",
        before="""
            import moxing.tensorflow

            mox = moxing.tensorflow
            mox.run(input_fn, model_fn)
        """,
        after="""
            import slim_ext.mox

            mox = slim_ext.mox
            mox.run(input_fn, model_fn)
        """,
    ),
    Edit(
        "import inside a function",
        before="""
            def main():
                import moxing.tensorflow as mox
                return mox.ModeKeys.TRAIN
        """,
        after="""
            def main():
                import slim_ext.mox as mox
                return mox.ModeKeys.TRAIN
        """,
    ),
    Edit(
        "unprovided use is left and reported",
        before="""
            import moxing.tensorflow as mox

            hook = mox.EarlyStoppingHook(monitor='accuracy')
            mox.run(input_fn, model_fn)
        """,
        after="""
            import slim_ext.mox as mox

            hook = mox.EarlyStoppingHook(monitor='accuracy')
            mox.run(input_fn, model_fn)
        """,
        findings=[attention(3, "mox.EarlyStoppingHook: MoXing's EarlyStoppingHook has no "
                               "slim_ext counterpart", fix="takes no session hooks")],
    ),
    Edit(
        "every edit and report has its line and fix",
        before="""
            import moxing.tensorflow
            from moxing.tensorflow import get_model_fn, ModelSpec

            spec = moxing.tensorflow.ModelSpec
            data = moxing.tensorflow.get_dataset('mnist')
            moxing.tensorflow.file.set_auth(ak='x', sk='y')
        """,
        after="""
            import slim_ext.mox
            from moxing.tensorflow import get_model_fn
            from slim_ext.mox import ModelSpec

            spec = slim_ext.mox.ModelSpec
            data = moxing.tensorflow.get_dataset('mnist')
            moxing.tensorflow.file.set_auth(ak='x', sk='y')
        """,
        findings=[
            edit(1, "import moxing.tensorflow -> import slim_ext.mox"),
            attention(2, "moxing.tensorflow.get_model_fn:", fix="tf_slim.nets"),
            edit(2, "from moxing.tensorflow import get_model_fn, ModelSpec -> "
                    "from slim_ext.mox import ModelSpec"),
            edit(4, "moxing.tensorflow.ModelSpec -> slim_ext.mox.ModelSpec"),
            attention(5, "MoXing's get_dataset has no slim_ext counterpart (slim_ext.mox "
                         "provides ExportKeys, ExportSpec, ModeKeys, ModelSpec, file",
                      fix="tf.data"),
            attention(6, "moxing.tensorflow.file.set_auth:", fix="no OBS credentials"),
        ],
    ),
    Edit(
        "crlf line endings survive an edit",
        before="import sys\r\nimport moxing.tensorflow as mox\r\nmox.run(f, g)\r\n",
        after="import sys\r\nimport slim_ext.mox as mox\r\nmox.run(f, g)\r\n",
    ),
    # The import itself is ported; the rebound name is not MoXing any more.
    Edit(
        "mox rebound at module level",
        before="import moxing.tensorflow as mox\nmox = load_plugin()\nmox.ExportSpec()\n",
        after="import slim_ext.mox as mox\nmox = load_plugin()\nmox.ExportSpec()\n",
    ),
    Reported(
        "an unprovided import stays a moxing import",
        "import moxing.pytorch as mox_torch\nmodel = mox_torch.models()\n",
        [attention(1, "moxing.pytorch: MoXing's pytorch has no slim_ext counterpart"),
         attention(2, "mox_torch.models: MoXing's pytorch has no slim_ext counterpart")],
    ),
    Noop("no moxing",
         "import tensorflow as tf\nx = tf.zeros([1])  # moxing\n"),
    Noop("already ported",
         "import slim_ext.mox as mox\n\n# was moxing.tensorflow\nmox.run(input_fn, model_fn)\n"),
    Noop("mox from another library",
         "from mylib import mox\nmox.run()  # not moxing\n"),
    Noop("moxing in strings only",
         "HELP = 'import moxing.tensorflow as mox'\n"),
    Noop("relative import",
         "from .moxing import tensorflow as mox\nmox.run()\n"),
    Noop("module named like moxing",
         "import moxing_utils as mox\nmox.run()\n"),
]
