; JavaScript beyond what it shares with TypeScript: `extends` is one expression and
; class fields name their `property`.

(class_body (field_definition property: (computed_property_name) @ignore))
(method_definition (decorator) @ignore)
(field_definition (decorator) @ignore)
(class_body (method_definition (decorator . (_) @decorator)) @definition.method)

(class_declaration (class_heritage) @bases) @definition.class
(variable_declarator value: (class (class_heritage) @bases)) @definition.class
(_ (assignment_expression right: (class (class_heritage) @bases)) @definition.class)
(export_statement value: (class (class_heritage) @bases)) @definition.class

(class_body
  (field_definition
    property: (_) @name
    value: [(arrow_function) (function_expression) (generator_function)] @region)
  @definition.method)
(class_body (field_definition (decorator . (_) @decorator) value: [(arrow_function) (function_expression) (generator_function)]) @definition.method)
