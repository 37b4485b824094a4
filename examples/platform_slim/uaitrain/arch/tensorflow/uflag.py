# Copyright 2026 The slimport Authors. All Rights Reserved.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
# ==============================================================================
"""The flags the UAI Train platform starts every job with.

Import this module to have them; read their values from tf.app.flags.FLAGS.
The platform sets them itself: a job reads its input from --data_dir and
writes everything it wants to keep to --output_dir, which the platform
uploads when the job ends.
"""

import tensorflow as tf

flags = tf.app.flags

# The job's root directory: --data_dir and --output_dir live under it.
flags.DEFINE_string('work_dir', '/data', 'Root directory of the job.')

# The platform downloads the job's input here before the job starts.
flags.DEFINE_string('data_dir', '/data/data', 'Input data directory.')

# Kept after the job: checkpoints, exported models, anything else.
flags.DEFINE_string('output_dir', '/data/output', 'Output directory.')

# TensorBoard summaries; uploaded with the output.
flags.DEFINE_string('log_dir', '/data/output', 'Summary directory.')

# GPUs the platform gave this task; 0 on a CPU-only machine.
flags.DEFINE_integer('num_gpus', 0, 'Number of GPUs of this task.')
