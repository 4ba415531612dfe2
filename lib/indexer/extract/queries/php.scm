; PHP. Namespaces prefix what follows them; classes, interfaces, traits and enums hold
; methods; `use` imports a class by its qualified name (found by its autoload path).

(class_declaration name: (_) @name body: (_) @body @region) @definition.class
(interface_declaration name: (_) @name body: (_) @body @region) @definition.interface
(trait_declaration name: (_) @name body: (_) @body @region) @definition.trait
(enum_declaration name: (_) @name body: (_) @body @region) @definition.enum
(class_declaration [(base_clause) (class_interface_clause)] @bases) @definition.class
(interface_declaration (base_clause) @bases) @definition.interface
(enum_declaration (class_interface_clause) @bases) @definition.enum
(class_declaration attributes: (_) @decorator) @definition.class
(method_declaration name: (_) @name body: (_)? @body) @definition.function
(method_declaration attributes: (_) @decorator) @definition.function
(function_definition name: (_) @name body: (_) @body) @definition.function
(namespace_definition name: (_)? @name body: (_)? @body) @namespace
(declaration_list (use_declaration (_) @value) @mixin)

(function_call_expression function: (_) @callee arguments: (_) @arguments) @call
(member_call_expression object: (_) @receiver name: (_) @method arguments: (_) @arguments) @call
(nullsafe_member_call_expression object: (_) @receiver name: (_) @method arguments: (_) @arguments) @call
(scoped_call_expression scope: (_) @receiver name: (_) @method arguments: (_) @arguments) @call
(object_creation_expression [(name) (qualified_name)] @callee) @new
(throw_expression (object_creation_expression [(name) (qualified_name)] @type (arguments)? @arguments)) @raise
; An exception built to be returned, wrapped or handed on is reported where it is built.
((object_creation_expression [(name) (qualified_name)] @type (arguments)? @arguments) @raise (#match? @type "(Error|Exception)$"))

(assignment_expression left: (_) @write)
(augmented_assignment_expression left: (_) @write)
(update_expression (_) @write)

(namespace_use_declaration) @use
[(require_expression) (require_once_expression) (include_expression) (include_once_expression)] @require
