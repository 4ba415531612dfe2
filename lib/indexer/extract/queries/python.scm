; Python. A decorated definition takes its range and decorators from its wrapper;
; decorators, default values and base classes run in the enclosing scope.

(function_definition
  name: (identifier) @name @signature
  parameters: (parameters) @signature @parameters
  return_type: (type)? @signature
  body: (block) @body @region) @definition.function

(class_definition
  name: (identifier) @name @signature
  type_parameters: (type_parameter)? @signature
  superclasses: (argument_list
    [(expression) (list_splat) (dictionary_splat) (parenthesized_expression)]* @base)? @signature
  body: (block) @body @region) @definition.class

(decorated_definition
  (decorator . (_) @decorator)
  definition: (function_definition) @definition.function) @outer

(decorated_definition
  (decorator . (_) @decorator)
  definition: (class_definition) @definition.class) @outer

; Annotations are types, not code that runs.
(type) @ignore

(call function: (_) @callee arguments: (_) @arguments) @call

; The raised type is named by the exception or the callee that builds it.
(raise_statement . [(identifier) (none) (true) (false)] @type) @raise
(raise_statement . (attribute attribute: (identifier) @type)) @raise
(raise_statement . (call function: [(identifier) (none) (true) (false)] @type)) @raise
(raise_statement . (call function: (attribute attribute: (identifier) @type))) @raise
(raise_statement . (call arguments: (_) @arguments)) @raise
; `raise NetworkError(…) if wrap else exc`: the error raised in either branch.
(raise_statement . (conditional_expression [(call function: (identifier) @type) (call function: (attribute attribute: (identifier) @type))])) @raise

; Writes inside functions; module-level assignments are module state.
(assignment left: (_) @write)
(augmented_assignment left: (_) @write)
((delete_statement (_) @write) (#set! delete))
(assignment left: (_) @targets right: (_))

(for_statement left: (_) @locals)
(for_in_clause left: (_) @locals)
(as_pattern alias: (_) @locals)
(named_expression name: (_) @locals)
(global_statement (identifier) @global)
(nonlocal_statement (identifier) @local)

(import_statement
  name: [(dotted_name) @module (aliased_import name: (_) @module alias: (_) @bind)]) @import
((import_from_statement
  module_name: (_) @module
  [(wildcard_import) @wildcard
   (dotted_name) @name
   (aliased_import name: (_) @name alias: (_) @alias)]*) @import
  (#set! compact))
