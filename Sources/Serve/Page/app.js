// The CrateDrop live page: draws the frames the server streams, interpolating between the last
// two on requestAnimationFrame, and sends tilts and commands back. No build step, no libraries.
"use strict";

const canvas = document.getElementById("view");
const context = canvas.getContext("2d");
const show = (id, text) => { document.getElementById(id).textContent = text; };

let scene = null;              // the scene message: world size, colours, walls, body sizes
let bodies = new Map();        // id -> {w, h, color, shape, points, radius}
let frames = [];               // the last two frames: {time, step, positions: Map(id -> [x, y, angle])}
let gravity = [0, -1000];
let paused = false;
let rewind = null;             // {earliest, latest, rewinds}: the steps the run can go back to; null: none kept
const drawn = [];              // times of drawn frames, for frames/s and the test's percentiles
// For the browser test: frames received, the bodies drawn in the last drawn frame, the parts
// messages applied and the newest's version.
window.cratedrop = { drawn, received: 0, closed: null, rewind: null, refused: null, bodiesDrawn: 0, partsReceived: 0, partsVersion: 0 };

// Where the world runs: on the server, which streams its frames over a WebSocket, or in this
// page, CrateDrop's own core as WebAssembly (local.js; `window.CRATEDROP_PAGE` says so, as
// `cratedrop page` and `cratedrop serve` write it). Both speak the same messages.
const handlers = {
  scene: (message) => receiveScene(message),
  parts: (message) => receiveParts(message),
  frame: (frame) => showFrame(frame),
  refused: (reason) => {
    window.cratedrop.refused = reason;
    refusedUntil = performance.now() + 4000;
    show("rewindNote", reason);
  },
  status: (text) => show("status", text),
};
// The server's socket (streamed mode), page-wide so that the browser test can send a raw message.
let socket = null;
// A served page in a browser without WebAssembly falls back to the server's world.
const inPage = window.CRATEDROP_PAGE && (typeof WebAssembly === "object" || !window.CRATEDROP_PAGE.served);
const link = inPage ? startLocalLink(window.CRATEDROP_PAGE, handlers) : startSocketLink(handlers);

function startSocketLink(on) {
  socket = new WebSocket(`ws://${location.host}/live`);
  socket.binaryType = "arraybuffer";
  socket.onopen = () => on.status("live");
  socket.onclose = (event) => {
    window.cratedrop.closed = { code: event.code, reason: event.reason };
    on.status(`closed (${event.code}${event.reason ? ": " + event.reason : ""})`);
  };
  socket.onmessage = (event) => {
    if (typeof event.data === "string") {
      const message = JSON.parse(event.data);
      if (message.type === "refused") on.refused(message.reason);
      else if (message.type === "parts") on.parts(message);
      else on.scene(message);
      return;
    }
    const frame = decodeFrame(new DataView(event.data));
    if (frame) on.frame(frame);
  };
  return { send(message) { if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message)); } };
}

// A body as the scene and parts messages give it: [id, w, h, colour, kind(, outline points, radius
// (, a compound body's parts: [[points], radius, colour], ...))].
function describe([id, w, h, color, shape, points, radius, parts]) {
  // A box and a circle come as their size; their outlines follow from it.
  if (!points) {
    points = shape === "circle" ? [0, 0] : [-w / 2, -h / 2, w / 2, -h / 2, w / 2, h / 2, -w / 2, h / 2];
    radius = shape === "circle" ? w / 2 : 0;
  }
  parts = parts ? parts.map(([points, radius, color]) => ({ w, h, color, points, radius })) : null;
  return [id, { w, h, color, shape, points, radius, parts }];
}

function receiveScene(message) {
  scene = message;
  bodies = new Map(message.bodies.map(describe));
  document.getElementById("title").textContent = `CrateDrop: ${message.name}`;
  const scale = Math.min(900 / message.world[0], 640 / message.world[1], 2);
  canvas.width = Math.round(message.world[0] * scale);
  canvas.height = Math.round(message.world[1] * scale);
  backdrop = null;
  // The scene's own gravity, shown from the start (tilts replace it).
  gravity = message.gravity.slice();
  show("gravity", `[${gravity[0].toFixed(0)}, ${gravity[1].toFixed(0)}]`);
  // Rewind needs saved states (the portable backend): where the run cannot keep them, the
  // slider stays disabled and the page says why.
  slider.disabled = !message.rewind || message.rewind.unavailable !== undefined;
  rewindHint = slider.disabled ? `Rewind is off: ${message.rewind ? message.rewind.unavailable : "not offered"}`
    : `Drag back through the last ${message.rewind.seconds} s.`;
  show("rewindNote", rewindHint);
}

// The world changed as it ran (a crate dropped, a body removed; a restart or a rewind across
// changes): what differs from what this page was told, before the first frame that shows it.
function receiveParts(message) {
  for (const id of message.remove) {
    bodies.delete(id);
    if (grab && grab.id === id) grab = null;
  }
  for (const entry of message.add) {
    const [id, body] = describe(entry);
    bodies.set(id, body);
  }
  if (message.walls) {
    scene.walls = message.walls;
    backdrop = null;
  }
  if (message.joints) scene.joints = message.joints;
  window.cratedrop.partsReceived++;
  window.cratedrop.partsVersion = message.version;
}

// A frame: "CDF2", the header (LiveMessages.frame), then 16 bytes a body from byte 76.
function decodeFrame(view) {
  if (view.getUint32(0, true) !== 0x32464443) return null;
  const count = view.getUint32(4, true);
  const positions = new Map();
  for (let i = 0, at = 76; i < count; i++, at += 16) {
    positions.set(view.getUint32(at, true), [view.getFloat32(at + 4, true), view.getFloat32(at + 8, true), view.getFloat32(at + 12, true)]);
  }
  return {
    time: performance.now(), generation: view.getUint32(8, true), paused: (view.getUint32(12, true) & 1) === 1,
    step: view.getFloat64(16, true), stepTime: view.getFloat64(24, true), load: view.getFloat64(32, true), dropped: view.getFloat64(40, true),
    hash: view.getBigUint64(48, true).toString(16).padStart(16, "0"),
    earliest: view.getFloat64(56, true), latest: view.getFloat64(64, true), rewinds: view.getUint32(72, true), positions,
  };
}

// A frame to draw: `time` when it arrived (the page's engine: the display frame it shows, with
// `blended` set, its bodies already placed between the last two steps), the step, the figures,
// and each body's [x, y, angle].
function showFrame(frame) {
  const { step, generation, rewinds, hash, earliest, latest } = frame;
  paused = frame.paused;
  // After a restart or a rewind (this page's or another's) there is nothing to blend from; the
  // page's own engine places its bodies itself.
  const last = frames[frames.length - 1];
  if (frame.blended || (last && (last.generation !== generation || last.rewinds !== rewinds))) frames = [];
  frames.push(frame);
  if (frames.length > 2) frames.shift();
  window.cratedrop.received++;
  window.cratedrop.hash = hash;
  window.cratedrop.step = step;
  show("step", String(step));
  show("stepTime", `${frame.stepTime.toFixed(1)} µs`);
  show("load", `${(100 * frame.load).toFixed(1)}%`);
  show("dropped", `${frame.dropped.toFixed(3)} s`);
  show("hash", hash);
  document.getElementById("pause").textContent = paused ? "resume" : "pause";
  rewind = earliest >= 0 ? { earliest, latest, rewinds } : null;
  window.cratedrop.rewind = rewind;
  showRewind(step);
}

// The rewind slider spans the steps the run can go back to; its thumb is the world's step. While
// the world shows the past (a step before the newest), "branch here" continues from it.
const slider = document.getElementById("rewind");
let sliding = false;
let rewindHint = "";
let refusedUntil = 0;
function showRewind(step) {
  const past = rewind !== null && step < rewind.latest;
  document.getElementById("branch").disabled = !past;
  if (!rewind) return;
  if (performance.now() > refusedUntil) {
    // Every page sees the same world: a rewind by another page shows here too.
    show("rewindNote", past ? `Showing step ${step}, ${((rewind.latest - step) / scene.step_rate).toFixed(2)} s before the newest `
      + `(${rewind.latest}): step, resume, tilt or "branch here" to go on from it.` : rewindHint);
  }
  show("rewindSpan", `${((rewind.latest - rewind.earliest) / scene.step_rate).toFixed(1)} s kept`);
  if (sliding) return;
  slider.min = String(rewind.earliest);
  slider.max = String(rewind.latest);
  slider.value = String(step);
}
function sendRewind() {
  link.send({ rewind: Number(slider.value) });
}
// Taking the slider pauses the run, as a video's scrubber does; each move asks for that step (a
// newer request replaces one not yet applied), and letting go leaves the world there.
slider.addEventListener("pointerdown", () => { sliding = true; if (!paused) command("pause"); });
slider.addEventListener("keydown", () => { if (!paused) command("pause"); });
slider.addEventListener("input", sendRewind);
slider.addEventListener("change", () => { sliding = false; sendRewind(); });
slider.addEventListener("pointerup", () => { sliding = false; });

// Drawing, in the frame renderer's look: a dark frame, three planks, a diagonal brace.
function shade(hex, factor) {
  const n = parseInt(hex.slice(1), 16);
  const c = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => Math.min(255, Math.round(v * factor)));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

// Each crate is drawn once into a sprite of its own (its look never changes); a frame then only
// places sprites, as the frame renderer keeps its static layer and crate styles. Proportions are
// CrateStyle's and DiscStyle's, which measure from the half size: a frame of 0.2 and a brace of
// 0.22 half sizes.
function sprite(body, scale) {
  if (body.sprite && body.spriteScale === scale) return body.sprite;
  const w = Math.max(1, body.w * scale), h = Math.max(1, body.h * scale), half = Math.min(w, h) / 2;
  const canvas = document.createElement("canvas");
  canvas.width = Math.ceil(w);
  canvas.height = Math.ceil(h);
  const c = canvas.getContext("2d");
  body.sprite = canvas;
  body.spriteScale = scale;
  // The crate look has sprites of its own for boxes and circles; every other shape, and every
  // shape in the plain look, is drawn from its outline, whatever its kind.
  if (body.parts) {
    // A compound body: each part from its outline, in part order, as the frame renderer draws it.
    for (const part of body.parts) drawOutline(c, part, w / 2, h / 2, scale);
    return canvas;
  }
  if (scene.look !== "crate" || (body.shape !== "box" && body.shape !== "circle")) {
    drawOutline(c, body, w / 2, h / 2, scale);
    return canvas;
  }
  if (body.shape === "circle") {
    drawDisc(c, w / 2, h / 2, half, body.color);
    return canvas;
  }
  const border = Math.max(0.75, half * 0.2);
  c.fillStyle = shade(body.color, 0.62);
  c.fillRect(0, 0, w, h);
  const plank = (h - 2 * border) / 3;
  [1.0, 0.9, 1.08].forEach((factor, i) => {
    c.fillStyle = shade(body.color, factor);
    c.fillRect(border, h - border - (i + 1) * plank, w - 2 * border, plank);
  });
  c.strokeStyle = shade(body.color, 0.72);
  c.lineWidth = Math.max(1, half * 0.22);
  c.beginPath();
  c.moveTo(border, h - border);
  c.lineTo(w - border, border);
  c.stroke();
  return canvas;
}

// Any shape from its outline (points in the body's frame, grown by its radius), as the frame
// renderer's OutlineStyle draws it: in the crate look the wood with a dark rim, in the plain look
// the colour itself with a darker rim.
function outlinePath(c, points, x, y, scale) {
  c.beginPath();
  for (let i = 0; i < points.length; i += 2) c[i === 0 ? "moveTo" : "lineTo"](x + points[i] * scale, y - points[i + 1] * scale);
  if (points.length > 4) c.closePath();
  // One point (a disc's core): a canvas strokes nothing for a lone point, so give it a dot that
  // the round cap of the stroke grows to the radius.
  if (points.length === 2) c.lineTo(x + points[0] * scale + 1e-3, y - points[1] * scale);
}
function drawOutline(c, body, x, y, scale) {
  const rimColor = scene.look === "plain" ? shade(body.color, 0.55) : shade(body.color, 0.62);
  const faceColor = scene.look === "plain" ? body.color : shade(body.color, 1.0);
  const rim = Math.max(0.75, Math.min(2, Math.min(body.w, body.h) * scale * 0.12));
  const polygon = body.points.length > 4;
  const radius = polygon ? body.radius * scale : Math.max(body.radius * scale, 0.75);
  c.lineJoin = "round";
  c.lineCap = "round";
  // The whole shape in the rim's colour: the core filled, grown by the radius.
  outlinePath(c, body.points, x, y, scale);
  c.fillStyle = c.strokeStyle = rimColor;
  if (polygon) c.fill();
  c.lineWidth = 2 * radius;
  if (radius > 0) c.stroke();
  // The face, the rim's width inside: a thinner stroke where the radius allows, else the core
  // filled and its inner edge darkened within a clip to it.
  outlinePath(c, body.points, x, y, scale);
  c.fillStyle = faceColor;
  if (radius > rim) {
    c.strokeStyle = faceColor;
    c.lineWidth = 2 * (radius - rim);
    if (polygon) c.fill();
    c.stroke();
  } else if (polygon) {
    c.save();
    c.clip();
    c.fill();
    c.strokeStyle = rimColor;
    c.lineWidth = 2 * (rim - radius);
    c.stroke();
    c.restore();
  }
}

// A round crate: a darker rim, the wood face, a brace across it ending in a knot by the rim.
function drawDisc(c, x, y, radius, color) {
  const rim = Math.max(0.75, radius * 0.2), brace = Math.max(0.5, radius * 0.11), inner = radius - rim;
  const disc = (r, style) => { c.fillStyle = style; c.beginPath(); c.arc(x, y, r, 0, 2 * Math.PI); c.fill(); };
  disc(radius, shade(color, 0.62));
  if (inner <= 0.5) return;
  disc(inner, shade(color, 1.0));
  const reach = Math.max(0, inner - brace);
  c.strokeStyle = shade(color, 0.72);
  c.lineWidth = 2 * brace;
  c.lineCap = "round";
  c.beginPath();
  c.moveTo(x - reach, y);
  c.lineTo(x + reach, y);
  c.stroke();
  c.fillStyle = shade(color, 0.62);
  c.beginPath();
  c.arc(x + reach, y, brace * 1.8, 0, 2 * Math.PI);
  c.fill();
}

// The background and walls, drawn once per canvas size.
let backdrop = null;
function staticLayer(scale) {
  if (backdrop && backdrop.width === canvas.width && backdrop.height === canvas.height) return backdrop;
  backdrop = document.createElement("canvas");
  backdrop.width = canvas.width;
  backdrop.height = canvas.height;
  const c = backdrop.getContext("2d");
  c.fillStyle = scene.background;
  c.fillRect(0, 0, backdrop.width, backdrop.height);
  c.lineCap = "round";
  c.lineJoin = "round";
  for (const wall of scene.walls) {
    c.strokeStyle = c.fillStyle = wall.color;
    outlinePath(c, wall.points, 0, backdrop.height, scale);
    const polygon = wall.points.length > 4;
    if (polygon) c.fill();
    // A canvas ignores a line width of 0 and keeps the last one: a sharp polygon is not stroked.
    if (!polygon || wall.radius > 0) {
      c.lineWidth = polygon ? 2 * wall.radius * scale : Math.max(2 * wall.radius * scale, 1.5);
      c.stroke();
    }
  }
  return backdrop;
}

function drawCrate(x, y, angle, body, scale) {
  const image = sprite(body, scale), cos = Math.cos(angle), sin = Math.sin(angle);
  // y points down on the canvas, so a counter-clockwise world angle turns the other way here.
  context.setTransform(cos, -sin, sin, cos, x, y);
  context.drawImage(image, -image.width / 2, -image.height / 2);
}

// Where each body was drawn this frame (id -> [x, y, angle]), for its joints.
const placed = new Map();

function draw(now) {
  requestAnimationFrame(draw);
  // The page's engine steps to this display frame first (a no-op for the socket).
  if (link.tick) link.tick(now);
  if (!scene || frames.length === 0) return;
  drawn.push(now);
  if (drawn.length > 2000) drawn.splice(0, drawn.length - 2000);
  const recent = drawn.filter((t) => t > now - 1000);
  show("fps", String(recent.length));
  const scale = canvas.width / scene.world[0];
  context.setTransform(1, 0, 0, 1, 0, 0);
  context.drawImage(staticLayer(scale), 0, 0);
  // Blend from the previous frame to the newest over one frame interval.
  const [a, b] = frames.length === 2 ? frames : [frames[0], frames[0]];
  const t = blendFraction(now, a.time, b.time);
  let count = 0;
  for (const [id, [x, y, angle]] of b.positions) {
    const body = bodies.get(id);
    if (!body) continue;
    count++;
    const before = a.positions.get(id) || [x, y, angle];
    const bx = before[0] + (x - before[0]) * t, by = before[1] + (y - before[1]) * t, ba = before[2] + (angle - before[2]) * t;
    drawCrate(bx * scale, canvas.height - by * scale, ba, body, scale);
    placed.set(id, [bx, by, ba]);
  }
  context.setTransform(1, 0, 0, 1, 0, 0);
  drawJoints(placed, scale);
  drawDrag(placed, scale);
  placed.clear();
  window.cratedrop.bodiesDrawn = count;
}

// Joints as thin lines between their anchors, a dot at each (a groove as its groove; a gear or
// motor between its bodies' centres), placed with their bodies as drawn.
function drawJoints(placed, scale) {
  if (!scene.joints) return;
  const toCanvas = (end, point) => {
    if (end === null) return [point[0] * scale, canvas.height - point[1] * scale];
    const at = placed.get(end);
    if (!at) return null;
    const cos = Math.cos(at[2]), sin = Math.sin(at[2]);
    return [(at[0] + cos * point[0] - sin * point[1]) * scale, canvas.height - (at[1] + sin * point[0] + cos * point[1]) * scale];
  };
  const width = Math.max(1, Math.min(2, scale));
  for (const joint of scene.joints) {
    const a = toCanvas(joint.a, joint.anchor_a), b = toCanvas(joint.b, joint.anchor_b);
    if (!a || !b) continue;
    context.strokeStyle = context.fillStyle = joint.kind === "damped_spring" ? "#2f6fb0" : "#2b2b33";
    context.lineWidth = joint.centres ? width * 0.5 : width;
    context.beginPath();
    if (joint.groove) {
      const g0 = toCanvas(joint.a, joint.groove.slice(0, 2)), g1 = toCanvas(joint.a, joint.groove.slice(2, 4));
      context.moveTo(g0[0], g0[1]);
      context.lineTo(g1[0], g1[1]);
    } else {
      context.moveTo(a[0], a[1]);
      context.lineTo(b[0], b[1]);
    }
    context.stroke();
    if (joint.centres) continue;
    for (const [x, y] of joint.groove ? [b] : [a, b]) {
      context.beginPath();
      context.arc(x, y, width * 2, 0, 2 * Math.PI);
      context.fill();
    }
  }
}
requestAnimationFrame(draw);

// Tilt: arrow keys turn gravity by 15°, dragging points it, a phone's accelerometer sets it.
function sendGravity(g) {
  gravity = g;
  show("gravity", `[${g[0].toFixed(0)}, ${g[1].toFixed(0)}]`);
  link.send({ gravity: g });
}
function command(name) { link.send({ command: name }); }

window.addEventListener("keydown", (event) => {
  if (event.target === slider) return;  // arrow keys move the rewind slider, not gravity
  const turns = { ArrowLeft: -1, ArrowRight: 1 };
  const magnitude = Math.hypot(gravity[0], gravity[1]) || 1000;
  if (event.key === "Delete" || event.key === "Backspace" || event.key === "x" || event.key === "X") {
    // The body under the pointer leaves the world (at the run's next step, recorded).
    const body = hover ? bodyAt(hover) : null;
    if (body) send({ remove: { body: body.id } });
  } else if (event.key in turns) {
    const angle = Math.atan2(gravity[1], gravity[0]) + (turns[event.key] * Math.PI) / 12;
    sendGravity([magnitude * Math.cos(angle), magnitude * Math.sin(angle)]);
  } else if (event.key === "ArrowUp") {
    sendGravity([0, magnitude]);
  } else if (event.key === "ArrowDown") {
    sendGravity([0, -magnitude]);
  } else {
    return;
  }
  event.preventDefault();
});

// Dragging a body holds it with a joint to the pointer, as pymunk's and Box2D's samples do: a
// grab where it was pressed, the pointer's moves (at most one a frame), a release; the run applies
// each at its next step and records it, so the record replays the drag. Dragging anywhere else
// points gravity.
// A press on empty space that is let go before it tilts anything is a click: it drops a crate
// there (the run makes it of the scene's typical size, in its palette, and records it).
let dragStart = null, grab = null, lastMove = 0, click = null;
// Where the pointer is over the canvas, in the world (null: elsewhere): Delete, Backspace or X
// removes the body under it.
let hover = null;
function send(message) { link.send(message); }
function sendDrag(kind, body) { send({ [kind]: body }); }
// The grabbed point (on the body as drawn) to the pointer, in the joints' colour.
function drawDrag(placed, scale) {
  if (!grab || !grab.pointer) return;
  const at = placed.get(grab.id);
  if (!at) return;
  const cos = Math.cos(at[2]), sin = Math.sin(at[2]);
  const x = at[0] + cos * grab.local[0] - sin * grab.local[1], y = at[1] + sin * grab.local[0] + cos * grab.local[1];
  context.strokeStyle = "#2b2b33";
  context.lineWidth = Math.max(1, Math.min(2, scale));
  context.beginPath();
  context.moveTo(x * scale, canvas.height - y * scale);
  context.lineTo(grab.pointer[0] * scale, canvas.height - grab.pointer[1] * scale);
  context.stroke();
}
function worldPoint(event) {
  const scale = canvas.width / scene.world[0];
  return [event.offsetX * (canvas.width / canvas.clientWidth) / scale, (canvas.height - event.offsetY * (canvas.height / canvas.clientHeight)) / scale];
}
function bodyAt(point) {
  if (!scene || frames.length === 0) return null;
  let found = null;
  for (const [id, [x, y, angle]] of frames[frames.length - 1].positions) {
    const body = bodies.get(id);
    if (!body) continue;
    const dx = point[0] - x, dy = point[1] - y, cos = Math.cos(angle), sin = Math.sin(angle);
    const lx = cos * dx + sin * dy, ly = -sin * dx + cos * dy;
    if (Math.abs(lx) <= body.w / 2 && Math.abs(ly) <= body.h / 2) found = { id, local: [lx, ly] };
  }
  return found;
}
canvas.addEventListener("pointerdown", (event) => {
  canvas.setPointerCapture(event.pointerId);
  const point = scene ? worldPoint(event) : null;
  const body = point ? bodyAt(point) : null;
  if (body) {
    grab = { ...body, pointer: point };
    sendDrag("grab", { body: body.id, at: point });
  } else {
    dragStart = [event.offsetX, event.offsetY];
    click = point;
  }
});
function endDrag(event) {
  dragStart = null;
  if (click && event.type === "pointerup") send({ drop: { at: click } });
  click = null;
  if (!grab) return;
  sendDrag("release", { body: grab.id });
  grab = null;
}
canvas.addEventListener("pointerup", endDrag);
canvas.addEventListener("pointercancel", endDrag);
canvas.addEventListener("pointerleave", () => { hover = null; });
canvas.addEventListener("pointermove", (event) => {
  if (scene) hover = worldPoint(event);
  if (grab) {
    grab.pointer = worldPoint(event);
    const now = performance.now();
    if (now - lastMove < 16) return;
    lastMove = now;
    sendDrag("drag_to", { body: grab.id, at: grab.pointer });
    return;
  }
  if (!dragStart) return;
  const dx = event.offsetX - dragStart[0], dy = dragStart[1] - event.offsetY;
  const length = Math.hypot(dx, dy);
  if (length < 20) return;
  const magnitude = Math.hypot(gravity[0], gravity[1]) || 1000;
  sendGravity([(magnitude * dx) / length, (magnitude * dy) / length]);
  dragStart = [event.offsetX, event.offsetY];
  click = null;
});

// DeviceMotion: gravity follows the phone (portrait); iOS asks permission, over HTTPS or localhost.
function listenToMotion() {
  let last = 0;
  window.addEventListener("devicemotion", (event) => {
    const a = event.accelerationIncludingGravity;
    if (!a || a.x === null || performance.now() - last < 50) return;
    last = performance.now();
    sendGravity([-a.x * 100, -a.y * 100]);
  });
}
if (typeof DeviceMotionEvent !== "undefined" && "ontouchstart" in window) {
  const motion = document.getElementById("motion");
  motion.hidden = false;
  motion.onclick = async () => {
    if (typeof DeviceMotionEvent.requestPermission === "function" && (await DeviceMotionEvent.requestPermission()) !== "granted") return;
    motion.hidden = true;
    listenToMotion();
  };
}

// The record: the server's, at /record; the page's engine's, made when asked. In the page, the
// state too: saved as the CLI's saved-state file, and loaded from one (this page's or the CLI's).
const download = document.getElementById("download");
function offer(name, bytes, type) {
  const anchor = document.createElement("a");
  anchor.href = URL.createObjectURL(new Blob([bytes], { type }));
  anchor.download = name;
  anchor.click();
  setTimeout(() => URL.revokeObjectURL(anchor.href), 10000);
}
if (link.local) {
  download.addEventListener("click", (event) => {
    event.preventDefault();
    link.record((text) => { if (text !== null) offer(`${scene ? scene.name : "world"}.rec`, text, "application/x-ndjson"); });
  });
  const saveState = document.getElementById("saveState"), loadState = document.getElementById("loadState");
  saveState.hidden = loadState.hidden = false;
  saveState.onclick = () => link.stateFile((bytes) => {
    if (bytes !== null) offer(`${scene ? scene.name : "world"}-${window.cratedrop.step}.state`, bytes, "application/octet-stream");
  });
  document.getElementById("stateFile").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (file) link.restore(new Uint8Array(await file.arrayBuffer()));
    event.target.value = "";
  });
}

document.getElementById("pause").onclick = () => command(paused ? "resume" : "pause");
document.getElementById("single").onclick = () => command("step");
document.getElementById("restart").onclick = () => command("restart");
document.getElementById("branch").onclick = () => command("resume");
