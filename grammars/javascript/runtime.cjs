// probity probe runtime {{RUNTIME_VERSION}} for JavaScript and TypeScript (CommonJS; ES modules
// load it with module.createRequire). Written by `probity run` / `probity env` into the session's
// capture root and removed by `probity cleanup`; never part of a user's file. See docs/probes.md.
//
// A probe block reads the non-enumerable property `globalThis.__{{RUNTIME_MODULE}}`: a Map of the
// live probes (probe key -> a function taking the block's thunk). When the realm has none, the
// block defines an empty Map there and, when GSD_DEBUG_PROBE_RUNTIME names this file, loads it
// and calls into(map). This runtime decides once, at load, whether the process records (the sink
// variable names a regular file), fills the Map with the probes that still have events left, and
// deletes a probe's key from every Map it filled once that probe's events are spent, so that a
// block whose probe does not record costs one property read and one `size` check.
"use strict";
(() => {
    const g = globalThis;
    const name = "{{RUNTIME_MODULE}}";
    const prop = "__" + name;
    // Blocks of the previous template find the runtime through the module cache (require of this
    // file), or, when the program removed `process`, under this registry symbol.
    const key = typeof g.Symbol === "function" && typeof g.Symbol.for === "function"
        ? g.Symbol.for(name) : null;
    if (key !== null && typeof g[key] === "object" && g[key] !== null) {
        module.exports = g[key];
        return;
    }
    // Everything the runtime needs is taken here, once: later changes the program makes to Date,
    // JSON, Symbol, Map, Atomics, process or fs do not reach it.
    const proc = g.process;
    const env = proc.env;
    const fs = require("fs");
    const openSync = fs.openSync, writeSync = fs.writeSync, closeSync = fs.closeSync;
    const statSync = fs.statSync, fstatSync = fs.fstatSync;
    const k = fs.constants;
    // Never O_CREAT: a sink that is gone is not created again.
    const flags = k.O_WRONLY | k.O_APPEND | (k.O_NONBLOCK || 0);
    const pid = proc.pid;
    const perf = g.performance;
    const dateNow = typeof g.Date === "function" ? g.Date.now : null;
    const now = () => (dateNow !== null ? dateNow() : Math.round(perf.timeOrigin + perf.now()));
    const isArray = Array.isArray, keysOf = Object.keys, protoOf = Object.getPrototypeOf;
    const define = Object.defineProperty, apply = Reflect.apply;
    const DateC = g.Date, ErrorC = g.Error, MapC = g.Map, SetC = g.Set;
    const mapGet = MapC.prototype.get, mapSet = MapC.prototype.set;
    const mapDelete = MapC.prototype.delete;
    const String_ = String, isFinite_ = Number.isFinite;
    const maxEvents = {{MAX_EVENTS}}, maxLine = {{MAX_LINE_BYTES}}, maxChars = {{MAX_VALUE_CHARS}};
    const maxItems = {{MAX_SEQ_ITEMS}};
    // probe key -> the fixed part of its events (JSON object without its closing brace).
    const probes = {{PROBES}};
    // Events written per probe in this process: one counter per probe of the table in memory
    // shared by the main thread and every worker (handed to workers started after the first
    // load through worker_threads' environment data), and a lock (cell 0) held only around an
    // ordinal and its one write, so that each probe's ordinals are 1, 2, 3 ... in the sink's
    // order across threads. A hit that cannot take the lock within a few milliseconds is
    // dropped without spending an ordinal.
    const keys = keysOf(probes);
    const Atomics_ = g.Atomics, SAB = g.SharedArrayBuffer, Int32 = g.Int32Array;
    const aLoad = Atomics_.load, aStore = Atomics_.store, aCas = Atomics_.compareExchange;
    const aWait = Atomics_.wait, aNotify = Atomics_.notify;
    const cellsBytes = 4 * (keys.length + 1);
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
            if (aCas(cells, 0, 0, 1) === 0) {
                return true;
            }
            aWait(cells, 0, 1, 1);
        }
        return false;
    };
    const unlock = () => {
        aStore(cells, 0, 0);
        aNotify(cells, 0, 1);
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
        const names = keysOf(v);
        let out = (cname && cname !== "Object" ? cname + " " : "") + "{";
        for (let i = 0; i < names.length && out.length < maxChars; i++) {
            out += (i > 0 ? ", " : "") + names[i] + ": " + show(v[names[i]], depth + 1);
        }
        return out + "}";
    };
    // A scalar as its JSON value (docs/probes.md, "Values"): null for null and undefined,
    // booleans, finite numbers as numbers, NaN and the infinities as strings, a string cut to
    // maxChars, a BigInt as its decimal text (a string); anything else: null (not a scalar).
    const scalar = (v) => {
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
        if (t === "string") {
            return esc(cut(v));
        }
        return t === "bigint" ? esc(cut(String_(v))) : null;
    };
    // A captured value: a scalar, an Array of at most maxItems scalars as a JSON array, anything
    // else as its text (inspect-like) cut to maxChars.
    const val = (v) => {
        try {
            const s = scalar(v);
            if (s !== null) {
                return s;
            }
            if (isArray(v) && v.length <= maxItems) {
                const n = v.length;
                let out = "[";
                for (let i = 0; i < n; i++) {
                    const item = scalar(v[i]);
                    if (item === null) {
                        out = null;
                        break;
                    }
                    out += (i > 0 ? "," : "") + item;
                }
                if (out !== null) {
                    return out + "]";
                }
            }
            return esc(cut(show(v, 0)));
        } catch (err) {
            return esc("<unrepresentable>");
        }
    };
    const envJson = (name) => {
        const v = env[name];
        return v === undefined ? "null" : esc(String_(v).slice(0, maxLine));
    };
    // The decision, once per realm: the sink variable names a regular file now.
    const sink = env.GSD_DEBUG_PROBE_SINK;
    let records = false;
    try {
        records = typeof sink === "string" && sink !== "" && statSync(sink).isFile();
    } catch (err) {
        records = false;
    }
    const runPhase = ",\"run_id\":" + envJson("GSD_DEBUG_PROBE_RUN") + ",\"phase\":"
        + envJson("GSD_DEBUG_PROBE_PHASE") + ",\"ordinal\":";
    // Every Map this runtime filled (its own realm's, and those of other realms' blocks: a vm
    // context of a test runner), and one function per probe shared by all of them.
    const maps = [];
    const fns = new MapC();
    const drop = (probeKey) => {
        for (let i = 0; i < maps.length; i++) {
            apply(mapDelete, maps[i], [probeKey]);
        }
    };
    const stop = () => {
        records = false;
        for (let i = 0; i < keys.length; i++) {
            drop(keys[i]);
        }
    };
    // Errors of open(2) after which a later event could still be written.
    const transient = { EMFILE: 1, ENFILE: 1, EINTR: 1, EAGAIN: 1, ENOMEM: 1 };
    // One write of the whole line to the sink, opened for this write only (never created) and
    // checked to be a regular file on the open descriptor. A sink that is gone or is no longer a
    // regular file stops every probe of this realm.
    const write = (out) => {
        let fd;
        try {
            fd = openSync(sink, flags);
        } catch (err) {
            if (!(err && transient[err.code] === 1)) {
                stop();
            }
            return false;
        }
        try {
            if (!fstatSync(fd).isFile()) {
                stop();
                return false;
            }
            return writeSync(fd, out) === out.length;
        } finally {
            closeSync(fd);
        }
    };
    const record = (probeKey, cell, head) => (thunk) => {
        try {
            if (!records || aLoad(cells, cell) >= maxEvents) {
                drop(probeKey);
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
            if (!lock()) {
                return;
            }
            try {
                const n = aLoad(cells, cell) + 1;
                if (n > maxEvents) {
                    drop(probeKey);
                    return;
                }
                const line = "GSDDBG1 " + head + runPhase + n + ",\"data\":";
                const tail = ",\"timestamp\":" + now() + ",\"pid\":" + pid + "}";
                if (line.length + data.length + tail.length > maxLine) {
                    data = "{\"_truncated\":true}";
                }
                if (line.length + data.length + tail.length > maxLine) {
                    return;
                }
                if (write(line + data + tail + "\n")) {
                    aStore(cells, cell, n);
                    if (n >= maxEvents) {
                        drop(probeKey);
                    }
                }
            } finally {
                unlock();
            }
        } catch (err) {
            return;
        }
    };
    for (let i = 0; i < keys.length; i++) {
        apply(mapSet, fns, [keys[i], record(keys[i], i + 1, probes[keys[i]])]);
    }
    // Fill `m` with the probes that still record, and remember it (once).
    const into = (m) => {
        try {
            for (let i = 0; i < maps.length; i++) {
                if (maps[i] === m) {
                    return;
                }
            }
            maps[maps.length] = m;
            for (let i = 0; records && i < keys.length; i++) {
                if (aLoad(cells, i + 1) < maxEvents) {
                    apply(mapSet, m, [keys[i], apply(mapGet, fns, [keys[i]])]);
                }
            }
        } catch (err) {
            return;
        }
    };
    // This realm's Map: the one a block defined just before loading this file, or a new one.
    const desc = Object.getOwnPropertyDescriptor(g, prop);
    let live = desc && desc.value instanceof MapC ? desc.value : null;
    if (live === null) {
        live = new MapC();
        try {
            define(g, prop, { configurable: true, enumerable: false, writable: false, value: live });
        } catch (err) {
            // a global object that cannot take the property: blocks stay inert
        }
    }
    into(live);
    // The previous template's entry point: hit(key, thunk) on every call of the block.
    const hit = (probeKey, thunk) => {
        try {
            const f = apply(mapGet, live, [probeKey]);
            if (f !== undefined) {
                f(thunk);
            }
        } catch (err) {
            return;
        }
    };
    const api = Object.freeze({ hit, into, version: "{{RUNTIME_VERSION}}" });
    if (key !== null) {
        try {
            define(g, key, { configurable: true, enumerable: false, writable: false, value: api });
        } catch (err) {
            // only blocks of the previous template use the symbol
        }
    }
    module.exports = api;
})();
