// The world in this page: CrateDrop's core (cratedrop.wasm, through cratedrop.js) stepped at the
// display's rate with the fixed-step accumulator and death-spiral guard of docs/driver.md, and
// speaking the messages `cratedrop serve` sends and takes, so app.js draws it as it draws a
// streamed world. No server: `cratedrop page` writes it as one file that opens from file://.
//
// The world steps in a Web Worker, off the thread that draws: each display frame asks it for the
// state at that frame's time (one request in flight; a slow step never holds up a drawn frame),
// and draws the newest state it has.
//
// `config` (window.CRATEDROP_PAGE): { name, scene (the scene file's text), wasm (the module as
// base64), inputs (an input stream's text, optional), inputsName, served (from `cratedrop serve`) }.
// cratedrop.js is the page's script element with id "cratedrop-core" (the worker runs its text).
// With `?check=N` the page steps N steps as fast as it can, draws nothing and writes `N HASH` into
// #check (what `cratedrop hash SCENE --steps N` prints; `&trail=1`: every step's line into #trail,
// as `--every 1`; `&restore=K`: at step K save, load the scene again, restore and go on).
"use strict";

function startLocalLink(config, on) {
  let worker = null, inFlight = false;
  // Answers the worker owes, by kind ("record", "stateFile"): what to do with each.
  const wanted = {};
  const link = {
    local: true,
    tick(now) {
      if (!worker || inFlight) return;
      inFlight = true;
      worker.postMessage({ frame: now });
    },
    send(message) { if (worker) worker.postMessage({ send: message }); },
    // The record so far (a .rec file's text), or the state as the CLI's saved-state file (bytes),
    // to `use`: the worker makes them; null when the world cannot give one (it says why).
    record(use) { ask("record", use); },
    stateFile(use) { ask("stateFile", use); },
    // A saved-state file (this page's or the CLI's `--save-state`) for the world to go on from.
    restore(bytes) { if (worker) worker.postMessage({ restore: bytes }, [bytes.buffer]); },
  };
  const ask = (kind, use) => {
    if (!worker) return;
    wanted[kind] = use;
    worker.postMessage({ [kind]: true });
  };
  const fail = (message) => {
    window.cratedrop.problem = message;
    on.status(message);
    console.error(message);
  };
  if (typeof WebAssembly !== "object") {
    fail("This browser has no WebAssembly, so the world cannot run in the page: open the scene with `cratedrop serve SCENE --streamed`, which runs it on the server.");
    return link;
  }
  const query = new URLSearchParams(location.search);
  if (query.has("check")) {
    check(config, query).catch((error) => fail(error.message));
    return link;
  }
  const core = document.getElementById("cratedrop-core").textContent;
  const source = `${core}\n${openWorld.toString()}\n(${engineWorker.toString()})();`;
  worker = new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })));
  worker.onmessage = (event) => {
    const message = event.data;
    if (message.frame) {
      inFlight = false;
      const { rows, count } = message.frame;
      const positions = new Map();
      for (let row = 0; row < count; row++) positions.set(rows[row * 7], [rows[row * 7 + 1], rows[row * 7 + 2], rows[row * 7 + 3]]);
      on.frame({ ...message.frame, time: performance.now(), blended: true, rewinds: 0, earliest: -1, latest: -1, positions });
    } else if (message.scene) {
      on.scene(message.scene);
    } else if (message.parts) {
      on.parts(message.parts);
    } else if (message.refused) {
      on.refused(message.refused);
    } else if (message.status) {
      on.status(message.status);
    } else if (message.problem) {
      inFlight = false;
      fail(message.problem);
    } else if (message.answer && wanted[message.answer]) {
      wanted[message.answer](message.value);
      delete wanted[message.answer];
    }
  };
  on.status("loading the engine…");
  worker.postMessage({ open: engineConfig(config) });
  return link;
}

// The page's settings with the core, the picture decoder and the scene's pictures as bytes.
function engineConfig(config) {
  const files = Object.fromEntries(Object.entries(config.files ?? {}).map(([path, bytes]) => [path, fromBase64(bytes)]));
  return { ...config, wasm: fromBase64(config.wasm), pictures: config.pictures ? fromBase64(config.pictures) : null, files };
}

function fromBase64(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

// Opens the world of `config` (the scene, then its input lines) with `core`.
// `config` as `engineConfig` decoded it.
function openWorld(core, config) {
  const inputs = (config.inputs ?? "").split("\n").filter((line) => line.trim() !== "");
  const world = core.world(config.scene, config.name, { files: config.files ?? {} });
  if (inputs.length > 0) {
    world.nameInputs(config.inputsName ?? "inputs");
    for (const line of inputs) world.input(line);
  }
  return world;
}

// The worker's side: runs in the Web Worker, whose script is cratedrop.js, `openWorld` and this
// function, as text (a worker sees none of the page's own functions).
function engineWorker() {
  let core = null, config = null, world = null, failed = false;
  let paused = false, generation = 0, stepTime = 0, load = 0, lastFrame = null, rows = new Float64Array(0);
  const post = (message, transfer) => postMessage(message, transfer ?? []);
  const open = () => openWorld(core, config);
  const frame = (now) => {
    if (!paused) {
      const started = performance.now();
      const steps = world.frame(now);
      const spent = performance.now() - started;
      if (steps > 0) stepTime = (1000 * spent) / steps;
      if (lastFrame !== null) load = spent / Math.max(1, now - lastFrame);
      lastFrame = now;
    }
    for (const text of world.partsMessages()) post({ parts: JSON.parse(text) });
    const count = world.bodyCount;
    if (rows.length < count * 7) rows = new Float64Array(count * 7);
    const written = world.frameState(rows);
    const out = rows.slice(0, written * 7);
    post({ frame: { rows: out, count: written, step: world.stepCount, hash: world.hashHex(), paused, generation, stepTime, load,
                    dropped: world.droppedSeconds } }, [out.buffer]);
  };
  // A page's message, as the server takes it: pausing, stepping and restarting are the page's
  // own; the rest go to the world before its next step (a refusal says why, as the server's does).
  const send = (message) => {
    switch (message.command) {
      case "pause": paused = true; return;
      // The frames' clock starts afresh: the time paused is not owed.
      case "resume": paused = false; world.step(0); return;
      case "step": if (paused) world.step(1); return;
      case "restart":
        world.free();
        world = open();
        generation++;
        failed = false;
        lastFrame = null;
        post({ scene: JSON.parse(world.sceneMessage()) });
        return;
    }
    if ("rewind" in message) {
      post({ refused: "cannot rewind: the world runs in this page, which keeps no history (`cratedrop serve --streamed` rewinds)" });
      return;
    }
    try {
      world.command(message);
    } catch (error) {
      post({ refused: error.message });
    }
  };
  onmessage = async (event) => {
    const message = event.data;
    try {
      if (message.open) {
        config = message.open;
        core = await CrateDrop.loadCore(config.wasm, { pictures: config.pictures });
        world = open();
        post({ scene: JSON.parse(world.sceneMessage()) });
        post({ status: `running in this page (WebAssembly, class ${core.determinismClass})` });
      } else if (!world || failed) {
        if (message.record || message.stateFile) post({ answer: message.record ? "record" : "stateFile", value: null });
        else if (message.frame !== undefined) post({ problem: failed ? `stopped at step ${world.stepCount}` : "the engine is not loaded yet" });
      } else if (message.frame !== undefined) {
        frame(message.frame);
      } else if (message.send) {
        send(message.send);
      } else if (message.record || message.stateFile) {
        // What the world cannot give (a record after a restore: it starts from the scene) is
        // refused, and the world goes on.
        const answer = message.record ? "record" : "stateFile";
        try {
          post({ answer, value: message.record ? new TextDecoder().decode(world.record()) : world.saveFile() });
        } catch (error) {
          post({ answer, value: null });
          post({ refused: error.message });
        }
      } else if (message.restore) {
        // A state from another scene, or damaged, is refused with the CLI's reason; one saved in
        // another determinism class is restored with the CLI's warning.
        try {
          const warning = world.restore(message.restore);
          lastFrame = null;
          post({ status: `restored at step ${world.stepCount}${warning ? ` (warning: ${warning})` : ""}` });
        } catch (error) {
          post({ refused: `cannot restore: ${error.message}` });
        }
      }
    } catch (error) {
      // A line that cannot apply, a world gone non-finite: the world stops here, as a run does.
      failed = world !== null;
      post({ problem: world ? `stopped at step ${world.stepCount}: ${error.message}` : error.message });
    }
  };
}

// `?check=N`: N steps as fast as the browser can, no drawing; the hash line into #check.
async function check(page, query) {
  const config = engineConfig(page);
  const core = await CrateDrop.loadCore(config.wasm, { pictures: config.pictures });
  const steps = Number(query.get("check"));
  if (!Number.isInteger(steps) || steps < 0) throw new Error(`check must be a whole number of steps, got ${query.get("check")}`);
  const trail = query.get("trail") === "1";
  const restoreAt = query.has("restore") ? Number(query.get("restore")) : null;
  let world = openWorld(core, config);
  const lines = [];
  const started = performance.now();
  while (world.stepCount < steps) {
    world.step(1);
    if (trail) lines.push(`${world.stepCount} ${world.hashHex()}`);
    if (world.stepCount === restoreAt) {
      const saved = world.save();
      world.free();
      world = openWorld(core, config);
      world.restore(saved);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const line = `${world.stepCount} ${world.hashHex()}`;
  document.getElementById("checkLine").hidden = false;
  document.getElementById("check").textContent = line;
  document.getElementById("checkClass").textContent = core.determinismClass;
  if (trail) document.getElementById("trail").textContent = lines.join("\n") + "\n";
  console.log(`check: ${line} (class ${core.determinismClass}, ${seconds.toFixed(3)} s)`);
  world.free();
}
