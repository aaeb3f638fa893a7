//! Drift guard on JavaScript / TypeScript declarations the index used to miss (issue 10):
//! members made by assignment and mixins, CommonJS privacy, TypeScript members.

use crate::util::{Repo, expect_verdicts};

/// `Route.prototype.check = function`, `Foo.prototype = { ... }`, `Foo.create = ...`,
/// `Object.defineProperty(Foo.prototype, 'x', ...)`: members of the constructor.
#[test]
fn prototype_and_static_members_by_assignment() {
    let r = Repo::new();
    r.write(
        "lib/router/route.js",
        "'use strict';\n\
         module.exports = Route;\n\
         function Route(path) {\n  this.path = path;\n}\n\
         Route.prototype.check = function check(method) {\n  return true;\n};\n\
         Route.create = function (path) {\n  return new Route(path);\n};\n\
         Object.defineProperty(Route.prototype, 'size', { get: function () { return 1; } });\n",
    );
    r.write(
        "lib/layer.js",
        "function Layer() {}\n\
         Layer.prototype = {\n  match(path) { return true; },\n  handle: function (req) {},\n  name: 'x',\n};\n\
         module.exports = Layer;\n",
    );
    expect_verdicts(
        &r,
        &[
            ("Route.check", "VERIFIED lib/router/route.js:6"),
            ("Route.create", "VERIFIED lib/router/route.js:9"),
            ("Route.size", "VERIFIED lib/router/route.js:12"),
            ("Route.prototype.check", "VERIFIED lib/router/route.js:6"),
            ("Route.checkk", "MISSING"),
            ("Route.prototype.checkk", "MISSING"),
            ("Layer.match", "VERIFIED lib/layer.js:3"),
            ("Layer.handle", "VERIFIED lib/layer.js:4"),
            ("Layer.name", "VERIFIED lib/layer.js:5"),
            ("Layer.dispatch", "MISSING"),
        ],
    );
}

/// `server.mount = function`, `reply.send = function` on a module-level object: members of it.
#[test]
fn object_members_by_assignment() {
    let r = Repo::new();
    r.write(
        "src/app.js",
        "const server = {};\n\
         server.mount = function mount(path) {};\n\
         server.config = { port: 1 };\n\
         var reply = Object.create(null);\n\
         reply.send = function (body) {};\n\
         module.exports = server;\n\
         const state = { count: 0 };\n\
         function init(options) {\n\
         \x20 state.user = 'u';\n\
         \x20 options.verbose = true;\n\
         }\n",
    );
    expect_verdicts(
        &r,
        &[
            ("server.mount", "VERIFIED src/app.js:2"),
            ("server.config", "VERIFIED src/app.js:3"),
            ("reply.send", "VERIFIED src/app.js:5"),
            ("server.unmount", "MISSING"),
            ("reply.sendFile", "MISSING"),
            ("state.count", "VERIFIED src/app.js:7"),
            ("state.user", "VERIFIED src/app.js:9"),
            ("state.admin", "MISSING"),
            // A parameter's member is no declaration.
            (
                "options.verbose",
                "UNCHECKABLE `options` is a value probity cannot type",
            ),
        ],
    );
}

/// `exports.x =`, `module.exports.x =`, `module.exports = { a, b: ..., c() {} }`,
/// `Object.defineProperty(exports, 'x', ...)`: what the module exports.
#[test]
fn commonjs_exports_by_assignment() {
    let r = Repo::new();
    r.write(
        "lib/misc.js",
        "exports.etag = function (body) {};\n\
         module.exports.fresh = function fresh() {};\n\
         Object.defineProperty(exports, 'version', { value: '1' });\n\
         function same() {}\n\
         exports.same = same;\n",
    );
    r.write(
        "lib/obj.js",
        "function a() {}\n\
         module.exports = {\n  a,\n  b: function () {},\n  run() {},\n};\n",
    );
    r.write(
        "index.js",
        "const misc = require('./lib/misc');\nconst obj = require('./lib/obj');\n",
    );
    expect_verdicts(
        &r,
        &[
            ("misc.etag", "VERIFIED lib/misc.js:1"),
            ("misc.fresh", "VERIFIED lib/misc.js:2"),
            ("misc.version", "VERIFIED lib/misc.js:3"),
            ("misc.same", "VERIFIED lib/misc.js:4"),
            ("misc.stale", "MISSING"),
            ("obj.a", "VERIFIED lib/obj.js:1"),
            ("obj.b", "VERIFIED lib/obj.js:4"),
            ("obj.run", "VERIFIED lib/obj.js:5"),
            ("obj.d", "MISSING"),
        ],
    );
}

/// Mixins: a static source gives its members to the target; one probity cannot follow makes a
/// missing member of the target UNCHECKABLE with where the mixin is, never MISSING.
#[test]
fn mixins() {
    let r = Repo::new();
    r.write(
        "lib/express.js",
        "var mixin = require('merge-descriptors');\n\
         var proto = require('./application');\n\
         exports = module.exports = createApplication;\n\
         function createApplication() {\n\
         \x20 var app = function (req, res) {};\n\
         \x20 mixin(app, proto, false);\n\
         \x20 return app;\n\
         }\n",
    );
    r.write(
        "lib/application.js",
        "var app = exports = module.exports = {};\n\
         app.init = function init() {};\n",
    );
    r.write(
        "lib/emitter.js",
        "function Emitter() {}\n\
         Object.assign(Emitter.prototype, {\n  emit(name) {},\n  on: function (name, fn) {},\n});\n\
         function Child() {}\n\
         Object.assign(Child.prototype, Emitter.prototype);\n\
         Child.prototype.own = function () {};\n\
         module.exports = { Emitter, Child };\n",
    );
    expect_verdicts(
        &r,
        &[
            ("app.init", "VERIFIED lib/application.js:2"),
            // `proto` is lib/application.js's `app` (`module.exports = {}`), which lacks it.
            ("app.listen", "MISSING"),
            ("Emitter.emit", "VERIFIED lib/emitter.js:3"),
            ("Emitter.on", "VERIFIED lib/emitter.js:4"),
            ("Emitter.off", "MISSING"),
            ("Child.own", "VERIFIED lib/emitter.js:8"),
            ("Child.emit", "VERIFIED lib/emitter.js:3"),
            ("Child.off", "MISSING"),
        ],
    );
}

/// A CommonJS module's private top-level bindings are not members of the module; what it
/// exports is (including the members of what `module.exports = X` exports).
#[test]
fn commonjs_private_is_not_exported() {
    let r = Repo::new();
    r.write(
        "lib/index.js",
        "var parser = require('body-parser');\n\
         function helper() {}\n\
         exports = module.exports = createApplication;\n\
         function createApplication() {}\n\
         exports.Router = function Router() {};\n\
         createApplication.text = function () {};\n",
    );
    r.write(
        "lib/es.mjs",
        "function hidden() {}\nexport function shown() {}\n",
    );
    r.write(
        "main.js",
        "const lib = require('./lib');\nimport * as es from './lib/es.mjs';\n",
    );
    expect_verdicts(
        &r,
        &[
            ("lib.Router", "VERIFIED lib/index.js:5"),
            ("lib.text", "VERIFIED lib/index.js:6"),
            ("lib.parser", "MISSING"),
            ("lib.helper", "MISSING"),
            ("lib.nothing", "MISSING"),
            // The module is `createApplication`, not a module holding it.
            ("lib.createApplication", "MISSING"),
            ("es.shown", "VERIFIED lib/es.mjs:2"),
            ("es.hidden", "MISSING"),
            ("helper", "VERIFIED lib/index.js:2"),
        ],
    );
}

/// TypeScript declarations that are members too: parameter properties, enum members,
/// namespace members, accessors, abstract members, overloads, merged interfaces.
#[test]
fn typescript_members() {
    let r = Repo::new();
    r.write(
        "src/box.ts",
        "export class Box<T> {\n\
         \x20 constructor(private _value: T, public readonly name: string, plain: number) {}\n\
         \x20 get size(): number { return 1; }\n\
         \x20 set size(v: number) {}\n\
         \x20 pick(a: string): void;\n\
         \x20 pick(a: number): void;\n\
         \x20 pick(a: any): void {}\n\
         }\n\
         export enum Status {\n  ACTIVE,\n  DONE = 'done',\n}\n\
         export namespace NS {\n  export function f() {}\n  export const K = 1;\n}\n\
         export abstract class Shape {\n  abstract area(): number;\n}\n\
         export interface Opts {\n  a: string;\n}\n\
         export interface Opts {\n  b(): void;\n}\n\
         export function over(a: string): void;\n\
         export function over(a: any): void {}\n\
         export const Colors = { red: 1, blue() {} } as const;\n\
         const Frozen = Object.freeze({ cold: true });\n",
    );
    expect_verdicts(
        &r,
        &[
            ("Box._value", "VERIFIED src/box.ts:2"),
            ("Box.name", "VERIFIED src/box.ts:2"),
            ("Box.plain", "MISSING"),
            ("Box.size", "VERIFIED src/box.ts:3"),
            ("Box.pick", "VERIFIED src/box.ts:5"),
            ("Box.pack", "MISSING"),
            ("Status.ACTIVE", "VERIFIED src/box.ts:10"),
            ("Status.DONE", "VERIFIED src/box.ts:11"),
            ("Status.PAUSED", "MISSING"),
            ("NS.f", "VERIFIED src/box.ts:14"),
            ("NS.K", "VERIFIED src/box.ts:15"),
            ("NS.g", "MISSING"),
            ("Shape.area", "VERIFIED src/box.ts:18"),
            ("Shape.perimeter", "MISSING"),
            ("Opts.a", "VERIFIED src/box.ts:21"),
            ("Opts.b", "VERIFIED src/box.ts:24"),
            ("Opts.c", "MISSING"),
            ("Opts", "VERIFIED src/box.ts:20"),
            ("over", "VERIFIED src/box.ts:26"),
            ("Colors.red", "VERIFIED src/box.ts:28"),
            ("Colors.blue", "VERIFIED src/box.ts:28"),
            ("Colors.green", "MISSING"),
            ("Frozen.cold", "VERIFIED src/box.ts:29"),
            ("Frozen.warm", "MISSING"),
        ],
    );
}

/// A module-level variable with members by assignment whose value has members probity cannot
/// know (`http.createServer()`): a missing member is UNCHECKABLE with that value; `new Foo()`
/// and `Object.create(proto)` take the members of `Foo` and `proto`.
#[test]
fn objects_initialized_with_values() {
    let r = Repo::new();
    r.write(
        "src/main.js",
        "const http = require('http');\n\
         class Emitter {\n  emit(name) {}\n}\n\
         const server = http.createServer();\n\
         server.timeout = 5;\n\
         const bus = new Emitter();\n\
         bus.extra = 1;\n\
         const proto = { greet() {} };\n\
         const child = Object.create(proto);\n\
         child.own = 2;\n",
    );
    expect_verdicts(
        &r,
        &[
            ("server.timeout", "VERIFIED src/main.js:6"),
            (
                "server.close",
                "UNCHECKABLE `server` gets members from `http.createServer()` at src/main.js:5",
            ),
            ("bus.extra", "VERIFIED src/main.js:8"),
            ("bus.emit", "VERIFIED src/main.js:3"),
            ("bus.off", "MISSING"),
            ("child.greet", "VERIFIED src/main.js:9"),
            ("child.own", "VERIFIED src/main.js:11"),
            ("child.wave", "MISSING"),
        ],
    );
}

/// `this.x = ...` in a class's methods and in constructor functions: an instance member; one
/// member per name (a method wins over `this.handle = this.handle.bind(this)`); statics of a
/// capitalized constructor assigned inside a function (a UMD wrapper) count too.
#[test]
fn instance_members_by_this_assignment() {
    let r = Repo::new();
    r.write(
        "lib/route.js",
        "function Route(path) {\n\
         \x20 this.path = path;\n\
         \x20 this.stack = [];\n\
         }\n\
         Route.prototype.dispatch = function () {\n\
         \x20 this.handled = true;\n\
         \x20 const f = () => { this.later = 1; };\n\
         \x20 function inner() { this.notMine = 1; }\n\
         };\n\
         function helper() {\n  this.nope = 1;\n}\n",
    );
    r.write(
        "lib/view.js",
        "class View {\n\
         \x20 constructor() {\n\
         \x20   this.handle = this.handle.bind(this);\n\
         \x20   this.name = 'v';\n\
         \x20 }\n\
         \x20 handle() {}\n\
         \x20 render() { this.name = 'w'; }\n\
         }\n\
         (function () {\n  View.registry = {};\n})();\n",
    );
    expect_verdicts(
        &r,
        &[
            ("Route.path", "VERIFIED lib/route.js:2"),
            ("Route.stack", "VERIFIED lib/route.js:3"),
            ("Route.handled", "VERIFIED lib/route.js:6"),
            ("Route.later", "VERIFIED lib/route.js:7"),
            ("Route.notMine", "MISSING"),
            ("Route.methods", "MISSING"),
            (
                "helper.nope",
                "UNCHECKABLE `helper` is a value probity cannot type",
            ),
            ("View.handle", "VERIFIED lib/view.js:6"),
            ("View.name", "VERIFIED lib/view.js:4"),
            ("View.registry", "VERIFIED lib/view.js:10"),
            ("View.remove", "MISSING"),
        ],
    );
}

/// `module.exports = require('./lib/x')` re-exports what `./lib/x` exports; `module.exports =
/// Foo; module.exports.Foo = Foo` exports `Foo` by name too; an ES default import of a
/// CommonJS module is its `module.exports` value.
#[test]
fn commonjs_reexports_and_values() {
    let r = Repo::new();
    r.write(
        "pkg/index.js",
        "'use strict';\nmodule.exports = require('./lib/core');\n",
    );
    r.write(
        "pkg/lib/core.js",
        "var dep = require('dep');\n\
         function Core() {}\n\
         Core.create = function () {};\n\
         module.exports = Core;\n\
         module.exports.Core = Core;\n\
         module.exports.version = '1';\n",
    );
    r.write(
        "main.js",
        "const pkg = require('./pkg');\nimport C from './pkg/lib/core';\n",
    );
    expect_verdicts(
        &r,
        &[
            ("pkg.Core", "VERIFIED pkg/lib/core.js:2"),
            ("pkg.version", "VERIFIED pkg/lib/core.js:6"),
            ("pkg.create", "VERIFIED pkg/lib/core.js:3"),
            ("pkg.dep", "MISSING"),
            ("pkg.destroy", "MISSING"),
            ("C", "VERIFIED pkg/lib/core.js:2"),
            ("C.create", "VERIFIED pkg/lib/core.js:3"),
            ("C.destroy", "MISSING"),
        ],
    );
}

/// A `.d.ts` typing a JavaScript file beside it declares the same members: one member, VERIFIED
/// at the implementation, not AMBIGUOUS.
#[test]
fn typing_beside_its_implementation() {
    let r = Repo::new();
    r.write(
        "lib/ajv.d.ts",
        "declare class Ajv {\n  validate(data: any): boolean;\n  compile(s: object): any;\n}\nexport = Ajv;\n",
    );
    r.write(
        "lib/ajv.js",
        "module.exports = Ajv;\nfunction Ajv() {}\nAjv.prototype.validate = function (data) {};\n",
    );
    expect_verdicts(
        &r,
        &[
            ("Ajv.validate", "VERIFIED lib/ajv.js:3"),
            ("Ajv.compile", "VERIFIED lib/ajv.d.ts:3"),
            ("Ajv.validat", "MISSING"),
        ],
    );
}

/// A CommonJS module exporting a value probity cannot know (`module.exports = createLogger()`,
/// `module.exports = logger` with `logger = make()`): a name absent from it is UNCHECKABLE.
#[test]
fn commonjs_dynamic_values() {
    let r = Repo::new();
    r.write(
        "lib/log.js",
        "module.exports = createLogger({ level: 1 });\n",
    );
    r.write(
        "lib/log2.js",
        "const logger = make();\nmodule.exports = logger;\n",
    );
    r.write(
        "lib/log3.js",
        "const api = { info() {} };\nmodule.exports = api;\n",
    );
    r.write(
        "main.js",
        "const log = require('./lib/log');\nconst log2 = require('./lib/log2');\nconst log3 = require('./lib/log3');\n",
    );
    expect_verdicts(
        &r,
        &[
            (
                "log.info",
                "UNCHECKABLE lib/log.js exports the value of an expression",
            ),
            ("log2.info", "UNCHECKABLE lib/log2.js exports `logger`"),
            ("log3.info", "VERIFIED lib/log3.js:1"),
            ("log3.warn", "MISSING"),
        ],
    );
}
