#!/usr/bin/env python3
"""A sweep's dataset loads with the snippet docs/sweeps.md shows (the package's cratedrop.data,
imported from Python/ as it stands: no library needed), its labels agree with its pixels,
and its WebDataset shards read back whole.

    Tests/Python/dataset_test.py CRATEDROP

Runs Sweeps/dataset.json into a temporary folder, runs the ```python block of docs/sweeps.md's
"Making a dataset" as written (numpy and Pillow from PyPI; scripts/test installs them), and checks
each sample through it: the frames and masks have meta.json's count and size, every frame's mask
holds the background, the four bounds walls and the bodies of that frame's trace rows and nothing
else, each body's mask pixels lie inside the trace's bounding box for that frame, pixels whose
mask and neighbours are all background show the scene's background colour, and meta.json agrees
with done.json, and the trace's and events' text columns come out as str; merges it and checks
manifest.npy, loaded by the block's load_table, against manifest.jsonl. Then packs the folder (`sweep pack`, 3 samples and at most 1 MiB a shard) and
reads the shards back with the `webdataset` package: one record per sample, in order, each file's
bytes as in the sample's folder; packing again gives the same bytes. Exits 1 on a failed check.
"""
import json, os, re, shutil, subprocess, sys, tempfile

import numpy
import webdataset

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "Python"))

from checks import check, finish

cratedrop = os.path.abspath(sys.argv[1])
repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def documented_loader():
    """The first ```python block after docs/sweeps.md's "Making a dataset" heading."""
    text = open(os.path.join(repo, "docs", "sweeps.md"), encoding="utf-8").read()
    section = text[text.index("## Making a dataset"):]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


work = tempfile.mkdtemp(prefix="cratedrop-dataset-")
folder = os.path.join(work, "dataset")
run = subprocess.run([cratedrop, "sweep", "run", "Sweeps/dataset.json", "--out", folder], cwd=repo, capture_output=True,
                     text=True, timeout=300)
check(run.returncode == 0, f"sweep run Sweeps/dataset.json: exit {run.returncode} {run.stderr.strip()[-300:]}")

merged = subprocess.run([cratedrop, "sweep", "merge", folder], cwd=repo, capture_output=True, text=True, timeout=120)
check(merged.returncode == 0, f"sweep merge: exit {merged.returncode} {merged.stderr.strip()[-300:]}")
# The block as written, on this folder: the package's loader (Python/cratedrop/data.py).
namespace = {}
exec(documented_loader().replace('"out/dataset', json.dumps(folder)[:-1]), namespace)
check(namespace["item"]["frames"].shape[0] == 24 and len(namespace["manifest"]) == 8, "docs/sweeps.md's block runs on the folder")
dataset = namespace["Dataset"](folder)
check(len(dataset) == 8, f"the dataset holds the spec's 8 samples: {len(dataset)}")
background = numpy.array([0xF4, 0xEF, 0xE6], dtype=numpy.uint8)  # pile-100's (the default) render background
for index in range(len(dataset)):
    item = dataset[index]
    meta, frames, masks, trace = item["meta"], item["frames"], item["masks"], item["trace"]
    name = f"sample {meta['sample']}"
    count, height, width = meta["frames"], meta["height"], meta["width"]
    check(count == 24 and frames.shape == (count, height, width, 3) and frames.dtype == numpy.uint8,
          f"{name}: frames {frames.shape} {frames.dtype}")
    check(masks.shape == (count, height, width) and masks.dtype == numpy.uint16, f"{name}: masks {masks.shape} {masks.dtype}")
    check("events" in item and len(item["events"]) > 0, f"{name}: contact events loaded")
    # Text columns come out as str, not bytes: the loader converts numpy's "S" kind.
    check(trace.dtype["shape"].kind == "U" and isinstance(trace["shape"][0], str) and trace["shape"][0] != "",
          f"{name}: the trace's shape column is str ({trace.dtype['shape']}, {trace['shape'][0]!r})")
    check(item["events"].dtype["event"].kind == "U" and all(isinstance(e, str) for e in item["events"]["event"][:5]),
          f"{name}: the events' event column is str ({item['events'].dtype['event']})")
    done = json.load(open(os.path.join(dataset.paths[index], "done.json")))
    check(meta["hash"] == done["hash"] and meta["parameters"] == done["parameters"], f"{name}: meta.json agrees with done.json")
    check(sorted(set(trace["frame"].tolist())) == list(range(1, count + 1)), f"{name}: the trace has rows for frames 1...{count}")
    check(bool(numpy.all(trace["step"] == trace["frame"] * meta["steps_per_frame"])), f"{name}: frame N holds step N x steps_per_frame")
    walls = set(range(meta["masks"]["first_wall"], meta["masks"]["first_wall"] + meta["masks"]["walls"]))
    outside_boxes = unexpected_ids = unlike_background = 0
    for n in range(1, count + 1):
        mask, rows = masks[n - 1], trace[trace["frame"] == n]
        ids = set(numpy.unique(mask).tolist())
        unexpected_ids += len(ids - {0} - walls - set(rows["id"].tolist()))
        for row in rows:
            ys, xs = numpy.nonzero(mask == row["id"])
            if len(xs) and (xs.min() + 0.5 < row["box_x0"] or xs.max() + 0.5 > row["box_x1"]
                            or ys.min() + 0.5 < row["box_y0"] or ys.max() + 0.5 > row["box_y1"]):
                outside_boxes += 1
        # Background pixels away from anything drawn show the background colour.
        # (A body's anti-aliased rim, partly covered, is beside one of its mask pixels, diagonally at a corner.)
        empty = mask == 0
        inner = numpy.ones((height - 2, width - 2), dtype=bool)
        for dy in range(3):
            for dx in range(3):
                inner &= empty[dy:dy + height - 2, dx:dx + width - 2]
        shown = frames[n - 1][1:-1, 1:-1][inner]
        unlike_background += int(numpy.any(shown != background, axis=1).sum())
    check(unexpected_ids == 0, f"{name}: every mask id is the background, a wall or a body of that frame's trace")
    check(outside_boxes == 0, f"{name}: every body's mask pixels lie inside its bounding box")
    check(unlike_background == 0, f"{name}: background pixels of the masks show the background colour ({unlike_background} do not)")
    bodies = numpy.unique(masks[-1])
    check(len([b for b in bodies.tolist() if 0 < b < meta["masks"]["first_wall"]]) >= 15, f"{name}: the last mask shows most of the 20 bodies")

table = namespace["load_table"](os.path.join(folder, "manifest.npy"))
rows = [json.loads(line) for line in open(os.path.join(folder, "manifest.jsonl"))]
check(len(table) == len(rows) == 8, f"manifest.npy holds manifest.jsonl's 8 rows ({len(table)})")
check(all(int(t["sample"]) == r["sample"] and t["hash"] == r["hash"] and t["path"] == r["path"]
          and int(t["parameters.generator.seed"]) == r["parameters"]["generator.seed"]
          and [t["parameters.gravity[0]"], t["parameters.gravity[1]"]] == r["parameters"]["gravity"]
          and int(t["bodies"]) == r["summary"]["bodies"] and t["mean_y"] == r["summary"]["mean_y"] for t, r in zip(table, rows)),
      "manifest.npy's columns hold manifest.jsonl's values (text as str through load_table, a whole-number parameter as int64, gravity as two float64 columns)")
check(table.dtype["parameters.generator.seed"] == numpy.int64, f"generator.seed is an int64 column ({table.dtype['parameters.generator.seed']})")

shards = os.path.join(work, "shards")
pack = [cratedrop, "sweep", "pack", folder, "--out", shards, "--max-samples", "3", "--max-bytes", "1M"]
packed = subprocess.run(pack, cwd=repo, capture_output=True, text=True, timeout=120)
check(packed.returncode == 0, f"sweep pack: exit {packed.returncode} {packed.stderr.strip()[-300:]}")
urls = json.loads(packed.stdout)["shards"]
check([os.path.basename(url) for url in urls] == ["dataset-000000.tar", "dataset-000001.tar", "dataset-000002.tar"],
      f"8 samples, 3 a shard: 3 shards {urls}")
check(all(os.path.getsize(url) <= 1 << 20 for url in urls), "every shard within --max-bytes")
records = list(webdataset.WebDataset(urls, shardshuffle=False))
check([record["__key__"] for record in records] == [os.path.basename(path) for path in dataset.paths],
      "webdataset reads one record per sample, in index order")
for record, path in zip(records, dataset.paths):
    on_disk = {}
    for root, _, files in os.walk(path):
        for file in files:
            on_disk[file] = open(os.path.join(root, file), "rb").read()
    got = {key: value for key, value in record.items() if not key.startswith("__")}
    check(got == on_disk, f"{record['__key__']}: the record holds the sample's {len(on_disk)} files, byte for byte ({len(got)})")
before = [open(url, "rb").read() for url in urls]
again = subprocess.run(pack + ["--force"], cwd=repo, capture_output=True, text=True, timeout=120)
check(again.returncode == 0 and [open(url, "rb").read() for url in urls] == before, "packing again gives the same bytes")

shutil.rmtree(work)
finish("dataset_test", "the documented loader reads every sample, its masks agree with its frames and trace, its shards read back")
