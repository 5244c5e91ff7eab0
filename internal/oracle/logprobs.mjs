// llama.cpp's next-token log-probabilities along a fixed token sequence
// (teacher forcing): node logprobs.mjs MODEL PROMPT_LEN IDS [MODEL PROMPT_LEN IDS ...]
// IDS is the whole sequence, comma separated; the first PROMPT_LEN go in as
// one batch, the rest one at a time. Prints, for each triple in order, one
// line per position from PROMPT_LEN-1 on: the log-probability of every
// vocabulary entry. Several triples share one process (one library load).
import {getLlama} from "node-llama-cpp";

const args = process.argv.slice(2);
if (args.length === 0 || args.length % 3 !== 0) {
    process.stderr.write("usage: node logprobs.mjs MODEL PROMPT_LEN IDS [MODEL PROMPT_LEN IDS ...]\n");
    process.exit(2);
}
const llama = await getLlama({gpu: false, build: "never", logLevel: "error"});
for (let a = 0; a < args.length; a += 3) {
    const modelPath = args[a];
    const plen = parseInt(args[a + 1], 10);
    const ids = args[a + 2].split(",").map(Number);
    const model = await llama.loadModel({modelPath, gpuLayers: 0});
    // One thread (greedy_many.mjs says why: two spin against Node on two cores).
    const ctx = await model.createContext({contextSize: Math.max(256, ids.length + 8), threads: 1, batchSize: 512, flashAttention: false});
    const seq = ctx.getSequence();
    let fed = plen;
    // The sampled token is never used (the next id is forced), but one that
    // ends generation would stop the loop early: yieldEogToken keeps it going.
    const gen = seq.evaluateWithMetadata(ids.slice(0, plen), {probabilities: true}, {temperature: 1, topK: 0, topP: 1, minP: 0, yieldEogToken: true});
    let r = await gen.next();
    while (!r.done) {
        const probs = r.value.probabilities;
        // Every entry of the vocabulary, in order; one the sampler left out
        // (probability 0) is -inf.
        const row = new Array(model.tokens.vocabSize).fill("-inf");
        for (const [tok, p] of probs) row[tok] = Math.log(p).toFixed(7);
        console.log(row.join(" "));
        if (fed >= ids.length) break;
        r = await gen.next(ids[fed++]);
    }
    await gen.return();
    await ctx.dispose();
    await model.dispose();
}
