// CrateDrop's core in the browser and in Node: cratedrop.wasm (Backends/wasm/build) behind a
// small handle-based API. The same scenes, input lines, hashes and state bytes as the CLI.
//
// A classic script, so that a page opened from file:// can hold it inline (browsers refuse
// module imports there): it sets `globalThis.CrateDrop`, and in Node it is also the module's
// exports (`const { loadCore } = require("./cratedrop.js")`, or `(await import(url)).default`).
//
//   const { loadCore } = CrateDrop;
//   const core = await loadCore(wasmBytesOrURL);
//   const world = core.world(sceneText, "book.json");
//   world.step(120);
//   console.log(world.stepCount, world.hashHex());   // what `cratedrop hash --steps 120` prints
//   world.free();
(function (root) {
"use strict";

/** A failed call: `code` is the CLI's exit code for the same failure (65: bad scene or line). */
class CrateDropError extends Error {
    constructor(code, message) {
        super(message);
        this.name = "CrateDropError";
        this.code = code;
    }
}

/** Columns of `World.state`: one row a body, in ascending id. */
const stateColumns = ["id", "x", "y", "angle", "vx", "vy", "angular_velocity"];

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The bytes of `source`: an ArrayBuffer, a Uint8Array, a URL, a path (Node) or a Response. */
async function bytesOf(source) {
    let bytes = source;
    if (source instanceof URL || typeof source === "string") {
        if (typeof process !== "undefined" && process.versions?.node && (typeof source === "string" || source.protocol === "file:")) {
            const { readFile } = await import("node:fs/promises");
            bytes = await readFile(source);
        } else {
            bytes = await fetch(source);
        }
    }
    if (typeof Response !== "undefined" && bytes instanceof Response) bytes = await bytes.arrayBuffer();
    return bytes;
}

/**
 * Instantiates the core. `source`: the wasm's bytes (ArrayBuffer, Uint8Array), a URL, or a Response.
 * The module imports four WASI calls: Chipmunk's assertion text goes to `log` (console.error).
 * `pictures`: cratedrop-png.wasm the same ways, the decoder scenes with terrain pictures need
 * (without it such a scene is refused at its `image` key); the pictures' files come with each
 * scene (`Core.world`'s `files`).
 */
async function loadCore(source, { log = (text) => console.error(text), pictures = null } = {}) {
    const bytes = await bytesOf(source);
    const decoderModule = pictures === null ? null : (await WebAssembly.instantiate(await bytesOf(pictures), {
        wasi_snapshot_preview1: { fd_write: () => 0, fd_seek: () => 70, fd_close: () => 0, proc_exit: () => { throw new Error("exit"); } },
    })).instance.exports;
    if (decoderModule) decoderModule._initialize();
    let memory, core;
    const wasi = {
        fd_write(fd, iovs, count, written) {
            const view = new DataView(memory.buffer);
            let total = 0, text = "";
            for (let i = 0; i < count; i++) {
                const pointer = view.getUint32(iovs + 8 * i, true), length = view.getUint32(iovs + 8 * i + 4, true);
                text += decoder.decode(new Uint8Array(memory.buffer, pointer, length));
                total += length;
            }
            if (text) log(text.replace(/\n$/, ""));
            view.setUint32(written, total, true);
            return 0;
        },
        fd_seek: () => 70, // ESPIPE: no files
        fd_close: () => 0,
        random_get(pointer, length) {
            // Seeds Swift's hashing of sets and dictionaries only; no result depends on it.
            crypto.getRandomValues(new Uint8Array(memory.buffer, pointer, length));
            return 0;
        },
    };
    const coreBytes = (pointer, length) => new Uint8Array(memory.buffer, pointer, length);
    let decoded = { status: -1, pixels: null, message: new Uint8Array() };
    const host = {
        // The death-spiral guard's clock within a frame (Sources/CoreABI/HostStopwatch.swift).
        now_ms: () => performance.now(),
        // A terrain picture's file, from the files given with the scene being loaded
        // (Sources/SceneFile/TerrainPicture_embedded.swift).
        file_size: (path, length) => core.givenFile(decoder.decode(coreBytes(path, length)))?.length ?? -1,
        file_read(path, length, into) {
            const file = core.givenFile(decoder.decode(coreBytes(path, length)));
            coreBytes(into, file.length).set(file);
            return file.length;
        },
        // Its decoding, by cratedrop-png.wasm: the CLI's libspng (Backends/wasm/png_decoder.c).
        png_decode(png, length, maxSide, maxPixels, size) {
            if (!decoderModule) return -1;
            const input = decoderModule.cratedrop_png_alloc(length);
            new Uint8Array(decoderModule.memory.buffer, input, length).set(coreBytes(png, length));
            const status = decoderModule.cratedrop_png_decode(input, length, maxSide, maxPixels);
            decoderModule.cratedrop_png_free(input);
            const width = decoderModule.cratedrop_png_width(), height = decoderModule.cratedrop_png_height();
            const view = new DataView(memory.buffer);
            view.setInt32(size, width, true);
            view.setInt32(size + 4, height, true);
            const from = decoderModule.memory.buffer;
            decoded = status === 0
                ? { status, pixels: new Uint8Array(from, decoderModule.cratedrop_png_pixels(), width * height * 4) }
                : { status, message: cString(from, decoderModule.cratedrop_png_message()) };
            return status;
        },
        png_copy(into, capacity) {
            const bytes = decoded.status === 0 ? decoded.pixels : decoded.message;
            const count = Math.min(capacity, bytes.length);
            coreBytes(into, count).set(bytes.subarray(0, count));
            return count;
        },
    };
    const { instance } = await WebAssembly.instantiate(bytes, { wasi_snapshot_preview1: wasi, cratedrop: host });
    memory = instance.exports.memory;
    instance.exports._initialize();
    core = new Core(instance.exports);
    return core;
}

/** The bytes of the NUL-terminated text at `pointer` in `buffer`. */
function cString(buffer, pointer) {
    const bytes = new Uint8Array(buffer, pointer);
    return bytes.slice(0, bytes.indexOf(0));
}

/** The loaded module: makes worlds, and tells its determinism class. */
class Core {
    constructor(exports) {
        this.abi = exports;
    }

    /** The determinism class (`cratedrop platform`'s 12 hex digits). */
    get determinismClass() {
        return this.text(this.abi.cratedrop_determinism_class());
    }

    /**
     * Builds the world of a scene file's text or bytes; `name` names it in messages. `files`: the
     * terrain pictures the scene names, by their path beside `name` (for `Scenes/terrain.json`,
     * `Scenes/terrain.png`): an object of bytes by path, or a function from a path to bytes (or
     * undefined).
     */
    world(scene, name = "scene.json", { files = {} } = {}) {
        this.files = typeof files === "function" ? files : (path) => (Object.hasOwn(files, path) ? files[path] : undefined);
        try {
            const handle = this.withBytes(scene, (pointer, length) =>
                this.withBytes(name, (namePointer, nameLength) => this.abi.cratedrop_world_load(pointer, length, namePointer, nameLength)));
            this.check(handle);
            return new World(this, handle);
        } finally {
            this.files = null;
        }
    }

    /** A file given with the scene being loaded, as bytes, or undefined. */
    givenFile(path) {
        const file = this.files?.(path);
        return file === undefined || file === null ? undefined : typeof file === "string" ? encoder.encode(file) : new Uint8Array(file);
    }

    /** Runs `use(pointer, length)` with `data` (text or bytes) copied into the module's memory. */
    withBytes(data, use) {
        const bytes = typeof data === "string" ? encoder.encode(data) : new Uint8Array(data);
        const pointer = this.abi.cratedrop_alloc(bytes.length);
        try {
            new Uint8Array(this.abi.memory.buffer, pointer, bytes.length).set(bytes);
            return use(pointer, bytes.length);
        } finally {
            this.abi.cratedrop_free(pointer);
        }
    }

    /** The last result's bytes (a copy). */
    bytes(length) {
        return new Uint8Array(this.abi.memory.buffer, this.abi.cratedrop_result(), length).slice();
    }

    text(length) {
        return decoder.decode(this.bytes(length));
    }

    /** Throws the call's failure, if it failed (a negative return: the exit code negated). */
    check(result) {
        if (result < 0) throw new CrateDropError(-result, this.text(this.abi.cratedrop_result_length()));
        return result;
    }
}

/** One world: steps, input lines, state, hash, save and restore, its record. `free()` it when done. */
class World {
    constructor(core, handle) {
        this.core = core;
        this.handle = handle;
    }

    /** Names the input stream in messages (`NAME:LINE: reason`); default `inputs`. */
    nameInputs(name) {
        this.core.check(this.core.withBytes(name, (p, n) => this.core.abi.cratedrop_world_name_inputs(this.handle, p, n)));
    }

    /** The next line of the world's input stream (the CLI's grammar, e.g. `{"step": 60, "gravity": [0, 900]}`). */
    input(line) {
        this.core.check(this.core.withBytes(line, (p, n) => this.core.abi.cratedrop_world_input(this.handle, p, n)));
    }

    /** Takes `count` fixed steps, applying input lines as their steps come. */
    step(count = 1) {
        this.core.check(this.core.abi.cratedrop_world_step(this.handle, count));
    }

    /**
     * Advances to the display's frame at `milliseconds` (requestAnimationFrame's time) with the
     * fixed-step accumulator and death-spiral guard of docs/driver.md; returns the steps taken.
     * Steps taken with `step` or a `restore` start the frames' count afresh.
     */
    frame(milliseconds) {
        return this.core.check(this.core.abi.cratedrop_world_frame(this.handle, milliseconds));
    }

    /** As `state`, the bodies as the last frame shows them: between the last two steps. */
    frameState(out = new Float64Array(this.bodyCount * stateColumns.length)) {
        return this.copyRows(out, (pointer, rows) => this.core.abi.cratedrop_world_frame_state(this.handle, pointer, rows));
    }

    /** Simulated seconds the death-spiral guard has dropped since the frames began. */
    get droppedSeconds() {
        return this.core.abi.cratedrop_world_dropped_seconds(this.handle);
    }

    get stepCount() {
        return this.core.abi.cratedrop_world_step_count(this.handle);
    }

    get bodyCount() {
        return this.core.check(this.core.abi.cratedrop_world_body_count(this.handle));
    }

    /** The state hash as a BigInt. */
    hash() {
        return BigInt.asUintN(64, this.core.abi.cratedrop_world_hash(this.handle));
    }

    /** The state hash as `cratedrop hash` prints it: 16 lowercase hex digits. */
    hashHex() {
        return this.hash().toString(16).padStart(16, "0");
    }

    /** The bodies' states into `out` (a Float64Array of rows × 7, `stateColumns`); returns the rows. */
    state(out = new Float64Array(this.bodyCount * stateColumns.length)) {
        return this.copyRows(out, (pointer, rows) => this.core.abi.cratedrop_world_state(this.handle, pointer, rows));
    }

    copyRows(out, fill) {
        const rows = Math.floor(out.length / stateColumns.length);
        const pointer = this.core.abi.cratedrop_alloc(rows * stateColumns.length * 8);
        try {
            const written = this.core.check(fill(pointer, rows));
            out.set(new Float64Array(this.core.abi.memory.buffer, pointer, written * stateColumns.length));
            return written;
        } finally {
            this.core.abi.cratedrop_free(pointer);
        }
    }

    /** The world's state as bytes: the CLI's world-state bytes for the same world at the same step. */
    save() {
        return this.core.bytes(this.core.check(this.core.abi.cratedrop_world_save(this.handle)));
    }

    /**
     * The world's state as the CLI's saved-state file (`--save-state`: CDSTATE, with the scene):
     * a download that `cratedrop hash FILE --steps N` continues natively.
     */
    saveFile() {
        return this.core.bytes(this.core.check(this.core.abi.cratedrop_world_save_file(this.handle)));
    }

    /**
     * The run's record as a Uint8Array of JSON Lines: a `.rec` file that `cratedrop replay --verify`
     * verifies natively. Every input and page command applied so far with its step, the checkpoints,
     * and an end line after the last step taken; the record goes on. Throws (code 64) after a
     * `restore`: a record's steps count from the scene's start (load the scene again for a new one).
     */
    record() {
        return this.core.bytes(this.core.check(this.core.abi.cratedrop_world_record(this.handle)));
    }

    /** The steps the record covers (its end line's): fewer than `stepCount` once it reached its 64 MiB bound; -1 after a restore. */
    get recordSteps() {
        return this.core.abi.cratedrop_world_record_steps(this.handle);
    }

    /**
     * Restores world-state bytes (`save`) or a saved-state file (`saveFile`, the CLI's
     * `--save-state`); returns the CLI's warning for a file saved in another determinism class
     * (its continuation will not match one made there), else null.
     */
    restore(bytes) {
        const warning = this.core.check(this.core.withBytes(bytes, (p, n) => this.core.abi.cratedrop_world_restore(this.handle, p, n)));
        return warning > 0 ? this.core.text(warning) : null;
    }

    /** The scene message `cratedrop serve` sends a page (docs/serve.md), for this world as it is now. */
    sceneMessage() {
        return this.core.text(this.core.check(this.core.abi.cratedrop_world_scene_message(this.handle)));
    }

    /** The parts messages a page must apply since it was last told (none while the parts are unchanged). */
    partsMessages() {
        const text = this.core.text(this.core.check(this.core.abi.cratedrop_world_parts_messages(this.handle)));
        return text === "" ? [] : text.split("\n");
    }

    /**
     * A page's message to the server (`{gravity: [x, y]}`, `{grab: {body, at}}`, `{drop: {at}}`, …),
     * applied before the next step; throws a CrateDropError (65) saying why it was refused.
     */
    command(message) {
        const text = typeof message === "string" ? message : JSON.stringify(message);
        this.core.check(this.core.withBytes(text, (p, n) => this.core.abi.cratedrop_world_command(this.handle, p, n)));
    }

    free() {
        this.core.abi.cratedrop_world_free(this.handle);
        this.handle = 0;
    }
}

const api = { loadCore, Core, World, CrateDropError, stateColumns };
if (typeof module === "object" && module && module.exports) module.exports = api;
root.CrateDrop = api;
})(globalThis);
