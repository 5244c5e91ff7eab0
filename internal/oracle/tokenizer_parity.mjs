// llama.cpp's view of vocabularies, for engine/tokenizer's parity tests:
//   node tokenizer_parity.mjs JOBS.json
// JOBS.json is a list of {"model": GGUF, "request": FILE, "reply": FILE}; the
// models are handled one after the other in this one process (concurrent
// node-llama-cpp processes wait on each other's locks).
// A request is {"texts": [...], "big": [...], "detok": [[ids]...]}. A reply
// has the special ids, add_bos, every token's attribute bits and EOG flag,
// the ids of each text without and with special-token parsing
// (llama_tokenize with add_special=false; "big" texts only with parsing, to
// save time), and each id list detokenized without and with special tokens
// rendered (llama_detokenize with remove_special=false).
import {getLlama} from "node-llama-cpp";
import {readFileSync, writeFileSync} from "node:fs";

const jobs = JSON.parse(readFileSync(process.argv[2], "utf8"));
const llama = await getLlama({gpu: false, build: "never", logLevel: "error"});
for (const job of jobs) {
    const req = JSON.parse(readFileSync(job.request, "utf8"));
    const model = await llama.loadModel({modelPath: job.model, vocabOnly: true});
    const raw = model._model;
    const n = model.fileInfo.metadata?.tokenizer?.ggml?.tokens?.length ?? 0;
    const attrs = new Array(n);
    const eog = [];
    for (let i = 0; i < n; i++) {
        attrs[i] = raw.getTokenAttributes(i);
        if (raw.isEogToken(i)) eog.push(i);
    }
    const tok = (text, special) => text === "" ? [] : Array.from(raw.tokenize(text, special));
    const out = {
        bos: model.tokens.bos ?? -1,
        eos: model.tokens.eos ?? -1,
        eot: model.tokens.eot ?? -1,
        addBos: raw.shouldPrependBosToken(),
        attrs,
        eog,
        tokens: (req.texts ?? []).map(t => [tok(t, false), tok(t, true)]),
        big: (req.big ?? []).map(t => tok(t, true)),
        detok: (req.detok ?? []).map(ids => [
            raw.detokenize(Uint32Array.from(ids ?? []), false),
            raw.detokenize(Uint32Array.from(ids ?? []), true),
        ]),
    };
    writeFileSync(job.reply, JSON.stringify(out));
    await model.dispose();
}
