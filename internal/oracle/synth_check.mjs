// Loads GGUF models in llama.cpp and generates from each:
//   node synth_check.mjs N IDS -- MODEL...
// IDS is a comma-separated prompt of token ids. For every model, prints
// one JSON line: {"model", "ok": true, "tokens": [...], "confidence": [...]}
// with the greedy continuation and the probability llama.cpp gave each
// chosen token, or {"model", "ok": false, "error"} when llama.cpp refuses
// the file or fails to run it. One process checks many models, because
// starting llama.cpp costs more than running a tiny model.
import {getLlama} from "node-llama-cpp";

const args = process.argv.slice(2);
const sep = args.indexOf("--");
const n = parseInt(args[0], 10);
const ids = args[1].split(",").filter((s) => s !== "").map(Number);
const models = args.slice(sep + 1);
const llama = await getLlama({gpu: false, build: "never", logLevel: "error"});
for (const modelPath of models) {
    const res = {model: modelPath};
    let model, ctx;
    try {
        model = await llama.loadModel({modelPath, gpuLayers: 0});
        // One thread (greedy_many.mjs says why: two spin against Node on two cores).
        ctx = await model.createContext({contextSize: Math.max(256, ids.length + n + 8), threads: 1, batchSize: 512});
        const seq = ctx.getSequence();
        const tokens = [], confidence = [];
        for await (const out of seq.evaluateWithMetadata(ids, {confidence: true}, {temperature: 0, yieldEogToken: true})) {
            tokens.push(out.token);
            confidence.push(out.confidence);
            if (tokens.length >= n) break;
        }
        Object.assign(res, {ok: true, tokens, confidence});
    } catch (e) {
        Object.assign(res, {ok: false, error: String(e && e.message || e)});
    }
    try { if (ctx) await ctx.dispose(); } catch {}
    try { if (model) await model.dispose(); } catch {}
    console.log(JSON.stringify(res));
}
