//! Classes of invented names the SCIP oracle (`benches/drift-oracle/`, scip-typescript over
//! npm packages) found UNCHECKABLE where absence is provable: the interface header was read as
//! unreadable when a type parameter has a constraint (`<T extends Element | Window,>`, so the
//! constraint was taken for the `extends` clause), and a class's `implements` list was taken
//! for bases it inherits members from. Real members stay VERIFIED, real inherited members of a
//! base outside the repository stay UNCHECKABLE.

use crate::util::{Repo, expect_verdicts};

/// JS-6: an interface whose type parameters carry constraints, with and without its own
/// `extends` clause.
#[test]
fn interface_with_constrained_type_parameters() {
    let r = Repo::new();
    r.write("package.json", r#"{"name":"x"}"#);
    r.write(
        "src/index.ts",
        "export interface Options<\n  TScroll extends Element | Window,\n  TItem extends { id: string },\n> {\n  count: number\n  paddingStart?: number\n}\n\
         export interface Derived<T extends (a: number) => void = () => void> extends Options<Window, { id: string }> {\n  extra: T\n}\n\
         import { Remote } from 'remote-lib'\n\
         export interface Outside<T extends object> extends Remote<T> {\n  own: T\n}\n",
    );
    expect_verdicts(
        &r,
        &[
            ("Options.count", "VERIFIED src/index.ts"),
            ("Options.paddingStart", "VERIFIED src/index.ts"),
            ("Options.paddinStart", "MISSING"),
            ("Derived.extra", "VERIFIED src/index.ts"),
            // Inherited from a repository interface.
            ("Derived.count", "VERIFIED src/index.ts"),
            ("Derived.cuont", "MISSING"),
            ("Outside.own", "VERIFIED src/index.ts"),
            // A base outside the repository may declare it.
            ("Outside.anything", "UNCHECKABLE"),
        ],
    );
}

/// JS-7: `class A implements Set<T>` declares Set's members itself; `extends` still inherits.
#[test]
fn implements_is_no_base() {
    let r = Repo::new();
    r.write("package.json", r#"{"name":"x"}"#);
    r.write(
        "src/set.ts",
        "export class ObservableSet<T = any> implements Set<T>, Iterable<T> {\n  has(v: T): boolean { return false }\n  add(v: T): this { return this }\n}\n\
         export class Tracked extends Map<string, number> implements Iterable<[string, number]> {\n  track(): void {}\n}\n",
    );
    expect_verdicts(
        &r,
        &[
            ("ObservableSet.has", "VERIFIED src/set.ts"),
            ("ObservableSet.isSubetOf", "MISSING"),
            ("Tracked.track", "VERIFIED src/set.ts"),
            // Map's members are inherited: not provable either way.
            ("Tracked.whatever", "UNCHECKABLE"),
        ],
    );
}

/// JS-8: a base's type arguments hold commas (`extends Subscribable<Listener<TData, TError>>`
/// was read as the bases `Subscribable` and `TError`), and `Partial<Options>` has the members of
/// `Options`.
#[test]
fn bases_with_type_arguments() {
    let r = Repo::new();
    r.write("package.json", r#"{"name":"x"}"#);
    r.write(
        "src/observer.ts",
        "export class Subscribable<TListener extends Function> {\n  subscribe(l: TListener): void {}\n}\n\
         type Listener<A, B> = (a: A, b: B) => void\n\
         export class MutationObserver<TData, TError = Error> extends Subscribable<Listener<TData, TError>> {\n  mutate(): void {}\n}\n\
         export interface Options {\n  retry: number\n}\n\
         export interface RuntimeOptions extends Partial<Options>, Readonly<{ a: 1 }> {\n  debug: boolean\n}\n\
         export interface Loose extends Partial<Options> {\n  debug: boolean\n}\n",
    );
    expect_verdicts(
        &r,
        &[
            ("MutationObserver.mutate", "VERIFIED src/observer.ts"),
            ("MutationObserver.subscribe", "VERIFIED src/observer.ts"),
            ("MutationObserver.mutatte", "MISSING"),
            ("Loose.retry", "VERIFIED src/observer.ts"),
            ("Loose.retyr", "MISSING"),
            // `Readonly<{ a: 1 }>` names no type: its members are not read.
            ("RuntimeOptions.retry", "VERIFIED src/observer.ts"),
            (
                "RuntimeOptions.retyr",
                "UNCHECKABLE cannot read every base of `RuntimeOptions`",
            ),
        ],
    );
}
