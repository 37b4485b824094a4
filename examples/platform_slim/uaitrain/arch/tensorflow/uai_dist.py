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
"""Reads the cluster the UAI Train platform gives a distributed job.

Every task of a distributed job gets the whole cluster in TF_CONFIG, with the
chief as `master`:

  {"cluster": {"master": ["10.0.0.1:2222"],
               "worker": ["10.0.0.2:2222", "10.0.0.3:2222"],
               "ps": ["10.0.1.1:2222"]},
   "task": {"type": "worker", "index": 1},
   "environment": "cloud"}

Between-graph training wants two jobs: `worker`, whose task 0 is the master,
and `ps`. The parser gives them, and this task's index among them.
"""

import json
import os


class UAITensorFlowDistRunConfigParser(object):
  """This task's place in the platform's cluster, read from TF_CONFIG."""

  def __init__(self):
    self.env = os.environ.get('TF_CONFIG')

  def is_dist(self):
    """Whether the platform runs this job on a cluster."""
    return self.env is not None

  def load_cluster_config(self):
    """Parses TF_CONFIG; call it before the other methods."""
    tf_config = json.loads(self.env)
    task = tf_config.get('task', {})
    self.task_type = str(task.get('type'))
    self.task_id = int(task.get('index'))
    if self.task_type == 'worker':
      # The master is worker 0.
      self.task_id += 1
    cluster = tf_config.get('cluster', {})
    self.ps_list = [str(address) for address in cluster.get('ps', [])]
    self.wk_list = [str(cluster['master'][0])]
    self.wk_list.extend(str(address) for address in cluster.get('worker', []))

  def is_chief(self):
    return self.task_type == 'master'

  def is_ps(self):
    return self.task_type == 'ps'

  def num_ps(self):
    return len(self.ps_list)

  def num_worker(self):
    return len(self.wk_list)

  def get_ps_list(self):
    return self.ps_list

  def get_worker_list(self):
    return self.wk_list

  def get_task_id(self):
    return self.task_id
