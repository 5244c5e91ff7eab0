// Tokenization by llama.cpp: node tokenize.mjs MODEL [--no-special] < TEXT
// Reads the text from stdin and prints the ids, space separated. add_bos
// follows the vocabulary's own setting, as in llama.cpp's tokenizer tests.
import {getLlama} from "node-llama-cpp";
import {readFileSync} from "node:fs";

const args = process.argv.slice(2);
const special = !args.includes("--no-special");
const modelPath = args.find(a => !a.startsWith("--"));
const text = readFileSync(0, "utf8");
const llama = await getLlama({gpu: false, build: "never", logLevel: "error"});
const model = await llama.loadModel({modelPath, vocabOnly: true});
console.log(Array.from(model.tokenize(text, special)).join(" "));
await model.dispose();
