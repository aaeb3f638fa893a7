; Declarations index for Python (docs/drift.md). Capture names: see queries/rust/definitions.scm.
;   @all     the value of a module-level `__all__` assignment.

(function_definition name: (identifier) @name) @def.function
(class_definition name: (identifier) @name) @def.class

; Module-level variables and constants (UPPER_CASE names become constants).
(module (expression_statement (assignment left: (identifier) @name) @def.variable))
(module (expression_statement (assignment left: (pattern_list (identifier) @name)) @def.variable))

; Class attributes: dataclass / attrs / pydantic / NamedTuple / TypedDict fields and plain ones.
(class_definition
  body: (block (expression_statement (assignment left: (identifier) @name) @def.field)))

; Instance attributes assigned through `self.` inside a method.
(assignment
  left: (attribute object: (identifier) @_self attribute: (identifier) @name)
  (#eq? @_self "self")) @def.field

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
