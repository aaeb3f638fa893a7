; Placement facts for Python. Capture names: see queries/rust/placement.scm and grammars/README.md.

(return_statement) @diverges
(raise_statement) @diverges
(break_statement) @diverges
(continue_statement) @diverges

(function_definition name: (identifier) @function.name body: (block) @function.body) @function

(class_definition name: (identifier) @scope.name) @scope
