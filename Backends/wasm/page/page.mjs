// The page's engine: CrateDrop's core (cratedrop.wasm) loaded and driven here, no server needed.
//
// Query: scene=FILE (default scene.json, beside the page), inputs=FILE (an input stream, JSON
// Lines), check=N (step N steps with no drawing and write `N HASH` into #check, as `cratedrop hash
// SCENE --steps N` prints it), trail=1 (with check: every step's line into #trail, as `--every 1`),
// restore=K (with check: at step K save the state, load the scene again, restore and go on).
const { loadCore } = globalThis.CrateDrop; // cratedrop.js, loaded before this module

const query = new URLSearchParams(location.search);
const show = (id, text) => { document.getElementById(id).textContent = text; };

async function text(path) {
    const response = await fetch(path);
    if (!response.ok) throw new Error(`${path}: ${response.status} ${response.statusText}`);
    return new Uint8Array(await response.arrayBuffer());
}

async function main() {
    if (typeof WebAssembly !== "object") throw new Error("this browser has no WebAssembly: open the scene with `cratedrop serve` instead");
    const core = await loadCore(new URL("./cratedrop.wasm", import.meta.url));
    show("class", core.determinismClass);
    const sceneName = query.get("scene") ?? "scene.json";
    const inputsName = query.get("inputs");
    const scene = await text(sceneName);
    const inputs = inputsName ? new TextDecoder().decode(await text(inputsName)).split("\n").filter((line) => line.trim() !== "") : [];
    const open = () => {
        const world = core.world(scene, sceneName);
        if (inputsName) {
            world.nameInputs(inputsName);
            for (const line of inputs) world.input(line);
        }
        return world;
    };
    if (query.has("check")) check(open, Number(query.get("check")), query.get("trail") === "1", query.get("restore"));
}

/** Steps `steps` steps as fast as it can and writes the hash line(s); the class is already shown. */
function check(open, steps, trail, restoreText) {
    if (!Number.isInteger(steps) || steps < 0) throw new Error(`check must be a whole number of steps, got ${query.get("check")}`);
    const restoreAt = restoreText === null ? null : Number(restoreText);
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
    if (trail) show("trail", lines.join("\n") + "\n");
    show("check", line);
    console.log(`check: ${line} (class ${document.getElementById("class").textContent}, ${seconds.toFixed(3)} s)`);
    world.free();
}

main().catch((error) => {
    show("problem", error.message);
    show("check", "failed");
    console.error(error.message);
});
