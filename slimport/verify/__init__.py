"""``slimport verify``: after a port, tell the user what still does not work.

Modules: arguments (the command's parser; no TensorFlow), tree (module names and
roots of a ported tree), runner (the coordinator side: starts the fork server,
sends jobs, stops every process it started), worker + checks (the fork server and
what each forked child does: the only code here that imports TensorFlow, and
nothing of slim_ext, so each check sees what the user's own process would),
classify / known / fixes (a finished job -> a table row with the failing statement
and the fix), report (table, details, JSON), cli (``run``; ``python -m
slimport.verify``).
"""
