; Declarations index for TypeScript and TSX (docs/drift.md). Capture names: see
; queries/rust/definitions.scm and queries/javascript/definitions.scm.

(function_declaration name: (identifier) @name) @def.function
(generator_function_declaration name: (identifier) @name) @def.function
(function_signature name: (identifier) @name) @def.function
(class_declaration name: (_) @name) @def.class
(abstract_class_declaration name: (_) @name) @def.class
(interface_declaration name: (_) @name) @def.interface
(type_alias_declaration name: (_) @name) @def.type_alias
(enum_declaration name: (_) @name) @def.enum
(internal_module name: (_) @name) @def.module
(method_definition name: (_) @name) @def.method
(method_signature name: (_) @name) @def.method
(abstract_method_signature name: (_) @name) @def.method
(public_field_definition name: (_) @name) @def.field
(interface_declaration body: (interface_body (property_signature name: (_) @name) @def.field))

(program (lexical_declaration (variable_declarator name: (identifier) @name) @def.variable))
(program (variable_declaration (variable_declarator name: (identifier) @name) @def.variable))
(export_statement (lexical_declaration (variable_declarator name: (identifier) @name) @def.variable))
(export_statement (variable_declaration (variable_declarator name: (identifier) @name) @def.variable))
; `declare const x: T` (its type gives it members, see jsmembers.rs).
(program (ambient_declaration (lexical_declaration (variable_declarator name: (identifier) @name) @def.variable)))
(program (ambient_declaration (variable_declaration (variable_declarator name: (identifier) @name) @def.variable)))
(export_statement (ambient_declaration (lexical_declaration (variable_declarator name: (identifier) @name) @def.variable)))
(export_statement (ambient_declaration (variable_declaration (variable_declarator name: (identifier) @name) @def.variable)))

(import_statement) @import
(variable_declarator
  value: (call_expression function: (identifier) @_req (#eq? @_req "require"))) @import
(export_statement) @export
(assignment_expression left: (member_expression) @_lhs) @cjs

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

; Enum members, and constructor parameter properties (`constructor(private x: T)`, see
; jsmembers.rs: only a parameter with a modifier is a member).
(enum_body name: (property_identifier) @name @def.variant)
(enum_assignment name: (property_identifier) @name) @def.variant
(method_definition
  name: (property_identifier) @_c (#eq? @_c "constructor")
  parameters: (formal_parameters [(required_parameter) (optional_parameter)] @param))
