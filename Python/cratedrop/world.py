"""A CrateDrop world in Python: the CLI's engine (the same scenes, input lines, hashes and saved
states), stepped on demand, its bodies read as numpy arrays."""

from __future__ import annotations

import ctypes
import json
import os
import threading
import warnings
import weakref
from typing import Any, Mapping, Union

import numpy as np

from . import _abi
from ._abi import LOCK, check, library, result_bytes
from .errors import CrateDropError, InputError, SceneError, StateError, UsageError

#: The columns of :meth:`World.state`, in order: one row a body, in ascending id (the trace's
#: columns, docs/outputs.md). Positions in px, angle in radians, velocities in px/s and rad/s; y up.
STATE_COLUMNS = ("id", "x", "y", "angle", "vx", "vy", "angular_velocity")

#: The largest scene file CrateDrop reads (the CLI's limit).
MAX_SCENE_BYTES = 64 << 20

#: Who a query hit or an event names: ``body`` (its id, 0 for a wall) and ``wall`` (its index in the
#: scene's walls, then its tumblers' walls; -1 for a body).
_PARTY = [("body", np.int64), ("wall", np.int64)]
#: :meth:`World.query_point`'s rows: the party, ``part`` (the shape of a compound body hit, else -1),
#: the nearest point on it, the distance (negative inside) and the distance's gradient.
POINT_HIT = np.dtype(_PARTY + [("part", np.int64), ("x", np.float64), ("y", np.float64), ("distance", np.float64),
                               ("gradient_x", np.float64), ("gradient_y", np.float64)])
#: :meth:`World.query_segment`'s rows: the party, ``part``, where the segment meets it, the surface
#: normal there, and ``alpha``, the fraction of the segment from its start.
SEGMENT_HIT = np.dtype(_PARTY + [("part", np.int64), ("x", np.float64), ("y", np.float64), ("normal_x", np.float64),
                                 ("normal_y", np.float64), ("alpha", np.float64)])
#: :meth:`World.query_box`'s rows.
PARTY = np.dtype(_PARTY)
#: The kinds of event, as :data:`EVENT`'s ``event`` column names them.
EVENT_KINDS = ("begin", "end", "sensor_enter", "sensor_exit", "joint_broke")
#: :meth:`World.events`' rows: the CLI's ``--events`` columns (docs/outputs.md, "Data out") but
#: ``time``: the step after which it was seen, the kind (``begin``, ...), ``a`` (a body's id), ``b``
#: (the other body's, or 0 for a wall), ``wall`` (the wall's index, or -1), where they touch and the
#: normal from ``a`` to ``b`` (NaN for events without), the impulses of a ``begin``'s first step,
#: and the joint that broke (0 in other rows).
EVENT = np.dtype([("step", np.int64), ("event", "U12"), ("a", np.int64), ("b", np.int64), ("wall", np.int64),
                  ("x", np.float64), ("y", np.float64), ("nx", np.float64), ("ny", np.float64),
                  ("normal_impulse", np.float64), ("tangent_impulse", np.float64), ("joint", np.int64)])


def _party_columns(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    body = np.where(codes > 0, codes, 0).astype(np.int64)
    wall = np.where(codes < 0, -codes - 1, -1).astype(np.int64)
    return body, wall


def _hits(rows: np.ndarray, dtype: np.dtype) -> np.ndarray:
    out = np.empty(len(rows), dtype=dtype)
    out["body"], out["wall"] = _party_columns(rows[:, 0])
    out["part"] = rows[:, 1].astype(np.int64)
    for index, name in enumerate(dtype.names[3:], start=2):
        out[name] = rows[:, index]
    return out


def _point(value: Any, name: str) -> tuple[float, float]:
    try:
        x, y = value
        return float(x), float(y)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a pair of numbers (x, y), got {value!r}") from None


Scene = Union[str, bytes, Mapping[str, Any]]
InputLine = Union[str, bytes, Mapping[str, Any]]


def determinism_class() -> str:
    """The determinism class of this library (``cratedrop platform``'s 12 hex digits): two
    processes of one class give the same bits for the same scene and inputs.

    >>> import cratedrop
    >>> len(cratedrop.determinism_class())
    12
    """
    with LOCK:
        return result_bytes(check(library().cratedrop_determinism_class())).decode()


def _line_bytes(line: InputLine) -> bytes:
    if isinstance(line, Mapping):
        return json.dumps(line, separators=(", ", ": ")).encode()
    if isinstance(line, str):
        return line.encode()
    if isinstance(line, (bytes, bytearray, memoryview)):
        return bytes(line)
    raise TypeError(f"an input line is a dict, str or bytes, not {type(line).__name__}")


class _ExclusiveUse:
    """A world's calls: its handle while the calling thread has the world to itself (a second
    thread's call at the same moment raises instead of waiting) and holds the library's lock.
    It points at its world weakly, so a world dropped without ``close()`` is freed at once."""

    __slots__ = ("_world", "_owner")

    def __init__(self, world: "World") -> None:
        self._world = weakref.ref(world)
        # Re-entrant: a method may call another on the same thread.
        self._owner = threading.RLock()

    def __enter__(self) -> int:
        if not self._owner.acquire(blocking=False):
            raise UsageError(64, "the world is in use by another thread: a World is for one thread at a time "
                                 "(use processes for parallel work; a pickle or World.copy() carries a world)")
        try:
            LOCK.acquire()
            try:
                world = self._world()
                if world is None:
                    raise UsageError(64, "the world is closed")
                return world._live()
            except BaseException:
                LOCK.release()
                raise
        except BaseException:
            self._owner.release()
            raise

    def __exit__(self, *exc: object) -> None:
        LOCK.release()
        self._owner.release()


class World:
    """One world: a scene loaded, stepped with fixed steps, fed input lines, hashed, saved.

    ``scene`` is the scene's JSON text (``str`` or ``bytes``) or a ``dict`` of it; ``name`` names
    it in messages (``NAME:LINE: FIELD: reason``). Raises :class:`cratedrop.SceneError` with the
    CLI's message and exit code for a scene the CLI refuses. ``record=True`` keeps the run's record
    (:meth:`record`), which costs a snapshot a step; without it the world keeps none.

    One thread at a time: a call made while another thread is in a call on the same world raises
    :class:`cratedrop.UsageError` (64) at once, never waits or crashes (a world handed from one
    thread to the next is fine). Calls on different worlds are safe from any threads but run one
    at a time (the library keeps process-wide tables): for parallel work use processes (a pickle
    carries a world). ``close()`` (or a ``with`` block) frees it at once; otherwise it is
    freed when collected.

    >>> import cratedrop
    >>> world = cratedrop.World.from_file("Scenes/book.json")
    >>> world.step(120)
    >>> world.step_count
    120
    >>> world.hash()                 # what `cratedrop hash Scenes/book.json --steps 120` prints
    'a4200839bed4fd2c'
    >>> world.state().shape[1]
    7
    """

    _handle: int = 0
    _keeping_events = False

    def __init__(self, scene: Scene, name: str = "scene.json", *, record: bool = False) -> None:
        self._use = _ExclusiveUse(self)
        if isinstance(scene, Mapping):
            # One top-level key a line, so a message's line names the key.
            entries = [f"  {json.dumps(str(key))}: {json.dumps(value)}" for key, value in scene.items()]
            text = ("{\n" + ",\n".join(entries) + "\n}\n").encode()
        elif isinstance(scene, str):
            text = scene.encode()
        elif isinstance(scene, (bytes, bytearray, memoryview)):
            text = bytes(scene)
        else:
            raise TypeError(f"a scene is a dict, JSON text or bytes, not {type(scene).__name__}")
        self._scene = text
        self._name = name
        self._inputs_name = "inputs"
        encoded = name.encode()
        with LOCK:
            handle = check(library().cratedrop_world_load(text, len(text), encoded, len(encoded)), SceneError)
            if not record:
                library().cratedrop_world_drop_record(handle)
            self._handle = handle

    @classmethod
    def from_file(cls, path: Union[str, os.PathLike], *, record: bool = False) -> "World":
        """The world of the scene file at ``path`` (named by ``path`` as given, as the CLI names it).

        Raises :class:`cratedrop.SceneError`: 66 when the file cannot be read, 65 when the scene is wrong.

        >>> import cratedrop
        >>> cratedrop.World.from_file("Scenes/pile-100.json").body_count
        100
        """
        name = os.fspath(path)
        try:
            if os.path.isdir(name):
                raise SceneError(66, f"{name}: is a directory, expected a file")
            with open(name, "rb") as file:
                text = file.read(MAX_SCENE_BYTES + 1)
        except OSError as error:
            raise SceneError(66, f"{name}: {os.strerror(error.errno) if error.errno else error}") from None
        if len(text) > MAX_SCENE_BYTES:
            raise SceneError(66, f"{name}: larger than {MAX_SCENE_BYTES >> 20} MiB")
        return cls(text, name, record=record)

    # Lifetime.

    def close(self) -> None:
        """Frees the world now; any later call raises :class:`cratedrop.UsageError`. Idempotent.
        Raises :class:`cratedrop.UsageError` while another thread is in a call on this world."""
        if self._handle <= 0:
            return
        try:
            use = self._use.__enter__()
        except UsageError:
            if self._handle <= 0:
                return  # closed meanwhile by another thread
            raise
        try:
            self._handle = 0
            library().cratedrop_world_free(use)
        finally:
            self._use.__exit__()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    def __enter__(self) -> "World":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def closed(self) -> bool:
        """Whether ``close()`` was called."""
        return self._handle <= 0

    def _live(self) -> int:
        if self._handle <= 0:
            raise UsageError(64, "the world is closed")
        return self._handle

    # Stepping and inputs.

    def step(self, n: int = 1) -> None:
        """Takes ``n`` fixed steps (1/step_rate s each), applying input lines as their steps come.

        Raises :class:`cratedrop.InputError` (65) when a line due cannot apply (its body is gone),
        :class:`cratedrop.SimulationError` (70) when the world goes non-finite; steps before stand.
        """
        n = int(n)
        if n < 0:
            raise UsageError(64, f"steps must be >= 0, got {n}")
        while n > 0:
            chunk = min(n, 1 << 30)
            with self._use as handle:
                check(library().cratedrop_world_step(handle, chunk), InputError)
            n -= chunk

    def apply(self, line: InputLine) -> None:
        """Gives the world the next line of its input stream, in the CLI's grammar
        (docs/command-line.md, "Inputs"): a ``dict`` or its JSON text. A line with ``"step"`` or
        ``"t"`` waits for its step (a stream's steps never go back); one without applies before
        the next step.

        >>> import cratedrop
        >>> world = cratedrop.World.from_file("Scenes/book.json")
        >>> world.apply({"gravity": [0, 900]})      # from the next step on
        >>> world.apply({"step": 60, "body": 1, "impulse": [0, 4000]})
        >>> world.step(1); world.gravity
        (0.0, 900.0)

        Raises :class:`cratedrop.InputError` with the CLI's ``inputs:LINE: reason``.
        """
        data = _line_bytes(line)
        with self._use as handle:
            check(library().cratedrop_world_input(handle, data, len(data)), InputError)

    def name_inputs(self, name: str) -> None:
        """Names the input stream in messages (``NAME:LINE: reason``); ``inputs`` by default."""
        encoded = name.encode()
        with self._use as handle:
            check(library().cratedrop_world_name_inputs(handle, encoded, len(encoded)))
        self._inputs_name = name

    # Reading the world.

    @property
    def step_count(self) -> int:
        """Steps taken since the scene's start (restored states included)."""
        with self._use as handle:
            return int(library().cratedrop_world_step_count(handle))

    @property
    def body_count(self) -> int:
        """The bodies (crates) in the world now: the rows of :meth:`state`."""
        with self._use as handle:
            return check(library().cratedrop_world_body_count(handle))

    @property
    def gravity(self) -> tuple[float, float]:
        """Gravity now, px/s² with y up: the scene's, or the last applied input line's."""
        out = (ctypes.c_double * 2)()
        with self._use as handle:
            check(library().cratedrop_world_gravity(handle, out))
        return (out[0], out[1])

    def hash(self) -> str:
        """The state hash as ``cratedrop hash`` prints it: 16 lowercase hex digits
        (docs/determinism.md, "State hash")."""
        with self._use as handle:
            return f"{library().cratedrop_world_hash(handle):016x}"

    def state(self, out: "np.ndarray | None" = None) -> np.ndarray:
        """The bodies' states, one row a body in ascending id, columns :data:`STATE_COLUMNS`
        (id, x, y, angle, vx, vy, angular_velocity) as float64: an array ``(body_count, 7)``.

        ``out``, if given, is filled and returned instead: a C-contiguous float64 array of exactly
        that shape (``ValueError`` otherwise), so a loop can reuse one buffer.

        >>> import cratedrop, numpy as np
        >>> world = cratedrop.World.from_file("Scenes/book.json")
        >>> buffer = np.empty((world.body_count, 7))
        >>> world.state(out=buffer) is buffer
        True
        """
        with self._use as handle:
            rows = check(library().cratedrop_world_body_count(handle))
            if out is None:
                out = np.empty((rows, len(STATE_COLUMNS)), dtype=np.float64)
            elif not isinstance(out, np.ndarray):
                raise ValueError(f"out must be a numpy array, not {type(out).__name__}")
            elif out.dtype != np.float64 or out.shape != (rows, len(STATE_COLUMNS)) or not out.flags.c_contiguous or not out.flags.writeable:
                raise ValueError(f"out must be a writable C-contiguous float64 array of shape ({rows}, {len(STATE_COLUMNS)}), "
                                 f"got {out.dtype} {out.shape}")
            written = check(library().cratedrop_world_state(handle, out.ctypes.data, rows))
        if written != rows:
            raise RuntimeError(f"the library wrote {written} rows of {rows}")
        return out

    @property
    def image_size(self) -> tuple[int, int]:
        """``(width, height)`` of the scene's frames when no size is given: its ``render.size``,
        or the CLI's default for its shape (the longer side 600 px)."""
        out = (ctypes.c_int32 * 2)()
        with self._use as handle:
            check(library().cratedrop_world_image_size(handle, out))
        return (out[0], out[1])

    def render(self, width: "int | None" = None, height: "int | None" = None, out: "np.ndarray | None" = None) -> np.ndarray:
        """The world now as a picture: a ``(height, width, 3)`` uint8 RGB array, top row first,
        drawn by the CLI's renderer pixel for pixel (the frame ``cratedrop run SCENE --at S --size WxH
        --out frame.png`` writes at the same step, S = steps / step_rate). The size defaults to :attr:`image_size`;
        each side 1-16384 (``UsageError``, 64, otherwise). ``out``, if given, is filled and
        returned: a writable C-contiguous uint8 array of exactly that shape (``ValueError`` otherwise).
        Pictures after the first are drawn again only where bodies moved.

        >>> import cratedrop
        >>> world = cratedrop.World.from_file("Scenes/book.json")
        >>> world.render().shape          # book.json's render.size is 300 x 300
        (300, 300, 3)
        >>> world.render(320, 240).dtype
        dtype('uint8')
        """
        if width is None or height is None:
            default_width, default_height = self.image_size
            width = default_width if width is None else width
            height = default_height if height is None else height
        width, height = int(width), int(height)
        if not (1 <= width <= 16384 and 1 <= height <= 16384):
            raise UsageError(64, f"size must be WIDTHxHEIGHT with each side in 1...16384, got {width}x{height}")
        shape = (height, width, 3)
        if out is None:
            out = np.empty(shape, dtype=np.uint8)
        elif not isinstance(out, np.ndarray):
            raise ValueError(f"out must be a numpy array, not {type(out).__name__}")
        elif out.dtype != np.uint8 or out.shape != shape or not out.flags.c_contiguous or not out.flags.writeable:
            raise ValueError(f"out must be a writable C-contiguous uint8 array of shape {shape}, got {out.dtype} {out.shape}")
        with self._use as handle:
            check(library().cratedrop_world_render(handle, width, height, out.ctypes.data, out.nbytes))
        return out

    def _fill_state(self, address: int, rows: int) -> int:
        """:meth:`state` into ``rows`` rows at ``address`` without its checks, for a caller that
        made the buffer itself (``TiltEnv``, every action): the rows written."""
        with self._use as handle:
            return check(library().cratedrop_world_state(handle, address, rows))

    def _act(self, line: bytes, steps: int, address: int, rows: int, hash_out: ctypes.c_uint64) -> int:
        """One environment action in one library call: :meth:`apply` ``line``, :meth:`step`
        ``steps``, then the bodies into ``rows`` rows at ``address`` (as :meth:`_fill_state`) and
        the hash into ``hash_out``. The rows written; :class:`cratedrop.InputError` as
        :meth:`apply` and :meth:`step` raise it (a refused line takes no step)."""
        with self._use as handle:
            return check(library().cratedrop_world_act(handle, line, len(line), steps, address, rows, ctypes.byref(hash_out)), InputError)

    # Queries and events.

    def query_point(self, point: Any, within: float = 0.0) -> np.ndarray:
        """The shapes within ``within`` px of ``point`` (0: those containing it), nearest first, as
        a structured array of :data:`POINT_HIT` rows. Raises ``ValueError`` (an
        :class:`cratedrop.InputError`, 65) for a point or distance out of range.

        >>> import cratedrop
        >>> world = cratedrop.World.from_file("Scenes/book.json")
        >>> x, y = world.state()[0, 1:3]
        >>> int(world.query_point((x, y))["body"][0])
        1
        """
        x, y = _point(point, "point")
        with self._use as handle:
            rows = check(library().cratedrop_world_query_point(handle, x, y, float(within)), InputError)
            return _hits(_abi.result_rows(rows, 7), POINT_HIT)

    def query_segment(self, start: Any, end: Any, radius: float = 0.0) -> np.ndarray:
        """Every shape the segment from ``start`` to ``end``, thickened by ``radius``, meets,
        nearest its start first, as :data:`SEGMENT_HIT` rows."""
        x0, y0 = _point(start, "start")
        x1, y1 = _point(end, "end")
        with self._use as handle:
            rows = check(library().cratedrop_world_query_segment(handle, x0, y0, x1, y1, float(radius), 0), InputError)
            return _hits(_abi.result_rows(rows, 7), SEGMENT_HIT)

    def ray_cast(self, start: Any, end: Any, radius: float = 0.0) -> "np.void | None":
        """The first shape a ray from ``start`` towards ``end`` meets (a :data:`SEGMENT_HIT` row), or None.

        >>> import cratedrop
        >>> world = cratedrop.World.from_file("Scenes/book.json")
        >>> hit = world.ray_cast((1, 300), (1, -300))      # straight down near the left wall
        >>> bool(hit["wall"] >= 0 or hit["body"] > 0)
        True
        """
        x0, y0 = _point(start, "start")
        x1, y1 = _point(end, "end")
        with self._use as handle:
            rows = check(library().cratedrop_world_query_segment(handle, x0, y0, x1, y1, float(radius), 1), InputError)
            hits = _hits(_abi.result_rows(rows, 7), SEGMENT_HIT)
        return hits[0] if len(hits) else None

    def query_box(self, low: Any, high: Any) -> np.ndarray:
        """The bodies and walls whose shapes' bounding boxes overlap the box from ``low`` to
        ``high`` (a broad answer, by boxes), as :data:`PARTY` rows: bodies by id, then walls."""
        x0, y0 = _point(low, "low")
        x1, y1 = _point(high, "high")
        with self._use as handle:
            rows = check(library().cratedrop_world_query_box(handle, x0, y0, x1, y1), InputError)
            codes = _abi.result_rows(rows, 1)[:, 0]
        out = np.empty(len(codes), dtype=PARTY)
        out["body"], out["wall"] = _party_columns(codes)
        return out

    def keep_events(self, on: bool = True) -> None:
        """Keeps every step's contact events from now on, for :meth:`events` (or, with False,
        stops and forgets them). Keeping changes nothing the world computes."""
        with self._use as handle:
            check(library().cratedrop_world_keep_events(handle, 1 if on else 0))
        self._keeping_events = bool(on)

    def events(self) -> np.ndarray:
        """The contact events of the steps taken since the last call (after :meth:`keep_events`),
        in step order, as :data:`EVENT` rows: the CLI's ``--events``.

        >>> import cratedrop
        >>> world = cratedrop.World.from_file("Scenes/book.json"); world.keep_events()
        >>> world.step(120)
        >>> events = world.events()
        >>> str(events["event"][0]), len(world.events())
        ('begin', 0)
        """
        with self._use as handle:
            rows = check(library().cratedrop_world_events(handle))
            table = _abi.result_rows(rows, 11)
        out = np.empty(len(table), dtype=EVENT)
        out["step"] = table[:, 0].astype(np.int64)
        out["event"] = np.array(EVENT_KINDS)[table[:, 1].astype(np.int64)] if len(table) else []
        # The library names both parties alike; the CLI's a is a body, b a body or 0 beside a wall.
        out["a"] = np.where(table[:, 2] > 0, table[:, 2], 0).astype(np.int64)
        out["b"], out["wall"] = _party_columns(table[:, 3])
        for index, name in enumerate(["x", "y", "nx", "ny", "normal_impulse", "tangent_impulse"], start=4):
            out[name] = table[:, index]
        out["joint"] = np.where(table[:, 10] > 0, table[:, 10], 0).astype(np.int64)
        return out

    # Saved states, copies, pickles.

    def save(self) -> bytes:
        """The world's state as bytes: the CLI's world-state bytes for the same world at the same
        step, the same on every machine. :meth:`restore` takes them back (in a world of the same scene)."""
        with self._use as handle:
            return result_bytes(check(library().cratedrop_world_save(handle)))

    def save_file(self) -> bytes:
        """The world's state as the CLI's saved-state file (``--save-state``: the scene within):
        written to ``run.state``, ``cratedrop hash run.state --steps N`` continues it natively."""
        with self._use as handle:
            return result_bytes(check(library().cratedrop_world_save_file(handle)))

    def restore(self, state: bytes) -> None:
        """Puts the world back to a state saved from the same scene: :meth:`save`'s bytes, or a
        saved-state file (:meth:`save_file`, the CLI's ``--save-state``). It then continues bit for
        bit as the saved world did. Raises :class:`cratedrop.StateError` (65) for bytes that are
        not a state, or a state of another scene. A saved-state file from another determinism
        class restores with the CLI's warning (a ``RuntimeWarning``): its continuation here will
        not match one made there.

        >>> import cratedrop
        >>> world = cratedrop.World.from_file("Scenes/book.json")
        >>> world.step(100); saved = world.save(); world.step(50); later = world.hash()
        >>> world.restore(saved); world.step(50); world.hash() == later
        True
        """
        data = bytes(state)
        with self._use as handle:
            warning = check(library().cratedrop_world_restore(handle, data, len(data)), StateError)
            text = result_bytes(warning).decode("utf-8", "replace") if warning > 0 else None
        if text:
            warnings.warn(text, RuntimeWarning, stacklevel=2)

    def record(self) -> bytes:
        """The run's record (a ``.rec`` file's JSON Lines: the scene, every input applied with its
        step, checkpoints, and an end line after the last step) for a world made with
        ``record=True``: ``cratedrop replay FILE --verify`` checks it natively. Raises
        :class:`cratedrop.UsageError` (64) for a world without one, or after a :meth:`restore`."""
        with self._use as handle:
            return result_bytes(check(library().cratedrop_world_record(handle)))

    def pending_inputs(self) -> list[str]:
        """The input lines given but not yet applied, in the order given."""
        with self._use as handle:
            text = result_bytes(check(library().cratedrop_world_pending_inputs(handle))).decode()
        return text.split("\n") if text else []

    def _snapshot(self) -> dict[str, Any]:
        # One hold of the world for both reads: the state and the lines pending at that state.
        with self._use:
            return {"scene": self._scene, "name": self._name, "inputs_name": self._inputs_name,
                    "state": self.save(), "pending": self.pending_inputs(), "keep_events": self._keeping_events}

    @classmethod
    def _from_snapshot(cls, snapshot: Mapping[str, Any]) -> "World":
        world = cls(snapshot["scene"], snapshot["name"])
        if snapshot["inputs_name"] != "inputs":
            world.name_inputs(snapshot["inputs_name"])
        world.restore(snapshot["state"])
        for line in snapshot["pending"]:
            world.apply(line)
        if snapshot.get("keep_events"):
            world.keep_events()
        return world

    def copy(self) -> "World":
        """An independent world in this one's state (its scene, its saved state, the input lines
        not yet applied, whether it keeps events; not the events unread): stepped alike, the two
        stay bit-identical.

        >>> import cratedrop
        >>> world = cratedrop.World.from_file("Scenes/book.json"); world.step(30)
        >>> twin = world.copy(); world.step(600); twin.step(600)
        >>> twin.hash() == world.hash()
        True
        """
        return World._from_snapshot(self._snapshot())

    def __copy__(self) -> "World":
        return self.copy()

    def __deepcopy__(self, memo: dict) -> "World":
        return self.copy()

    def __reduce__(self):
        # The library's handle is this process's: a pickle carries the scene and the saved state
        # (portable across machines and processes), and the input lines not yet applied.
        return (World._from_snapshot, (self._snapshot(),))

    def __repr__(self) -> str:
        if self._handle <= 0:
            return f"<cratedrop.World {self._name!r} closed>"
        try:
            return f"<cratedrop.World {self._name!r} step {self.step_count}, {self.body_count} bodies>"
        except UsageError:
            return f"<cratedrop.World {self._name!r} in use by another thread>"


__all__ = ["World", "STATE_COLUMNS", "POINT_HIT", "SEGMENT_HIT", "PARTY", "EVENT", "EVENT_KINDS", "determinism_class"]
