// Chat-template rendering by Hugging Face's own Jinja implementation
// (@huggingface/jinja), the reference for ember's engine/chat parity test.
//
//   node render_template.mjs [FILE] < REQUEST
//
// REQUEST (from FILE, or stdin when no FILE is given) is JSON: either one
// object {template, messages, add_generation_prompt, bos_token, eos_token,
// enable_thinking, tools?, now?} whose rendering is printed as a JSON string
// (a template error exits 1 with the message on stderr), or an array of such
// objects, answered by an array of {"text": ...} or {"error": ...} in the same
// order so that one process can render many conversations.
//
// The context mirrors what llama.cpp passes: tools only when given, and
// add_generation_prompt only when true. "now" (an ISO time) pins the clock
// that strftime_now reads, in UTC, so both sides of a comparison agree.
import {Template} from "@huggingface/jinja";
import {readFileSync} from "node:fs";

process.env.TZ = "UTC";

const RealDate = Date;
let pinned = null;
// strftime_now calls `new Date()`; a subclass whose no-argument form returns
// the pinned instant keeps renders reproducible.
class PinnedDate extends RealDate {
  constructor(...args) {
    if (args.length === 0 && pinned !== null) {
      super(pinned);
    } else {
      super(...args);
    }
  }
  static now() {
    return pinned !== null ? pinned : RealDate.now();
  }
}
globalThis.Date = PinnedDate;

function render(req) {
  if (typeof req !== "object" || req === null || typeof req.template !== "string") {
    throw new Error("request needs a string field 'template'");
  }
  pinned = req.now ? RealDate.parse(req.now) : null;
  if (Number.isNaN(pinned)) {
    throw new Error(`bad 'now': ${req.now}`);
  }
  const ctx = {
    messages: req.messages ?? [],
    bos_token: req.bos_token ?? "",
    eos_token: req.eos_token ?? "",
    enable_thinking: req.enable_thinking ?? true,
  };
  if (req.add_generation_prompt) {
    ctx.add_generation_prompt = true;
  }
  if (req.tools !== undefined && req.tools !== null) {
    ctx.tools = req.tools;
  }
  return new Template(req.template).render(ctx);
}

const file = process.argv[2];
const input = JSON.parse(readFileSync(file ?? 0, "utf8"));
if (Array.isArray(input)) {
  const out = input.map(req => {
    try {
      return {text: render(req)};
    } catch (e) {
      return {error: String(e?.message ?? e)};
    }
  });
  process.stdout.write(JSON.stringify(out));
} else {
  try {
    process.stdout.write(JSON.stringify(render(input)));
  } catch (e) {
    process.stderr.write(String(e?.message ?? e) + "\n");
    process.exit(1);
  }
}
