// What the wasm core answers to bad input, for scripts/wasm-test to compare with the CLI's.
//
//   node Tests/Wasm/refusals.mjs WASM_DIR WORK
//
// Prints on stdout, as scripts/wasm-test prints the CLI's: the class; book after 2 s of display
// frames at 60 Hz (the driver's steps and hash); WORK/bad.json's exit code and
// messages; WORK/bad.jsonl's (a push of a body the world has not); WORK/bad-picture.json's (a
// damaged PNG, libspng's refusal). Writes WORK/refusals.wasm.more: bad state bytes' answer and a
// terrain scene's without its picture and without the picture decoder, which the CLI has not.
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const [wasmDir, work] = process.argv.slice(2);
const { loadCore } = (await import(pathToFileURL(resolve(wasmDir, "cratedrop.js")).href)).default;
const core = await loadCore(resolve(wasmDir, "cratedrop.wasm"), { pictures: resolve(wasmDir, "cratedrop-png.wasm") });
const withoutDecoder = await loadCore(resolve(wasmDir, "cratedrop.wasm"));
const refusal = (run) => {
    try {
        run();
    } catch (error) {
        return `${error.code}\n${error.message}`;
    }
    return "accepted";
};

console.log(`class ${core.determinismClass}`);
// Display frames at 60 Hz for 2 s through the driver: 240 steps, the CLI's hash after 240.
const paced = core.world(readFileSync("Scenes/book.json"), "Scenes/book.json");
let taken = 0;
for (let frame = 0; frame <= 120; frame++) taken += paced.frame(5000 + (frame * 1000) / 60);
console.log(`frames ${taken} ${paced.hashHex()}`);
paced.free();
console.log(`scene ${refusal(() => core.world(readFileSync(`${work}/bad.json`), `${work}/bad.json`))}`);
const book = core.world(readFileSync("Scenes/book.json"), "Scenes/book.json");
book.nameInputs(`${work}/bad.jsonl`);
console.log(`line ${refusal(() => {
    book.input(readFileSync(`${work}/bad.jsonl`, "utf8").trim());
    book.step(5);
})}`);
console.log(`picture ${refusal(() => core.world(readFileSync(`${work}/bad-picture.json`), `${work}/bad-picture.json`,
    { files: { [`${work}/bad.png`]: readFileSync(`${work}/bad.png`) } }))}`);
const terrain = readFileSync("Scenes/terrain.json"), picture = { "Scenes/terrain.png": readFileSync("Scenes/terrain.png") };
const more = [
    `state ${refusal(() => book.restore(new TextEncoder().encode("not a state"))).replace("\n", " ")}`,
    `terrain ${refusal(() => core.world(terrain, "Scenes/terrain.json")).replace("\n", " ")}`,
    `undecoded ${refusal(() => withoutDecoder.world(terrain, "Scenes/terrain.json", { files: picture })).replace("\n", " ")}`,
];
writeFileSync(`${work}/refusals.wasm.more`, more.join("\n") + "\n");
