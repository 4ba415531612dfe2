; C and C++ (one grammar). Function definitions are symbols and prototypes are not, so
; a call resolves to a body; a header pairs with its source file in resolution.

(function_definition body: (_) @body) @definition.function
(preproc_function_def name: (_) @name parameters: (_) @signature) @definition.function
(template_declaration (function_definition) @definition.function) @outer
(struct_specifier name: (_) @name body: (_) @body @region) @definition.struct
(union_specifier name: (_) @name body: (_) @body @region) @definition.struct
(enum_specifier name: (_) @name body: (_) @body @region) @definition.enum
(class_specifier name: (_) @name body: (_) @body @region) @definition.class
(template_declaration (class_specifier body: (_)) @definition.class) @outer
(template_declaration (struct_specifier body: (_)) @definition.struct) @outer
(class_specifier (base_class_clause) @bases) @definition.class
(struct_specifier (base_class_clause) @bases) @definition.struct
(type_definition declarator: (_) @name) @definition.type
((alias_declaration name: (_) @name) @definition.type (#set! cap))
(namespace_definition name: (_)? @name body: (_) @body) @namespace

(call_expression function: (_) @callee arguments: (_) @arguments) @call
(new_expression type: (_) @callee) @new
(throw_statement . (call_expression function: (_) @type arguments: (_) @arguments)) @raise
(throw_statement . (new_expression type: (_) @type arguments: (_)? @arguments)) @raise

(assignment_expression left: (_) @write)
(update_expression argument: (_) @write)
(parameter_declaration declarator: (_) @parameter)
(declaration declarator: (_) @declared)

(preproc_include path: (_) @module) @import
(using_declaration "namespace" (_) @module @wildcard) @import
(using_declaration (qualified_identifier scope: (_) @module name: (identifier) @name)) @import
