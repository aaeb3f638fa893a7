//! Drift guard: heads that are really modules (`utils.x` with `var utils = require('./utils')`
//! somewhere in the repository) and classes extending a Node built-in class
//! (`class Command extends EventEmitter`).

use crate::util::{Repo, expect_verdicts};

/// `class Command extends EventEmitter` with `EventEmitter` from `node:events`: a member
/// EventEmitter has is external; any other member absent from the class is MISSING.
#[test]
fn class_extending_node_builtin() {
    let r = Repo::new();
    r.write(
        "lib/command.js",
        "const EventEmitter = require('node:events').EventEmitter;\n\nclass Command extends EventEmitter {\n  addOption(o) { return this; }\n}\n\nexports.Command = Command;\n",
    );
    r.write(
        "lib/emitter.js",
        "import { EventEmitter } from 'events';\n\nexport class Bus extends EventEmitter {\n  send() {}\n}\n",
    );
    expect_verdicts(
        &r,
        &[
            ("Command.addOption", "VERIFIED lib/command.js"),
            ("Command.addOptions", "MISSING"),
            ("Command.on", "UNCHECKABLE Node's `events.EventEmitter`"),
            ("Bus.send", "VERIFIED lib/emitter.js"),
            ("Bus.sendAll", "MISSING"),
            ("Bus.emit", "UNCHECKABLE Node's `events.EventEmitter`"),
        ],
    );
}

/// `var utils = require('./utils')` in the repository's files makes `utils.x` a reference
/// through lib/utils.js: what it does not export is MISSING.
#[test]
fn head_bound_to_module_by_require() {
    let r = Repo::new();
    r.write(
        "lib/utils.js",
        "exports.etag = function etag() {};\n\nfunction acceptParams(s) { return s; }\n",
    );
    r.write(
        "lib/app.js",
        "var utils = require('./utils');\n\nmodule.exports = function app() { return utils.etag; };\n",
    );
    r.write(
        "lib/response.js",
        "var utils = require('./utils.js');\n\nexports.send = function send() { return utils.etag; };\n",
    );
    expect_verdicts(
        &r,
        &[
            ("utils.etag", "VERIFIED lib/utils.js"),
            ("utils.acceptParams", "MISSING"),
            ("utils.nothing", "MISSING"),
        ],
    );
}

/// `import * as X` / `import X from` of a repository module, the same in every file: `X.name`
/// goes through the module; a name it does not export is MISSING.
#[test]
fn head_bound_to_module_by_import() {
    let r = Repo::new();
    r.write(
        "src/notify.ts",
        "function flush() {}\nexport function batch() { flush(); }\n",
    );
    r.write(
        "src/query.ts",
        "import * as notify from './notify';\n\nexport function run() { notify.batch(); }\n",
    );
    expect_verdicts(
        &r,
        &[
            ("notify.batch", "VERIFIED src/notify.ts"),
            ("notify.flush", "MISSING"),
        ],
    );
}

/// A head that is the stem of exactly one module file, not otherwise declared or bound:
/// `suggestSimilar.editDistance` goes through lib/suggestSimilar.js, which does not export it.
#[test]
fn head_is_stem_of_one_module_file() {
    let r = Repo::new();
    r.write(
        "lib/suggestSimilar.js",
        "function editDistance(a, b) { return 0; }\n\nfunction suggestSimilar(word, candidates) { return editDistance(word, word); }\n\nexports.suggestSimilar = suggestSimilar;\n",
    );
    r.write(
        "lib/command.js",
        "const { suggestSimilar } = require('./suggestSimilar.js');\n\nexports.run = function run() { return suggestSimilar('a', []); };\n",
    );
    expect_verdicts(
        &r,
        &[
            (
                "suggestSimilar.suggestSimilar",
                "VERIFIED lib/suggestSimilar.js",
            ),
            ("suggestSimilar.editDistance", "MISSING"),
        ],
    );
}

/// The stem reading is not the only one: a value of that name written in code elsewhere (a local
/// variable), a module exporting a value probity cannot type, or an exported value of the
/// module's name keep the member UNCHECKABLE.
#[test]
fn head_stem_other_readings_stay_uncheckable() {
    let r = Repo::new();
    r.write("lib/server.js", "exports.start = function start() {};\n");
    r.write(
        "lib/main.js",
        "function main(http) {\n  const server = http.createServer();\n  server.listen(80);\n}\nexports.main = main;\n",
    );
    r.write(
        "lib/store.js",
        "function createStore() { return { get() {} }; }\n\nmodule.exports = createStore();\n",
    );
    r.write(
        "src/notifyManager.ts",
        "function createNotifyManager() { return { batch() {} }; }\nexport const notifyManager = createNotifyManager();\n",
    );
    r.write(
        "src/query.ts",
        "import { notifyManager } from './notifyManager';\nnotifyManager.batch();\n",
    );
    expect_verdicts(
        &r,
        &[
            ("server.listen", "UNCHECKABLE"),
            ("store.get", "UNCHECKABLE"),
            ("store.set", "UNCHECKABLE"),
            // Typed since the factory returns an object literal (tests/drift_jstypes.rs).
            ("notifyManager.flush", "MISSING"),
            ("server.stop", "UNCHECKABLE"),
        ],
    );
}

/// A local variable or parameter named like the module, in the module itself, is a value.
#[test]
fn head_stem_local_in_module_stays_uncheckable() {
    let r = Repo::new();
    r.write(
        "src/server.ts",
        "export function start() {\n  const server = makeServer();\n  server.listen();\n}\n",
    );
    expect_verdicts(
        &r,
        &[
            ("server.listen", "UNCHECKABLE"),
            ("server.stop", "UNCHECKABLE"),
        ],
    );
}

/// The head written only in comments, strings and template-literal text elsewhere
/// (`` `[mobx] out of bounds` ``) is no value: the module reading decides.
#[test]
fn head_stem_in_template_text_only() {
    let r = Repo::new();
    r.write("src/mobx.ts", "export { autorun } from './autorun';\n");
    r.write("src/autorun.ts", "export function autorun() {}\n");
    r.write(
        "src/array.ts",
        "// see mobx docs\nexport function read(i: number) {\n  throw new Error(`[mobx] out of bounds ${i}`);\n}\n",
    );
    expect_verdicts(
        &r,
        &[
            ("mobx.autorun", "VERIFIED src/autorun.ts"),
            ("mobx.runReactions", "MISSING"),
        ],
    );
}
