; JavaScript, TypeScript and TSX. A definition takes its range and export status from
; the statement around it (`export`, `const f = …`, `module.exports = …`); decorators,
; class heritage and computed member names are not code of the definition.

(class_declaration (decorator) @ignore)
(export_statement (decorator) @ignore)
(class (decorator) @ignore)
(class_heritage) @ignore
(class_body (method_definition name: (computed_property_name) @ignore))
(variable_declarator name: [(object_pattern) (array_pattern)] @ignore)

; ---- declarations
(function_declaration name: (_) @name body: (_) @body) @definition.function
(generator_function_declaration name: (_) @name body: (_) @body) @definition.function
(class_declaration name: (_) @name body: (_) @body) @definition.class
(class_declaration (decorator . (_) @decorator)) @definition.class
(export_statement
  (decorator . (_) @decorator)*
  declaration: [(function_declaration) (generator_function_declaration)] @definition.function) @outer
(export_statement (decorator . (_) @decorator)* declaration: (class_declaration) @definition.class) @outer

(class_body (method_definition name: (_) @name body: (_) @body) @definition.method)

; `const f = () => …`, `const C = class …`, and objects whose methods become `o.m`
(_ (variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)] @region)
  @definition.function) @outer
(_ (variable_declarator name: (identifier) @name value: (class) @region) @definition.class) @outer
(export_statement
  declaration: (_ (variable_declarator
    value: [(arrow_function) (function_expression) (generator_function)]) @definition.function)) @outer
(export_statement declaration: (_ (variable_declarator value: (class)) @definition.class)) @outer
; a module-level variable made by a call whose last argument is a function
; (`export const S = factory("S", (inst) => …)`, `const C = memo(function C() …)`): that
; function, named after the variable
(program (_ (variable_declarator
  name: (identifier) @name
  value: (call_expression
    arguments: (arguments [(arrow_function) (function_expression) (generator_function)] @region .)))
  @definition.function) @outer)
(export_statement
  declaration: (_ (variable_declarator
    name: (identifier) @name
    value: (call_expression
      arguments: (arguments [(arrow_function) (function_expression) (generator_function)] @region .)))
    @definition.function)) @outer
(variable_declarator name: (identifier) @name value: (object) @body) @object
(variable_declarator name: (identifier) value: (object (method_definition name: (_) @name body: (_) @body) @definition.method))
(variable_declarator
  name: (identifier)
  value: (object
    (pair
      key: (_) @name
      value: [(arrow_function) (function_expression) (generator_function)] @region)
    @definition.method))
(variable_declarator name: (_) @name value: (_)? @value) @declarator

; `export default …` and CommonJS `module.exports = …` / `exports.name = …`
(export_statement
  value: [(arrow_function) (function_expression) (generator_function)] @region) @definition.function
(export_statement value: (class) @region) @definition.class
; `export default browser ? { write() {…} } : { write() {…} }`: the members of either object
(export_statement value: (ternary_expression consequence: (object) @body)) @object
(export_statement value: (ternary_expression alternative: (object) @body)) @object
(export_statement
  value: (ternary_expression
    consequence: (object (method_definition name: (_) @name body: (_) @body) @definition.method)))
(export_statement
  value: (ternary_expression
    alternative: (object (method_definition name: (_) @name body: (_) @body) @definition.method)))
; `export default supported && function adapter(…) {…}`: the function when the condition holds
(export_statement
  value: (binary_expression
    right: [(arrow_function) (function_expression) (generator_function)] @region)) @definition.function
(export_statement
  value: (binary_expression
    right: (parenthesized_expression [(arrow_function) (function_expression) (generator_function)] @region))) @definition.function
(export_statement value: (object) @body) @object
(export_statement value: (object (method_definition name: (_) @name body: (_) @body) @definition.method))
(export_statement
  value: (object
    (pair
      key: (_) @name
      value: [(arrow_function) (function_expression) (generator_function)] @region)
    @definition.method))
((_ (assignment_expression
  left: (_) @name
  right: [(arrow_function) (function_expression) (generator_function)] @region)
  @definition.function) @outer
  (#match? @name "^(module\\.exports|(module\\.)?exports\\.[\\w$]+)$"))
((_ (assignment_expression left: (_) @name right: (class) @region) @definition.class) @outer
  (#match? @name "^(module\\.exports|(module\\.)?exports\\.[\\w$]+)$"))
((assignment_expression left: (_) @name right: (object) @body) @object
  (#match? @name "^(module\\.exports|(module\\.)?exports\\.[\\w$]+)$"))
((assignment_expression left: (_) @_left right: (object (method_definition name: (_) @name body: (_) @body) @definition.method))
  (#match? @_left "^(module\\.exports|(module\\.)?exports\\.[\\w$]+)$"))
((assignment_expression
  left: (_) @_left
  right: (object
    (pair
      key: (_) @name
      value: [(arrow_function) (function_expression) (generator_function)] @region)
    @definition.method))
  (#match? @_left "^(module\\.exports|(module\\.)?exports\\.[\\w$]+)$"))

; ES5 classes and namespaces: `C.prototype.m = function …`, `C.prototype = { m() {…} }` and
; `Object.assign(C.prototype, { m() {…} })` make the method `C.m`; `o.m = function …` makes `o.m`
((_ (assignment_expression
  left: (member_expression
    object: (member_expression object: (identifier) property: (property_identifier) @_prototype)
    property: (_) @name)
  right: [(arrow_function) (function_expression) (generator_function)] @region)
  @definition.method) @outer
  (#eq? @_prototype "prototype"))
((_ (assignment_expression
  left: (member_expression object: (identifier) @_object property: (property_identifier) @name)
  right: [(arrow_function) (function_expression) (generator_function)] @region)
  @definition.method) @outer
  (#not-any-of? @_object "module" "exports"))
((assignment_expression
  left: (member_expression object: (identifier) @name property: (property_identifier) @_prototype)
  right: (object) @body) @object
  (#eq? @_prototype "prototype") (#set! prototype))
((assignment_expression
  left: (member_expression property: (property_identifier) @_prototype)
  right: (object (method_definition name: (_) @name body: (_) @body) @definition.method))
  (#eq? @_prototype "prototype"))
((assignment_expression
  left: (member_expression property: (property_identifier) @_prototype)
  right: (object
    (pair key: (_) @name value: [(arrow_function) (function_expression) (generator_function)] @region)
    @definition.method))
  (#eq? @_prototype "prototype"))
((call_expression
  function: (member_expression object: (identifier) @_object property: (property_identifier) @_assign)
  arguments: (arguments
    . (member_expression object: (identifier) @name property: (property_identifier) @_prototype)
    (object) @body)) @object
  (#eq? @_object "Object") (#eq? @_assign "assign") (#eq? @_prototype "prototype") (#set! prototype))
((call_expression
  function: (member_expression object: (identifier) @_object property: (property_identifier) @_assign)
  arguments: (arguments
    . (member_expression property: (property_identifier) @_prototype)
    (object (method_definition name: (_) @name body: (_) @body) @definition.method)))
  (#eq? @_object "Object") (#eq? @_assign "assign") (#eq? @_prototype "prototype"))
((call_expression
  function: (member_expression object: (identifier) @_object property: (property_identifier) @_assign)
  arguments: (arguments
    . (member_expression property: (property_identifier) @_prototype)
    (object
      (pair key: (_) @name value: [(arrow_function) (function_expression) (generator_function)] @region)
      @definition.method)))
  (#eq? @_object "Object") (#eq? @_assign "assign") (#eq? @_prototype "prototype"))

; names a module exports by reference
(export_statement (export_clause (export_specifier name: (_) @exportName)) !source)
(export_statement value: (identifier) @exportName)
(export_statement value: (object [(shorthand_property_identifier) @exportName (pair value: (identifier) @exportName)]))
((assignment_expression left: (_) @_left right: (identifier) @exportName)
  (#match? @_left "^(module\\.exports|(module\\.)?exports\\.[\\w$]+)$"))
((assignment_expression
  left: (_) @_left
  right: (object [(shorthand_property_identifier) @exportName (pair value: (identifier) @exportName)]))
  (#match? @_left "^(module\\.exports|(module\\.)?exports\\.[\\w$]+)$"))

; ---- calls, errors, writes, bindings
((call_expression function: (_) @callee arguments: (_)? @arguments) @call
  (#not-any-of? @callee "require" "import"))
(new_expression constructor: (_) @callee) @new
(throw_statement . (new_expression constructor: (_) @type arguments: (_)? @arguments)) @raise
(throw_statement . (call_expression function: (_) @type arguments: (_)? @arguments)) @raise
; An error built to be rejected, returned or passed on is reported where it is built.
((new_expression constructor: (_) @type arguments: (_)? @arguments) @raise (#match? @type "(Error|Exception)$"))

(assignment_expression left: (_) @write)
(augmented_assignment_expression left: (_) @write)
(update_expression argument: (_) @write)

(formal_parameters) @pattern
(arrow_function parameter: (identifier) @local)
(catch_clause parameter: (_) @pattern)
(for_in_statement left: (_) @pattern)

; ---- imports
(import_statement source: (_) @module) @import
(import_statement (import_clause (identifier) @default) source: (_) @module) @import
(import_statement (import_clause (namespace_import (identifier) @bind) @wildcard) source: (_) @module) @import
; lists are read whole: one match per specifier would keep a state open per specifier
(import_statement (import_clause (named_imports) @names) source: (_) @module) @import
(export_statement source: (_) @module) @import
((export_statement (export_clause) @names source: (_) @module) @import (#set! unaliased))
(export_statement "*" @wildcard source: (_) @module) @import
(export_statement (namespace_export) @wildcard source: (_) @module) @import
((call_expression function: (identifier) @_require arguments: (arguments . [(string) (template_string)] @module)) @import
  (#eq? @_require "require"))
(variable_declarator
  name: (identifier) @bind
  value: ((call_expression function: (identifier) @_require arguments: (arguments . (string))) @import
    (#eq? @_require "require")))
(variable_declarator
  name: (object_pattern
    [(shorthand_property_identifier_pattern) @name (pair_pattern key: (_) @name value: (identifier)? @alias)])
  value: ((call_expression function: (identifier) @_require arguments: (arguments . (string))) @import
    (#eq? @_require "require")))
(call_expression function: (import) arguments: (arguments . [(string) (template_string)] @module)) @import
