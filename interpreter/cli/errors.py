"""How exceptions reach a user: one line, and exit 2 for bad input or 1 for our own fault."""

from __future__ import annotations

from capenv.interpreter.bundle.errors import UserError


def _bad_input_types() -> tuple[type[BaseException], ...]:
    from capenv.interpreter.rules_engine.yaml_source import RuleFileError

    types: list[type[BaseException]] = [UserError, RuleFileError]
    try:
        from capenv.interpreter.evidence.har import CaptureError

        types.append(CaptureError)
    except ImportError:  # pragma: no cover - ingest not built yet
        pass
    try:
        from capenv.interpreter.bundle.jsonvalue import JsonError

        types.append(JsonError)
    except ImportError:  # pragma: no cover
        pass
    from capenv.interpreter.bundle.io import BundleError

    types.append(BundleError)
    return tuple(types)


def exit_code_for(exc: BaseException) -> int:
    return 2 if isinstance(exc, _bad_input_types()) else 1


def message_for(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    if isinstance(exc, _bad_input_types()):
        return text
    return f"internal error: {type(exc).__name__}: {text} (set CAPENV_DEBUG=1 for the traceback)"
