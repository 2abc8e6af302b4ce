"""apply_field_rule(s): the registry, params validation, ordering, isolation from the build side, speed."""

from __future__ import annotations

import subprocess
import sys
from datetime import timedelta

import pytest
from ops_helpers import INSTANT, context, rule

from capenv.interpreter.bundle.op_params import DECLARED_OPS, OP_PARAMS
from capenv.serving.ops import OpParamsError, SequenceState, apply_field_rules, compile_rule
from capenv.serving.ops.apply import compiled
from capenv.serving.ops.generated_ids import is_uuid
from capenv.serving.ops.registry import SERVING_OPS, load_ops


def test_every_declared_op_is_registered_with_params():
    load_ops()
    assert set(SERVING_OPS) == set(DECLARED_OPS) == set(OP_PARAMS)


@pytest.mark.parametrize("bad", [
    rule("no-such-op", "f"),
    rule("echo", "f"),  # missing member
    rule("echo", "f", member="a", extra=1),  # unknown key
    rule("copy", "f", pointer="no-slash"),
    rule("renewed", "f", pointers=["rows/*/id"]),
    rule("nested-clock", "f", clocks={"": {"style": "iso"}}),
    rule("template", "f", parts=[{"field": "id", "member": "x"}]),
    rule("template", "f", parts=[{"body": "x"}]),
    rule("clock", "f", format={"style": "iso", "fraction_digits": 12}),
])
def test_plan_errors_name_the_field(bad):
    with pytest.raises(OpParamsError, match="'f'"):
        compile_rule(bad)


def test_compiled_rules_are_cached_per_rule_object():
    r = rule("echo", "title", member="title")
    assert compiled(r) is compiled(r)
    assert compiled(rule("echo", "title", member="title")) is not compiled(r)


def test_templates_follow_the_fields_they_are_built_around():
    rules = [
        rule("template", "url", parts=["/p/", {"field": "slug"}, "-", {"field": "id"}]),
        rule("template", "slug", parts=[{"slug_of": "title"}, "-", {"field": "id"}]),
        rule("identity", "id", format="sequence"),
        rule("echo", "title", member="title"),
    ]
    ctx = context({"title": "Hello World"})
    values = apply_field_rules(rules, ctx)
    assert values == {"id": 1, "title": "Hello World", "slug": "hello-world-1", "url": "/p/hello-world-1-1"}


def test_a_create_gets_the_same_values_after_a_reset():
    """Determinism: the same write (counter, clock, Evidence) gives the same entity."""
    rules = [rule("identity", "id", format="uuid"), rule("unique", "etag", format="token", length=24),
             rule("clock", "created", format={"style": "iso", "fraction_digits": 3}),
             rule("sequence", "number")]

    def run():
        state = SequenceState()
        return [apply_field_rules(rules, context({}, state=state, write_counter=n,
                                                 instant=INSTANT + timedelta(seconds=n))) for n in (1, 2)]

    first = run()
    assert first == run()
    assert first[0]["id"] != first[1]["id"] and is_uuid(first[0]["id"])


def test_unchanged_fields_are_left_out():
    rules = [rule("slug", "slug", member="title"), rule("increment", "version")]
    assert apply_field_rules(rules, context({}, entity_before={"slug": "a", "version": 1})) == {"version": 2}


def test_serving_ops_never_import_the_build_side_evaluator():
    code = ("import sys, capenv.serving.ops.apply as a, capenv.serving.ops as o; o.apply_field_rule; "
            "bad = [m for m in sys.modules if m.startswith(('capenv.interpreter.rules_engine', "
            "'capenv.interpreter.view', 'capenv.interpreter.plans', 'capenv.interpreter.manifest.infer'))]; "
            "print(bad); sys.exit(1 if bad else 0)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_many_creates_keep_generated_values_apart():
    """5,000 creates' rules give 5,000 distinct ids (their speed is a benchmark's figure, not a test's)."""
    rules = [rule("identity", "id", format="uuid"), rule("echo", "title", member="title"),
             rule("slug", "slug", member="title"), rule("clock", "created_at", format={"style": "iso", "fraction_digits": 3}),
             rule("template", "url", parts=["/p/", {"field": "slug"}, "/"]), rule("constant", "status", value="draft")]
    state = SequenceState()
    made = [apply_field_rules(rules, context({"title": "Hello World"}, state=state, write_counter=n))
            for n in range(5000)]
    assert len({str(fields["id"]) for fields in made}) == 5000