; TypeScript and TSX beyond what they share with JavaScript.

; Types hold no code that runs.
[(type_annotation) (type_arguments) (type_parameters) (object_type) (interface_body)] @ignore
(class_body (public_field_definition name: (computed_property_name) @ignore))
(abstract_class_declaration (decorator) @ignore)
(public_field_definition (decorator) @ignore)

(abstract_class_declaration name: (_) @name body: (_) @body) @definition.class
(abstract_class_declaration (decorator . (_) @decorator)) @definition.class
(export_statement (decorator . (_) @decorator)* declaration: (abstract_class_declaration) @definition.class) @outer
(class_declaration (class_heritage [(extends_clause) (implements_clause)] @bases)) @definition.class
(abstract_class_declaration (class_heritage [(extends_clause) (implements_clause)] @bases)) @definition.class
(variable_declarator value: (class (class_heritage [(extends_clause) (implements_clause)] @bases))) @definition.class
(_ (assignment_expression right: (class (class_heritage [(extends_clause) (implements_clause)] @bases))) @definition.class)
(export_statement value: (class (class_heritage [(extends_clause) (implements_clause)] @bases))) @definition.class

;; `const create = ((state) => …) as Create`, `… satisfies Handler`: the function inside the cast
(_ (variable_declarator
  name: (identifier) @name
  value: [(as_expression . (parenthesized_expression [(arrow_function) (function_expression) (generator_function)] @region))
          (satisfies_expression . (parenthesized_expression [(arrow_function) (function_expression) (generator_function)] @region))
          (as_expression . [(arrow_function) (function_expression) (generator_function)] @region)
          (satisfies_expression . [(arrow_function) (function_expression) (generator_function)] @region)])
  @definition.function) @outer
(export_statement
  declaration: (_ (variable_declarator
    value: [(as_expression . (parenthesized_expression [(arrow_function) (function_expression) (generator_function)]))
            (satisfies_expression . (parenthesized_expression [(arrow_function) (function_expression) (generator_function)]))
            (as_expression . [(arrow_function) (function_expression) (generator_function)])
            (satisfies_expression . [(arrow_function) (function_expression) (generator_function)])]) @definition.function)) @outer

(class_body (abstract_method_signature name: (_) @name) @definition.method)
(class_body
  (public_field_definition
    name: (_) @name
    value: [(arrow_function) (function_expression) (generator_function)] @region)
  @definition.method)
(class_body (public_field_definition (decorator . (_) @decorator) value: [(arrow_function) (function_expression) (generator_function)]) @definition.method)

((interface_declaration name: (_) @name body: (_) @body) @definition.interface (#set! opaque))
(interface_declaration (extends_type_clause) @bases) @definition.interface
((type_alias_declaration name: (_) @name) @definition.type (#set! opaque) (#set! cap))
((enum_declaration name: (_) @name body: (_) @body) @definition.enum (#set! opaque))
(export_statement declaration: (interface_declaration) @definition.interface) @outer
(export_statement declaration: (type_alias_declaration) @definition.type) @outer
(export_statement declaration: (enum_declaration) @definition.enum) @outer

(internal_module name: (_) @name body: (_) @body) @namespace
(module name: (_) @name body: (_) @body) @namespace

(import_statement (import_require_clause (identifier) @bind source: (_) @module)) @import
