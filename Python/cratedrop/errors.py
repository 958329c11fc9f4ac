"""CrateDrop's exceptions: each carries the exit code the CLI exits with for the same failure
(docs/command-line.md, "Exit codes") and the CLI's message without its ``cratedrop:`` prefix
(``FILE:LINE: FIELD: reason`` for a scene)."""

from __future__ import annotations


class CrateDropError(Exception):
    """A failure CrateDrop reports: ``code`` is the CLI's exit code, ``message`` its text.

    >>> import cratedrop
    >>> try:
    ...     cratedrop.World({"world": [640, 480], "gravity": [0, -900],
    ...                      "crates": [{"center": [10, 10], "size": [-4, 4], "mass": 1}]})
    ... except cratedrop.SceneError as error:
    ...     print(error.code, error.message)
    65 scene.json:4: crates[0].size[0]: must be > 0, got -4
    """

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    @classmethod
    def for_code(cls, code: int, message: str) -> "CrateDropError":
        """The error to raise for ``code``: usage (64) and internal (70) failures keep their own
        classes whatever call met them."""
        if code == 64:
            return UsageError(code, message)
        if code == 70:
            return SimulationError(code, message)
        return cls(code, message)

    def __str__(self) -> str:
        return self.message


class SceneError(CrateDropError, ValueError):
    """A scene that cannot be loaded: 65 (its problems, one ``FILE:LINE: FIELD: reason`` a line)
    or 66 (the file cannot be read)."""


class InputError(CrateDropError, ValueError):
    """An input line that is malformed or cannot apply (65): ``NAME:LINE: reason``."""


class StateError(CrateDropError, ValueError):
    """Saved bytes that are not a state of this scene, or not a state at all (65)."""


class UsageError(CrateDropError, ValueError):
    """A call the library refuses (64): a closed world, a negative step count."""


class SimulationError(CrateDropError, RuntimeError):
    """The world went wrong while stepping (70): a body's state became non-finite, say."""
