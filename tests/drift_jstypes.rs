//! Drift guard on JS/TS module-level values whose type the code states (issue 10): TypeScript
//! annotations (`declare const x: T`, `const x: A & B = ...`), `new C()`, a repository function
//! returning object literals, and a `.d.ts` typing the value of a JavaScript module.

use crate::util::{Repo, expect_verdicts};

/// `declare const x: T`, `export const x: A & { ... }`: the members of each part; a part
/// probity cannot analyze keeps absence UNCHECKABLE.
#[test]
fn annotated_values_have_the_members_of_their_type() {
    let r = Repo::new();
    r.write(
        "src/types.ts",
        "export interface Styles {\n  red: string;\n  bold(): void;\n}\n\
         export interface Convert extends Base {\n  hexToRgb(h: string): number[];\n}\n\
         export interface Base {\n  reset: string;\n}\n\
         declare const styles: {\n  readonly modifier: Styles;\n  codes: number;\n} & Styles & Convert;\n\
         export default styles;\n\
         export const loose: Styles & Partial<Convert> = make();\n\
         export const single: Styles = make();\n\
         export const callable: Callable = make();\n\
         export interface Callable {\n  (text: string): string;\n  level: number;\n}\n",
    );
    expect_verdicts(
        &r,
        &[
            ("styles.red", "VERIFIED src/types.ts:2"),
            ("styles.modifier", "VERIFIED src/types.ts:12"),
            ("styles.codes", "VERIFIED src/types.ts:13"),
            ("styles.hexToRgb", "VERIFIED src/types.ts:6"),
            ("styles.reset", "VERIFIED src/types.ts:9"),
            ("styles.rgbToHex", "MISSING"),
            ("styles.assembleStyles", "MISSING"),
            ("single.bold", "VERIFIED src/types.ts:3"),
            ("single.blue", "MISSING"),
            ("loose.red", "VERIFIED src/types.ts:2"),
            ("loose.blue", "UNCHECKABLE Partial<Convert>"),
            ("callable.level", "VERIFIED src/types.ts:21"),
            ("callable.enabled", "MISSING"),
            ("callable.bind", "UNCHECKABLE"),
            ("callable.toString", "UNCHECKABLE"),
        ],
    );
}

/// A JavaScript module's value typed by the `.d.ts` beside it: the declared type decides when
/// it is in the repository; a type probity cannot find keeps absence UNCHECKABLE.
#[test]
fn a_declaration_file_types_the_value_of_a_javascript_module() {
    let r = Repo::new();
    r.write(
        "source/index.js",
        "function chalkFactory(options) { return options; }\n\
         function createChalk(options) {\n  return chalkFactory(options);\n}\n\
         const chalk = createChalk();\n\
         const other = createChalk();\n\
         export { other };\n\
         export default chalk;\n",
    );
    r.write(
        "source/index.d.ts",
        "export interface ChalkInstance {\n  (...text: unknown[]): string;\n  level: number;\n  readonly red: this;\n}\n\
         declare const chalk: ChalkInstance;\n\
         export const other: Elsewhere;\n\
         export default chalk;\n",
    );
    let searched = crate::util::resolve_all(&r, &["chalk.link"]);
    assert_eq!(searched[0]["verdict"], "MISSING", "{}", searched[0]);
    let files = searched[0]["searched"]["files"].to_string();
    assert!(files.contains("source/index.d.ts"), "{files}");
    expect_verdicts(
        &r,
        &[
            ("chalk.red", "VERIFIED source/index.d.ts:4"),
            ("chalk.level", "VERIFIED source/index.d.ts:3"),
            ("chalk.link", "MISSING"),
            ("chalk.enabled", "MISSING"),
            ("chalk.call", "UNCHECKABLE"),
            ("other.nothing", "UNCHECKABLE Elsewhere"),
        ],
    );
}

/// `const x = new C()`, also in a file named like the value (`focusManager.ts`): the instance
/// members of `C`, inherited ones included; an ES private field `#online` is not `online`.
#[test]
fn an_instance_has_the_members_of_its_class() {
    let r = Repo::new();
    r.write(
        "src/subscribable.ts",
        "export class Subscribable {\n  subscribe(l: () => void) {}\n}\n",
    );
    r.write(
        "src/focusManager.ts",
        "import { Subscribable } from './subscribable'\n\
         export class FocusManager extends Subscribable {\n  #focused = true\n  setFocused(f: boolean) {}\n}\n\
         export const focusManager = new FocusManager()\n",
    );
    r.write(
        "src/query.ts",
        "import { focusManager } from './focusManager'\nfocusManager.setFocused(true)\n",
    );
    expect_verdicts(
        &r,
        &[
            ("focusManager.setFocused", "VERIFIED src/focusManager.ts:4"),
            ("focusManager.subscribe", "VERIFIED src/subscribable.ts:2"),
            ("focusManager.setFocus", "MISSING"),
            ("focusManager.focused", "MISSING"),
        ],
    );
}

/// `const x = f()` with `f` a function of the module whose returns are all object literals or
/// `new C`: the members of those; any other return keeps the value untyped.
#[test]
fn a_value_made_by_a_factory_has_the_members_it_returns() {
    let r = Repo::new();
    r.write(
        "src/notifyManager.ts",
        "export function createNotifyManager() {\n\
         \x20 const flush = () => {}\n\
         \x20 const schedule = (cb: () => void) => { flush() }\n\
         \x20 return {\n    batch: <T>(cb: () => T): T => cb(),\n    schedule,\n  } as const\n\
         }\n\
         export const notifyManager = createNotifyManager()\n\
         const makeBox = () => ({ open() {} })\n\
         export const box = makeBox()\n\
         function pick(x: boolean) {\n  if (x) {\n    return { a: 1 }\n  }\n  return other()\n}\n\
         export const picked = pick(true)\n\
         async function load() {\n  return { rows: 1 }\n}\n\
         export const loading = load()\n",
    );
    r.write(
        "src/use.ts",
        "import { notifyManager, box, picked, loading } from './notifyManager'\n\
         notifyManager.batch(() => 1)\nbox.open()\npicked.a\nloading.then()\n",
    );
    expect_verdicts(
        &r,
        &[
            ("notifyManager.batch", "VERIFIED src/notifyManager.ts:5"),
            ("notifyManager.schedule", "VERIFIED src/notifyManager.ts:6"),
            ("notifyManager.flush", "MISSING"),
            ("box.open", "VERIFIED src/notifyManager.ts:10"),
            ("box.close", "MISSING"),
            ("picked.b", "UNCHECKABLE"),
            // A promise, not the object its `return` names.
            ("loading.then", "UNCHECKABLE"),
        ],
    );
}

/// A module alias (`var Router = require('./router')`) is a value elsewhere only where code
/// writes it: a file naming it only in comments and strings binds nothing.
#[test]
fn a_module_alias_named_only_in_comments_and_strings_elsewhere_is_the_module() {
    let r = Repo::new();
    r.write(
        "lib/router/index.js",
        "// Initialize a new `Router`.\n\
         var proto = module.exports = function (options) { return {}; };\n\
         proto.use = function use(fn) {\n  throw new TypeError('Router.use() requires a function');\n};\n",
    );
    r.write(
        "lib/app.js",
        "var Router = require('./router');\nexports.make = function () { return new Router(); };\n",
    );
    expect_verdicts(
        &r,
        &[
            ("Router.use", "VERIFIED lib/router/index.js:3"),
            ("Router.timeout", "MISSING"),
        ],
    );
    r.write(
        "lib/other.js",
        "function f(Router) { return Router.timeout; }\nf();\n",
    );
    expect_verdicts(&r, &[("Router.timeout", "UNCHECKABLE other file(s)")]);
}

/// The plan's own example code binding a name to the repository's own package
/// (`const mypkg = require('mypkg')`, `import mypkg from 'mypkg'`, the root `package.json`
/// name) cites the package: a name absent from what its entry module exports is MISSING. A
/// value the example derives from it by a call (`const app = mypkg()`) stays UNCHECKABLE, as
/// does a name bound to another package.
#[test]
fn plan_example_requiring_the_repository_package_cites_it() {
    let r = Repo::new();
    r.write(
        "package.json",
        "{\"name\": \"mypkg\", \"main\": \"index.js\"}\n",
    );
    r.write("index.js", "module.exports = require('./lib/core');\n");
    r.write(
        "lib/core.js",
        "exports = module.exports = create;\n\
         function create() { var app = {}; return app; }\n\
         exports.application = {};\n",
    );
    let plan = "# Plan\n\nUse `mypkg.application`, not `mypkg.Application`; `app.handle` and \
                `other.thing` too.\n\n```js\nconst mypkg = require('mypkg')\nconst app = mypkg()\n\
                import other from 'other'\n```\n";
    let got = crate::util::drift_plan(&r, plan);
    let verdict = |name: &str| {
        got.iter()
            .find(|v| v["ref"] == name)
            .unwrap_or_else(|| panic!("{name} not in {got:?}"))["verdict"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert_eq!(verdict("mypkg.application"), "VERIFIED");
    assert_eq!(verdict("mypkg.Application"), "MISSING");
    assert_eq!(verdict("app.handle"), "UNCHECKABLE");
    // Another package's name keeps the example rule.
    r.write(
        "package.json",
        "{\"name\": \"notmypkg\", \"main\": \"index.js\"}\n",
    );
    let got = crate::util::drift_plan(&r, plan);
    let v = got
        .iter()
        .find(|v| v["ref"] == "mypkg.Application")
        .unwrap();
    assert_eq!(v["verdict"], "UNCHECKABLE", "{v}");
}

/// A value mixing in a Node built-in's prototype (`mixin(app, EventEmitter.prototype)`) has
/// exactly that class's members (`grammars/javascript/node-members.txt`) plus its own: a member
/// of the built-in is UNCHECKABLE (external), a name in none of them is MISSING.
#[test]
fn a_value_mixing_in_a_node_prototype_has_exactly_its_members() {
    let r = Repo::new();
    r.write(
        "lib/express.js",
        "var EventEmitter = require('events').EventEmitter;\n\
         var mixin = require('merge-descriptors');\n\
         var proto = require('./application');\n\
         exports = module.exports = createApplication;\n\
         function createApplication() {\n\
         \x20 var app = function (req, res) { app.handle(req, res); };\n\
         \x20 mixin(app, EventEmitter.prototype, false);\n\
         \x20 mixin(app, proto, false);\n\
         \x20 return app;\n\
         }\n",
    );
    r.write(
        "lib/application.js",
        "var app = exports = module.exports = {};\n\
         app.handle = function handle(req, res) {};\n\
         app.lazyrouter = function lazyrouter() {};\n",
    );
    expect_verdicts(
        &r,
        &[
            ("app.lazyrouter", "VERIFIED lib/application.js:3"),
            ("app.emit", "UNCHECKABLE events.EventEmitter"),
            ("app.lazyRouter", "MISSING"),
            ("app.configure", "MISSING"),
        ],
    );
}

/// A file probity could not analyze (syntax errors) blocks a MISSING member of class `C` only
/// when it could declare one: a file naming `C` only in the lists of its `import`/`export ...
/// from` statements (a re-export) cannot.
#[test]
fn an_unanalyzed_reexporting_file_does_not_block_a_missing_member() {
    let r = Repo::new();
    r.write(
        "src/core/reaction.ts",
        "export class Reaction {\n  track(fn: () => void) {}\n}\n",
    );
    r.write(
        "src/api/extras.ts",
        "export function getDebugName(x: unknown) { return '' }\n",
    );
    r.write(
        "src/mobx.ts",
        "import { getDebugName } from './api/extras'\n\
         export {\n  Reaction,\n  getDebugName,\n} from './internal'\n\
         if (typeof x === 'object' {\n  x.inject({ getDebugName })\n}\n",
    );
    expect_verdicts(
        &r,
        &[
            ("Reaction.track", "VERIFIED src/core/reaction.ts:2"),
            ("Reaction.getDebugName", "MISSING"),
        ],
    );
    // A file that also writes the class's name elsewhere may declare a member of it.
    r.write(
        "src/mobx.ts",
        "export { Reaction } from './internal'\n\
         Reaction.prototype.getDebugName = function ( {\n",
    );
    expect_verdicts(
        &r,
        &[("Reaction.getDebugName", "UNCHECKABLE syntax errors")],
    );
}

/// `interface A extends B, ns.C<T>`: the members of `B` and `C` are members of `A` (they were
/// MISSING); a type argument's object type is not the body; a header probity cannot read keeps
/// absence UNCHECKABLE.
#[test]
fn an_interface_has_the_members_of_the_interfaces_it_extends() {
    let r = Repo::new();
    r.write(
        "src/types.ts",
        "export interface Base {\n  reset: string;\n}\n\
         export interface Gen<T> {\n  value: T;\n}\n\
         export interface Convert extends Base, Gen<number> {\n  hexToRgb(h: string): number[];\n}\n\
         export interface Odd extends Gen<{ a: number }> {\n  odd: boolean;\n}\n\
         export interface Dict {\n  size: number;\n  [key: string]: number;\n}\n\
         declare const dict: Dict;\n\
         export interface Commented extends /* a, b */ Gen<number> {}\n",
    );
    expect_verdicts(
        &r,
        &[
            ("Convert.hexToRgb", "VERIFIED src/types.ts:8"),
            ("Convert.reset", "VERIFIED src/types.ts:2"),
            ("Convert.value", "VERIFIED src/types.ts:5"),
            ("Convert.nothing", "MISSING"),
            ("Odd.odd", "VERIFIED src/types.ts:11"),
            // `{ a: number }` is a type argument, not the body.
            ("Odd.value", "VERIFIED src/types.ts:5"),
            ("Odd.nothing", "MISSING"),
            (
                "Commented.nothing",
                "UNCHECKABLE cannot read every base of `Commented`",
            ),
            ("Dict.size", "VERIFIED src/types.ts:14"),
            ("Dict.anything", "UNCHECKABLE index signature"),
            ("dict.anything", "UNCHECKABLE index signature"),
        ],
    );
}
