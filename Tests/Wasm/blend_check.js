// The live page's blend between its last two frames (Sources/Serve/Page/blend.js), for
// scripts/wasm-test: never before the earlier frame (requestAnimationFrame's time can be before the
// newer frame arrived), never past the newer one, linear over one frame interval in between.
"use strict";
const assert = require("node:assert/strict");
const { blendFraction } = require("../../Sources/Serve/Page/blend.js");

// Frames arrived at 100 and 116 ms.
assert.equal(blendFraction(110, 100, 116), 0, "a display frame that began before the newer frame arrived draws the earlier one, not before it");
assert.equal(blendFraction(116, 100, 116), 0);
assert.equal(blendFraction(124, 100, 116), 0.5);
assert.equal(blendFraction(132, 100, 116), 1);
assert.equal(blendFraction(500, 100, 116), 1, "a late display frame draws the newer frame, never beyond it");
// Frames in a burst (the same millisecond): an interval of at least 1 ms, no division by zero.
assert.equal(blendFraction(116.5, 116, 116), 0.5);
assert.equal(blendFraction(90, 116, 116), 0);
console.error("blend_check: the blend stays within the last two frames");
