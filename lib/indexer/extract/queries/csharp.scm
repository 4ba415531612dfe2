; C#. Namespaces (blocks or file-scoped) prefix what they hold; properties with code
; are members like methods; bare writes to fields are `this.field`.

(class_declaration name: (_) @name body: (_) @body @region) @definition.class
(record_declaration name: (_) @name body: (_)? @body) @definition.class
(struct_declaration name: (_) @name body: (_) @body @region) @definition.struct
(interface_declaration name: (_) @name body: (_) @body @region) @definition.interface
((enum_declaration name: (_) @name body: (_) @body) @definition.enum (#set! opaque))
((delegate_declaration name: (_) @name) @definition.type (#set! opaque))
[(class_declaration (base_list) @bases) (record_declaration (base_list) @bases)] @definition.class
(struct_declaration (base_list) @bases) @definition.struct
(interface_declaration (base_list) @bases) @definition.interface
[(class_declaration (attribute_list) @decorator) (record_declaration (attribute_list) @decorator)] @definition.class
(struct_declaration (attribute_list) @decorator) @definition.struct
(interface_declaration (attribute_list) @decorator) @definition.interface

(method_declaration name: (_) @name body: (_)? @body) @definition.function
(constructor_declaration name: (_) @name body: (_)? @body) @definition.function
(local_function_statement name: (_) @name body: (_)? @body) @definition.function
(property_declaration name: (_) @name accessors: (accessor_list (accessor_declaration body: (_))) @body) @definition.function
(property_declaration name: (_) @name value: (_) @body) @definition.function
; members named by a hook: `~T` destructors, `operator+`, `implicit operator T`, `this[…]` indexers, events with accessors
(destructor_declaration name: (_) @name body: (_) @body) @definition.function
(operator_declaration operator: _ @name body: (_) @body) @definition.function
(conversion_operator_declaration type: (_) @name body: (_) @body) @definition.function
(indexer_declaration parameters: (_) @name accessors: (accessor_list (accessor_declaration body: (_))) @body) @definition.function
(indexer_declaration parameters: (_) @name value: (_) @body) @definition.function
(event_declaration name: (_) @name accessors: (accessor_list (accessor_declaration body: (_))) @body) @definition.function
[(method_declaration (attribute_list) @decorator)
 (constructor_declaration (attribute_list) @decorator)
 (property_declaration (attribute_list) @decorator)] @definition.function

(namespace_declaration name: (_) @name body: (_) @body) @namespace
(file_scoped_namespace_declaration name: (_) @name) @namespace

(invocation_expression function: (_) @callee arguments: (_) @arguments) @call
(object_creation_expression type: (_) @callee) @new
(throw_statement (object_creation_expression type: (_) @type arguments: (_)? @arguments)) @raise
(throw_expression (object_creation_expression type: (_) @type arguments: (_)? @arguments)) @raise
; An exception built to be returned, wrapped or handed on is reported where it is built.
((object_creation_expression type: (_) @type arguments: (_)? @arguments) @raise (#match? @type "(Error|Exception)$"))

(assignment_expression left: (_) @write)
(postfix_unary_expression (_) @write)
(field_declaration (variable_declaration (variable_declarator name: (_) @field)))
(parameter name: (_) @local)
(variable_declarator name: (_) @local)
(foreach_statement left: (_) @local)
(catch_declaration name: (_) @local)
(implicit_parameter) @local

(using_directive) @using
