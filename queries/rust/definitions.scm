; Declarations index for Rust (docs/drift.md). Capture names:
;   @def.<kind>  the declaration node; its kind (function, struct, ...). Functions inside an `impl`
;                or `trait` become methods; container, `exported` and signature are computed by
;                engine/src/index.rs from the node.
;   @name        the declared name.
;   @import      a `use` declaration (bindings and re-exports).
;   @flag        a string literal naming a command-line flag (clap builder `.long("x")`).
;   @impl        an `impl` block (facts about its type: its trait, macros that add members).
;   @itemmacro   a macro invocation; kept only at item level (it may declare items).
;   @macrodef    a `macro_rules!` definition (the words its transcribers write).
; Clap derive fields (`#[arg(long)]`) are read from the attributes of each field.

(function_item name: (identifier) @name) @def.function
(function_signature_item name: (identifier) @name) @def.function
(struct_item name: (type_identifier) @name) @def.struct
(union_item name: (type_identifier) @name) @def.struct
(enum_item name: (type_identifier) @name) @def.enum
(enum_variant name: (identifier) @name) @def.variant
(trait_item name: (type_identifier) @name) @def.trait
(type_item name: (type_identifier) @name) @def.type_alias
(associated_type name: (type_identifier) @name) @def.type_alias
(const_item name: (identifier) @name) @def.constant
(static_item name: (identifier) @name) @def.variable
(mod_item name: (identifier) @name) @def.module
(macro_definition name: (identifier) @name) @def.macro
(field_declaration name: (field_identifier) @name) @def.field

(use_declaration) @import

; `impl Trait for Type`, and macros invoked in an impl block or on it (engine/src/index/extract/rust.rs).
(impl_item) @impl

; A macro called at item level (`thread_local! { ... }`, `num!(u8);`): it may declare items.
(macro_invocation) @itemmacro
(macro_definition) @macrodef

(call_expression
  function: (field_expression field: (field_identifier) @_long)
  arguments: (arguments . (string_literal) @flag)
  (#eq? @_long "long"))
