// llama.cpp's next-token log-probabilities along a fixed token sequence
// (teacher forcing): node logprobs.mjs MODEL PROMPT_LEN IDS
// IDS is the whole sequence, comma separated; the first PROMPT_LEN go in as
// one batch, the rest one at a time. Prints one line per position from
// PROMPT_LEN-1 on: the log-probability of every vocabulary entry.
import {getLlama} from "node-llama-cpp";

const [modelPath, plenStr, idsStr] = process.argv.slice(2);
const plen = parseInt(plenStr, 10);
const ids = idsStr.split(",").map(Number);
const llama = await getLlama({gpu: false, build: "never", logLevel: "error"});
const model = await llama.loadModel({modelPath, gpuLayers: 0});
const ctx = await model.createContext({contextSize: Math.max(256, ids.length + 8), threads: 2, batchSize: 512, flashAttention: false});
const seq = ctx.getSequence();
const nVocab = model.tokens.vocabSize ?? 0;
let fed = plen;
// The sampled token is never used (the next id is forced), but one that ends
// generation would stop the loop early: yieldEogToken keeps it going.
const gen = seq.evaluateWithMetadata(ids.slice(0, plen), {probabilities: true}, {temperature: 1, topK: 0, topP: 1, minP: 0, yieldEogToken: true});
let r = await gen.next();
while (!r.done) {
    const probs = r.value.probabilities;
    const row = [];
    for (const [tok, p] of probs) row[tok] = Math.log(p);
    console.log(row.map(x => x === undefined ? "-inf" : x.toFixed(7)).join(" "));
    if (fed >= ids.length) break;
    r = await gen.next(ids[fed++]);
}
await gen.return();
await ctx.dispose();
await model.dispose();
