// llama.cpp's speed on a model, measured the way `ember bench` measures:
//   node bench.mjs MODEL PROMPT_TOKENS GEN_TOKENS REPS THREADS
// Prints one JSON line: {"prefill": [tok/s...], "decode": [tok/s...]}.
// The prompt is random ordinary tokens; decoding is greedy and ignores end
// tokens. A one-token run before the timing warms the weights, as in ember.
import {getLlama} from "node-llama-cpp";

const [modelPath, pStr, nStr, rStr, tStr] = process.argv.slice(2);
const [p, n, reps, threads] = [pStr, nStr, rStr, tStr].map(x => parseInt(x, 10));
const llama = await getLlama({gpu: false, build: "never", logLevel: "error"});
const model = await llama.loadModel({modelPath, gpuLayers: 0});
const nVocab = model.fileInfo.metadata?.tokenizer?.ggml?.tokens?.length;
if (!nVocab) throw new Error("the model has no tokenizer.ggml.tokens");
let seed = 12345;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const prompt = [];
while (prompt.length < p) {
    const id = Math.floor(rand() * nVocab);
    if (!model.isSpecialToken(id) && !model.isEogToken(id)) prompt.push(id);
}
const out = {prefill: [], decode: []};
for (let r = 0; r < reps; r++) {
    const ctx = await model.createContext({contextSize: p + n + 16, threads, batchSize: Math.min(512, p)});
    const seq = ctx.getSequence();
    await seq.evaluateWithoutGeneratingNewTokens([prompt[0]]);
    await seq.clearHistory();
    const t0 = performance.now();
    await seq.evaluateWithoutGeneratingNewTokens(prompt);
    out.prefill.push(p / ((performance.now() - t0) / 1000));
    // The first generated token comes from the prompt's logits; the clock
    // starts there and counts the n decode steps after it.
    let got = 0, first = 0;
    for await (const t of seq.evaluate([prompt[p - 1]], {temperature: 0, yieldEogToken: true})) {
        if (got === 0) first = performance.now();
        if (++got > n) break;
    }
    out.decode.push(n / ((performance.now() - first) / 1000));
    await ctx.dispose();
}
console.log(JSON.stringify(out));
await model.dispose();
