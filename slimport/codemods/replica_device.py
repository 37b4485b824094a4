"""Give each async replica its own worker task in copies of slim's model_deploy.py.

Upstream ``research/slim/deployment/model_deploy.py`` builds every worker-side device
(clone, inputs, optimizer) from ``self._worker_device = '/job:' + worker_job_name``:
no task index. With several worker tasks TensorFlow is then free to place a
replica's ops on any worker task, so replicas compute on each other's machines. The
fix names the task: ``'/job:%s/task:%d' % (worker_job_name, replica_id)``.

The codemod edits the tree's own copy in place (found by its ``DeploymentConfig``
class, whatever the file is called), so the ported tree keeps its imports and any
local changes to model_deploy. A copy someone already fixed their own way (a platform's:
``device = '%s/task:%d' % (device, self._replica_id)`` at the end of ``clone_device``,
or with ``+=``, an f-string, ``.format``) is left as it is and reported: a second task
in the device string would not be the same program.
``patches/model_deploy-per-replica-task.patch`` is the same edit for upstream's file, and
``slim_ext.model_deploy`` carries it as a library.
"""
from __future__ import annotations

from typing import ClassVar, Iterator, List, Optional, Tuple

import libcst as cst
from libcst import matchers as m
from libcst.metadata import PositionProvider

from slimport.codemods.base import SlimportCodemod

CLASS_NAME = "DeploymentConfig"
WORKER_DEVICE = "_worker_device"
REPLICA_PARAM = "replica_id"
# Upstream's lines are 80 columns at most; a longer fixed line is wrapped.
MAX_LINE = 80

_FIX = (
    "build the worker device with the replica's task: "
    "self._worker_device = '/job:%s/task:%d' % (worker_job_name, replica_id) "
    "when num_ps_tasks > 0 (see patches/model_deploy-per-replica-task.patch)"
)


def _assignments_in(block: cst.BaseSuite) -> Iterator[cst.Assign]:
    if not isinstance(block, cst.IndentedBlock):
        return
    for statement in block.body:
        if isinstance(statement, cst.SimpleStatementLine):
            yield from (s for s in statement.body if isinstance(s, cst.Assign))
        elif isinstance(statement, cst.If):
            yield from _assignments_in(statement.body)
            orelse = statement.orelse
            while orelse is not None:
                yield from _assignments_in(orelse.body)
                orelse = orelse.orelse if isinstance(orelse, cst.If) else None


def _assigns_worker_device(assign: cst.Assign) -> bool:
    return any(
        m.matches(t.target, m.Attribute(value=m.Name("self"), attr=m.Name(WORKER_DEVICE)))
        for t in assign.targets
    )


def _job_only(node: cst.BaseExpression) -> Optional[Tuple[cst.SimpleString, cst.Name]]:
    """``'/job:' + worker_job_name`` -> (the literal, the job name); else None."""
    if (
        isinstance(node, cst.BinaryOperation)
        and isinstance(node.operator, cst.Add)
        and isinstance(node.left, cst.SimpleString)
        and node.left.evaluated_value == "/job:"
        and isinstance(node.right, cst.Name)
        and not node.lpar
    ):
        return node.left, node.right
    return None


def _has_task(node: cst.BaseExpression) -> bool:
    """True if the device expression already names a task."""
    strings = m.findall(node, m.SimpleString())
    if any("/task:" in str(s.evaluated_value) for s in strings):  # type: ignore[attr-defined]
        return True
    return bool(m.findall(node, m.Name(REPLICA_PARAM)))


def _names_replica_task(statement: cst.CSTNode) -> bool:
    """True if ``statement`` builds a device string with the replica's task: a
    ``/task:`` literal (plain or f-string) and the replica id, in any spelling."""
    texts = [s.evaluated_value for s in m.findall(statement, m.SimpleString())]
    texts += [part.value for part in m.findall(statement, m.FormattedStringText())]
    replica = m.Name(REPLICA_PARAM) | m.Attribute(
        value=m.Name("self"), attr=m.Name(REPLICA_PARAM) | m.Name("_" + REPLICA_PARAM))
    return any("/task:" in str(text) for text in texts) and bool(m.findall(statement, replica))


def _replica_task_placed(config: cst.ClassDef) -> Optional[cst.BaseSmallStatement]:
    """The statement of ``config``'s methods that already puts each replica on its task,
    besides a ``_worker_device`` that names it (this codemod's own edit)."""
    for statement in m.findall(config, m.Assign() | m.AugAssign() | m.Return()):
        if isinstance(statement, cst.Assign) and _assigns_worker_device(statement):
            continue
        if _names_replica_task(statement):
            return statement  # type: ignore[return-value]
    return None


def _with_task(literal: cst.SimpleString, job: cst.Name) -> cst.BinaryOperation:
    quote = literal.prefix + literal.quote
    return cst.BinaryOperation(
        left=cst.SimpleString(f"{quote}/job:%s/task:%d{literal.quote}"),
        operator=cst.Modulo(),
        right=cst.Tuple([cst.Element(job), cst.Element(cst.Name(REPLICA_PARAM))]),
    )


class ReplicaDeviceCommand(SlimportCodemod):
    """Adds the replica's task to DeploymentConfig's worker device."""

    NAME: ClassVar[str] = "replica_device"
    DESCRIPTION: ClassVar[str] = (
        "Place each replica's clones, inputs and optimizer on its own worker task in "
        "model_deploy copies."
    )
    TRIGGERS: ClassVar[Tuple[str, ...]] = (WORKER_DEVICE,)
    # The column of the code it wraps, to indent the new lines.
    METADATA_DEPENDENCIES = (PositionProvider,)

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        body: List[cst.BaseStatement] = []
        for statement in tree.body:
            if isinstance(statement, cst.ClassDef) and statement.name.value == CLASS_NAME:
                statement = self._fix_class(statement)
            body.append(statement)
        return tree.with_changes(body=body)

    def _fix_class(self, config: cst.ClassDef) -> cst.ClassDef:
        init = next(
            (
                s
                for s in config.body.body
                if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"
            ),
            None,
        )
        if init is None:
            return config
        placed = _replica_task_placed(config)
        if placed is not None:
            self.needs_attention(
                placed, f"{CLASS_NAME} already places each replica's clones on its worker "
                f"task ({cst.Module([]).code_for_node(placed)}); "
                f"{WORKER_DEVICE} was left as it is",
                "nothing to do: the tree's own fix stays")
            return config
        assigns = [a for a in _assignments_in(init.body) if _assigns_worker_device(a)]
        params = {p.name.value for p in init.params.params + init.params.kwonly_params}
        for assign in assigns:
            new_value = self._fixed_value(assign, REPLICA_PARAM in params)
            if new_value is not None:
                config = config.deep_replace(assign.value, new_value)
        return config

    def _fixed_value(
        self, assign: cst.Assign, has_replica_param: bool
    ) -> Optional[cst.BaseExpression]:
        value = assign.value
        if _has_task(value):
            return None
        conditional = isinstance(value, cst.IfExp)
        shape = _job_only(value.body if isinstance(value, cst.IfExp) else value)
        if shape is None:
            self.needs_attention(
                assign,
                f"{CLASS_NAME}.{WORKER_DEVICE} has no task and is not upstream's "
                "'/job:' + worker_job_name; every replica may compute on any worker task",
                _FIX,
            )
            return None
        if not has_replica_param:
            self.needs_attention(
                assign,
                f"{CLASS_NAME}.__init__ has no {REPLICA_PARAM} parameter to name the task with",
                _FIX,
            )
            return None
        fixed = _with_task(*shape)
        self.record_edit(
            assign,
            f"{CLASS_NAME}.{WORKER_DEVICE} now carries /task:<{REPLICA_PARAM}>: clone, inputs "
            "and optimizer devices stay on this replica's worker task",
        )
        if not conditional:
            return fixed
        assert isinstance(value, cst.IfExp)
        new_value = value.with_changes(body=fixed)
        column = self.get_metadata(PositionProvider, value).start.column
        one_line = column + len(cst.Module([]).code_for_node(new_value))
        if one_line <= MAX_LINE or value.lpar:
            return new_value
        # Upstream style: parenthesise and break before ``if``, aligned after "(".
        return new_value.with_changes(
            lpar=[cst.LeftParen()],
            rpar=[cst.RightParen()],
            whitespace_before_if=cst.ParenthesizedWhitespace(
                last_line=cst.SimpleWhitespace(" " * (column + 1))
            ),
        )
