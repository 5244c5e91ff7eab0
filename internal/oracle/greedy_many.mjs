// Greedy continuations of one prompt by llama.cpp for several models in one
// process (one library load for all): node greedy_many.mjs N IDS MODEL...
// IDS is the prompt's token ids, comma separated. Prints one line per
// model, in order: its generated ids, space separated.
import {getLlama} from "node-llama-cpp";

const [nStr, idsStr, ...models] = process.argv.slice(2);
const n = parseInt(nStr, 10);
const ids = idsStr.split(",").map(Number);
const llama = await getLlama({gpu: false, build: "never", logLevel: "error"});
for (const modelPath of models) {
    const model = await llama.loadModel({modelPath, gpuLayers: 0});
    // One thread: llama.cpp's workers wait for work by spinning, and on a
    // two-core machine two of them beside Node's own thread took 10 to 20 s
    // for 64 tokens of a tiny model, against 0.03 s with one. Each output of
    // a product is summed by one thread whatever their number: same bits.
    const ctx = await model.createContext({contextSize: Math.max(256, ids.length + n + 8), threads: 1, batchSize: 512, flashAttention: false});
    const seq = ctx.getSequence();
    const out = [];
    if (n > 0) {
        for await (const t of seq.evaluate(ids, {temperature: 0})) {
            out.push(t);
            if (out.length >= n) break;
        }
    }
    console.log(out.join(" "));
    await ctx.dispose();
    await model.dispose();
}
