; Declarations index for JavaScript (docs/drift.md). Capture names: see queries/rust/definitions.scm.
;   @export   an `export` statement (`export { a }`, `export * from`, `export default`).
;   @cjs      an assignment to a member: CommonJS `module.exports = ...` / `exports.x = ...`,
;             `X.prototype.m = ...`, `X.m = ...` (members of `X`).
;   @jscall   `Object.defineProperty(...)` or a mixin call (`Object.assign(X.prototype, src)`).
;   @param    a TypeScript constructor parameter (a field when it has a modifier).

(function_declaration name: (identifier) @name) @def.function
(generator_function_declaration name: (identifier) @name) @def.function
(class_declaration name: (_) @name) @def.class
(method_definition name: (_) @name) @def.method
(field_definition property: (_) @name) @def.field

; Module-level `const` / `let` / `var` (functions when the value is a function).
(program (lexical_declaration (variable_declarator name: (identifier) @name) @def.variable))
(program (variable_declaration (variable_declarator name: (identifier) @name) @def.variable))
(export_statement (lexical_declaration (variable_declarator name: (identifier) @name) @def.variable))
(export_statement (variable_declaration (variable_declarator name: (identifier) @name) @def.variable))

(import_statement) @import
(variable_declarator
  value: (call_expression function: (identifier) @_req (#eq? @_req "require"))) @import
(export_statement) @export
(assignment_expression left: (member_expression) @_lhs) @cjs

; commander `.option('-p, --port <n>')`, yargs `.option('port', ...)`.
(call_expression
  function: (member_expression property: (property_identifier) @_m)
  arguments: (arguments . (string) @flag)
  (#any-of? @_m "option" "requiredOption" "addOption" "positional"))

; Members made outside a class body (engine/src/index/extract/jsmembers.rs): `Object.defineProperty`,
; `Object.defineProperties` and mixins (`Object.assign`, `setPrototypeOf`, `merge`, `mixin`,
; `extend`).
(call_expression
  function: (member_expression object: (identifier) @_o property: (property_identifier) @_p)
  (#eq? @_o "Object")
  (#any-of? @_p "defineProperty" "defineProperties" "assign" "setPrototypeOf")) @jscall
(call_expression
  function: (identifier) @_f
  (#any-of? @_f "merge" "mixin" "extend" "mixinProperties")) @jscall
(call_expression
  function: (member_expression object: (identifier) @_o property: (property_identifier) @_p)
  (#not-eq? @_o "Object")
  (#any-of? @_p "merge" "mixin" "extend")) @jscall
