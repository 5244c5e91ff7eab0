// llama.cpp's speed on a model, measured like `ember bench`:
//   node bench.mjs MODEL PROMPT_TOKENS GEN_TOKENS REPS THREADS
// Prints one JSON line: {"prefill": [tok/s...], "decode": [tok/s...]}.
// The prompt is random ordinary tokens; decoding is greedy and ignores EOS.
import {getLlama} from "node-llama-cpp";

const [modelPath, pStr, nStr, rStr, tStr] = process.argv.slice(2);
const [p, n, reps, threads] = [pStr, nStr, rStr, tStr].map(x => parseInt(x, 10));
const llama = await getLlama({gpu: false, build: "never", logLevel: "error"});
const model = await llama.loadModel({modelPath, gpuLayers: 0});
const vocab = model.fileInsights.tensorInfo ? undefined : undefined;
let seed = 12345;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const nVocab = model.tokens.bos !== undefined ? Number(model.fileInfo.metadata?.tokenizer?.ggml?.tokens?.length ?? 256) : 256;
const prompt = [];
while (prompt.length < p) {
    const id = Math.floor(rand() * nVocab);
    if (model.isSpecialToken(id)) continue;
    prompt.push(id);
}
const out = {prefill: [], decode: []};
for (let r = 0; r < reps; r++) {
    const ctx = await model.createContext({contextSize: p + n + 16, threads, batchSize: Math.min(512, p)});
    const seq = ctx.getSequence();
    // Warm up outside the timing, as ember bench does.
    await seq.evaluateWithoutGeneratingNewTokens([prompt[0]]);
    await seq.clearHistory();
    let t0 = performance.now();
    await seq.evaluateWithoutGeneratingNewTokens(prompt);
    out.prefill.push(p / ((performance.now() - t0) / 1000));
    let got = 0;
    let first = 0;
    for await (const t of seq.evaluate([prompt[p - 1]], {temperature: 0})) {
        if (got === 0) first = performance.now();
        if (++got > n) break;
    }
    out.decode.push(n / ((performance.now() - first) / 1000));
    await ctx.dispose();
}
console.log(JSON.stringify(out));
await model.dispose();
