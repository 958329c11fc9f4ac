// The world in this page: CrateDrop's core (cratedrop.wasm, through cratedrop.js) stepped at the
// display's rate with the fixed-step accumulator and death-spiral guard of docs/driver.md, and
// speaking the messages `cratedrop serve` sends and takes, so app.js draws it as it draws a
// streamed world. No server: `cratedrop page` writes it as one file that opens from file://.
//
// `config` (window.CRATEDROP_PAGE): { name, scene (the scene file's text) or sceneURL, wasm (the
// module as base64) or wasmURL, inputs (an input stream's text, optional), inputsName }.
// With `?check=N` the page steps N steps as fast as it can, draws nothing and writes `N HASH` into
// #check (what `cratedrop hash SCENE --steps N` prints; `&trail=1`: every step's line into #trail,
// as `--every 1`; `&restore=K`: at step K save, load the scene again, restore and go on).
"use strict";

function startLocalLink(config, on) {
  const state = { world: null, paused: false, failed: false, steps: 0, busy: 0, lastFrame: null, rows: new Float64Array(0) };
  const link = {
    local: true,
    tick(now) { if (state.world && !state.failed) tickLocal(state, now, on); },
    send(message) { if (state.world) sendLocal(state, message, on, config); },
    record() { return state.world ? state.world.record() : null; },
  };
  openLocal(config, state, on).catch((error) => {
    state.failed = true;
    window.cratedrop.problem = error.message;
    on.status(error.message);
    console.error(error.message);
  });
  return link;
}

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
  return new Uint8Array(await response.arrayBuffer());
}

function fromBase64(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function openLocal(config, state, on) {
  if (typeof WebAssembly !== "object") {
    throw new Error("This browser has no WebAssembly, so the world cannot run in the page: open the scene with `cratedrop serve SCENE --streamed`, which runs it on the server.");
  }
  on.status("loading the engine…");
  const wasm = config.wasm ? fromBase64(config.wasm) : await fetchBytes(config.wasmURL);
  const core = await CrateDrop.loadCore(wasm);
  const scene = config.scene ?? await fetchBytes(config.sceneURL);
  const inputs = (config.inputs ?? "").split("\n").filter((line) => line.trim() !== "");
  const open = () => {
    const world = core.world(scene, config.name);
    if (inputs.length > 0) {
      world.nameInputs(config.inputsName ?? "inputs");
      for (const line of inputs) world.input(line);
    }
    return world;
  };
  window.cratedrop.determinismClass = core.determinismClass;
  const query = new URLSearchParams(location.search);
  if (query.has("check")) {
    check(open, query, core.determinismClass);
    return;
  }
  state.open = open;
  state.world = open();
  on.scene(JSON.parse(state.world.sceneMessage()));
  on.status(`running in this page (WebAssembly, class ${core.determinismClass})`);
}

// One display frame: the steps its time owes, then the bodies as the frame shows them (between
// the last two steps), the parts messages before them, and the figures the server's frames carry.
function tickLocal(state, now, on) {
  const world = state.world;
  try {
    if (!state.paused) {
      const started = performance.now();
      const steps = world.frame(now);
      const spent = performance.now() - started;
      if (steps > 0) state.stepTime = (1000 * spent) / steps;
      if (state.lastFrame !== null) state.load = spent / Math.max(1, now - state.lastFrame);
      state.lastFrame = now;
    }
    for (const text of world.partsMessages()) on.parts(JSON.parse(text));
    const count = world.bodyCount;
    if (state.rows.length < count * 7) state.rows = new Float64Array(count * 7);
    const rows = world.frameState(state.rows);
    const positions = new Map();
    for (let row = 0; row < rows; row++) {
      const at = row * 7;
      positions.set(state.rows[at], [state.rows[at + 1], state.rows[at + 2], state.rows[at + 3]]);
    }
    on.frame({
      time: now, blended: true, generation: state.generation ?? 0, rewinds: 0, paused: state.paused,
      step: world.stepCount, stepTime: state.stepTime ?? 0, load: state.load ?? 0, dropped: world.droppedSeconds,
      hash: world.hashHex(), earliest: -1, latest: -1, positions,
    });
  } catch (error) {
    // A line that cannot apply, a world gone non-finite: the world stops here, as a run does.
    state.failed = true;
    window.cratedrop.problem = error.message;
    on.status(`stopped at step ${world.stepCount}: ${error.message}`);
  }
}

// A page's message, as the server takes it: pausing, stepping and restarting are the page's own;
// the rest go to the world before its next step (a refusal says why, as the server's does).
function sendLocal(state, message, on, config) {
  switch (message.command) {
    case "pause":
      state.paused = true;
      return;
    case "resume":
      // The frames' clock starts afresh: the time paused is not owed.
      state.paused = false;
      state.world.step(0);
      return;
    case "step":
      if (state.paused) state.world.step(1);
      return;
    case "restart":
      state.world.free();
      state.world = state.open();
      state.generation = (state.generation ?? 0) + 1;
      state.failed = false;
      state.lastFrame = null;
      on.scene(JSON.parse(state.world.sceneMessage()));
      return;
  }
  if ("rewind" in message) {
    on.refused("cannot rewind: the world runs in this page, which keeps no history (`cratedrop serve --streamed` rewinds)");
    return;
  }
  try {
    state.world.command(message);
  } catch (error) {
    on.refused(error.message);
  }
}

// `?check=N`: N steps as fast as the browser can, no drawing; the hash line into #check.
function check(open, query, determinismClass) {
  const steps = Number(query.get("check"));
  if (!Number.isInteger(steps) || steps < 0) throw new Error(`check must be a whole number of steps, got ${query.get("check")}`);
  const trail = query.get("trail") === "1";
  const restoreAt = query.has("restore") ? Number(query.get("restore")) : null;
  let world = open();
  const lines = [];
  const started = performance.now();
  while (world.stepCount < steps) {
    world.step(1);
    if (trail) lines.push(`${world.stepCount} ${world.hashHex()}`);
    if (world.stepCount === restoreAt) {
      const saved = world.save();
      world.free();
      world = open();
      world.restore(saved);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const line = `${world.stepCount} ${world.hashHex()}`;
  document.getElementById("checkLine").hidden = false;
  document.getElementById("check").textContent = line;
  document.getElementById("checkClass").textContent = determinismClass;
  if (trail) document.getElementById("trail").textContent = lines.join("\n") + "\n";
  console.log(`check: ${line} (class ${determinismClass}, ${seconds.toFixed(3)} s)`);
  world.free();
}
