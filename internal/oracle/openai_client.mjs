// Drives an ember server with the official OpenAI client, unmodified, and
// prints what it saw as JSON for the Go test (server/openai_npm_test.go).
// Usage: node openai_client.mjs BASE_URL API_KEY MODEL
import OpenAI from "openai";

const [baseURL, apiKey, model] = process.argv.slice(2);
const client = new OpenAI({ baseURL, apiKey, maxRetries: 0, timeout: 20000 });
const out = {};

out.models = (await client.models.list()).data.map((m) => m.id);

const messages = [{ role: "system", content: "Be brief." }, { role: "user", content: "Say hello." }];
const whole = await client.chat.completions.create({ model, messages, max_tokens: 8, temperature: 0 });
out.chat = {
  object: whole.object,
  content: whole.choices[0].message.content,
  role: whole.choices[0].message.role,
  finish: whole.choices[0].finish_reason,
  usage: whole.usage,
};

const stream = await client.chat.completions.create({
  model, messages, max_tokens: 8, temperature: 0, stream: true, stream_options: { include_usage: true },
});
let content = "", finish = null, usage = null, chunks = 0;
for await (const chunk of stream) {
  chunks++;
  if (chunk.usage) usage = chunk.usage;
  for (const c of chunk.choices) {
    if (c.delta?.content) content += c.delta.content;
    if (c.finish_reason) finish = c.finish_reason;
  }
}
out.chatStream = { content, finish, usage, chunks };

const comp = await client.completions.create({ model, prompt: "Once upon a time", max_tokens: 8, temperature: 0, seed: 3 });
out.completion = { object: comp.object, text: comp.choices[0].text, finish: comp.choices[0].finish_reason, usage: comp.usage };
let text = "";
for await (const chunk of await client.completions.create({ model, prompt: "Once upon a time", max_tokens: 8, temperature: 0, seed: 3, stream: true })) {
  text += chunk.choices[0]?.text ?? "";
}
out.completionStream = { text };

try {
  await client.chat.completions.create({ model, messages, temperature: 5 });
  out.badTemperature = { status: 0 };
} catch (e) {
  out.badTemperature = { status: e.status, message: e.message, isAPIError: e instanceof OpenAI.APIError };
}

try {
  await new OpenAI({ baseURL, apiKey: "wrong", maxRetries: 0 }).models.list();
  out.badKey = { status: 0 };
} catch (e) {
  out.badKey = { status: e.status, isAuth: e instanceof OpenAI.AuthenticationError };
}

// Abandon a long stream after its first chunk: the server must cancel it.
const long = await client.completions.create({ model, prompt: "Once", max_tokens: 400, stream: true, ignore_eos: true });
let got = 0;
for await (const _ of long) {
  if (++got === 2) {
    long.controller.abort();
    break;
  }
}
out.abandoned = { chunks: got };

console.log(JSON.stringify(out));
