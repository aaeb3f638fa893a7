; Placement facts for TypeScript. Capture names: see queries/rust/placement.scm and grammars/README.md.

(return_statement) @diverges
(throw_statement) @diverges
(break_statement) @diverges
(continue_statement) @diverges

(function_declaration name: (identifier) @function.name body: (statement_block) @function.body) @function
(generator_function_declaration name: (identifier) @function.name body: (statement_block) @function.body) @function
(method_definition name: (_) @function.name body: (statement_block) @function.body) @function
(variable_declarator
  name: (identifier) @function.name
  value: [(function_expression body: (statement_block) @function.body)
          (generator_function body: (statement_block) @function.body)
          (arrow_function body: (statement_block) @function.body)]) @function
(assignment_expression
  left: (member_expression property: (property_identifier) @function.name)
  right: [(function_expression body: (statement_block) @function.body)
          (arrow_function body: (statement_block) @function.body)]) @function
(pair
  key: (property_identifier) @function.name
  value: [(function_expression body: (statement_block) @function.body)
          (arrow_function body: (statement_block) @function.body)]) @function
(public_field_definition
  name: (property_identifier) @function.name
  value: (arrow_function body: (statement_block) @function.body)) @function

(class_declaration name: (type_identifier) @scope.name) @scope
(class name: (type_identifier) @scope.name) @scope
(variable_declarator name: (identifier) @scope.name value: (object)) @scope
(abstract_class_declaration name: (type_identifier) @scope.name) @scope
(internal_module name: (_) @scope.name) @scope
