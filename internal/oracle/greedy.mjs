// Greedy continuation by llama.cpp: node greedy.mjs MODEL N IDS...
// Prints the generated token ids, space separated, on one line. The prompt
// is given as token ids so that tokenization is tested separately.
import {getLlama} from "node-llama-cpp";

const [modelPath, nStr, ...ids] = process.argv.slice(2);
const n = parseInt(nStr, 10);
const llama = await getLlama({gpu: false, build: "never", logLevel: "error"});
const model = await llama.loadModel({modelPath, gpuLayers: 0});
const ctx = await model.createContext({contextSize: Math.max(256, ids.length + n + 8), threads: 2, batchSize: 512});
const seq = ctx.getSequence();
const out = [];
if (n > 0) {
    for await (const t of seq.evaluate(ids.map(Number), {temperature: 0})) {
        out.push(t);
        if (out.length >= n) break;
    }
}
console.log(out.join(" "));
await ctx.dispose();
await model.dispose();
