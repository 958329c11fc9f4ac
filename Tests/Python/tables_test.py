#!/usr/bin/env python3
"""CrateDrop's tables load in one line with the PyPI packages people use (pandas, numpy).

    Tests/Python/tables_test.py CRATEDROP

Runs the book scene with Scenes/push.jsonl for 300 steps three times, writing the trace, the
contact events and the stats as CSV, JSON Lines and .npy, and checks that each loads in one call
(`pandas.read_csv(path, comment="#", float_precision="round_trip")`,
`pandas.read_json(path, lines=True, precise_float=True)`, `pandas.DataFrame(numpy.load(path))`)
into data rows only: the same rows and the same doubles, bit for bit, in every format, integer columns as integers, the run's name in NAME.meta.json beside the JSON Lines and
.npy tables. scripts/test installs pandas and numpy from PyPI. Exits 1 on the first failed check.
"""
import json, os, subprocess, sys, tempfile

import numpy
import pandas

from checks import check, finish

cratedrop = os.path.abspath(sys.argv[1])
repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


work = tempfile.mkdtemp(prefix="cratedrop-tables-")
tables = {}
for suffix in ["csv", "jsonl", "npy"]:
    paths = {kind: os.path.join(work, f"{kind}.{suffix}") for kind in ["trace", "events"]}
    arguments = [cratedrop, "hash", "Scenes/book.json", "--inputs", "Scenes/push.jsonl", "--steps", "300",
                 "--trace", paths["trace"], "--events", paths["events"]]
    if suffix == "jsonl":
        arguments += ["--stats", os.path.join(work, "stats.jsonl")]
    run = subprocess.run(arguments, cwd=repo, capture_output=True, text=True, timeout=120)
    check(run.returncode == 0, f"cratedrop hash with {suffix} tables: exit {run.returncode} {run.stderr.strip()[-300:]}")
    for kind, path in paths.items():
        if suffix == "csv":
            table = pandas.read_csv(path, comment="#", float_precision="round_trip")
        elif suffix == "jsonl":
            table = pandas.read_json(path, lines=True, precise_float=True)
        else:
            table = pandas.DataFrame(numpy.load(path))
            for column in table.columns:  # text columns come as bytes
                if table[column].dtype == object:
                    table[column] = table[column].str.decode("utf-8")
        tables[(kind, suffix)] = table
        if suffix != "csv":
            meta = json.load(open(os.path.join(work, f"{kind}.meta.json")))
            check(meta["scene"] == "book" and meta["kind"] == kind and meta["step_rate"] == 120 and meta["rows"] == f"{kind}.{suffix}",
                  f"{kind}.meta.json names the run beside {kind}.{suffix}: {meta}")

for kind, integers in [("trace", ["step", "id"]), ("events", ["step", "a", "b", "wall"])]:
    csv, jsonl, npy = (tables[(kind, suffix)] for suffix in ["csv", "jsonl", "npy"])
    check(len(csv) > 0 and len(csv) == len(jsonl) == len(npy), f"{kind}: {len(csv)} rows in each format ({len(jsonl)}, {len(npy)})")
    check(list(csv.columns) == list(jsonl.columns) == list(npy.columns), f"{kind}: the same columns in each format: {list(npy.columns)}")
    for name, table in [("csv", csv), ("jsonl", jsonl), ("npy", npy)]:
        check(all(numpy.issubdtype(table[column].dtype, numpy.integer) for column in integers),
              f"{kind}.{name}: {', '.join(integers)} load as integers ({[str(table[c].dtype) for c in integers]})")
    for column in csv.columns:
        same = all((a == b) or (a != a and b != b) for a, b in zip(csv[column], npy[column])) and \
            all((a == b) or (a != a and b != b) for a, b in zip(jsonl[column], npy[column]))
        check(same, f"{kind}: column {column} holds the same values in the three formats")

trace = tables[("trace", "npy")]
check(trace["step"].max() == 300 and set(trace["id"]) == {1, 2, 3, 4, 5}, "the trace holds every step's five bodies")
events = tables[("events", "npy")]
check("begin" in set(events["event"]), "the events hold the crates' landings")
stats = pandas.read_json(os.path.join(work, "stats.jsonl"), lines=True)
check(len(stats) == 300 and str(stats["step"].dtype) == "int64" and stats["gravity_y"].iloc[0] == -1000,
      f"the stats: 300 rows, step as int64, gravity in two columns ({len(stats)}, {stats['step'].dtype})")

finish("tables", "every format loads in one line, the same rows")
