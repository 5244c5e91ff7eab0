// The chat page: picks where the model runs (this tab, or the server that
// served the page), loads a model into the tab (a registry name, a URL, a
// file picked or dropped), and chats with history, streaming tokens with
// the reasoning apart, tok/s and time to first token, a Stop button and
// errors a person can act on. It drives window.ember (ember.js).
//
// Automation and tests drive it by its URL: ?model=URL|NAME&prompt=TEXT
// [&raw=1][&n=N][&temperature=T][&backend=auto|webgpu|cpu][&engine=tab|server]
// [&ctx=N]&autorun=1 loads, generates, writes the text to #output (and the
// token ids to its data-tokens, as JSON, to compare token for token) and
// sets the title to end with " - done" (or " - error: MESSAGE"). ctx sizes
// the tab's KV cache (default: 4096 positions, capped by the model's);
// it applies to models loaded by hand too.
"use strict";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const history = [];
let busy = false;
let serverInfo = null; // what the server serves, when there is one
let tabAvailable = false;

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function scroll() { const m = $("messages"); m.scrollTop = m.scrollHeight; }

function notice(text, isError) {
  const n = $("notice");
  n.textContent = text || "";
  n.className = isError ? "error" : "";
  n.style.display = text ? "block" : "none";
}

function setBusy(b) {
  busy = b;
  $("send").disabled = b;
  $("stop").disabled = !b;
  $("open").disabled = b;
}

function fmtBytes(n) {
  if (!n) return "0 B";
  const u = ["B", "KB", "MB", "GB"];
  let i = 0;
  while (n >= 1000 && i < u.length - 1) { n /= 1000; i++; }
  return `${n.toFixed(i ? 1 : 0)} ${u[i]}`;
}

function progress(p) {
  const bar = $("load");
  if (p.phase === "server") {
    bar.style.display = p.state === "loading" ? "inline-block" : "none";
    bar.value = p.total ? p.loaded / p.total : 0;
    $("status").textContent = p.state === "failed" ? `load failed: ${p.error}` : `${p.model} ${p.state}`;
    if (p.state === "ready") refreshServerModel();
    return;
  }
  bar.style.display = "inline-block";
  bar.value = p.total ? p.loaded / p.total : 0;
  const pct = p.total ? ` (${((100 * p.loaded) / p.total).toFixed(0)}%)` : "";
  const what = p.phase === "download" ? "downloading" : "loading into the engine";
  $("status").textContent = `${what}: ${fmtBytes(p.loaded)} of ${fmtBytes(p.total)}${pct}`;
}

// The server, when the page came from one: what it serves, and whether an
// API key is needed first.
async function probeServer() {
  try {
    const key = sessionStorage.getItem("ember-key") || params.get("key");
    const r = await fetch("v1/models", { headers: key ? { Authorization: `Bearer ${key}` } : {} });
    if (r.status === 401) {
      $("keybox").style.display = "flex";
      notice("this server needs an API key: enter it above (it stays in this tab only)");
      return null;
    }
    if (!r.ok) return null;
    return await r.json();
  } catch (e) {
    return null; // a static host: no server
  }
}

async function refreshServerModel() {
  if (ember.engine !== "server") return;
  try {
    const info = await ember.load(null, { onProgress: progress });
    $("model").textContent = info.model || "no model";
  } catch (e) {
    notice(e.message, true);
  }
}

async function probeTab() {
  try {
    const r = await fetch("ember.wasm", { method: "HEAD" });
    return r.ok;
  } catch (e) {
    return false;
  }
}

async function setEngine(name) {
  ember.engine = name;
  $("engine").value = name;
  $("picker").style.display = name === "tab" ? "flex" : "none";
  $("share").style.display = name === "tab" && serverInfo && ember.info() ? "inline-block" : "none";
  const info = name === "tab" ? ember.info() : null;
  $("think").parentElement.hidden = !!info && info.thinking === false;
  if (name === "server") {
    $("model").textContent = "connecting…";
    await refreshServerModel();
  } else {
    $("model").textContent = info ? info.model : "no model";
  }
}

async function loadModel(source) {
  if (busy) return;
  notice("");
  setBusy(true);
  $("stop").disabled = true;
  const t0 = performance.now();
  try {
    const info = await ember.load(source, { backend: params.get("backend") || "auto", context: Number(params.get("ctx")) || 0, onProgress: progress });
    const secs = ((performance.now() - t0) / 1000).toFixed(1);
    $("model").textContent = info.model;
    $("status").textContent = `loaded in ${secs} s on ${info.backend === "webgpu" ? "WebGPU" : "the CPU"}${info.cached ? " (from the browser's cache)" : ""}`;
    $("load").style.display = "none";
    if (info.notice) notice(info.notice);
    // The think switch means nothing to a model without a reasoning mode.
    $("think").parentElement.hidden = info.thinking === false;
    history.length = 0;
    $("messages").replaceChildren();
    if (serverInfo) $("share").style.display = "inline-block";
    refreshCache();
    return info;
  } catch (e) {
    $("load").style.display = "none";
    $("status").textContent = "";
    notice(e.message, true);
    throw e;
  } finally {
    setBusy(false);
  }
}

async function refreshCache() {
  const box = $("cache");
  if (!tabAvailable) {
    box.style.display = "none";
    return;
  }
  let list = [];
  try {
    list = await ember.cached();
  } catch (e) {
    return;
  }
  box.replaceChildren();
  box.style.display = list.length ? "block" : "none";
  if (!list.length) return;
  box.append("stored in this browser: ");
  for (const m of list) {
    const s = el("span", "entry", `${m.url.split("/").pop()} (${fmtBytes(m.size)}${m.complete ? "" : ", partial"})`);
    s.title = m.url;
    const del = el("button", "", "delete");
    del.onclick = async () => {
      await ember.deleteCached(m.url).catch((e) => notice(e.message, true));
      refreshCache();
    };
    s.append(del);
    box.append(s);
  }
}

// send runs one turn and renders it; it resolves to ember.generate's answer
// with the ids of the tokens it streamed.
async function send(req) {
  const box = el("div", "msg assistant");
  const think = el("details", "reasoning");
  think.open = true;
  think.hidden = true;
  think.append(el("summary", "", "reasoning"));
  const thinkText = el("div", "reasoning-text");
  think.append(thinkText);
  const content = el("div", "content");
  const meta = el("div", "meta");
  box.append(think, content, meta);
  $("messages").append(box);
  scroll();
  setBusy(true);
  const t0 = performance.now();
  let first = 0;
  let tokens = 0;
  const ids = [];
  let text = "";
  let reasoning = "";
  try {
    const r = await ember.generate({
      ...req,
      onToken: (ev) => {
        if (ev.reasoning) {
          reasoning += ev.reasoning;
          think.hidden = false;
          thinkText.textContent = reasoning;
        }
        if (ev.text) {
          text += ev.text;
          content.textContent = text;
        }
        if (ev.token !== undefined) {
          tokens++;
          ids.push(ev.token);
          if (!first) first = performance.now();
          const secs = (performance.now() - first) / 1000;
          const rate = tokens > 1 && secs > 0 ? ((tokens - 1) / secs).toFixed(1) : "–";
          $("stats").textContent = `${tokens} tokens · ${rate} tok/s · first token ${(first - t0).toFixed(0)} ms`;
        }
        scroll();
      },
    });
    const st = r.stats || {};
    const line = `${st.generated_tokens ?? tokens} tokens · ${st.decode_tok_s ? st.decode_tok_s.toFixed(1) : "–"} tok/s · ` +
      `prefill ${st.prefill_tok_s ? st.prefill_tok_s.toFixed(0) : "–"} tok/s · first token ${st.ttft_ms ? st.ttft_ms.toFixed(0) : "–"} ms · ${st.stop_reason || ""}`;
    meta.textContent = line;
    $("stats").textContent = line;
    return { ...r, tokens: ids };
  } catch (e) {
    box.className = "msg error";
    content.textContent = e.message;
    throw e;
  } finally {
    setBusy(false);
  }
}

$("form").onsubmit = async (e) => {
  e.preventDefault();
  const text = $("prompt").value.trim();
  if (!text || busy) return;
  if (ember.engine === "tab" && !ember.info()) {
    notice("load a model first: a registry name, a URL, or a .gguf file", true);
    return;
  }
  $("prompt").value = "";
  history.push({ role: "user", content: text });
  $("messages").append(el("div", "msg user", text));
  const options = { max_tokens: Number($("max").value) || 256, temperature: Number($("temp").value) };
  const info = ember.info();
  if (!info || info.thinking !== false) options.think = $("think").checked;
  try {
    const r = await send({ messages: history.slice(), options });
    history.push({ role: "assistant", content: r.text });
  } catch (err) {
    history.pop();
  }
};

$("stop").onclick = () => ember.cancel();
$("engine").onchange = () => setEngine($("engine").value);
$("open").onclick = () => { const s = $("source").value.trim(); if (s) loadModel(s).catch(() => {}); };
$("source").addEventListener("keydown", (e) => { if (e.key === "Enter") $("open").click(); });
$("file").onclick = () => $("filein").click();
$("filein").onchange = () => { const f = $("filein").files[0]; if (f) loadModel(f).catch(() => {}); };
$("keyok").onclick = () => {
  sessionStorage.setItem("ember-key", $("key").value);
  location.reload();
};
$("share").onclick = async () => {
  try {
    const name = await ember.share();
    notice(`the server now relays requests for "${name}" to this tab (keep it open)`);
  } catch (e) {
    notice(e.message, true);
  }
};
const drop = $("messages");
drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("drop"); });
drop.addEventListener("dragleave", () => drop.classList.remove("drop"));
drop.addEventListener("drop", (e) => {
  e.preventDefault();
  drop.classList.remove("drop");
  const f = e.dataTransfer.files[0];
  if (f && ember.engine === "tab") loadModel(f).catch(() => {});
});
$("prompt").addEventListener("keydown", (e) => {
  if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); $("form").requestSubmit(); }
});

// autorun: the driving contract of the page's URL.
async function autorun() {
  const base = document.title;
  try {
    if (ember.engine === "tab") await loadModel(params.get("model"));
    const options = {};
    if (params.has("n")) options.max_tokens = Number(params.get("n"));
    if (params.has("temperature")) options.temperature = Number(params.get("temperature"));
    const req = { options };
    if (params.get("raw") === "1") {
      req.prompt = params.get("prompt") || "";
      req.raw = true;
    } else {
      req.messages = [{ role: "user", content: params.get("prompt") || "" }];
    }
    $("messages").append(el("div", "msg user", params.get("prompt") || ""));
    const r = await send(req);
    $("output").textContent = r.text;
    $("output").dataset.tokens = JSON.stringify(r.tokens);
    document.title = `${base} - done`;
  } catch (e) {
    $("output").textContent = "";
    document.title = `${base} - error: ${e.message}`;
  }
}

(async () => {
  [serverInfo, tabAvailable] = await Promise.all([probeServer(), probeTab()]);
  const opt = $("engine").querySelector('option[value="tab"]');
  if (!tabAvailable) {
    opt.disabled = true;
    opt.textContent = "in this tab (not built into this server)";
  }
  $("engine").querySelector('option[value="server"]').disabled = !serverInfo;
  let engine = params.get("engine") || (serverInfo && (serverInfo.data || []).length ? "server" : "tab");
  if (engine === "tab" && !tabAvailable && serverInfo) engine = "server";
  await setEngine(engine);
  if (!tabAvailable && !serverInfo) notice("the engine for this tab (ember.wasm) is not here: run `make web` and serve its folder", true);
  if (tabAvailable) {
    ember.registry().then((list) => {
      const dl = $("registry");
      for (const m of list) {
        const o = document.createElement("option");
        o.value = m.name;
        o.label = m.about || m.url;
        dl.append(o);
      }
    }).catch(() => {});
    refreshCache();
  }
  if (params.get("autorun") === "1") autorun();
})();
