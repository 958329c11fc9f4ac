"""A Gymnasium environment over a CrateDrop world: tilt the box, the crates slide.

``TiltEnv``'s action is the tilt of the world, an accelerometer reading ``(ax, ay)`` in units of g
within [-1, 1]² (the CLI's ``accel`` input line, portrait axes: gravity = (ax, ay) × |scene
gravity|, so ``(0, -1)`` is the scene's straight-down gravity when that points down); each action
holds for ``frame_skip`` fixed steps. The observation is the bodies' state, ``(N, 6)`` float64, one
row a body in ascending id: x, y, angle, vx, vy, angular_velocity (``cratedrop.STATE_COLUMNS``
without the id). ``reset(seed=s)`` builds the scene with its pile generator's seed set to ``s``
(the scene's ``generator.seed``, docs/scenes.md): the same seed, the same crates, the same run, on
every machine of the determinism class. The reward is how far the crates' mean x moved right
during the frame, in world widths: tilt them to the right wall. ``info["state_hash"]`` is
``cratedrop hash``'s text for the world after the frame, ``info["step"]`` its step count.

Needs gymnasium (``pip install gymnasium``). Registered as ``cratedrop/Tilt-v0`` (1,000 actions an
episode) when this module is imported:

>>> import gymnasium, cratedrop.gym
>>> env = gymnasium.make("cratedrop/Tilt-v0")
>>> observation, info = env.reset(seed=7)
>>> observation.shape
(100, 6)
>>> observation, reward, terminated, truncated, info = env.step([0.5, -1.0])
>>> info["step"]
4

With ``render_mode="rgb_array"``, ``env.render()`` is the world after the last action as the CLI
draws it (:meth:`cratedrop.World.render`, the scene's frame size unless ``render_size`` is given):

>>> env = gymnasium.make("cratedrop/Tilt-v0", render_mode="rgb_array", render_size=(200, 200))
>>> _ = env.reset(seed=7)
>>> env.render().shape
(200, 200, 3)
"""

from __future__ import annotations

import ctypes
import json
import math
from importlib import resources
from typing import Any, Mapping, Optional, Union

import gymnasium
import numpy as np
from gymnasium import spaces

from .world import World

#: The scene a TiltEnv uses unless told: Scenes/pile-100.json (100 crates in a 400 px box).
DEFAULT_SCENE = "pile-100.json"
#: The most steps an action may hold (the library counts steps a call in 32 bits).
MAX_FRAME_SKIP = 2**31 - 1


def _scene_dict(scene: Union[str, Mapping[str, Any], None]) -> dict:
    if scene is None:
        return json.loads(resources.files("cratedrop").joinpath("scenes", DEFAULT_SCENE).read_text(encoding="utf-8"))
    if isinstance(scene, Mapping):
        return json.loads(json.dumps(scene))
    with open(scene, encoding="utf-8") as file:
        return json.load(file)


class TiltEnv(gymnasium.Env):
    """Tilt a box of crates (see the module's text for action, observation, reward and info).

    - ``scene``: a scene file's path or a scene ``dict`` with a ``generator`` (default: pile-100).
    - ``frame_skip``: fixed steps an action holds (default 4: 30 actions a second at 120 Hz).
    - ``render_mode``: None, or ``"rgb_array"`` for :meth:`render`.
    - ``render_size``: ``(width, height)`` of rendered pictures (default: the scene's frame size).
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 30}

    def __init__(self, scene: Union[str, Mapping[str, Any], None] = None, frame_skip: int = 4,
                 render_mode: Optional[str] = None, render_size: Optional[tuple[int, int]] = None) -> None:
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        if not 1 <= int(frame_skip) <= MAX_FRAME_SKIP:
            raise ValueError(f"frame_skip must be in 1...{MAX_FRAME_SKIP}, got {frame_skip}")
        self.frame_skip = int(frame_skip)
        self.render_mode = render_mode
        self._render_size = (None, None) if render_size is None else (int(render_size[0]), int(render_size[1]))
        self._scene = _scene_dict(scene)
        if not isinstance(self._scene.get("generator"), Mapping):
            raise ValueError("TiltEnv's scene needs a pile generator (\"generator\": {...}): reset(seed=) sets its seed")
        # The world first: it checks the scene (step_rate among it) with the CLI's messages.
        self._world: Optional[World] = self._make(int(self._scene["generator"].get("seed", 0)))
        # Pictures a second: one an action.
        self.metadata = dict(self.metadata, render_fps=max(1, round(int(self._scene.get("step_rate", 120)) / self.frame_skip)))
        self._bodies = self._world.body_count
        self._width = float(self._scene["world"][0])
        # The bodies' rows are read into one buffer, by its address, every action.
        self._buffer = np.empty((self._bodies, 7))
        self._address = self._buffer.ctypes.data
        self._hash = ctypes.c_uint64()
        self._steps = 0
        self._mean_x = 0.0
        self._observe()  # the first action's reward starts from here, reset() or not
        self.action_space = spaces.Box(-1.0, 1.0, shape=(2,), dtype=np.float32)
        self.observation_space = spaces.Box(-np.inf, np.inf, shape=(self._bodies, 6), dtype=np.float64)

    def _make(self, seed: int) -> World:
        scene = dict(self._scene)
        scene["generator"] = dict(scene["generator"], seed=seed)
        return World(scene, name=f"{scene.get('name', 'scene')} (seed {seed})")

    def _observe(self) -> np.ndarray:
        """The bodies' rows read now (see `_taken`)."""
        return self._taken(self._world._fill_state(self._address, self._bodies))

    def _taken(self, written: int) -> np.ndarray:
        """The observation from the `written` rows in the buffer: the rows without the id, their
        mean x kept for the next action's reward."""
        if written != self._bodies:
            raise RuntimeError(f"the world has {written} bodies, not {self._bodies}")
        observation = self._buffer[:, 1:].copy()
        self._mean_x = float(observation[:, 0].sum()) / self._bodies
        return observation

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        """A new world of the scene, its generator seeded with ``seed`` (or, without one, a seed
        drawn from the environment's generator)."""
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(0, 2**63 - 1))
        if self._world is not None:
            self._world.close()
        self._world = self._make(int(seed))
        if self._world.body_count != self._bodies:
            raise ValueError(f"seed {seed} gives {self._world.body_count} bodies, not {self._bodies}")
        self._steps = self._world.step_count
        return self._observe(), {"state_hash": self._world.hash(), "step": self._steps, "seed": int(seed)}

    def step(self, action):
        try:
            count = len(action)
            ax, ay = float(action[0]), float(action[1])
        except (TypeError, IndexError, KeyError, ValueError):
            raise ValueError(f"an action is two numbers (ax, ay), got {action!r}") from None
        if count != 2 or not (math.isfinite(ax) and math.isfinite(ay)):
            raise ValueError(f"an action is two finite numbers (ax, ay), got {action!r}")
        # Within [-1, 1]², as the action space says (min/max: numpy's clip costs microseconds an action).
        ax, ay = min(1.0, max(-1.0, ax)), min(1.0, max(-1.0, ay))
        before = self._mean_x
        # The line json.dumps would write (floats as repr, json's own), without its cost each
        # action; the line, the steps, the bodies' rows and the hash in one library call.
        line = f'{{"step": {self._steps}, "accel": [{ax!r}, {ay!r}, 0.0]}}'.encode()
        try:
            written = self._world._act(line, self.frame_skip, self._address, self._bodies, self._hash)
        except Exception:
            # The steps before a failure stand: the next line's step is the world's.
            if not self._world.closed:
                self._steps = self._world.step_count
            raise
        self._steps += self.frame_skip
        observation = self._taken(written)
        reward = (self._mean_x - before) / self._width
        return observation, reward, False, False, {"state_hash": f"{self._hash.value:016x}", "step": self._steps}

    def render(self) -> Optional[np.ndarray]:
        """The world now as an ``(height, width, 3)`` uint8 picture (``render_mode="rgb_array"``),
        else None."""
        if self.render_mode != "rgb_array":
            return None
        return self._world.render(*self._render_size)

    @property
    def world(self) -> World:
        """The world of the current episode (read it, don't step it)."""
        return self._world

    def close(self) -> None:
        if self._world is not None:
            self._world.close()
            self._world = None


gymnasium.register(id="cratedrop/Tilt-v0", entry_point="cratedrop.gym:TiltEnv", max_episode_steps=1000)

__all__ = ["TiltEnv"]
