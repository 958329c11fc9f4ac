"""The loops scripts/bench-gym times: TiltEnv, the same steps in one call, and pymunk doing the
same scene with the same actions and observations. Args: PILE_100_SCENE ROUNDS."""
import json
import statistics
import sys
import time

import numpy as np
import pymunk
import pymunk.batch

import cratedrop
import cratedrop.gym
from pymunk_pile import pile

ACTIONS, FRAME_SKIP, SEED = 1000, 4, 100


def tilts():
    return np.random.default_rng(7).uniform(-1, 1, (ACTIONS, 2))


def gym_loop(scene):
    env = cratedrop.gym.TiltEnv(scene=scene, frame_skip=FRAME_SKIP)
    env.reset(seed=SEED)
    actions = tilts()
    start = time.perf_counter()
    for action in actions:
        env.step(action)
    elapsed = time.perf_counter() - start
    env.close()
    return elapsed


def bare_steps(scene):
    """The loop's physics with no Python between steps: its actions given up front as the input
    lines TiltEnv makes of them (timed `accel` lines), then one step call. The same world, step
    for step (the final hashes are compared)."""
    env = cratedrop.gym.TiltEnv(scene=scene, frame_skip=FRAME_SKIP)
    env.reset(seed=SEED)
    world = env.world
    for k, (ax, ay) in enumerate(np.clip(tilts(), -1, 1)):
        world.apply({"step": FRAME_SKIP * k, "accel": [float(ax), float(ay), 0.0]})
    start = time.perf_counter()
    world.step(ACTIONS * FRAME_SKIP)
    elapsed = time.perf_counter() - start
    final = world.hash()
    env.close()
    return elapsed, final


def gym_hash(scene):
    env = cratedrop.gym.TiltEnv(scene=scene, frame_skip=FRAME_SKIP)
    env.reset(seed=SEED)
    for action in tilts():
        _, _, _, _, info = env.step(action)
    env.close()
    return info["state_hash"]


def pymunk_physics(gravity):
    """pymunk's steps alone, the same tilts set between them: its physics without the observations."""
    space = pile(SEED)
    actions = np.clip(tilts(), -1, 1).tolist()
    start = time.perf_counter()
    for ax, ay in actions:
        space.gravity = (ax * gravity, ay * gravity)
        for _ in range(FRAME_SKIP):
            space.step(1 / 120)
    return time.perf_counter() - start


def pymunk_loop(width, gravity):
    space = pile(SEED)
    fields = (pymunk.batch.BodyFields.POSITION | pymunk.batch.BodyFields.ANGLE | pymunk.batch.BodyFields.VELOCITY
              | pymunk.batch.BodyFields.ANGULAR_VELOCITY)
    data = pymunk.batch.Buffer()

    def observe():
        data.clear()
        pymunk.batch.get_space_bodies(space, fields, data)
        return np.frombuffer(data.float_buf(), dtype=np.float64).reshape(-1, 6).copy()

    # Clipped before the clock starts, as TiltEnv's actions cost it no numpy call.
    actions = np.clip(tilts(), -1, 1).tolist()
    start = time.perf_counter()
    before = observe()[:, 0].mean()
    for ax, ay in actions:
        space.gravity = (ax * gravity, ay * gravity)
        for _ in range(FRAME_SKIP):
            space.step(1 / 120)
        observation = observe()
        after = observation[:, 0].mean()
        _reward = (after - before) / width
        before = after
    return time.perf_counter() - start


def load():
    with open("/proc/loadavg") as file:
        return file.read().split()[0]


def main():
    scene, rounds = sys.argv[1], int(sys.argv[2])
    with open(scene) as file:
        spec = json.load(file)
    # The tilt scales the scene's gravity (TiltEnv's accel lines), across its world's width.
    width, gravity = float(spec["world"][0]), float(np.hypot(*spec["gravity"]))
    times = {"gym": [], "bare": [], "pymunk": [], "pymunk_physics": []}
    same = gym_hash(scene)
    for _ in range(rounds):
        times["gym"].append(gym_loop(scene))
        elapsed, final = bare_steps(scene)
        if final != same:
            sys.exit(f"bench-gym: the bare steps ended at {final}, the loop at {same}: not the same world")
        times["bare"].append(elapsed)
        times["pymunk"].append(pymunk_loop(width, gravity))
        times["pymunk_physics"].append(pymunk_physics(gravity))
    median = {name: statistics.median(values) for name, values in times.items()}
    result = {
        "rounds": rounds, "load": load(), "pymunk": pymunk.version,
        "seconds": {name: round(value, 4) for name, value in median.items()},
        "gym_against_bare": round(median["gym"] / median["bare"], 3),
        "gym_against_pymunk": round(median["gym"] / median["pymunk"], 3),
        "physics_against_pymunk_physics": round(median["bare"] / median["pymunk_physics"], 3),
    }
    print(json.dumps(result))
    print(f"bench-gym: 1,000 TiltEnv steps (frame_skip 4, pile-100) {median['gym']:.3f} s: {result['gym_against_bare']}x the same "
          f"4,000 steps in one call ({median['bare']:.3f} s, the same final hash; target at most 1.15x), {result['gym_against_pymunk']}x pymunk "
          f"{pymunk.version} doing the same with pymunk.batch reads ({median['pymunk']:.3f} s; target below 1x); the physics alone "
          f"{result['physics_against_pymunk_physics']}x pymunk's ({median['pymunk_physics']:.3f} s); medians of {rounds}, load {result['load']}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
