"""The C ABI of libcratedrop.so (Sources/CoreABI) through ctypes: loading, signatures, and one lock.

The library keeps one table of worlds and one "last result" buffer for the whole process
(docs/architecture.md, "The core"); every call that reads a result after it runs under ``LOCK``,
so threads never see each other's results. Internal: use :class:`cratedrop.World`.
"""

from __future__ import annotations

import ctypes
import os
import threading
from pathlib import Path

from .errors import CrateDropError

#: Serialises every call into the library (its handle table and result buffer are process-wide).
LOCK = threading.RLock()

_u8p = ctypes.POINTER(ctypes.c_uint8)
_f64p = ctypes.POINTER(ctypes.c_double)
_i32 = ctypes.c_int32

_SIGNATURES = {
    "cratedrop_result": (ctypes.c_void_p, []),
    "cratedrop_result_length": (_i32, []),
    "cratedrop_world_load": (_i32, [ctypes.c_char_p, _i32, ctypes.c_char_p, _i32]),
    "cratedrop_world_free": (_i32, [_i32]),
    "cratedrop_world_name_inputs": (_i32, [_i32, ctypes.c_char_p, _i32]),
    "cratedrop_world_input": (_i32, [_i32, ctypes.c_char_p, _i32]),
    "cratedrop_world_step": (_i32, [_i32, _i32]),
    "cratedrop_world_step_count": (ctypes.c_double, [_i32]),
    "cratedrop_world_hash": (ctypes.c_uint64, [_i32]),
    "cratedrop_world_body_count": (_i32, [_i32]),
    "cratedrop_world_state": (_i32, [_i32, ctypes.c_void_p, _i32]),
    "cratedrop_world_save": (_i32, [_i32]),
    "cratedrop_world_save_file": (_i32, [_i32]),
    "cratedrop_world_restore": (_i32, [_i32, ctypes.c_char_p, _i32]),
    "cratedrop_world_pending_inputs": (_i32, [_i32]),
    "cratedrop_world_gravity": (_i32, [_i32, ctypes.c_void_p]),
    "cratedrop_world_query_point": (_i32, [_i32, ctypes.c_double, ctypes.c_double, ctypes.c_double]),
    "cratedrop_world_query_segment": (_i32, [_i32] + [ctypes.c_double] * 5 + [_i32]),
    "cratedrop_world_query_box": (_i32, [_i32] + [ctypes.c_double] * 4),
    "cratedrop_world_keep_events": (_i32, [_i32, _i32]),
    "cratedrop_world_events": (_i32, [_i32]),
    "cratedrop_world_dropped_events": (ctypes.c_double, [_i32]),
    "cratedrop_world_drop_record": (_i32, [_i32]),
    "cratedrop_world_record": (_i32, [_i32]),
    "cratedrop_world_act": (_i32, [_i32, ctypes.c_char_p, _i32, _i32, ctypes.c_void_p, _i32, ctypes.c_void_p]),
    "cratedrop_world_image_size": (_i32, [_i32, ctypes.c_void_p]),
    "cratedrop_world_render": (_i32, [_i32, _i32, _i32, ctypes.c_void_p, _i32]),
    "cratedrop_determinism_class": (_i32, []),
}


def _load() -> ctypes.CDLL:
    path = os.environ.get("CRATEDROP_LIBRARY") or str(Path(__file__).with_name("libcratedrop.so"))
    library = ctypes.CDLL(path)
    for name, (restype, argtypes) in _SIGNATURES.items():
        function = getattr(library, name)
        function.restype = restype
        function.argtypes = argtypes
    return library


_library = None


def library() -> ctypes.CDLL:
    """The library, loaded on first use (``cratedrop.data`` needs none of it)."""
    global _library
    if _library is None:
        _library = _load()
    return _library


def result_bytes(length: int) -> bytes:
    """The last call's result, ``length`` bytes (call under ``LOCK``)."""
    if length <= 0:
        return b""
    return ctypes.string_at(library().cratedrop_result(), length)


def result_rows(rows: int, columns: int) -> "numpy.ndarray":
    """The last call's result as a (rows, columns) float64 array, a copy (call under ``LOCK``)."""
    import numpy

    if rows <= 0:
        return numpy.empty((0, columns))
    return numpy.frombuffer(result_bytes(rows * columns * 8), dtype=numpy.float64).reshape(rows, columns).copy()


def check(value: int, error: type[CrateDropError] = CrateDropError) -> int:
    """Returns ``value``, or raises ``error`` with the CLI's exit code and message when it is negative."""
    if value < 0:
        message = result_bytes(library().cratedrop_result_length()).decode("utf-8", "replace")
        raise error.for_code(-value, message)
    return value
