// Structured outputs and tools through the official OpenAI client,
// unmodified, against an ember server: response_format json_schema with
// parse() (the client parses the answer itself), the same streamed,
// required tool calls parsed and streamed, logprobs, n, and an OpenAI
// field ember ignores (its Warning header). Prints what it saw as JSON for
// the Go test (server/openai_npm_test.go), which validates it.
// Usage: node openai_structured.mjs BASE_URL API_KEY MODEL SCHEMA_JSON TOOLS_JSON SEEDS
import OpenAI from "openai";

const [baseURL, apiKey, model, schemaText, toolsText, seedsText] = process.argv.slice(2);
const schema = JSON.parse(schemaText);
// Strict function tools: the client parses their arguments itself.
const tools = JSON.parse(toolsText).map((t) => ({ ...t, function: { ...t.function, strict: true } }));
const seeds = Number(seedsText);
const client = new OpenAI({ baseURL, apiKey, maxRetries: 0, timeout: 60000 });
const messages = [{ role: "user", content: "Describe a person." }];
const response_format = { type: "json_schema", json_schema: { name: "person", strict: true, schema } };
const out = { parsed: [], streamed: [], calls: [], streamedCalls: [] };

for (let seed = 0; seed < seeds; seed++) {
  const c = await client.chat.completions.parse({ model, messages, response_format, temperature: 1, seed, max_tokens: 400 });
  const m = c.choices[0].message;
  out.parsed.push({ content: m.content, parsed: m.parsed, finish: c.choices[0].finish_reason });
}

const stream = client.chat.completions.stream({ model, messages, response_format, temperature: 1, seed: 42, max_tokens: 400 });
let chunks = 0;
stream.on("chunk", () => chunks++);
const final = await stream.finalChatCompletion();
out.streamed.push({ parsed: final.choices[0].message.parsed, chunks });

const weather = [{ role: "user", content: "What is the weather in Paris?" }];
for (let seed = 0; seed < seeds; seed++) {
  const c = await client.chat.completions.parse({ model, messages: weather, tools, tool_choice: "required", parallel_tool_calls: false, temperature: 1, seed, max_tokens: 200 });
  const m = c.choices[0].message;
  out.calls.push({
    finish: c.choices[0].finish_reason,
    calls: m.tool_calls.map((t) => ({ id: t.id, name: t.function.name, arguments: t.function.arguments, parsed: t.function.parsed_arguments })),
  });
}
const ts = client.chat.completions.stream({ model, messages: weather, tools, tool_choice: "required", parallel_tool_calls: false, temperature: 1, seed: 7, max_tokens: 200 });
const tfinal = await ts.finalChatCompletion();
out.streamedCalls = tfinal.choices[0].message.tool_calls.map((t) => ({ name: t.function.name, arguments: t.function.arguments }));
out.streamedFinish = tfinal.choices[0].finish_reason;

const lp = await client.chat.completions.create({ model, messages, max_tokens: 5, temperature: 0, logprobs: true, top_logprobs: 2, n: 2 });
out.logprobs = { choices: lp.choices.length, entries: lp.choices[0].logprobs.content.length, top: lp.choices[0].logprobs.content[0].top_logprobs.length, tokens: lp.usage.completion_tokens };

const { response } = await client.chat.completions.create({ model, messages, max_tokens: 2, store: true, metadata: { who: "test" } }).withResponse();
out.warning = response.headers.get("warning");

console.log(JSON.stringify(out));
