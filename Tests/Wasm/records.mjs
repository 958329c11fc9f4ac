// The page's record and state files from the wasm core, for scripts/wasm-test to check with the
// CLI: a run of book with input lines and page commands (a tilt, a drop, a push, a grab dragged
// and released), its record and its saved-state file; and a state the CLI saved, restored here.
//
//   node Tests/Wasm/records.mjs WASM_DIR WORK CLI_STATE
//
// Writes WORK/page.rec (World.record(): `cratedrop replay --verify` must verify it), WORK/page.end
// (`STEP HASH` where the record ends), WORK/page.state (World.saveFile() there), WORK/page.after
// (`STEP HASH` 60 steps on: `cratedrop hash WORK/page.state --steps 60` must print it) and
// WORK/cli-state.after (`STEP HASH` of CLI_STATE restored and stepped 10: `cratedrop hash
// CLI_STATE --steps 10` must print it). A failure prints the core's message, exit 1.
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const [wasmDir, work, cliState] = process.argv.slice(2);
const { loadCore } = (await import(pathToFileURL(resolve(wasmDir, "cratedrop.js")).href)).default;
const core = await loadCore(resolve(wasmDir, "cratedrop.wasm"));
const sceneBytes = readFileSync("Scenes/book.json");

// The page's commands (LiveProtocol's messages) through the ABI, as the page sends them.
function command(world, text) {
    core.check(core.withBytes(text, (pointer, length) => core.abi.cratedrop_world_command(world.handle, pointer, length)));
}
// Where body `id` is now.
function position(world, id) {
    const rows = new Float64Array(world.bodyCount * 7);
    const count = world.state(rows);
    for (let row = 0; row < count; row++) if (rows[row * 7] === id) return [rows[row * 7 + 1], rows[row * 7 + 2]];
    throw new Error(`no body ${id}`);
}
const line = (world) => `${world.stepCount} ${world.hashHex()}\n`;

const world = core.world(sceneBytes, "Scenes/book.json");
world.input('{"step": 10, "gravity": [400, -600]}');
world.input('{"step": 20, "body": 2, "impulse": [0, 30000]}');
world.step(30);
command(world, '{"gravity":[300,-900]}');
world.step(20);
command(world, '{"drop":{"at":[150,250]}}');
world.step(30);
const one = position(world, 1);
command(world, `{"push":{"body":1,"velocity":[50,200],"at":[${one[0]},${one[1]}]}}`);
world.step(10);
const [x, y] = position(world, 3);
command(world, `{"grab":{"body":3,"at":[${x},${y}]}}`);
for (let move = 1; move <= 10; move++) {
    command(world, `{"drag_to":{"body":3,"at":[${x + move * 4},${y + move * 3}]}}`);
    world.frame(1000 + (move * 1000) / 60);  // display frames through the driver, as the page steps
}
command(world, '{"release":{"body":3}}');
world.step(50);
writeFileSync(`${work}/page.rec`, world.record());
writeFileSync(`${work}/page.end`, line(world));
if (world.recordSteps !== world.stepCount) throw new Error(`the record covers ${world.recordSteps} steps of ${world.stepCount}`);

writeFileSync(`${work}/page.state`, world.saveFile());
world.step(60);
writeFileSync(`${work}/page.after`, line(world));
world.free();

// The CLI's state file (CDSTATE) restores here; the record ends with it.
const restored = core.world(sceneBytes, "Scenes/book.json");
restored.restore(readFileSync(cliState));
restored.step(10);
writeFileSync(`${work}/cli-state.after`, line(restored));
try {
    restored.record();
    throw new Error("a record was given after a restore");
} catch (error) {
    if (error.code !== 64) throw error;
}
restored.free();
