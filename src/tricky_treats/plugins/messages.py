"""How a plugin's failures and values are shown in messages: short, never its own words."""

from __future__ import annotations

__all__: list[str] = []


def _raised(exc: BaseException) -> str:
    """`` (ZeroDivisionError)`` for a built-in exception: never the plugin's own words."""
    kind = type(exc)
    return f" ({kind.__name__})" if kind.__module__ == "builtins" else ""


def _exception_text(exc: BaseException) -> str:
    """``Type: text`` of a plugin's exception, for ``PluginError.detail``; never raises."""
    try:
        text = f"{type(exc).__name__}: {exc}"
    except KeyboardInterrupt:
        raise
    except BaseException:  # a hostile __str__ must not hide the error
        text = f"{type(exc).__name__}: <its text cannot be shown>"
    return text if len(text) <= _MAX_DETAIL else f"{text[:_MAX_DETAIL]}...({len(text)} characters)"


_MAX_DETAIL = 2000


def _short(value: object) -> str:
    try:
        text = repr(value)
    except KeyboardInterrupt:
        raise
    except BaseException:  # a hostile __repr__ must not hide the error (nor end the host)
        text = f"<{type(value).__name__} object>"
    return text if len(text) <= 80 else text[:77] + "..."
