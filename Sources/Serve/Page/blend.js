// Where to draw between the last two frames: the fraction of the way from the earlier (which
// arrived at `from`) to the newer (at `to`), over one frame interval after the newer arrived.
// Clamped to 0...1: requestAnimationFrame's time is its frame's start, which can be before the
// newer frame arrived when frames come in a burst or the device is slow, and a fraction below 0
// would draw bodies back past where they were; above 1 would guess where they go next.
"use strict";
function blendFraction(now, from, to) {
  const interval = Math.max(1, to - from);
  return Math.min(1, Math.max(0, (now - to) / interval));
}
if (typeof module === "object" && module) module.exports = { blendFraction };
