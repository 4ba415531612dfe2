; Java. A type's scope is its body; methods are symbols only directly in a class body
; (those of anonymous classes belong to the method around them).

(class_declaration name: (_) @name body: (_) @body @region) @definition.class
(record_declaration name: (_) @name body: (_) @body @region) @definition.class
(enum_declaration name: (_) @name body: (_) @body @region) @definition.enum
(interface_declaration name: (_) @name body: (_) @body @region) @definition.interface
(annotation_type_declaration name: (_) @name body: (_) @body @region) @definition.interface
(class_declaration [(superclass) (super_interfaces)] @bases) @definition.class
(record_declaration (super_interfaces) @bases) @definition.class
(enum_declaration (super_interfaces) @bases) @definition.enum
(interface_declaration (extends_interfaces) @bases) @definition.interface
(class_declaration (modifiers [(marker_annotation) (annotation)] @decorator)) @definition.class
(record_declaration (modifiers [(marker_annotation) (annotation)] @decorator)) @definition.class
(enum_declaration (modifiers [(marker_annotation) (annotation)] @decorator)) @definition.enum
(interface_declaration (modifiers [(marker_annotation) (annotation)] @decorator)) @definition.interface
(annotation_type_declaration (modifiers [(marker_annotation) (annotation)] @decorator)) @definition.interface

(method_declaration name: (_) @name body: (_)? @body) @definition.method
(constructor_declaration name: (_) @name body: (_) @body) @definition.method
(compact_constructor_declaration name: (_) @name body: (_) @body) @definition.method
[(method_declaration (modifiers [(marker_annotation) (annotation)] @decorator))
 (constructor_declaration (modifiers [(marker_annotation) (annotation)] @decorator))
 (compact_constructor_declaration (modifiers [(marker_annotation) (annotation)] @decorator))] @definition.method
[(method_declaration (throws (_) @type)) (constructor_declaration (throws (_) @type))] @definition.method

;; a field bound to code: a lambda is a method of the class, an anonymous class holds its methods (`A.task.run`)
(field_declaration declarator: (variable_declarator name: (_) @name value: (lambda_expression) @region)) @definition.method
(field_declaration
  declarator: (variable_declarator name: (_) @name value: (object_creation_expression type: (_) @base (class_body) @body @region))) @definition.class

(method_invocation object: (_)? @receiver name: (_) @method arguments: (_) @arguments) @call
(explicit_constructor_invocation constructor: (_) @callee arguments: (_) @arguments) @call
(object_creation_expression type: (_) @callee) @new
(throw_statement . (object_creation_expression type: (_) @type arguments: (_) @arguments)) @raise
; An exception built to be returned, wrapped or handed on is reported where it is built.
((object_creation_expression type: (_) @type arguments: (_) @arguments) @raise (#match? @type "(Error|Exception)$"))

(assignment_expression left: (_) @write)
(update_expression . (_) @write)

(field_declaration declarator: (variable_declarator name: (_) @field))
(local_variable_declaration declarator: (variable_declarator name: (_) @local))
(formal_parameter name: (_) @local)
(catch_formal_parameter name: (_) @local)
(enhanced_for_statement name: (_) @local)
(resource name: (_) @local)
(lambda_expression parameters: (identifier) @local)
(lambda_expression parameters: (inferred_parameters (identifier) @local))

(import_declaration (scoped_identifier name: (identifier) @name) @module .) @import
(import_declaration (identifier) @module @name .) @import
(import_declaration (_) @module (asterisk) @wildcard) @import
