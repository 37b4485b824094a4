"""Model builds for tools/corpus.py, run by ``slimport verify --build corpus_probes.py:NAME``.

Each function builds part of a ported corpus in the new graph verify opens, with
the tree's roots on sys.path, and returns a tensor: verify runs one training step
on it when the graph has trainable variables, and evaluates it once otherwise.
Graph assertions make an evaluation fail when the result is wrong. Nothing here
imports slim_ext: the build must stand on what the ported code imports itself.
"""
import tensorflow.compat.v1 as tf

BATCH = 2
CLASSES = 10


def facenet_inception_resnet_v1():
    """FaceNet's Inception-ResNet-v1 on random 160x160 faces, softmax loss on its embedding."""
    import models.inception_resnet_v1 as network  # facenet/src is the first root

    images = tf.random.uniform([BATCH, 160, 160, 3])
    prelogits, _ = network.inference(images, keep_probability=0.8, phase_train=True,
                                     bottleneck_layer_size=128, weight_decay=5e-4)
    weights = tf.get_variable("classifier", [128, CLASSES])
    labels = tf.random.uniform([BATCH], maxval=CLASSES, dtype=tf.int32)
    return tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=labels, logits=tf.matmul(prelogits, weights))


def object_detection_box_predictor():
    """A ConvolutionalBoxPredictor (built from its hyperparams proto) on a random feature map."""
    from google.protobuf import text_format
    from object_detection.builders import box_predictor_builder, hyperparams_builder
    from object_detection.predictors import convolutional_box_predictor
    from object_detection.protos import hyperparams_pb2

    hyperparams = hyperparams_pb2.Hyperparams()
    text_format.Merge("activation: RELU_6 regularizer { l2_regularizer {} } "
                      "initializer { truncated_normal_initializer {} }", hyperparams)
    predictor = box_predictor_builder.build_convolutional_box_predictor(
        is_training=True, num_classes=CLASSES,
        conv_hyperparams_fn=hyperparams_builder.build(hyperparams, is_training=True),
        min_depth=0, max_depth=16, num_layers_before_predictor=1, use_dropout=True,
        dropout_keep_prob=0.8, kernel_size=3, box_code_size=4)
    features = tf.random.uniform([BATCH, 8, 8, 32])
    predictions = predictor.predict([features], num_predictions_per_location=[3],
                                    scope="BoxPredictor")
    boxes = tf.concat(predictions[convolutional_box_predictor.BOX_ENCODINGS], axis=1)
    scores = tf.concat(
        predictions[convolutional_box_predictor.CLASS_PREDICTIONS_WITH_BACKGROUND], axis=1)
    checks = [tf.debugging.assert_equal(tf.shape(boxes), [BATCH, 8 * 8 * 3, 1, 4]),
              tf.debugging.assert_equal(tf.shape(scores), [BATCH, 8 * 8 * 3, CLASSES + 1])]
    with tf.control_dependencies(checks):
        return tf.reduce_mean(tf.square(boxes)) + tf.reduce_mean(tf.square(scores))


def object_detection_anchor_generator():
    """A GridAnchorGenerator's anchors for a 4x4 feature map: 3 scales x 3 aspect ratios."""
    from object_detection.anchor_generators import grid_anchor_generator

    generator = grid_anchor_generator.GridAnchorGenerator(
        scales=(0.5, 1.0, 2.0), aspect_ratios=(0.5, 1.0, 2.0))
    anchors = generator.generate(feature_map_shape_list=[(4, 4)])
    corners = (anchors[0] if isinstance(anchors, list) else anchors).get()
    with tf.control_dependencies([tf.debugging.assert_equal(tf.shape(corners), [4 * 4 * 9, 4])]):
        return tf.identity(corners)


def object_detection_box_coder():
    """FasterRcnnBoxCoder: encoding boxes against anchors and decoding gives the boxes back."""
    from object_detection.box_coders import faster_rcnn_box_coder
    from object_detection.core import box_list

    boxes = tf.constant([[10.0, 10.0, 20.0, 15.0], [0.2, 0.1, 0.5, 0.4]])
    anchors = box_list.BoxList(tf.constant([[15.0, 12.0, 30.0, 18.0], [0.1, 0.0, 0.7, 0.9]]))
    coder = faster_rcnn_box_coder.FasterRcnnBoxCoder(scale_factors=[10.0, 10.0, 5.0, 5.0])
    decoded = coder.decode(coder.encode(box_list.BoxList(boxes), anchors), anchors).get()
    with tf.control_dependencies([tf.debugging.assert_near(decoded, boxes, atol=1e-4)]):
        return tf.reduce_max(tf.abs(decoded - boxes))
