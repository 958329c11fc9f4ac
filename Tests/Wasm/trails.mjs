// Runs one scene (and its input stream) in the wasm core and writes what scripts/wasm-test
// compares with the CLI: `STEP HASH` after every step, as `cratedrop hash --every 1` prints them.
//
//   node Tests/Wasm/trails.mjs WASM_DIR SCENE STEPS RESTORE_AT OUT_PREFIX [INPUTS]
//
// Writes OUT_PREFIX.trail (the straight run), OUT_PREFIX.restored.trail (a second world that
// restores the first one's state saved at step RESTORE_AT and steps on from there) and
// OUT_PREFIX.world-state (those saved bytes). A failure prints the core's message, exit 1.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const [wasmDir, scene, stepsText, restoreAtText, prefix, inputs] = process.argv.slice(2);
const { loadCore } = (await import(pathToFileURL(resolve(wasmDir, "cratedrop.js")).href)).default;
const core = await loadCore(resolve(wasmDir, "cratedrop.wasm"), { pictures: resolve(wasmDir, "cratedrop-png.wasm") });
const steps = Number(stepsText), restoreAt = Number(restoreAtText);
const sceneBytes = readFileSync(scene);
const lines = inputs ? readFileSync(inputs, "utf8").split("\n").filter((line) => line.trim() !== "") : [];

function open() {
    // A terrain picture is read from the path the core asks for (beside the scene), as the CLI reads it.
    const world = core.world(sceneBytes, scene, { files: (path) => (existsSync(path) ? readFileSync(path) : undefined) });
    if (inputs) {
        world.nameInputs(inputs);
        for (const line of lines) world.input(line);
    }
    return world;
}

const straight = open();
const trail = [];
let saved;
for (let step = 1; step <= steps; step++) {
    straight.step(1);
    trail.push(`${straight.stepCount} ${straight.hashHex()}`);
    if (step === restoreAt) saved = straight.save();
}
writeFileSync(`${prefix}.trail`, trail.join("\n") + "\n");

const restored = open();
restored.restore(saved);
const after = [];
while (restored.stepCount < steps) {
    restored.step(1);
    after.push(`${restored.stepCount} ${restored.hashHex()}`);
}
writeFileSync(`${prefix}.restored.trail`, after.join("\n") + (after.length ? "\n" : ""));
writeFileSync(`${prefix}.world-state`, saved);
straight.free();
restored.free();
