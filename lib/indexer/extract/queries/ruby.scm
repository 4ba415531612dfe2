; Ruby. Classes and modules nest; `def self.x` and methods in `class << self` are the
; class's methods; a bare identifier that is no local variable is a method call.

(module name: (_) @name @signature body: (_)? @body) @definition.module
(class name: (_) @name @signature superclass: (_)? @signature @bases body: (_)? @body) @definition.class
(method name: (_) @name @signature parameters: (_)? @signature body: (_)? @body) @definition.function
(singleton_method name: (_) @name @signature parameters: (_)? @signature body: (_)? @body) @definition.function
(singleton_class) @namespace
;; a class made by a call with its body in a block: `Request = Struct.new(:path, :params) do … end`,
;; `Point = Data.define(:x, :y) do … end`, `Handler = Class.new(Base) do … end`: the block's methods are its methods
((assignment left: (constant) @name right: (call receiver: (constant) @_r method: (_) @_m block: (_) @region)) @definition.class
  (#any-of? @_r "Struct" "Class" "Data") (#any-of? @_m "new" "define"))
;; … and of a Struct subclass (`Env = Options.new(:method, :body) do def …`), when its block defines methods
((assignment left: (constant) @name right: (call receiver: (constant) method: (_) @_m block: (do_block (body_statement (method))) @region)) @definition.class
  (#eq? @_m "new"))
;; a method made by a call with its body in a block: `define_method(:ok?) { … }` (accessors
;; from `attr_reader` and names from `alias_method` hold no code of their own: no symbols)
((call method: (_) @_m arguments: (argument_list . [(simple_symbol) (string)] @name) block: (_) @region) @definition.function
  (#eq? @_m "define_method"))

((call receiver: (_)? @receiver method: (_) @method arguments: (_)? @arguments) @call
  (#not-any-of? @method "raise" "fail" "require" "require_relative" "include" "extend" "prepend" "private" "protected" "public"))
(identifier) @bareword
((call method: (_) @_m arguments: (argument_list . [(constant) (scope_resolution)] @type)) @raise (#any-of? @_m "raise" "fail"))
((call method: (_) @_m arguments: (argument_list . (call receiver: (_) @type method: (_) @_new))) @raise
  (#any-of? @_m "raise" "fail") (#eq? @_new "new"))
; `raise options[:foul] ? NetworkError.new(…) : e`: the error raised in either branch.
((call method: (_) @_m arguments: (argument_list . (conditional consequence: (call receiver: (_) @type method: (_) @_new)))) @raise
  (#any-of? @_m "raise" "fail") (#eq? @_new "new"))
((call method: (_) @_m arguments: (argument_list . (conditional alternative: (call receiver: (_) @type method: (_) @_new)))) @raise
  (#any-of? @_m "raise" "fail") (#eq? @_new "new"))
((call method: (_) @_m arguments: (argument_list . (conditional consequence: [(constant) (scope_resolution)] @type))) @raise
  (#any-of? @_m "raise" "fail"))
((call method: (_) @_m arguments: (argument_list . (conditional alternative: [(constant) (scope_resolution)] @type))) @raise
  (#any-of? @_m "raise" "fail"))
((call method: (_) @_m arguments: (_) @arguments) @raise (#any-of? @_m "raise" "fail"))
((call method: (_) @_m arguments: (argument_list [(constant) (scope_resolution)] @value)) @mixin
  (#any-of? @_m "include" "extend" "prepend"))
((call method: (_) @_m arguments: (argument_list . (string) @module)) @require (#any-of? @_m "require" "require_relative" "load"))

(assignment left: (_) @write)
(operator_assignment left: (_) @write)
(assignment left: (constant) @state)
[(method_parameters (identifier) @local) (block_parameters (identifier) @local) (lambda_parameters (identifier) @local)]
[(optional_parameter name: (_) @local) (keyword_parameter name: (_) @local) (splat_parameter name: (_) @local)
 (hash_splat_parameter name: (_) @local) (block_parameter name: (_) @local)]
[(assignment left: (identifier) @local) (operator_assignment left: (identifier) @local)
 (left_assignment_list (identifier) @local) (exception_variable (identifier) @local) (for pattern: (identifier) @local)]
