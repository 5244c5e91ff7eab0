// Which of llama.cpp's CPU builds loads from this folder on this machine:
// node cpu_build.mjs prints its name (zen4 for libggml-cpu-zen4.so).
//
// ggml scores every libggml-cpu-*.so it finds against the CPU's features,
// keeps the best and logs "loaded CPU backend from PATH"; that message
// comes at node-llama-cpp's "log" level, below the "error" level the other
// scripts keep. Should its wording change, the library still mapped into
// this process names the build as well (/proc/self/maps, Linux).
import {readFileSync} from "node:fs";
import {getLlama} from "node-llama-cpp";

// The build's name in a library's path: zen4 for libggml-cpu-zen4.so, and
// "cpu" for a plain libggml-cpu.so (a platform built once).
function buildOf(path) {
    const m = /libggml-cpu(?:-([^/\s]+))?\.so/.exec(path);
    return m ? (m[1] ?? "cpu") : null;
}

let found = null;
const llama = await getLlama({
    gpu: false, build: "never", logLevel: "log",
    logger: (level, message) => {
        const m = /loaded CPU backend from (\S+)/.exec(message);
        if (m && buildOf(m[1]) !== null) found = buildOf(m[1]);
        else if (level === "error" || level === "fatal") process.stderr.write(message + "\n");
    },
});
if (found === null) {
    try {
        const maps = new Set();
        for (const line of readFileSync("/proc/self/maps", "utf8").split("\n")) {
            const b = buildOf(line);
            if (b !== null) maps.add(b);
        }
        if (maps.size === 1) found = [...maps][0];
    } catch {
        // not Linux: the log line was the only witness
    }
}
await llama.dispose();
if (found === null) {
    process.stderr.write("cpu_build.mjs: llama.cpp did not say which CPU build it loaded\n");
    process.exit(1);
}
console.log(found);
