; Placement facts for Rust. Capture names are the contract (grammars/README.md):
;   @refuse.<reason>       a probe may not be placed anywhere inside the captured node
;   @refuse_file.<reason>  a probe may not be placed anywhere in a file with such a node
;   @diverges              a statement that always diverges: nothing after it is reachable
;   @function / @function.name / @function.body   a function or method for --function
;   @scope / @scope.name   a named scope that qualifies the functions inside it
;   @scope.trait           the trait a scope implements: its methods are <Type as Trait>::method

(const_item) @refuse.const_context
(static_item) @refuse.const_context
(const_block) @refuse.const_context
(function_item (function_modifiers) @_mods (#match? @_mods "const")) @refuse.const_context

((inner_attribute_item (attribute (identifier) @_attr)) (#eq? @_attr "no_std")) @refuse_file.no_std_crate
;   @unless.<reason>       the file is refused for <reason> only where the `cfg_attr` condition
;                          whose arguments are captured holds: the probe is compiled under its
;                          negation (`conditional_attribute` in language.toml)
; `#![cfg_attr(not(feature = "std"), no_std)]`: a no_std crate root only without `std`.
(inner_attribute_item
  (attribute (identifier) @_cfg arguments: (token_tree (identifier) @_attr) @unless.no_std_crate)
  (#eq? @_cfg "cfg_attr") (#eq? @_attr "no_std"))

(expression_statement (return_expression)) @diverges
(expression_statement (break_expression)) @diverges
(expression_statement (continue_expression)) @diverges
(block (return_expression) @diverges)
(block (break_expression) @diverges)
(block (continue_expression) @diverges)
(expression_statement
  (macro_invocation
    macro: (identifier) @_mac
    (#any-of? @_mac "panic" "unreachable" "todo" "unimplemented"))) @diverges
(expression_statement
  (macro_invocation
    macro: (scoped_identifier name: (identifier) @_mac)
    (#any-of? @_mac "panic" "unreachable" "todo" "unimplemented"))) @diverges

(function_item name: (identifier) @function.name body: (block) @function.body) @function

(impl_item type: (_) @scope.name) @scope
(impl_item trait: (_) @scope.trait) @scope
(trait_item name: (type_identifier) @scope.name) @scope
(mod_item name: (identifier) @scope.name) @scope
