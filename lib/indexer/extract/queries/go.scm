; Go. Methods are qualified by their receiver type; types are read whole and own no
; code; package-level vars are module state.

(function_declaration name: (_) @name body: (_)? @body @region) @definition.function
(method_declaration name: (_) @name body: (_)? @body @region) @definition.method
(source_file (type_declaration [(type_spec name: (_) @name) (type_alias name: (_) @name)] @definition.type))
(ERROR (type_declaration [(type_spec name: (_) @name) (type_alias name: (_) @name)] @definition.type))

(call_expression function: (_) @callee arguments: (_) @arguments) @call

(assignment_statement left: (expression_list (_) @write))
(inc_statement . (_) @write)
(dec_statement . (_) @write)

(func_literal parameters: (parameter_list (_ name: (_) @local)))
(short_var_declaration left: (expression_list (identifier) @local))
(range_clause left: (expression_list (identifier) @local))
(var_declaration (var_spec name: (_) @local))
(var_declaration (var_spec_list (var_spec name: (_) @local)))
((source_file (var_declaration (var_spec name: (_) @state))) (#not-eq? @state "_"))
((source_file (var_declaration (var_spec_list (var_spec name: (_) @state)))) (#not-eq? @state "_"))

(import_spec path: (_) @module) @import
(import_spec name: (dot) @wildcard) @import
(import_spec name: [(package_identifier) (blank_identifier)] @bind) @import
