"""The deprecation machinery (``chickenfoot.deprecation``), ready for the first retired name."""

from __future__ import annotations

import warnings

import pytest

from chickenfoot.deprecation import ChickenFootDeprecationWarning, deprecated, warn_deprecated


@deprecated(since="0.2", removed_in="1.0", instead="new_add")
def old_add(a: int, b: int = 1) -> int:
    """Add two numbers."""
    return a + b


def test_a_deprecated_function_warns_at_the_callers_line_and_still_works() -> None:
    with pytest.warns(ChickenFootDeprecationWarning) as caught:
        assert old_add(2, b=3) == 5
    (w,) = caught
    assert str(w.message) == (
        "old_add is deprecated since 0.2 and will be removed in 1.0; use new_add instead"
    )
    assert w.filename == __file__  # the caller's line, not the library's
    assert issubclass(ChickenFootDeprecationWarning, DeprecationWarning)


def test_the_docstring_says_it_is_deprecated() -> None:
    assert old_add.__doc__ == (
        "Add two numbers.\n\nDeprecated since 0.2, removed in 1.0: use new_add."
    )
    assert old_add.__name__ == "old_add"


def test_warn_deprecated_for_an_argument() -> None:
    def f(x: int, legacy: bool = False) -> int:
        if legacy:
            warn_deprecated("f(legacy=True)", since="0.3", removed_in="1.0", instead="f(x)")
        return x

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert f(1) == 1  # no warning without the deprecated argument
    with pytest.warns(
        ChickenFootDeprecationWarning, match=r"^f\(legacy=True\) is deprecated"
    ) as caught:
        f(1, legacy=True)
    assert caught[0].filename == __file__


def test_errors_mode_turns_it_into_an_exception() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", ChickenFootDeprecationWarning)
        with pytest.raises(ChickenFootDeprecationWarning):
            old_add(1)
