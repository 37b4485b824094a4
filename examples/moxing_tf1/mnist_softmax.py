"""The network both scripts share: softmax regression over 28x28 images."""
import tensorflow as tf

IMAGE_PIXELS = 784
NUM_CLASSES = 10


def logits(images):
  """y = xW + b, with W and b created through tf.get_variable."""
  W = tf.get_variable(name='W', initializer=tf.zeros([IMAGE_PIXELS, NUM_CLASSES]))
  b = tf.get_variable(name='b', initializer=tf.zeros([NUM_CLASSES]))
  return tf.matmul(images, W) + b


def accuracy(y, y_):
  """Fraction of rows whose largest logit is the labelled class."""
  correct_prediction = tf.equal(tf.argmax(y, 1), tf.argmax(y_, 1))
  return tf.reduce_mean(tf.cast(correct_prediction, tf.float32))
