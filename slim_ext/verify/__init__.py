"""``slimport verify``: after a port, tell the user what still does not work.

Modules: tree (module names and roots of a ported tree), runner (the coordinator
side: starts the fork server, sends jobs, stops every process it started),
worker + checks (the fork server and what each forked child does; they import
nothing of slim_ext), classify / known / fixes (a finished job -> a table row
with the failing statement and the fix), report (table, details, JSON), cli
(``python -m slim_ext.verify``).
"""
