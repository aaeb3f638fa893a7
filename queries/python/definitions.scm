; Declarations index for Python (docs/drift.md). Capture names: see queries/rust/definitions.scm.
;   @all     the value of a module-level `__all__` assignment.
;   @target  an assignment's left side, a `for` target, a `with` item's `as` target, the name of
;            an assignment expression (`:=`): the names it binds (engine/src/index/extract/python.rs).

(function_definition name: (identifier) @name) @def.function
(class_definition name: (identifier) @name) @def.class

; Assignment targets: module-level and class-level names,
; also those bound only under `if`/`else`/`try`/`except`/`finally`/`for`/`while`/`with` (never
; inside a function: locals are no members), every target of a chained `x = y = 0`, tuple, list
; and starred targets (`a, (b, *c) = ...`), `for` targets and `with ... as` names; and `self.x`
; instance attributes assigned inside a method, in the same shapes. A name bound in a class body
; is a class attribute (dataclass / attrs / pydantic / NamedTuple / TypedDict fields and plain
; ones); UPPER_CASE module names become constants.
(assignment left: (_) @target)
(for_statement left: (_) @target)
(with_item value: (as_pattern alias: (as_pattern_target) @target))
; An assignment expression binds in the enclosing scope, also from a comprehension (PEP 572).
(named_expression name: (identifier) @target)

; `type Vector = list[float]`, `type Pair[T] = tuple[T, T]` (Python 3.12).
(type_alias_statement left: (type (identifier) @name)) @def.type_alias
(type_alias_statement left: (type (generic_type (identifier) @name))) @def.type_alias

(import_statement) @import
(import_from_statement) @import

(module (expression_statement
  (assignment left: (identifier) @_all right: (_) @all)
  (#eq? @_all "__all__")))

; argparse `add_argument("--x")`, click `@click.option("--x")`, optparse `add_option("--x")`.
(call
  function: (attribute attribute: (identifier) @_m)
  arguments: (argument_list (string) @flag)
  (#any-of? @_m "add_argument" "option" "add_option"))
