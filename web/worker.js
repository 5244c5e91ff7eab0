// ember's engine in a dedicated Web Worker: the wasm build of cmd/wasm
// (globalThis.emberEngine) and what it needs from the browser, off the
// page's thread so the page stays responsive while a model loads and
// generates.
//
// Models come from a URL or a file the person picked. A URL is downloaded
// into the origin-private file system (OPFS) with range requests, so a
// broken download resumes where it stopped and a model downloaded once
// loads again offline; the engine then reads the stored file through a
// synchronous access handle, a piece at a time, straight into the GPU. A
// picked file is read the same way through FileReaderSync. Where OPFS is
// missing, a URL is read through synchronous range requests instead (no
// cache).
//
// Messages from the page: {op, rid, ...}; answers: {rid, kind, ...} with
// kind "progress", "event", "result" or "error" (the last two end the
// request).
"use strict";

importScripts("wasm_exec.js");

const cacheDir = "ember-models";
let ready = null; // the engine's start, a Promise

function post(rid, kind, body) { postMessage({ rid, kind, ...body }); }

function start() {
  if (!ready) {
    ready = (async () => {
      const go = new Go();
      const res = await WebAssembly.instantiateStreaming(fetch("ember.wasm"), go.importObject);
      // The WebGPU binding writes buffers through the instance's memory.
      globalThis.wasm = res;
      go.run(res.instance);
      while (!globalThis.emberEngine) await new Promise((r) => setTimeout(r, 5));
      return globalThis.emberEngine;
    })();
  }
  return ready;
}

// The key a URL's file is stored under in OPFS.
async function keyOf(url) {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(url));
  return Array.from(new Uint8Array(d).slice(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function modelsDir() {
  if (!navigator.storage || !navigator.storage.getDirectory) return null;
  try {
    const root = await navigator.storage.getDirectory();
    return await root.getDirectoryHandle(cacheDir, { create: true });
  } catch (e) {
    return null;
  }
}

async function readMeta(dir, key) {
  try {
    const f = await (await dir.getFileHandle(key + ".json")).getFile();
    return JSON.parse(await f.text());
  } catch (e) {
    return null;
  }
}

async function writeMeta(dir, key, meta) {
  const fh = await dir.getFileHandle(key + ".json", { create: true });
  const w = await fh.createSyncAccessHandle();
  try {
    const b = new TextEncoder().encode(JSON.stringify(meta));
    w.truncate(0);
    w.write(b, { at: 0 });
    w.flush();
  } finally {
    w.close();
  }
}

// explain turns a failed request into words a person can act on.
function explainFetch(url, err) {
  const origin = new URL(url, location.href).origin;
  if (origin !== location.origin) {
    return `could not download ${url}: the request failed (${err.message}). The server at ${origin} may not allow this page to read it (CORS), or may be unreachable.`;
  }
  return `could not download ${url}: ${err.message}`;
}

function checkMagic(bytes, url) {
  const magic = String.fromCharCode(bytes[0], bytes[1], bytes[2], bytes[3]);
  if (magic !== "GGUF") {
    throw new Error(`${url} is not a GGUF model file (it starts with ${JSON.stringify(magic)}, not "GGUF")`);
  }
}

// download stores url in OPFS under key, resuming a partial file, and
// reports bytes as they arrive. It returns the meta of the complete file.
async function download(rid, dir, key, url) {
  let meta = await readMeta(dir, key);
  if (meta && meta.complete) return meta;
  const fh = await dir.getFileHandle(key, { create: true });
  const h = await fh.createSyncAccessHandle();
  try {
    let have = meta && meta.url === url ? h.getSize() : 0;
    if (have === 0) h.truncate(0);
    const headers = have > 0 ? { Range: `bytes=${have}-` } : {};
    let resp;
    try {
      resp = await fetch(url, { headers });
    } catch (e) {
      throw new Error(explainFetch(url, e));
    }
    if (resp.status === 404) throw new Error(`${url} was not found (404)`);
    if (resp.status === 416 && meta && meta.size === have) {
      // The whole file is here; the last run died before marking it so.
    } else if (!resp.ok) {
      throw new Error(`could not download ${url}: the server answered ${resp.status} ${resp.statusText}`);
    }
    let total;
    if (resp.status === 206) {
      // Another origin's Content-Range is readable only where it exposes
      // it (Access-Control-Expose-Headers); Content-Length always is.
      const m = /\/(\d+)$/.exec(resp.headers.get("Content-Range") || "");
      total = m ? Number(m[1]) : have + Number(resp.headers.get("Content-Length"));
    } else if (resp.status === 200) {
      have = 0; // no range support: start over
      h.truncate(0);
      total = Number(resp.headers.get("Content-Length"));
    } else {
      total = have;
    }
    meta = { url, size: Number.isFinite(total) ? total : 0, complete: false, etag: resp.headers.get("ETag") || "", stored: Date.now() };
    await writeMeta(dir, key, meta);
    if (resp.status === 200 || resp.status === 206) {
      const reader = resp.body.getReader();
      let checked = have > 0; // a resumed file's start was checked before
      for (;;) {
        let chunk;
        try {
          chunk = await reader.read();
        } catch (e) {
          // What arrived is kept: the next load asks for the rest.
          h.flush();
          throw new Error(`the download of ${url} stopped at ${have} of ${meta.size || "?"} bytes (${e.message}); loading it again resumes there`);
        }
        const { done, value } = chunk;
        if (done) break;
        h.write(value, { at: have });
        have += value.length;
        if (!checked && have >= 4) {
          // The first bytes may come in pieces of any size.
          const magic = new Uint8Array(4);
          h.read(magic, { at: 0 });
          checkMagic(magic, url);
          checked = true;
        }
        post(rid, "progress", { phase: "download", loaded: have, total: meta.size });
      }
      h.flush();
    }
    if (meta.size && have !== meta.size) {
      throw new Error(`the download of ${url} stopped at ${have} of ${meta.size} bytes; loading it again resumes there`);
    }
    meta.size = have;
    meta.complete = true;
    await writeMeta(dir, key, meta);
    return meta;
  } catch (e) {
    if (/is not a GGUF model file/.test(e.message)) {
      h.close();
      await dir.removeEntry(key).catch(() => {});
      await dir.removeEntry(key + ".json").catch(() => {});
      throw e;
    }
    throw e;
  } finally {
    try { h.close(); } catch (e) { /* closed above */ }
  }
}

// A source is what emberEngine.load reads: {size, name, read(offset, length)}.
function handleSource(h, name) {
  return {
    size: h.getSize(),
    name,
    read(off, len) {
      const b = new Uint8Array(len);
      const n = h.read(b, { at: off });
      return n === len ? b : b.subarray(0, n);
    },
  };
}

function fileSource(file) {
  const r = new FileReaderSync();
  return {
    size: file.size,
    name: file.name,
    read(off, len) { return new Uint8Array(r.readAsArrayBuffer(file.slice(off, off + len))); },
  };
}

// httpSource reads a URL through synchronous range requests (workers may
// make them): for a browser without OPFS.
function httpSource(url) {
  const head = new XMLHttpRequest();
  head.open("HEAD", url, false);
  head.send();
  if (head.status === 404) throw new Error(`${url} was not found (404)`);
  if (head.status !== 200) throw new Error(`could not read ${url}: the server answered ${head.status}`);
  const size = Number(head.getResponseHeader("Content-Length"));
  return {
    size,
    name: url.split("/").pop(),
    read(off, len) {
      const x = new XMLHttpRequest();
      x.open("GET", url, false);
      x.responseType = "arraybuffer";
      x.setRequestHeader("Range", `bytes=${off}-${off + len - 1}`);
      x.send();
      if (x.status !== 206) throw new Error(`${url} does not answer range requests (status ${x.status})`);
      return new Uint8Array(x.response);
    },
  };
}

async function load(rid, msg) {
  const engine = await start();
  let source;
  let handle = null; // the stored file's access handle, held while it loads
  let cached = false;
  if (msg.file) {
    source = fileSource(msg.file);
  } else {
    const url = new URL(msg.url, location.href).href;
    const dir = await modelsDir();
    if (dir) {
      const key = await keyOf(url);
      const before = await readMeta(dir, key);
      cached = !!(before && before.complete);
      await download(rid, dir, key, url);
      const fh = await dir.getFileHandle(key);
      handle = await fh.createSyncAccessHandle();
      source = handleSource(handle, msg.name || url.split("/").pop());
    } else {
      source = httpSource(url);
    }
  }
  const opts = JSON.stringify({ backend: msg.backend || "auto", context: msg.context || 0, name: msg.name || source.name });
  try {
    const info = JSON.parse(await engine.load(source, opts, (loaded, total) => post(rid, "progress", { phase: "load", loaded, total })));
    info.cached = cached;
    return info;
  } finally {
    // The engine has read all it needs: the file may be deleted now.
    if (handle) handle.close();
  }
}

async function listCached() {
  const dir = await modelsDir();
  if (!dir) return [];
  const out = [];
  for await (const [name, h] of dir.entries()) {
    if (!name.endsWith(".json")) continue;
    const meta = await readMeta(dir, name.slice(0, -5));
    if (meta) out.push({ url: meta.url, size: meta.size, complete: !!meta.complete, stored: meta.stored });
  }
  return out;
}

async function deleteCached(url) {
  const dir = await modelsDir();
  if (!dir) return false;
  const key = await keyOf(new URL(url, location.href).href);
  await dir.removeEntry(key).catch(() => {});
  await dir.removeEntry(key + ".json").catch(() => {});
  return true;
}

onmessage = async (e) => {
  const msg = e.data;
  const rid = msg.rid;
  try {
    let result;
    switch (msg.op) {
      case "load":
        result = await load(rid, msg);
        break;
      case "generate": {
        const engine = await start();
        result = JSON.parse(await engine.generate(JSON.stringify(msg.message), (ev) => post(rid, "event", { event: JSON.parse(ev) })));
        break;
      }
      case "cancel":
        result = (await start()).cancel(msg.id);
        break;
      case "evaluate": {
        const engine = await start();
        result = JSON.parse(await engine.evaluate(JSON.stringify(msg.prompt), msg.n, JSON.stringify(msg.forced || [])));
        break;
      }
      case "registry":
        result = JSON.parse((await start()).registry());
        break;
      case "cached":
        result = await listCached();
        break;
      case "delete":
        result = await deleteCached(msg.url);
        break;
      case "memory":
        result = { wasmBytes: globalThis.wasm ? globalThis.wasm.instance.exports.mem.buffer.byteLength : 0 };
        break;
      default:
        throw new Error(`unknown operation ${msg.op}`);
    }
    post(rid, "result", { result });
  } catch (err) {
    post(rid, "error", { error: err && err.message ? err.message : String(err) });
  }
};
