"""A sweep's dataset folder as numpy arrays (docs/sweeps.md, "Making a dataset"): the samples
``cratedrop sweep run`` wrote, each with its frames, masks, trace and contact events. Needs Pillow
for the frames and masks (``pip install "cratedrop[data]"``), nothing of the library.

``Dataset`` follows the protocol of PyTorch's ``Dataset`` (``len(dataset)``, ``dataset[i]``), so
``torch.utils.data.DataLoader(Dataset("out/dataset"))`` takes it as it is.
"""

from __future__ import annotations

import json
import pathlib
from typing import Any, Union

import numpy


def load_table(path: Union[str, "pathlib.Path"]) -> numpy.ndarray:
    """A ``.npy`` table CrateDrop wrote (trace, events, a sweep's manifest) as a structured array
    whose text columns are ``str``: the file keeps them as fixed-width ASCII bytes (numpy's ``S``
    kind), which ``numpy.load`` gives as ``bytes``."""
    table = numpy.load(path)
    kinds = table.dtype
    return table.astype([(name, f"U{kinds[name].itemsize}" if kinds[name].kind == "S" else kinds[name]) for name in kinds.names])


class Dataset:
    """The complete samples of a sweep folder (those with ``done.json``), in sample order. Item
    ``i`` is a dict: ``meta`` (its ``meta.json``), ``frames`` (N, H, W, 3) uint8, ``masks``
    (N, H, W) uint16 when the sweep drew them, and ``trace`` and ``events`` (structured arrays,
    text columns as ``str``) when it wrote them as ``.npy``."""

    def __init__(self, folder: Union[str, "pathlib.Path"]) -> None:
        samples = pathlib.Path(folder, "samples")
        self.paths = sorted(p for p in samples.iterdir() if p.name.isdigit() and (p / "done.json").is_file())

    def __len__(self) -> int:
        return len(self.paths)

    def __getitem__(self, index: int) -> dict[str, Any]:
        from PIL import Image

        path = self.paths[index]
        meta = json.loads((path / "meta.json").read_text())
        numbers = range(1, meta["frames"] + 1)
        item: dict[str, Any] = {"meta": meta}
        item["frames"] = numpy.stack([numpy.asarray(Image.open(path / (meta["frames_path"] % n))) for n in numbers])
        if meta["masks"]:
            item["masks"] = numpy.stack([numpy.asarray(Image.open(path / (meta["masks"]["path"] % n))) for n in numbers])
        for table in ["trace", "events"]:
            if (path / f"{table}.npy").is_file():
                item[table] = load_table(path / f"{table}.npy")
        return item


__all__ = ["Dataset", "load_table"]
