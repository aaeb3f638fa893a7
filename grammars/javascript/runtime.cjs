// probity probe runtime {{RUNTIME_VERSION}} for JavaScript and TypeScript (CommonJS; ES modules
// load it with module.createRequire). Written by `probity run` / `probity env` into the session's
// capture root and removed by `probity cleanup`; never part of a user's file. A probe block
// loads it once per realm (the main thread, each worker) and calls hit(key, thunk).
// See docs/probes.md.
"use strict";
(() => {
    const g = globalThis;
    const name = "{{RUNTIME_MODULE}}";
    // Blocks find the runtime through the module cache (require of this file), or, when the
    // program removed `process`, under this registry symbol (never a name of the global object).
    const key = typeof g.Symbol === "function" && typeof g.Symbol.for === "function"
        ? g.Symbol.for("{{RUNTIME_MODULE}}") : null;
    if (key !== null && typeof g[key] === "object" && g[key] !== null) {
        module.exports = g[key];
        return;
    }
    // Everything the runtime needs is taken here, once: later changes the program makes to Date,
    // JSON, Symbol, process or fs do not reach it.
    const proc = g.process;
    const env = proc.env;
    const fs = require("fs");
    const openSync = fs.openSync, writeSync = fs.writeSync, closeSync = fs.closeSync;
    const statSync = fs.statSync;
    const k = fs.constants;
    const flags = k.O_WRONLY | k.O_APPEND | (k.O_NONBLOCK || 0);
    const pid = proc.pid;
    const perf = g.performance;
    const dateNow = typeof g.Date === "function" ? g.Date.now : null;
    const now = () => (dateNow !== null ? dateNow() : Math.round(perf.timeOrigin + perf.now()));
    const isArray = Array.isArray, keysOf = Object.keys, protoOf = Object.getPrototypeOf;
    const DateC = g.Date, ErrorC = g.Error, MapC = g.Map, SetC = g.Set;
    const String_ = String, isFinite_ = Number.isFinite;
    const maxEvents = {{MAX_EVENTS}}, maxLine = {{MAX_LINE_BYTES}}, maxChars = {{MAX_VALUE_CHARS}};
    // probe key -> the fixed part of its events (JSON object without its closing brace).
    const probes = {{PROBES}};
    // Events written per probe in this process: one counter per probe of the table in memory
    // shared by the main thread and every worker (handed to workers started after the first
    // hit through worker_threads' environment data), and a lock (cell 0) held only around an
    // ordinal and its one write, so that each probe's ordinals are 1, 2, 3 ... in the sink's
    // order across threads. A hit that cannot take the lock within a few milliseconds is
    // dropped without spending an ordinal.
    const index = new MapC();
    keysOf(probes).forEach((k, i) => index.set(k, i + 1));
    const Atomics_ = g.Atomics, SAB = g.SharedArrayBuffer, Int32 = g.Int32Array;
    const cellsBytes = 4 * (index.size + 1);
    let shared = null;
    let wt = null;
    try {
        wt = require("worker_threads");
        shared = wt.getEnvironmentData(name);
    } catch (err) {
        shared = null;
    }
    if (!(shared instanceof SAB) || shared.byteLength !== cellsBytes) {
        shared = new SAB(cellsBytes);
        try {
            wt.setEnvironmentData(name, shared);
        } catch (err) {
            // no worker_threads: counters stay per realm
        }
    }
    const cells = new Int32(shared);
    const lock = () => {
        for (let i = 0; i < 50; i++) {
            if (Atomics_.compareExchange(cells, 0, 0, 1) === 0) {
                return true;
            }
            Atomics_.wait(cells, 0, 1, 1);
        }
        return false;
    };
    const unlock = () => {
        Atomics_.store(cells, 0, 0);
        Atomics_.notify(cells, 0, 1);
    };
    const hex = (u) => "\\u" + ("000" + u.toString(16)).slice(-4);
    const cut = (s) => (s.length <= maxChars ? s
        : s.slice(0, (s.charCodeAt(maxChars - 1) & 0xfc00) === 0xd800 ? maxChars - 1 : maxChars));
    const esc = (s) => {
        let out = "\"";
        for (let i = 0; i < s.length; i++) {
            const c = s.charCodeAt(i);
            if (c >= 32 && c < 127 && c !== 34 && c !== 92) {
                out += s.charAt(i);
            } else if ((c & 0xfc00) === 0xd800 && i + 1 < s.length
                && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
                out += hex(c) + hex(s.charCodeAt(i + 1));
                i++;
            } else {
                out += hex(c >= 0xd800 && c < 0xe000 ? 0xfffd : c);
            }
        }
        return out + "\"";
    };
    const quote = (s) => "\"" + s.replace(/["\\]/g, "\\$&") + "\"";
    const show = (v, depth) => {
        const t = typeof v;
        if (t === "string") {
            return depth > 0 ? quote(cut(v)) : v;
        }
        if (v === null || (t !== "object" && t !== "function")) {
            return String_(v);
        }
        if (t === "function") {
            return "[Function " + (typeof v.name === "string" && v.name ? v.name : "anonymous") + "]";
        }
        if (isArray(v)) {
            if (depth > 1) {
                return "[Array(" + v.length + ")]";
            }
            let out = "[";
            for (let i = 0; i < v.length && out.length < maxChars; i++) {
                out += (i > 0 ? ", " : "") + show(v[i], depth + 1);
            }
            return out + "]";
        }
        if (DateC && v instanceof DateC) {
            return isNaN(v.getTime()) ? "Invalid Date" : v.toISOString();
        }
        if (ErrorC && v instanceof ErrorC) {
            return String_(v.name) + ": " + String_(v.message);
        }
        if (v instanceof MapC || v instanceof SetC) {
            return (v instanceof MapC ? "Map(" : "Set(") + v.size + ")";
        }
        const proto = protoOf(v);
        const ctor = proto && typeof proto.constructor === "function" ? proto.constructor : null;
        const cname = ctor && typeof ctor.name === "string" ? ctor.name : "";
        if (depth > 1) {
            return "[" + (cname || "Object") + "]";
        }
        const keys = keysOf(v);
        let out = (cname && cname !== "Object" ? cname + " " : "") + "{";
        for (let i = 0; i < keys.length && out.length < maxChars; i++) {
            out += (i > 0 ? ", " : "") + keys[i] + ": " + show(v[keys[i]], depth + 1);
        }
        return out + "}";
    };
    const val = (v) => {
        try {
            const t = typeof v;
            if (v === null || t === "undefined") {
                return "null";
            }
            if (t === "boolean") {
                return v ? "true" : "false";
            }
            if (t === "number") {
                return isFinite_(v) ? String_(v) : esc(String_(v));
            }
            return esc(cut(t === "string" ? v : show(v, 0)));
        } catch (err) {
            return esc("<unrepresentable>");
        }
    };
    const sinkFile = () => {
        const sink = env.GSD_DEBUG_PROBE_SINK;
        try {
            return typeof sink === "string" && sink !== "" && statSync(sink).isFile() ? sink : null;
        } catch (err) {
            return null;
        }
    };
    const envJson = (name) => {
        const v = env[name];
        return v === undefined ? "null" : esc(String_(v).slice(0, maxLine));
    };
    const hit = (key, thunk) => {
        try {
            const head = probes[key];
            const cell = index.get(key);
            const sink = sinkFile();
            if (typeof head !== "string" || sink === null || Atomics_.load(cells, cell) >= maxEvents) {
                return;
            }
            let data;
            try {
                const pairs = thunk();
                data = "{";
                for (let i = 0; i < pairs.length; i++) {
                    data += (i > 0 ? "," : "") + esc(pairs[i][0]) + ":" + val(pairs[i][1]);
                }
                data += "}";
            } catch (thrown) {
                const tname = thrown !== null && typeof thrown === "object"
                    && typeof thrown.name === "string" ? thrown.name : typeof thrown;
                data = "{\"_capture_error\":" + esc(tname) + "}";
            }
            const run = envJson("GSD_DEBUG_PROBE_RUN"), phase = envJson("GSD_DEBUG_PROBE_PHASE");
            if (!lock()) {
                return;
            }
            try {
                const n = Atomics_.load(cells, cell) + 1;
                if (n > maxEvents) {
                    return;
                }
                const line = "GSDDBG1 " + head + ",\"run_id\":" + run + ",\"phase\":" + phase
                    + ",\"ordinal\":" + n + ",\"data\":";
                const tail = ",\"timestamp\":" + now() + ",\"pid\":" + pid + "}";
                if (line.length + data.length + tail.length > maxLine) {
                    data = "{\"_truncated\":true}";
                }
                if (line.length + data.length + tail.length > maxLine) {
                    return;
                }
                const out = line + data + tail + "\n";
                const fd = openSync(sink, flags);
                try {
                    if (writeSync(fd, out) === out.length) {
                        Atomics_.store(cells, cell, n);
                    }
                } finally {
                    closeSync(fd);
                }
            } finally {
                unlock();
            }
        } catch (err) {
            return;
        }
    };
    const api = Object.freeze({ hit, version: "{{RUNTIME_VERSION}}" });
    if (key !== null) {
        Object.defineProperty(g, key, { configurable: true, enumerable: false, writable: false, value: api });
    }
    module.exports = api;
})();
