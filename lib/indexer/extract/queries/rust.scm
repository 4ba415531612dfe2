; Rust. `impl` blocks qualify their methods by the type (`Type.method`); `mod` blocks
; prefix what they hold. Attributes hold no calls we can read; a macro call's token tree is
; read by the language hook (rust-token-calls.ts).

[(attribute_item) (inner_attribute_item) (token_tree)] @ignore
; `macro_rules! name { … }` is a definition; its rules hold no calls we can read
((macro_definition name: (_) @name) @definition.function (#set! opaque))

(function_item name: (_) @name body: (_) @body @region) @definition.function
(function_signature_item name: (_) @name) @definition.function
((struct_item name: (_) @name body: (_)? @body) @definition.struct (#set! opaque))
((union_item name: (_) @name body: (_)? @body) @definition.struct (#set! opaque))
((enum_item name: (_) @name body: (_)? @body) @definition.enum (#set! opaque))
((type_item name: (_) @name) @definition.type (#set! opaque))
(trait_item name: (_) @name body: (_) @body @region) @definition.trait
(trait_item bounds: (_) @bases) @definition.trait

(impl_item type: (_) @name body: (_) @body) @namespace
(mod_item name: (_) @name body: (_) @body) @namespace

(static_item name: (_) @state)
(const_item name: (_) @state)
(static_item (mutable_specifier) name: (_) @staticMut)

(call_expression function: (_) @callee arguments: (_) @arguments) @call
((macro_invocation macro: (_) @callee) @macro (#set! opaque))
(assignment_expression left: (_) @write)
(compound_assignment_expr left: (_) @write)

(use_declaration argument: (_) @use)
(extern_crate_declaration name: (_) @module alias: (_)? @bind) @import
