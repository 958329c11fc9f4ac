#!/usr/bin/env python3
"""The Python wheel (scripts/wheel) installed into a fresh venv gives the CLI's worlds bit for bit.

    Tests/Python/wheel_test.py CRATEDROP WHEEL

Makes a venv with nothing but the wheel and what pip brings from PyPI for it (numpy), adds
gymnasium and pytest, then runs this file's sections under pytest inside it (one test a section),
from a folder outside the repository (so `import cratedrop` can only be the installed package),
checking against the CLI at CRATEDROP:
- every case of scripts/wasm-test but the piles of 1,000 bodies and more (the shipped scenes, with
  the tilt, push, drag, lift, platformer, change and breaking input streams; terrain's picture
  read and decoded in the library): `World.step(1)` then `hash()` after each of 1,200
  steps equals `cratedrop hash SCENE [--inputs FILE] --steps 1200 --every 1` line for line; and
  pile-1000, pile-mix, pile-polygons and pile-5000 too, straight and restored at step 600;
- a missing, damaged or directory terrain picture: the CLI's message and code;
- saved at step 300 and restored into a new world, pickled and unpickled, and copied: each goes on
  to the CLI's hashes (the copy equal to the original after 600 more steps); the saved bytes are the
  fields of the CLI's `--save-state` file at that step, and the CLI's file restores in Python;
- `state()` equals the CLI's trace rows (`--trace FILE.jsonl`, and `.npy` read by
  `cratedrop.data.load_table`) for book and pile-100; `events()` equals `--events` for a tilt and a
  breaking bridge; the point, segment, ray and box queries find the bodies where `state()` puts them;
- `cratedrop.gym.TiltEnv` passes Gymnasium's `check_env`; `reset(seed=7)` is the CLI's pile-100
  with generator seed 7, and 50 actions' `info["state_hash"]` equal `cratedrop hash --inputs` of the
  same actions as `accel` lines;
- a bad scene, a bad input line, bad state bytes, a missing file: the CLI's message and exit code,
  in the documented exception class; a closed world and a wrong buffer raise, never crash;
- the determinism class is the CLI's; every docstring example in the package runs (doctest), as
  does the README's Python example;
- `World.render` equals the CLI's PPM frame pixel for pixel for nine scenes (boxes, pile, colours,
  circles, joints, moving walls, compound and concave bodies, a world changing as it runs) at two
  steps and two sizes; a bad size or buffer raises; TiltEnv's `render()` is the world's picture;
- a call on a world while another thread is in one raises UsageError, and the world stays the CLI's;
- the costs of a call, `step(1)` above the physics and `state()` of 1,000 bodies are printed
  (TiltEnv against the same steps and against pymunk: scripts/bench-gym).
Exits 1 on a failed check.
"""
import json, os, re, subprocess, sys, tempfile, venv

repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(repo, "Tests", "Python"))
from checks import check, failures, finish  # noqa: E402

STEPS = int(os.environ.get("WHEEL_STEPS", "1200"))
RESTORE_AT = 300
# scripts/wasm-test's cases (name: scene, inputs) but the piles of 1,000 bodies and more, which
# are in PILES (no pickle or copy).
CASES = {
    "book": ("Scenes/book.json", None), "tilt": ("Scenes/book.json", "Scenes/tilt.jsonl"),
    "push": ("Scenes/book.json", "Scenes/push.jsonl"), "drag": ("Scenes/book.json", "Scenes/drag.jsonl"),
    "lift": ("Scenes/lift.json", "Scenes/lift.jsonl"), "pushes": ("Scenes/platformer.json", "Scenes/platformer.jsonl"), "changes": ("Scenes/book.json", "Tests/CrossArch/book-changes.jsonl"),
    "plank": ("Scenes/bridge.json", "Tests/CrossArch/bridge-plank.jsonl"), "snap": ("Scenes/bridge.json", "Tests/CrossArch/bridge-breaks.jsonl"),
}
for scene in ["breaking-bridge", "crate-drop", "pile-100", "pile-colors", "chains", "ramp", "stack", "tumbler", "barrels", "galton", "domino", "seesaw", "newton-cradle",
              "bridge", "car", "platformer", "hammers", "letters", "terrain"]:
    CASES[scene] = (f"Scenes/{scene}.json", None)


# The piles of 1,000 and more crates (pile-mix and pile-polygons have 1,000 each), with their steps.
PILES = [("Scenes/pile-1000.json", 1200), ("Scenes/pile-mix.json", 1200), ("Scenes/pile-polygons.json", 1200), ("Scenes/pile-5000.json", 1200)]
# Scenes whose pictures are checked against the CLI's frames: boxes, a pile, crates of their own
# colours, circles, joints, moving walls, compound and concave bodies, rules of contact, and a
# world that changes as it runs (bodies added and removed: the renderer takes the new parts).
PICTURES = [("Scenes/book.json", None), ("Scenes/pile-100.json", None), ("Scenes/pile-colors.json", None), ("Scenes/barrels.json", None),
            ("Scenes/bridge.json", None), ("Scenes/tumbler.json", None), ("Scenes/platformer.json", "Scenes/platformer.jsonl"), ("Scenes/letters.json", None),
            ("Scenes/book.json", "Tests/CrossArch/book-changes.jsonl")]


def last_ppm_frame(stream):
    """The last frame of a PPM stream (binary P6 frames, maxval 255) as a (height, width, 3) uint8 array."""
    import numpy as np

    position, frame = 0, None
    while position < len(stream):
        fields = []
        while len(fields) < 4:
            while stream[position:position + 1].isspace():
                position += 1
            end = position
            while not stream[end:end + 1].isspace():
                end += 1
            fields.append(stream[position:end])
            position = end
        magic, width, height, maxval = fields[0], int(fields[1]), int(fields[2]), int(fields[3])
        assert magic == b"P6" and maxval == 255, (magic, maxval)
        position += 1
        frame = np.frombuffer(stream[position:position + width * height * 3], dtype=np.uint8).reshape(height, width, 3)
        position += width * height * 3
    return frame


def outside(cratedrop, wheel):
    """Makes the venv, installs the wheel, runs the checks inside it."""
    work = tempfile.mkdtemp(prefix="cratedrop-wheel-")
    env_dir = os.path.join(work, "venv")
    venv.create(env_dir, with_pip=True)
    python = os.path.join(env_dir, "bin", "python")
    install = subprocess.run([python, "-m", "pip", "install", "-q", wheel], capture_output=True, text=True)
    check(install.returncode == 0, f"pip install {os.path.basename(wheel)} into a fresh venv: exit {install.returncode} {install.stderr[-400:]}")
    if install.returncode != 0:
        finish("wheel_test", "")
    listed = subprocess.run([python, "-m", "pip", "list", "--format=freeze"], capture_output=True, text=True).stdout.split()
    names = sorted(line.split("==")[0].lower() for line in listed)
    check(set(names) <= {"cratedrop", "numpy", "pip", "setuptools"}, f"the venv holds only the wheel and numpy: {names}")
    # Then the gym extra, for cratedrop.gym's checks, and pytest, which runs them.
    extra = subprocess.run([python, "-m", "pip", "install", "-q", f"{wheel}[gym]", "pytest"], capture_output=True, text=True)
    check(extra.returncode == 0, f"pip install the wheel's [gym] extra (gymnasium) and pytest: exit {extra.returncode} {extra.stderr[-400:]}")
    if extra.returncode != 0:
        finish("wheel_test", "")
    # From the work folder, so `import cratedrop` can only be the installed package; -s: every
    # check's line and the costs print as they come.
    environment = dict(os.environ, WHEEL_TEST_CLI=os.path.abspath(cratedrop), WHEEL_TEST_WORK=work)
    tests = subprocess.run([python, "-m", "pytest", "-s", "-q", "-p", "no:cacheprovider", "--rootdir", work, os.path.abspath(__file__)],
                           cwd=work, env=environment)
    sys.exit(tests.returncode)


def cli(cratedrop, *arguments, **kwargs):
    return subprocess.run([cratedrop, *arguments], cwd=repo, capture_output=True, **kwargs)


def open_world(cratedrop_module, scene, inputs):
    world = cratedrop_module.World.from_file(os.path.join(repo, scene))
    if inputs:
        world.name_inputs(inputs)
        for line in open(os.path.join(repo, inputs), encoding="utf-8").read().splitlines():
            if line.strip():
                world.apply(line)
    return world


def _imports():
    """The modules every section uses, the installed package among them."""
    import numpy as np

    import cratedrop as cd
    return np, cd


#: The sections, in the order they are written (pytest runs them in that order too).
SECTIONS = []


def section(function):
    """A pytest test of one section's checks (`CLI` and `WORK` from the environment): it fails
    listing the section's checks that failed; every check prints ok or FAIL as it runs."""
    def test():
        before = len(failures)
        function(os.environ["WHEEL_TEST_CLI"], os.environ["WHEEL_TEST_WORK"])
        failed = failures[before:]
        assert not failed, f"{len(failed)} checks failed: " + "; ".join(failed)
    # Named as the section, without functools.wraps: pytest would take the section's parameters
    # for fixtures.
    test.__name__, test.__qualname__, test.__doc__ = function.__name__, function.__name__, function.__doc__
    SECTIONS.append(test)
    return test


@section
def test_the_installed_package_is_tested(cli_path, work):
    np, cd = _imports()
    check(os.path.dirname(cd.__file__).startswith(os.path.join(work, "venv")), f"cratedrop is the installed package ({cd.__file__})")


@section
def test_every_case_steps_as_the_cli(cli_path, work):
    import pickle

    np, cd = _imports()
    # Hashes after every step, straight, restored, unpickled, copied.
    for name, (scene, inputs) in CASES.items():
        given = ["--inputs", inputs] if inputs else []
        cli_trail = cli(cli_path, "hash", scene, *given, "--steps", str(STEPS), "--every", "1", text=True).stdout.splitlines()
        world = open_world(cd, scene, inputs)
        # The world's name in messages is the path given; the CLI's hash does not depend on it.
        trail, saved, pickled, twin = [], None, None, None
        for _ in range(STEPS):
            world.step(1)
            trail.append(f"{world.step_count} {world.hash()}")
            if world.step_count == RESTORE_AT:
                saved = world.save()
                pickled = pickle.dumps(world)
                twin = world.copy()
        first = next((i for i, (a, b) in enumerate(zip(cli_trail, trail)) if a != b), None)
        check(trail == cli_trail, f"{name}: {STEPS} steps' hashes equal the CLI's"
              + ("" if trail == cli_trail else f" (first difference at line {first}: CLI {cli_trail[first] if first is not None and first < len(cli_trail) else len(cli_trail)} vs {trail[first] if first is not None else len(trail)})"))
        expected_after = cli_trail[RESTORE_AT:]
        restored = open_world(cd, scene, inputs)
        restored.restore(saved)
        unpickled = pickle.loads(pickled)
        for label, other in [("restored", restored), ("unpickled", unpickled), ("copied", twin)]:
            after = []
            while other.step_count < STEPS:
                other.step(1)
                after.append(f"{other.step_count} {other.hash()}")
            check(after == expected_after, f"{name}: {label} at step {RESTORE_AT}, the next {STEPS - RESTORE_AT} steps equal the CLI's")
        for other in (world, restored, unpickled, twin):
            other.close()


@section
def test_the_big_piles_step_as_the_cli(cli_path, work):
    np, cd = _imports()
    # The big piles, straight and restored halfway.
    for scene, steps in PILES:
        cli_trail = cli(cli_path, "hash", scene, "--steps", str(steps), "--every", "1", text=True).stdout.splitlines()
        world = cd.World.from_file(os.path.join(repo, scene))
        trail, saved = [], None
        for _ in range(steps):
            world.step(1)
            trail.append(f"{world.step_count} {world.hash()}")
            if world.step_count == steps // 2:
                saved = world.save()
        restored = cd.World.from_file(os.path.join(repo, scene))
        restored.restore(saved)
        after = []
        while restored.step_count < steps:
            restored.step(1)
            after.append(f"{restored.step_count} {restored.hash()}")
        check(trail == cli_trail and after == cli_trail[steps // 2:],
              f"{scene}: {steps} steps' hashes equal the CLI's, straight and restored at step {steps // 2}")
        world.close()
        restored.close()


@section
def test_saved_states_are_the_clis(cli_path, work):
    np, cd = _imports()
    # Saved bytes against the CLI's saved-state file, both ways.
    state_file = os.path.join(work, "book.state")
    cli(cli_path, "hash", "Scenes/book.json", "--inputs", "Scenes/tilt.jsonl", "--steps", str(RESTORE_AT), "--save-state", state_file)
    world = open_world(cd, "Scenes/book.json", "Scenes/tilt.jsonl")
    world.step(RESTORE_AT)
    saved = world.save()
    file_bytes = open(state_file, "rb").read()
    # World-state bytes are "CDWORLD\n", a version, the fields and a checksum; the file holds the fields after its header.
    check(saved[12:-8] in file_bytes, "the saved bytes at step 300 are the CLI's --save-state fields")
    from_cli = open_world(cd, "Scenes/book.json", "Scenes/tilt.jsonl")
    from_cli.restore(file_bytes)
    world.step(100)
    from_cli.step(100)
    check(from_cli.step_count == RESTORE_AT + 100 and from_cli.hash() == world.hash(), "the CLI's --save-state file restores in Python and goes on alike")
    mine = os.path.join(work, "python.state")
    open(mine, "wb").write(world.save_file())
    continued = cli(cli_path, "hash", mine, "--steps", "50", text=True).stdout.splitlines()[-1:]
    world.step(50)
    check(continued == [f"{world.step_count} {world.hash()}"], f"Python's save_file() continues in the CLI: {continued} vs {world.step_count} {world.hash()}")

    # A record made in Python verifies natively.
    world = cd.World.from_file(os.path.join(repo, "Scenes/book.json"), record=True)
    world.name_inputs("Scenes/tilt.jsonl")
    for line in open(os.path.join(repo, "Scenes/tilt.jsonl"), encoding="utf-8").read().splitlines():
        world.apply(line)
    world.step(400)
    record_file = os.path.join(work, "python.rec")
    open(record_file, "wb").write(world.record())
    replay = cli(cli_path, "replay", record_file, "--verify", text=True)
    check(replay.returncode == 0 and f'"state_hash":"{world.hash()}"' in replay.stdout,
          f"World(record=True).record() verifies with `cratedrop replay --verify` to Python's hash: exit {replay.returncode} {replay.stdout[-300:]} {replay.stderr[-300:]}")
    try:
        cd.World.from_file(os.path.join(repo, "Scenes/book.json")).record()
        check(False, "a world without record=True refuses record()")
    except cd.UsageError as error:
        check(error.code == 64, f"a world without record=True refuses record() with UsageError 64: {error.message!r}")
    world.close()


@section
def test_state_is_the_trace(cli_path, work):
    np, cd = _imports()
    # state() against the CLI's trace.
    for scene in ["Scenes/book.json", "Scenes/pile-100.json"]:
        trace = os.path.join(work, "trace.jsonl")
        cli(cli_path, "hash", scene, "--steps", "240", "--trace", trace, "--trace-every", "240")
        rows = [json.loads(line) for line in open(trace, encoding="utf-8") if line.strip()]
        rows = [row for row in rows if row["step"] == 240]
        world = cd.World.from_file(os.path.join(repo, scene))
        world.step(240)
        state = world.state()
        expected = np.array([[row[column] for column in cd.STATE_COLUMNS] for row in rows], dtype=np.float64)
        check(state.shape == (len(rows), 7) and state.dtype == np.float64, f"{scene}: state() is ({len(rows)}, 7) float64: {state.shape} {state.dtype}")
        check(state.shape == expected.shape and np.array_equal(state, expected),
              f"{scene}: state() at step 240 equals the trace's {', '.join(cd.STATE_COLUMNS)} exactly")
        from cratedrop.data import load_table
        npy = os.path.join(work, "trace.npy")
        cli(cli_path, "hash", scene, "--steps", "240", "--trace", npy, "--trace-every", "240")
        table = load_table(npy)
        table = table[table["step"] == 240]
        check(table.dtype["shape"].kind == "U" and all(np.array_equal(table[name], state[:, index]) for index, name in enumerate(cd.STATE_COLUMNS)),
              f"{scene}: cratedrop.data.load_table reads the .npy trace, text as str, its columns state()'s")
        buffer = np.empty_like(state)
        check(world.state(out=buffer) is buffer and np.array_equal(buffer, state), f"{scene}: state(out=) fills the buffer given")
        for bad in [np.empty((state.shape[0], 6)), np.empty(state.shape, dtype=np.float32), np.empty((7, state.shape[0])).T]:
            try:
                world.state(out=bad)
                check(False, f"state(out=) refuses a {bad.dtype} {bad.shape} buffer")
            except ValueError:
                check(True, f"state(out=) refuses a {bad.dtype} {bad.shape} {'non-contiguous ' if not bad.flags.c_contiguous else ''}buffer with ValueError")
        world.close()


@section
def test_events_and_queries(cli_path, work):
    np, cd = _imports()
    # Contact events against the CLI's --events rows; queries against the bodies' places.
    for scene, inputs in [("Scenes/book.json", "Scenes/tilt.jsonl"), ("Scenes/bridge.json", "Tests/CrossArch/bridge-breaks.jsonl")]:
        events_file = os.path.join(work, "events.jsonl")
        cli(cli_path, "hash", scene, "--inputs", inputs, "--steps", "600", "--events", events_file)
        rows = [json.loads(line) for line in open(events_file, encoding="utf-8") if line.strip()]
        world = open_world(cd, scene, inputs)
        world.keep_events()
        world.step(250)
        mine = np.concatenate([world.events(), (world.step(350), world.events())[1]])
        names = ["step", "event", "a", "b", "wall", "x", "y", "nx", "ny", "normal_impulse", "tangent_impulse", "joint"]
        expected = [tuple(float("nan") if row[name] is None else row[name] for name in names) for row in rows]
        got = [tuple(event[name].item() for name in names) for event in mine]
        same = len(got) == len(expected) and all(
            all(a == b or (isinstance(a, float) and isinstance(b, float) and a != a and b != b) for a, b in zip(x, y)) for x, y in zip(got, expected))
        check(same and len(got) > 0, f"{scene} with {inputs}: events() over 600 steps are the CLI's --events rows ({len(got)} vs {len(expected)})")
        kinds = sorted(set(mine["event"].tolist()))
        if "bridge" in scene:
            check("joint_broke" in kinds, f"{scene}: a joint breaks, as the CLI says: {kinds}")
        world.close()
    world = cd.World.from_file(os.path.join(repo, "Scenes/pile-100.json"))
    world.step(200)
    state = world.state()
    hits = [world.query_point(row[1:3]) for row in state]
    check(all(len(hit) and hit["body"][0] == row[0] and hit["distance"][0] <= 0 for hit, row in zip(hits, state)),
          "query_point at each body's centre names that body first, inside it")
    everything = world.query_box((-1e4, -1e4), (1e4, 1e4))
    check(sorted(everything["body"][everything["body"] > 0].tolist()) == state[:, 0].astype(int).tolist() and (everything["wall"] >= 0).any(),
          "query_box over the world names every body and the walls")
    x, y = state[0, 1:3]
    hit = world.ray_cast((x, 1e3), (x, -1e3))
    check(hit is not None and (hit["body"] > 0 or hit["wall"] >= 0) and 0 <= hit["alpha"] <= 1, f"ray_cast down through body 1 hits something first: {hit}")
    through = world.query_segment((x, 1e3), (x, -1e3))
    check(len(through) and through["body"].tolist().count(1) == 1 and np.all(np.diff(through["alpha"]) >= 0),
          "query_segment through body 1 meets it once, nearest first")
    try:
        world.query_point((float("nan"), 0))
        check(False, "a NaN point is refused")
    except cd.InputError as error:
        check(error.code == 65 and error.message.startswith("point[0]"), f"a NaN point raises InputError 65: {error.message!r}")
    world.close()


@section
def test_pictures_are_the_clis_frames(cli_path, work):
    np, cd = _imports()
    # Pictures: World.render is the CLI's frame, pixel for pixel (the last frame of `cratedrop run`'s
    # PPM stream, two frames a second and no interpolation, so it shows the last step), at the scene's size and another; drawn
    # at two steps from one world, so the second is drawn by changes over the first.
    for scene, inputs in PICTURES:
        given = ["--inputs", inputs] if inputs else []
        world = open_world(cd, scene, inputs)
        for seconds, size in [(2.5, None), (5, (320, 200))]:
            world.step(int(seconds * 120) - world.step_count)
            picture = world.render(*(size or (None, None)))
            run = cli(cli_path, "run", scene, *given, "--seconds", str(seconds), "--fps", "2", "--no-interpolation",
                      *(["--size", f"{size[0]}x{size[1]}"] if size else []), "--out", "-")
            expected = last_ppm_frame(run.stdout) if run.returncode == 0 else None
            differing = None if expected is None or expected.shape != picture.shape else int(np.count_nonzero(np.any(expected != picture, axis=2)))
            check(differing == 0, f"{scene}{' with ' + inputs if inputs else ''}: render{size or ''} at step {world.step_count} is the CLI's "
                  f"frame pixel for pixel {picture.shape}" + ("" if differing == 0 else f" (CLI {None if expected is None else expected.shape}, "
                  f"{differing} pixels differ; run exit {run.returncode} {run.stderr[-300:]!r})"))
        buffer = np.zeros((200, 320, 3), dtype=np.uint8)
        check(world.render(320, 200, out=buffer) is buffer and np.array_equal(buffer, picture), f"{scene}: render(out=) fills and returns the buffer")
        world.close()
    world = cd.World.from_file(os.path.join(repo, "Scenes/book.json"))
    for label, use, error_class in [("a side of 0", lambda: world.render(0, 10), cd.UsageError),
                                    ("a side past 16384", lambda: world.render(16385, 10), cd.UsageError),
                                    ("a buffer of the wrong shape", lambda: world.render(10, 10, out=np.empty((10, 10, 4), np.uint8)), ValueError),
                                    ("a buffer of the wrong dtype", lambda: world.render(10, 10, out=np.empty((10, 10, 3))), ValueError)]:
        try:
            use()
            check(False, f"render with {label} raises")
        except error_class as error:
            check(True, f"render with {label} raises {type(error).__name__}: {error}")


@section
def test_a_second_thread_is_refused(cli_path, work):
    import time

    np, cd = _imports()
    # A world dropped without close() is freed at once (no reference cycle waiting for the
    # collector, which an RL loop may have turned off), and its handle with it.
    import gc
    import weakref
    gc.disable()
    try:
        dropped = cd.World.from_file(os.path.join(repo, "Scenes/book.json"))
        handle, watch = dropped._handle, weakref.ref(dropped)
        del dropped
        again = cd.World.from_file(os.path.join(repo, "Scenes/book.json"))
        check(watch() is None and again._handle == handle, f"a world dropped with the collector off is freed at once, its handle reused ({again._handle} vs {handle})")
        again.close()
    finally:
        gc.enable()

    # Two threads on one world: the second call at the same moment raises UsageError (never waits,
    # never crashes); every step either thread took stands, so the world is the CLI's at its count.
    import threading
    world = cd.World.from_file(os.path.join(repo, "Scenes/pile-100.json"))
    stop = threading.Event()
    refused = {"stepper": 0, "reader": 0}
    stepped = [0]

    def stepper():
        while not stop.is_set():
            try:
                world.step(1)
                stepped[0] += 1
            except cd.UsageError:
                refused["stepper"] += 1

    thread = threading.Thread(target=stepper)
    thread.start()
    deadline = time.monotonic() + 60
    # Until the reader has been refused and the stepper has taken 200 steps between the clashes.
    while (refused["reader"] == 0 or stepped[0] < 200) and time.monotonic() < deadline:
        try:
            world.hash()
        except cd.UsageError as error:
            refused["reader"] += 1
            if refused["reader"] == 1:
                check("in use by another thread" in error.message and error.code == 64, f"the second thread's call raises UsageError 64: {error.message!r}")
    stop.set()
    thread.join(60)
    check(not thread.is_alive() and refused["reader"] > 0 and stepped[0] >= 200,
          f"a call while another thread steps the world raises (within 60 s): refused {refused}, {stepped[0]} steps taken")
    steps = world.step_count
    check(steps == stepped[0], f"every step the stepping thread was not refused stands: {steps} vs {stepped[0]}")
    expected = cli(cli_path, "hash", "Scenes/pile-100.json", "--steps", str(steps), text=True).stdout.split()[-1:]
    check([world.hash()] == expected, f"after both threads, the world is the CLI's at step {steps}")
    world.close()


@section
def test_refusals_are_the_clis(cli_path, work):
    np, cd = _imports()
    # Refusals: the CLI's messages (without "cratedrop: ") and codes.
    bad_scene = os.path.join(work, "bad.json")
    open(bad_scene, "w").write('{\n  "world": [640, 480],\n  "gravity": [0, -900],\n  "crates": [{"center": [10, 10], "size": [-4, 4], "mass": 1}]\n}\n')
    run = cli(cli_path, "hash", bad_scene, "--steps", "1", text=True)
    try:
        cd.World.from_file(bad_scene)
        check(False, "a bad scene raises SceneError")
    except cd.SceneError as error:
        expected = re.sub(r"^cratedrop: ", "", run.stderr.strip(), flags=re.M)
        check(isinstance(error, ValueError) and error.code == run.returncode == 65 and error.message.strip() == expected,
              f"a bad scene raises SceneError 65 with the CLI's message: {error.code} {error.message!r} vs {run.returncode} {expected!r}")
    missing = os.path.join(work, "missing.json")
    run = cli(cli_path, "hash", missing, "--steps", "1", text=True)
    try:
        cd.World.from_file(missing)
        check(False, "a missing scene file raises SceneError")
    except cd.SceneError as error:
        expected = re.sub(r"^cratedrop: ", "", run.stderr.strip())
        check(error.code == run.returncode == 66 and error.message == expected,
              f"a missing scene file raises SceneError 66 with the CLI's message: {error.code} {error.message!r} vs {run.returncode} {expected!r}")
    # Terrain pictures: a missing one and a damaged one refused at the scene's `image` with the CLI's message and code.
    terrain = json.load(open(os.path.join(repo, "Scenes/terrain.json")))
    picture = open(os.path.join(repo, "Scenes/terrain.png"), "rb").read()
    damaged = bytearray(picture)
    damaged[40] ^= 0xFF
    for label, data in [("a missing picture", None), ("a damaged picture", bytes(damaged)), ("a directory", "dir")]:
        folder = tempfile.mkdtemp(dir=work)
        scene_path = os.path.join(folder, "terrain.json")
        json.dump(terrain, open(scene_path, "w"), indent=2)
        if data == "dir":
            os.mkdir(os.path.join(folder, "terrain.png"))
        elif data is not None:
            open(os.path.join(folder, "terrain.png"), "wb").write(data)
        run = cli(cli_path, "hash", scene_path, "--steps", "1", text=True)
        try:
            cd.World.from_file(scene_path)
            check(False, f"{label} is refused")
        except cd.SceneError as error:
            expected = re.sub(r"^cratedrop: ", "", run.stderr.strip(), flags=re.M)
            check(run.returncode in (65, 66) and error.code == run.returncode and error.message.strip() == expected,
                  f"{label} raises SceneError {run.returncode} with the CLI's message: {error.code} {error.message!r} vs {expected!r}")
    bad_lines = os.path.join(work, "bad.jsonl")
    open(bad_lines, "w").write('{"step": 3, "body": 99, "impulse": [0, 1]}\n')
    run = cli(cli_path, "hash", "Scenes/book.json", "--inputs", bad_lines, "--steps", "5", text=True)
    world = cd.World.from_file(os.path.join(repo, "Scenes/book.json"))
    world.name_inputs(bad_lines)
    world.apply(open(bad_lines).read().strip())
    try:
        world.step(5)
        check(False, "a line that cannot apply raises InputError")
    except cd.InputError as error:
        cli_line = next((line for line in run.stderr.splitlines() if f"{bad_lines}:1:" in line), "")
        check(error.code == run.returncode == 65 and error.message == re.sub(r"^cratedrop: ", "", cli_line),
              f"a line that cannot apply raises InputError 65 with the CLI's message: {error.message!r} vs {cli_line!r}")
    check(world.step_count == 3, f"the steps before the failing line stand: {world.step_count}")
    try:
        world.apply("{not json")
        check(False, "a malformed line raises InputError")
    except cd.InputError as error:
        check(error.code == 65 and error.message.startswith(f"{bad_lines}:2:"), f"a malformed line raises InputError 65 naming its line: {error.message!r}")
    try:
        world.restore(b"not a state")
        check(False, "bad state bytes raise StateError")
    except cd.StateError as error:
        check(error.code == 65 and isinstance(error, ValueError), f"bad state bytes raise StateError 65: {error.message!r}")
    other = cd.World.from_file(os.path.join(repo, "Scenes/pile-100.json"))
    try:
        world.restore(other.save())
        check(False, "another scene's state raises StateError")
    except cd.StateError as error:
        check(error.code == 65, f"another scene's state raises StateError 65: {error.message!r}")
    world.close()
    for label, use in [("step", lambda: world.step(1)), ("hash", world.hash), ("state", world.state), ("save", world.save)]:
        try:
            use()
            check(False, f"a closed world's {label}() raises")
        except cd.UsageError as error:
            check(error.code == 64, f"a closed world's {label}() raises UsageError 64")
    world.close()


@section
def test_the_class_and_the_examples(cli_path, work):
    np, cd = _imports()
    # The class, the examples.
    platform = json.loads(cli(cli_path, "platform", "--json", text=True).stdout)
    check(cd.determinism_class() == platform["determinism_class"], f"determinism_class() is the CLI's: {cd.determinism_class()} vs {platform['determinism_class']}")
    import doctest
    import importlib
    os.chdir(repo)
    for module in ["cratedrop", "cratedrop.world", "cratedrop.errors", "cratedrop.gym"]:
        result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS, verbose=False)
        check(result.failed == 0 and result.attempted > 0, f"{module}: {result.attempted} docstring examples run, {result.failed} failed")
    readme = open(os.path.join(repo, "README.md"), encoding="utf-8").read()
    block = re.search(r"## Python\n.*?```python\n(.*?)```", readme, re.S)
    check(block is not None, "README.md's Python section has a ```python example")
    if block:
        example = subprocess.run([sys.executable, "-c", block.group(1)], cwd=repo, capture_output=True, text=True)
        expected_hash = cli(cli_path, "hash", "Scenes/book.json", "--steps", "1200", text=True).stdout.split()[-1]
        check(example.returncode == 0 and expected_hash in example.stdout,
              f"README.md's Python example runs and prints the CLI's hash {expected_hash}: exit {example.returncode} {example.stdout.strip()[-200:]} {example.stderr.strip()[-300:]}")


@section
def test_tilt_env(cli_path, work):
    np, cd = _imports()
    # cratedrop.gym: Gymnasium's own checker, seeds that make the CLI's scene, actions that are the CLI's input lines.
    import gymnasium
    from gymnasium.utils.env_checker import check_env
    import cratedrop.gym
    env = gymnasium.make("cratedrop/Tilt-v0", render_mode="rgb_array")
    try:
        check_env(env.unwrapped)
        check(True, "TiltEnv passes gymnasium's check_env, its rgb_array rendering included")
    except Exception as error:
        check(False, f"TiltEnv passes gymnasium's check_env: {error!r}")
    env.reset(seed=3)
    env.step([0.2, -1.0])
    picture = env.render()
    check(picture.shape == (600, 600, 3) and np.array_equal(picture, env.unwrapped.world.render()) and len(np.unique(picture.reshape(-1, 3), axis=0)) > 10,
          f"TiltEnv's render() is its world's picture at the scene's size: {picture.shape}")
    env.close()
    env = gymnasium.make("cratedrop/Tilt-v0")
    observation, info = env.reset(seed=7)
    check(observation.shape == (100, 6) and env.observation_space.contains(observation), f"reset(seed=7)'s observation is (100, 6) in the space: {observation.shape}")
    scene = json.load(open(os.path.join(repo, "Scenes/pile-100.json")))
    scene["generator"]["seed"] = 7
    seeded = os.path.join(work, "pile-seed-7.json")
    json.dump(scene, open(seeded, "w"))
    rng = np.random.default_rng(3)
    actions = [rng.uniform(-1, 1, 2) for _ in range(50)]
    lines = os.path.join(work, "tilt-actions.jsonl")
    with open(lines, "w") as file:
        for k, action in enumerate(actions):
            file.write(json.dumps({"step": 4 * k, "accel": [float(action[0]), float(action[1]), 0.0]}, separators=(", ", ": ")) + "\n")
    hashes = [info["state_hash"]]
    for action in actions:
        observation, reward, terminated, truncated, info = env.step(action)
        hashes.append(info["state_hash"])
    cli_hashes = [line.split()[1] for line in cli(cli_path, "hash", seeded, "--inputs", lines, "--steps", "200", "--every", "4", text=True).stdout.splitlines()]
    first = cli(cli_path, "hash", seeded, "--steps", "0", text=True).stdout.split()
    check(hashes[0] == (first[-1] if first else None), f"reset(seed=7) is the CLI's pile-100 with generator seed 7: {hashes[0]} vs {first}")
    check(hashes[1:] == cli_hashes, f"50 actions, frame_skip 4: info['state_hash'] equals `cratedrop hash --inputs` (accel lines) every 4 steps")
    for bad in ([float("nan"), 0.0], [0.5], "up"):
        try:
            env.step(bad)
            check(False, f"the action {bad!r} is refused")
        except ValueError as error:
            check(True, f"the action {bad!r} raises ValueError: {error}")
    again, again_info = env.reset(seed=7)
    check(again_info["state_hash"] == hashes[0], "reset(seed=7) again gives the same world")
    env.close()


@section
def test_costs_are_printed(cli_path, work):
    import time

    np, cd = _imports()
    # Costs (printed, not asserted: CI's machine is shared).
    world = cd.World.from_file(os.path.join(repo, "Scenes/book.json"))
    calls = 20000
    start = time.perf_counter()
    for _ in range(calls):
        world.hash()
    per_call = (time.perf_counter() - start) / calls * 1e6
    start = time.perf_counter()
    for _ in range(2000):
        world.step(1)
    one_by_one = (time.perf_counter() - start) / 2000 * 1e6
    world.restore(cd.World.from_file(os.path.join(repo, "Scenes/book.json")).save())
    start = time.perf_counter()
    world.step(2000)
    batched = (time.perf_counter() - start) / 2000 * 1e6
    pile = cd.World.from_file(os.path.join(repo, "Scenes/pile-1000.json"))
    buffer = np.empty((pile.body_count, 7))
    start = time.perf_counter()
    for _ in range(2000):
        pile.state(out=buffer)
    state_cost = (time.perf_counter() - start) / 2000 * 1e6
    print(f"wheel_test: hash() {per_call:.2f} µs a call; book step(1) {one_by_one:.2f} µs vs step(2000) {batched:.2f} µs a step "
          f"(+{one_by_one - batched:.2f} µs); pile-1000 state(out=) {state_cost:.1f} µs", file=sys.stderr)


def inside(cli_path, work):
    """Every section in order without pytest (`--inside CLI WORK`, run by hand in the venv)."""
    os.environ["WHEEL_TEST_CLI"], os.environ["WHEEL_TEST_WORK"] = cli_path, work
    for test in SECTIONS:
        try:
            test()
        except AssertionError:
            pass
    finish("wheel_test", f"{len(CASES)} cases x {STEPS} steps equal to the CLI (straight, restored, unpickled, copied at step {RESTORE_AT}), "
           "state() the trace's, refusals the CLI's")


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "--inside":
        inside(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3:
        outside(sys.argv[1], sys.argv[2])
    else:
        print("usage: Tests/Python/wheel_test.py CRATEDROP WHEEL", file=sys.stderr)
        sys.exit(64)
