//! Drift guard on JavaScript code that builds on Node.js: members a Node built-in class gives
//! (mixins of `EventEmitter.prototype`, `Object.create(http.ServerResponse.prototype)`) and
//! package.json `"imports"` subpaths (`#internal`).

use crate::util::{Repo, expect_verdicts};

/// A mixin or prototype from a Node built-in class is followed: its (inherited) members are
/// Node's, any other member of the target is decided from the repository alone.
#[test]
fn node_builtin_prototypes_are_known() {
    let r = Repo::new();
    r.write(
        "lib/express.js",
        "var EventEmitter = require('events').EventEmitter;\n\
         var mixin = require('merge-descriptors');\n\
         var proto = require('./application');\n\
         exports = module.exports = createApplication;\n\
         function createApplication() {\n\
         \x20 var app = function (req, res) {};\n\
         \x20 mixin(app, EventEmitter.prototype, false);\n\
         \x20 mixin(app, proto, false);\n\
         \x20 return app;\n\
         }\n",
    );
    r.write(
        "lib/application.js",
        "var app = exports = module.exports = {};\n\
         app.init = function init() {\n  // no routes yet\n  this.mountpath = '/';\n};\n",
    );
    r.write(
        "lib/response.js",
        "var http = require('http');\n\
         var res = Object.create(http.ServerResponse.prototype);\n\
         module.exports = res;\n\
         res.json = function json(obj) {};\n",
    );
    expect_verdicts(
        &r,
        &[
            ("app.init", "VERIFIED lib/application.js:2"),
            ("app.emit", "UNCHECKABLE Node's `events.EventEmitter`"),
            // Only in a comment: absent.
            ("app.routes", "MISSING"),
            (
                "app.mountpath",
                "UNCHECKABLE it may be one probity does not index",
            ),
            ("res.json", "VERIFIED lib/response.js:4"),
            ("res.writeHead", "UNCHECKABLE Node's `http.ServerResponse`"),
            ("res.end", "UNCHECKABLE Node's `http.ServerResponse`"),
            ("res.on", "UNCHECKABLE Node's `http.ServerResponse`"),
            ("res.sendJson", "MISSING"),
        ],
    );
}

/// A member of a built-in-mixed object that the repository names in a form the index does
/// not record (`app[method] = ...`, `this.mountpath = ...` in a method) is not provably absent.
#[test]
fn node_builtin_mixin_keeps_unindexed_members_uncheckable() {
    let r = Repo::new();
    r.write(
        "lib/request.js",
        "var http = require('http');\n\
         var req = Object.create(http.IncomingMessage.prototype);\n\
         module.exports = req;\n\
         defineGetter(req, 'hostname', function hostname() {});\n\
         function defineGetter(obj, name, getter) {}\n",
    );
    expect_verdicts(
        &r,
        &[
            ("req.hostname", "UNCHECKABLE"),
            ("req.headers", "UNCHECKABLE Node's `http.IncomingMessage`"),
            ("req.hostnames", "MISSING"),
        ],
    );
}

/// `import x from '#internal'` resolves through the nearest package.json's `"imports"`
/// (a string, a conditional object, a `*` pattern); an unmapped `#x` stays UNCHECKABLE.
#[test]
fn package_json_imports_subpaths() {
    let r = Repo::new();
    r.write(
        "package.json",
        r##"{"name": "c", "type": "module", "imports": {
            "#ansi-styles": "./source/vendor/ansi-styles/index.js",
            "#supports": {"node": "./source/vendor/supports/index.js", "default": "./source/vendor/supports/browser.js"},
            "#util/*": "./source/util/*.js"
        }}"##,
    );
    r.write(
        "source/vendor/ansi-styles/index.js",
        "const styles = {};\nstyles.rgbToAnsi256 = function () {};\nexport default styles;\n",
    );
    r.write(
        "source/vendor/supports/index.js",
        "export function level() {}\n",
    );
    r.write(
        "source/vendor/supports/browser.js",
        "export function level() {}\n",
    );
    r.write("source/util/strings.js", "export function encase() {}\n");
    r.write(
        "source/index.js",
        "import ansiStyles from '#ansi-styles';\n\
         import * as supports from '#supports';\n\
         import * as strings from '#util/strings';\n\
         import other from '#nowhere';\n",
    );
    expect_verdicts(
        &r,
        &[
            (
                "ansiStyles.rgbToAnsi256",
                "VERIFIED source/vendor/ansi-styles/index.js:2",
            ),
            ("ansiStyles.rgbToHex", "MISSING"),
            (
                "supports.level",
                "VERIFIED source/vendor/supports/index.js:1",
            ),
            ("supports.nothing", "MISSING"),
            ("strings.encase", "VERIFIED source/util/strings.js:1"),
            ("strings.nothing", "MISSING"),
            ("other.thing", "UNCHECKABLE #nowhere"),
        ],
    );
}
