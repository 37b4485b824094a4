"""Processes for test_tf1_flags.py: absl's global FLAGS changed, then reported as JSON.

python _tf1_flags_task.py absl_names
    The flags absl's own modules define, by name -> defining module, read from
    the installed absl (no slim_ext, no TensorFlow): absl.app, absl.logging,
    absl.testing.absltest, the help flags app.run adds, and the parser's
    special flags.
python _tf1_flags_task.py take_over NAME... -- ARGV...
    Defines every NAME as a string flag of a module of the program's (the
    module _tf1_flags_defs, written here), then imports absl's modules and
    TensorFlow again and lets app.run define its help flags, then parses ARGV;
    reports each flag's default, help, value and defining module.
python _tf1_flags_task.py absl_keeps_its_own ARGV...
    Takes over the absl flags absl acts on, with types absl would choke on,
    and runs app.run(main) with absl's own parser; main reports what the
    script and what absl see.
"""
import json
import os
import sys


def absl_names():
  from absl import flags  # pylint: disable=g-import-not-at-top
  from absl.flags import _helpers  # pylint: disable=g-import-not-at-top
  before = set(flags.FLAGS)
  from absl import app  # pylint: disable=g-import-not-at-top
  from absl import logging  # noqa: F401  pylint: disable=g-import-not-at-top,unused-import
  from absl.testing import absltest  # noqa: F401  pylint: disable=g-import-not-at-top,unused-import
  app.define_help_flags()
  names = {name: flags.FLAGS.find_module_defining_flag(name)
           for name in set(flags.FLAGS) - before}
  names.update({name: "absl.flags (parser)" for name in _helpers.SPECIAL_FLAGS})
  print(json.dumps(names))


def take_over(names, argv):
  with open("_tf1_flags_defs.py", "w") as module:
    module.write("from slim_ext import tf1_flags as flags\n")
    for name in names:
      module.write(f"flags.DEFINE_string({name!r}, 'script {name}', "
                   f"'script help {name}')\n")
  sys.path.insert(0, os.getcwd())
  from slim_ext import tf1_flags  # pylint: disable=g-import-not-at-top
  owned_before = {name: tf1_flags.library_owns(name) for name in names}
  import _tf1_flags_defs  # noqa: F401  pylint: disable=g-import-not-at-top,unused-import
  # absl's and TensorFlow's modules again, after the program's definitions.
  from absl import app  # pylint: disable=g-import-not-at-top
  from absl import logging  # noqa: F401  pylint: disable=g-import-not-at-top,unused-import
  from absl.testing import absltest  # noqa: F401  pylint: disable=g-import-not-at-top,unused-import
  import tensorflow  # noqa: F401  pylint: disable=g-import-not-at-top,unused-import
  app.define_help_flags()
  rest = tf1_flags.FLAGS(["prog", *argv], known_only=True)
  flag_values = tf1_flags.FLAGS
  print(json.dumps({
      "owned_before": owned_before,
      "rest": rest,
      "flags": {name: {"default": flag_values[name].default,
                       "help": flag_values[name].help,
                       "value": getattr(flag_values, name),
                       "module": flag_values.find_module_defining_flag(name)}
                for name in names},
  }))


def absl_keeps_its_own(argv):
  from slim_ext import tf1_flags as flags  # pylint: disable=g-import-not-at-top
  flags.DEFINE_string("verbosity", "quiet", "The script's verbosity word.")
  flags.DEFINE_boolean("v", False, "The script's verbose switch.")
  flags.DEFINE_string("log_dir", "/data/output", "The script's log dir.")
  flags.DEFINE_string("logtostderr", "no", "The script's own.")
  flags.DEFINE_integer("stderrthreshold", 5, "The script's own.")
  flags.DEFINE_integer("logger_levels", 1, "The script's own.")
  flags.DEFINE_string("only_check_args", "", "The script's own.")
  flags.DEFINE_string("run_with_profiling", "", "The script's own.")
  flags.DEFINE_string("profile_file", "", "The script's own.")
  flags.DEFINE_string("run_with_pdb", "", "The script's own.")
  flags.DEFINE_string("pdb", "", "The script's own.")
  flags.DEFINE_string("helpfull", "", "The script's own.")
  flags.DEFINE_string("flagfile", "", "The script's own.")
  flags.DEFINE_string("undefok", "", "The script's own.")
  from absl import app  # pylint: disable=g-import-not-at-top
  from absl import logging  # pylint: disable=g-import-not-at-top

  def main(argv):
    logging.info("absl.logging still logs")
    names = ("verbosity", "v", "log_dir", "logtostderr", "stderrthreshold",
             "logger_levels", "only_check_args", "run_with_profiling",
             "profile_file", "run_with_pdb", "pdb", "helpfull", "flagfile",
             "undefok")
    print(json.dumps({
        "script": {name: getattr(flags.FLAGS, name) for name in names},
        "argv": argv,
        "absl_verbosity": logging.get_verbosity(),
        "absl_log_dir": logging.find_log_dir(),
        "absl_only_check_args": app.FLAGS["only_check_args"].value,
    }))

  app.run(main, argv=["prog", *argv])


if __name__ == "__main__":
  mode, args = sys.argv[1], sys.argv[2:]
  if mode == "absl_names":
    absl_names()
  elif mode == "take_over":
    split = args.index("--")
    take_over(args[:split], args[split + 1:])
  else:
    absl_keeps_its_own(args)
