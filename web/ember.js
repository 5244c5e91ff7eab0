// window.ember: the page's two engines behind one API. "tab" runs the model
// in this tab (worker.js and the wasm engine); "server" uses the model of
// the ember server that served the page, over its WebSocket protocol
// (docs/protocol.md). Both take the protocol's generate requests and give
// its events, so the chat page and automation drive them alike:
//
//   await ember.load("https://host/model.gguf", {onProgress})  // or a File, or a registry name
//   const r = await ember.generate({prompt: "Hi", options: {temperature: 0}, onToken: (t) => ...})
//   ember.cancel()
//   await ember.cached(); await ember.deleteCached(url)
//   await ember.share()   // let the server relay its clients' requests to this tab's model
"use strict";

(() => {
  let seq = 0;
  const nextID = (p) => `${p}${++seq}`;

  // TabEngine talks to worker.js.
  class TabEngine {
    constructor() {
      this.worker = null;
      this.calls = new Map();
      this.info = null;
    }
    start() {
      if (this.worker) return;
      this.worker = new Worker("worker.js");
      this.worker.onmessage = (e) => {
        const m = e.data;
        const c = this.calls.get(m.rid);
        if (!c) return;
        if (m.kind === "progress") c.onProgress && c.onProgress(m);
        else if (m.kind === "event") c.onEvent && c.onEvent(m.event);
        else {
          this.calls.delete(m.rid);
          if (m.kind === "result") c.resolve(m.result);
          else c.reject(new Error(m.error));
        }
      };
      this.worker.onerror = (e) => {
        const err = new Error(`the engine's worker failed: ${e.message || "it could not start (is ember.wasm served?)"}`);
        for (const c of this.calls.values()) c.reject(err);
        this.calls.clear();
      };
    }
    call(op, body = {}, handlers = {}) {
      this.start();
      const rid = nextID("w");
      return new Promise((resolve, reject) => {
        this.calls.set(rid, { resolve, reject, ...handlers });
        this.worker.postMessage({ op, rid, ...body });
      });
    }
    async load(source, opts = {}) {
      const body = { backend: opts.backend, context: opts.context, name: opts.name };
      if (typeof File !== "undefined" && source instanceof File) body.file = source;
      else body.url = source;
      this.info = await this.call("load", body, { onProgress: opts.onProgress });
      return this.info;
    }
    // send runs one generate message, calling onEvent with each token
    // event; it resolves to the final event.
    send(message, onEvent) { return this.call("generate", { message }, { onEvent }); }
    cancel(id) { return this.call("cancel", { id }); }
  }

  // ServerEngine speaks the protocol to the server that served the page.
  class ServerEngine {
    constructor() {
      this.ws = null;
      this.open = null;
      this.calls = new Map();
      this.info = null;
      this.onProgress = null;
    }
    connect() {
      if (this.open) return this.open;
      const key = sessionStorage.getItem("ember-key") || new URLSearchParams(location.search).get("key");
      const url = new URL("ws", location.href);
      url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
      if (key) url.searchParams.set("key", key);
      this.open = new Promise((resolve, reject) => {
        const ws = new WebSocket(url);
        this.ws = ws;
        ws.onopen = () => resolve(ws);
        ws.onerror = () => reject(new Error(`could not connect to the server at ${url.host}`));
        ws.onclose = () => {
          for (const c of this.calls.values()) c.reject(new Error("the connection to the server closed"));
          this.calls.clear();
          this.open = null;
        };
        ws.onmessage = (e) => this.dispatch(JSON.parse(e.data));
      });
      return this.open;
    }
    dispatch(m) {
      if (m.type === "progress") {
        this.onProgress && this.onProgress(m.progress);
        return;
      }
      if (this.onRequest && (m.type === "generate" || m.type === "cancel")) {
        this.onRequest(m);
        return;
      }
      const c = this.calls.get(m.id);
      if (!c) return;
      if (m.type === "token") c.onEvent && c.onEvent(m);
      else {
        this.calls.delete(m.id);
        c.resolve(m);
      }
    }
    async request(m, onEvent) {
      const ws = await this.connect();
      return new Promise((resolve, reject) => {
        this.calls.set(m.id, { resolve, reject, onEvent });
        ws.send(JSON.stringify(m));
      });
    }
    async load(_source, opts = {}) {
      this.onProgress = opts.onProgress ? (p) => opts.onProgress({ phase: "server", ...p }) : null;
      const r = await this.request({ type: "models", id: nextID("m") });
      this.info = { model: (r.models && r.models[0] && r.models[0].id) || "", backend: "server" };
      return this.info;
    }
    send(message, onEvent) { return this.request(message, onEvent); }
    async cancel(id) {
      const ws = await this.connect();
      ws.send(JSON.stringify({ type: "cancel", id }));
    }
  }

  const engines = { tab: new TabEngine(), server: new ServerEngine() };
  let current = null; // the request in flight: {engine, id}

  const ember = {
    engine: "tab",
    engines,

    // load loads a model into the tab (a URL, a File, or a registry
    // name), or, with the server engine, asks the server what it serves.
    async load(source, opts = {}) {
      if (this.engine === "tab" && typeof source === "string" && !/^(https?:|\/|\.)/.test(source) && !source.includes("/")) {
        // A registry name stands for its URL; anything else is a URL,
        // relative to the page.
        const hit = (await this.registry()).find((m) => m.name === source);
        if (hit) {
          opts = { name: hit.name, ...opts };
          source = hit.url;
        }
      }
      return engines[this.engine].load(source, opts);
    },

    // generate runs a prompt (or a conversation) and resolves to
    // {text, reasoning, stats}; onToken hears each token event.
    async generate({ prompt, messages, raw, options, model, onToken } = {}) {
      const eng = engines[this.engine];
      const id = nextID("g");
      const m = { type: "generate", id };
      if (messages) m.messages = messages;
      else m.prompt = prompt || "";
      if (raw) m.raw = true;
      if (model) m.model = model;
      if (options) m.options = options;
      let text = "";
      let reasoning = "";
      current = { eng, id };
      try {
        const fin = await eng.send(m, (ev) => {
          text += ev.text || "";
          reasoning += ev.reasoning || "";
          onToken && onToken(ev);
        });
        if (fin.type === "error") {
          const err = new Error(fin.error);
          err.status = fin.status;
          throw err;
        }
        return { text, reasoning, stats: fin.stats };
      } finally {
        if (current && current.id === id) current = null;
      }
    },

    // cancel stops the generation in flight (it ends as "cancelled").
    cancel() {
      if (current) current.eng.cancel(current.id);
    },

    info() { return engines[this.engine].info; },
    registry() { return engines.tab.call("registry"); },
    cached() { return engines.tab.call("cached"); },
    deleteCached(url) { return engines.tab.call("delete", { url }); },
    evaluate(prompt, n, forced) { return engines.tab.call("evaluate", { prompt, n, forced }); },
    memory() { return engines.tab.call("memory"); },

    // share registers the tab's model with the server under id, which then
    // relays requests for that model from its clients (ember remote, the
    // HTTP API) to this tab; it resolves once registered.
    async share(id) {
      const tab = engines.tab;
      if (!tab.info) throw new Error("load a model into the tab first");
      const srv = engines.server;
      const name = id || `${tab.info.model}-tab`;
      srv.onRequest = async (m) => {
        const ws = await srv.connect();
        if (m.type === "cancel") {
          tab.cancel(m.id);
          return;
        }
        const fin = await tab.send(m, (ev) => ws.send(JSON.stringify(ev))).catch((e) => ({ type: "error", id: m.id, status: 500, error: e.message }));
        ws.send(JSON.stringify(fin));
      };
      const r = await srv.request({ type: "register", id: nextID("r"), models: [{ id: name, context: tab.info.context, vocab: tab.info.vocab }] });
      if (r.type === "error") throw new Error(r.error);
      return name;
    },
  };
  window.ember = ember;
})();
