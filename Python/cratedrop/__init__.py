"""CrateDrop from Python: the CLI's 2D rigid-body engine (Chipmunk 7.0.3, CrateDrop's pinned and
patched build) as a library, bit for bit. Worlds load from scene files, step on demand, take the
CLI's input lines, hash as ``cratedrop hash`` does, read as numpy arrays, and save and restore
states that are the same bytes on every machine (docs/python.md).

>>> import cratedrop
>>> world = cratedrop.World.from_file("Scenes/book.json")
>>> world.step(1200)
>>> len(world.hash())
16
"""

from .errors import CrateDropError, InputError, SceneError, SimulationError, StateError, UsageError
from .world import EVENT, EVENT_KINDS, PARTY, POINT_HIT, SEGMENT_HIT, STATE_COLUMNS, World, determinism_class

__version__ = "0.1.0"

__all__ = ["World", "STATE_COLUMNS", "POINT_HIT", "SEGMENT_HIT", "PARTY", "EVENT", "EVENT_KINDS", "determinism_class", "CrateDropError", "SceneError", "InputError",
           "StateError", "UsageError", "SimulationError", "__version__"]
