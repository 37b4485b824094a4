"""Where TF_USE_LEGACY_KERAS sends TensorFlow's Keras: tf_keras' API modules.

slim_ext's Keras route (``slim_ext.legacy_keras``, tensorflow_estimator's Keras 2 view)
points ``tf.keras`` and ``tf.compat.v1.keras`` there; verify looks up the ``tf.keras``
names of a module on that route there too.
"""
# What tf.keras / tf.compat.v2.keras and tf.compat.v1.keras become.
KERAS_2_V2 = "tf_keras.api._v2.keras"
KERAS_2_V1 = "tf_keras.api._v1.keras"
