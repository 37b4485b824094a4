"""device_spec: TF1's mutable DeviceSpec in TF1 code -> tf.compat.v1.DeviceSpec, however reached."""
from tests.slimport.codemods.cases import Edit, Noop

CASES = [
    Edit(
        "cifar10_estimator's local_device_setter",
        # tensorflow/models' cifar10_utils.py: the internal module, merged in place.
        before="""
            import tensorflow as tf
            from tensorflow.python.framework import device as pydev

            class RunConfig(tf.contrib.learn.RunConfig):
                pass

            def chooser(op):
                current = pydev.DeviceSpec.from_string(op.device or "")
                spec = pydev.DeviceSpec.from_string('/cpu:0')
                spec.merge_from(current)
                return spec.to_string()
        """,
        after="""
            import tensorflow as tf

            class RunConfig(tf.contrib.learn.RunConfig):
                pass

            def chooser(op):
                current = tf.compat.v1.DeviceSpec.from_string(op.device or "")
                spec = tf.compat.v1.DeviceSpec.from_string('/cpu:0')
                spec.merge_from(current)
                return spec.to_string()
        """,
    ),
    Edit(
        "the module stays while it is used for more",
        before="""
            import tensorflow as tf
            import tensorflow.python.framework.device as pydev
            x = tf.placeholder(tf.float32)
            spec = pydev.DeviceSpec(job='ps')
            name = pydev.canonical_name(spec)
        """,
        after="""
            import tensorflow as tf
            import tensorflow.python.framework.device as pydev
            x = tf.placeholder(tf.float32)
            spec = tf.compat.v1.DeviceSpec(job='ps')
            name = pydev.canonical_name(spec)
        """,
    ),
    Edit(
        "imported names",
        before="""
            import tensorflow as tf
            from tensorflow.python.framework.device import DeviceSpec
            from tensorflow.python.framework.device import DeviceSpec as Spec, canonical_name
            from tensorflow import DeviceSpec as PublicSpec
            x = tf.placeholder(tf.float32)
        """,
        after="""
            import tensorflow as tf
            from tensorflow.compat.v1 import DeviceSpec
            from tensorflow.python.framework.device import canonical_name
            from tensorflow.compat.v1 import DeviceSpec as Spec
            from tensorflow.compat.v1 import DeviceSpec as PublicSpec
            x = tf.placeholder(tf.float32)
        """,
    ),
    Edit(
        "tf.DeviceSpec in a file with tf1 and tf2 uses",
        # compat_v1 leaves a name both APIs have as TF2's in a mixed file; TF1's was the
        # mutable one.
        before="""
            import tensorflow as tf
            x = tf.placeholder(tf.float32)
            y = tf.image.resize(x, [2, 2], antialias=True)
            spec = tf.DeviceSpec(job='worker')
            spec.task = 1
        """,
        after="""
            import tensorflow as tf
            x = tf.placeholder(tf.float32)
            y = tf.image.resize(x, [2, 2], antialias=True)
            spec = tf.compat.v1.DeviceSpec(job='worker')
            spec.task = 1
        """,
    ),
    Edit(
        "merge_from makes a helper module tf1 code",
        # No other TF1 sign: only TF1's DeviceSpec has merge_from.
        before="""
            from tensorflow.python.framework import device as pydev

            def merged(device, current):
                spec = pydev.DeviceSpec.from_string(device)
                spec.merge_from(pydev.DeviceSpec.from_string(current))
                return spec.to_string()
        """,
        after="""
            import tensorflow

            def merged(device, current):
                spec = tensorflow.compat.v1.DeviceSpec.from_string(device)
                spec.merge_from(tensorflow.compat.v1.DeviceSpec.from_string(current))
                return spec.to_string()
        """,
    ),
    # TF2 code: DeviceSpec is TF2's there, and it runs on TF 2.21 as it is.
    Noop("tf2's replace",
         "import tensorflow as tf\n"
         "spec = tf.DeviceSpec.from_string('/cpu:0').replace(job='ps')\n"),
    Noop("the internal module in tf2 code",
         "from tensorflow.python.framework import device as pydev\n"
         "spec = pydev.DeviceSpec.from_string('/gpu:0').make_merged_spec(other)\n"),
    Noop("a tf.function",
         "import tensorflow as tf\n@tf.function\ndef f(x):\n    return tf.DeviceSpec(job='w')\n"),
    # TF1's class already.
    Noop("compat.v1's tf",
         "import tensorflow.compat.v1 as tf\nx = tf.placeholder(tf.float32)\n"
         "spec = tf.DeviceSpec(job='ps')\nspec.merge_from(other)\n"),
    Noop("tf.compat.v1.DeviceSpec",
         "import tensorflow as tf\nx = tf.placeholder(tf.float32)\n"
         "spec = tf.compat.v1.DeviceSpec(job='ps')\nspec.merge_from(other)\n"),
    # Not TensorFlow's.
    Noop("a class of the file's own",
         "import tensorflow as tf\nx = tf.placeholder(tf.float32)\n"
         "class DeviceSpec:\n    pass\nspec = DeviceSpec()\nspec.merge_from(x)\n"),
    Noop("a parameter named pydev",
         "import tensorflow as tf\nfrom tensorflow.python.framework import device as pydev\n"
         "x = tf.placeholder(tf.float32)\ny = pydev.canonical_name(x)\n"
         "def f(pydev):\n    return pydev.DeviceSpec()\n"),
]
