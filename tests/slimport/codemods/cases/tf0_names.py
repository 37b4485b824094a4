"""tf0_names: TensorFlow 0.x names -> TF1 names, changed arguments ported only when certain."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention, edit

CASES = [
    Edit(
        "renamed math ops nest",
        before="""
            import tensorflow as tf

            y = tf.mul(tf.sub(a, b), tf.neg(c))
            s = tf.pack([a, b], axis=1)
            a2, b2 = tf.unpack(s, axis=1)
            z = tf.select(cond, a, e=b)
        """,
        after="""
            import tensorflow as tf

            y = tf.multiply(tf.subtract(a, b), tf.negative(c))
            s = tf.stack([a, b], axis=1)
            a2, b2 = tf.unstack(s, axis=1)
            z = tf.where(cond, a, y=b)
        """,
    ),
    # TF2's tf.summary.scalar is another function; compat_v1 shortens the path
    # again when it switches the file to tensorflow.compat.v1.
    Edit(
        "summaries and writer go through compat.v1",
        before="""
            import tensorflow as tf

            tf.scalar_summary('loss', loss)
            tf.image_summary('images', images, max_images=4)
            merged = tf.merge_all_summaries()
            writer = tf.train.SummaryWriter(logdir, sess.graph)
        """,
        after="""
            import tensorflow as tf

            tf.compat.v1.summary.scalar('loss', loss)
            tf.compat.v1.summary.image('images', images, max_outputs=4)
            merged = tf.compat.v1.summary.merge_all()
            writer = tf.compat.v1.summary.FileWriter(logdir, sess.graph)
        """,
    ),
    Edit(
        "compat.v1 tf stays short",
        before="""
            import tensorflow.compat.v1 as tf

            tf.histogram_summary('w', w)
            tf.contrib.deprecated.scalar_summary('lr', lr)
        """,
        after="""
            import tensorflow.compat.v1 as tf

            tf.summary.histogram('w', w)
            tf.summary.scalar('lr', lr)
        """,
    ),
    Edit(
        "positional arguments whose meaning moved become keywords",
        before="""
            import tensorflow as tf

            loss = tf.nn.softmax_cross_entropy_with_logits(logits, labels)
            xent = tf.nn.sigmoid_cross_entropy_with_logits(logits, targets, name='x')
            product = tf.batch_matmul(a, b, True)
        """,
        after="""
            import tensorflow as tf

            loss = tf.compat.v1.nn.softmax_cross_entropy_with_logits(logits=logits, labels=labels)
            xent = tf.nn.sigmoid_cross_entropy_with_logits(logits=logits, labels=targets, name='x')
            product = tf.matmul(a, b, adjoint_a=True)
        """,
    ),
    Edit(
        "concat and split in the 0.x order",
        before="""
            import tensorflow as tf

            net = tf.concat(3, [branch_0, branch_1])
            flat = tf.concat(0, values, name='flat')
            both = tf.concat(axis_of(x), [a, b])
            h0, h1 = tf.split(1, 2, net)
            q, k = tf.split(2, num_heads(), x)
        """,
        after="""
            import tensorflow as tf

            net = tf.concat([branch_0, branch_1], 3)
            flat = tf.concat(values, 0, name='flat')
            both = tf.concat(axis=axis_of(x), values=[a, b])
            h0, h1 = tf.split(net, 2, 1)
            q, k = tf.split(axis=2, num_or_size_splits=num_heads(), value=x)
        """,
    ),
    Edit(
        "reverse mask and resize sizes",
        before="""
            import tensorflow as tf

            flipped = tf.reverse(images, [False, False, True, False])
            small = tf.image.resize_images(images, 224, 224, method=1)
        """,
        after="""
            import tensorflow as tf

            flipped = tf.reverse(images, [2])
            small = tf.image.resize_images(images, [224, 224], method=1)
        """,
    ),
    Edit(
        "uses that are not calls",
        before="""
            import tensorflow as tf

            ops = {'mul': tf.mul, 'rnn': tf.nn.rnn}
        """,
        after="""
            import tensorflow as tf

            ops = {'mul': tf.multiply, 'rnn': tf.compat.v1.nn.static_rnn}
        """,
    ),
    Edit(
        "the summary edit says how tags differ",
        before="import tensorflow as tf\ntf.scalar_summary('a b', x)\n",
        after="import tensorflow as tf\ntf.compat.v1.summary.scalar('a b', x)\n",
        findings=[edit(2, "name scope")],
    ),
    # Calls that cannot be ported exactly are reported, and left as they were.
    Reported("name= with no counterpart",
             "import tensorflow as tf\ntf.scalar_summary('loss', loss, name='s')\n",
             [attention(2, "`name=` has no counterpart",
                        fix="rewrite it with tf.summary.scalar's parameters")]),
    Edit(
        "star arguments hide the parameters",
        before="import tensorflow as tf\ntf.mul(*pair)\n"
               "tf.nn.softmax_cross_entropy_with_logits(*xy)\n",
        after="import tensorflow as tf\ntf.multiply(*pair)\n"
              "tf.nn.softmax_cross_entropy_with_logits(*xy)\n",
        findings=[attention(3, "*args / **kwargs",
                            fix="rewrite it with tf.nn.softmax_cross_entropy_with_logits's")],
    ),
    Reported("a use that is not a call", "import tensorflow as tf\nop = tf.scalar_summary\n",
             [attention(2, "this use is not a call",
                        fix="call tf.summary.scalar with its own parameters")]),
    Edit(
        "a concat that could be either order",
        before="import tensorflow as tf\ny = tf.mul(a, b)\nz = tf.concat(dim, tensors)\n",
        after="import tensorflow as tf\ny = tf.multiply(a, b)\nz = tf.concat(dim, tensors)\n",
        findings=[attention(3, "could be either", fix="write it in the 1.x order")],
    ),
    # Google's internal short names (issue 41): each the public name it stood for.
    Edit(
        "internal short names become the public names",
        before="""
            import tensorflow as tf

            with tf.device(tf.ReplicaDeviceSetter(FLAGS.ps_tasks)):
                example = tf.SequenceExample()
            with tf.gfile.OpenFast(path, 'rb') as f:
                data = f.read()
        """,
        after="""
            import tensorflow as tf

            with tf.device(tf.compat.v1.train.replica_device_setter(FLAGS.ps_tasks)):
                example = tf.train.SequenceExample()
            with tf.compat.v1.gfile.GFile(path, 'rb') as f:
                data = f.read()
        """,
        findings=[edit(3, "tf.ReplicaDeviceSetter -> tf.compat.v1.train.replica_device_setter"
                       " (a short name of Google's internal TensorFlow"),
                  edit(4, "tf.SequenceExample -> tf.train.SequenceExample"),
                  edit(5, "tf.gfile.OpenFast -> ")],
    ),
    Noop("the public names",
         "import tensorflow as tf\n"
         "setter = tf.compat.v1.train.replica_device_setter(2)\n"
         "example = tf.train.SequenceExample()\n"),
    # TF1 and TF2 code.
    Noop("tf1 names",
         "import tensorflow as tf\ny = tf.multiply(a, b)\nz = tf.concat([a, b], 1)\n"),
    Noop("tf1 split and reverse",
         "import tensorflow as tf\nh0, h1 = tf.split(x, 2, axis=1)\nr = tf.reverse(x, [1])\n"),
    Noop("tf1 keywords",
         "import tensorflow as tf\n"
         "loss = tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=z)\n"),
    Noop("tf2's summary.scalar",
         "import tensorflow as tf\ntf.summary.scalar('loss', loss, step=3)\n"),
    Noop("a concat of either order without 0.x names",
         "import tensorflow as tf\nx = tf.concat(values, axis)\n"),
    # Not TensorFlow: other libraries' mul/concat, locals named tf.
    Noop("numpy's concatenate and mul",
         "import numpy as np\nx = np.concatenate([a, b], 0)\ny = np.mul(a, b)\n"),
    Noop("operator.mul",
         "import operator\nz = operator.mul(a, b)\n"),
    Noop("a parameter named tf",
         "import tensorflow as tf\ndef f(tf):\n    return tf.mul(a, b)\n"),
    Noop("tf rebound",
         "import tensorflow as tf\ntf = MyFacade()\ntf.scalar_summary('x', 1)\n"),
    Noop("another library's scalar_summary",
         "from my_lib import summaries\nsummaries.scalar_summary('x', 1)\n"),
]
