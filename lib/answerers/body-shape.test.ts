/** What a function's body does, read from its source in several languages. */
import { describe, expect, it } from "vitest";
import {
  assignedFields,
  bodyShape,
  bodyStart,
  bodyStartPastDoc,
  decidesNothing,
  declaredFields,
  forwards,
  pastLeadingComment,
} from "./body-shape.ts";

const lines = (text: string) => text.split("\n");

describe("bodyShape", () => {
  it.each([
    [
      "Go, with its doc comment in the span",
      "// StrictSlash defines the trailing slash behavior.\n//\n// When true, a redirect is made.\nfunc (r *Router) StrictSlash(value bool) *Router {\n\tr.strictSlash = value\n\treturn r\n}",
    ],
    [
      "Ruby, with its doc comment in the span",
      "# Proceed to the location header.\n#\n#   follow_redirects true\ndef follow_redirects(value = true)\n  default_options[:follow_redirects] = value\nend",
    ],
    ["Java", "public Builder retries(int retries) {\n    this.retries = retries;\n    return this;\n}"],
    ["Python", 'def set_timeout(self, timeout):\n    """Store the timeout."""\n    self._timeout = timeout'],
    ["Rust", "pub fn max_level(mut self, level: Level) -> Self {\n    self.max_level = level;\n    self\n}"],
  ])("knows a %s setter", (_language, text) => {
    const shape = bodyShape(lines(text));
    expect(shape.setter).toBe(true);
    expect(decidesNothing(lines(text))).toBe(true);
  });

  it.each([
    ["Go", "func (cb *circuitBreaker) Allow() (Promise, error) {\n\treturn cb.throttle.allow()\n}"],
    ["TypeScript", "/** The name. */\nget name(): string {\n  return this.#name;\n}"],
    ["C#", "/// <summary>The mode.</summary>\npublic CascadeMode Mode {\n  get { return _mode; }\n}"],
  ])("knows a %s getter or wrapper that hands the work on", (_language, text) => {
    expect(bodyShape(lines(text)).handsOn).toBe(true);
  });

  it.each([
    [
      "Ruby",
      "def handle_redirection\n  if last_response.code != '307'\n    self.http_method = Net::HTTP::Get\n  end\n  perform\nend",
    ],
    ["Go", "func (b *googleBreaker) accept() error {\n\treturn b.k * accepts < total\n}"],
    [
      "PHP",
      "public function write(string $name, string $value)\n{\n    if ($this->isExternallyDefined($name)) {\n        return false;\n    }\n    $this->loaded[$name] = '';\n    return true;\n}",
    ],
  ])("keeps a %s body that decides something", (_language, text) => {
    const shape = bodyShape(lines(text));
    expect(shape.decides).toBe(true);
    expect(decidesNothing(lines(text))).toBe(false);
  });

  it.each([
    [
      "Rust, clamping its argument",
      "pub fn max_open(mut self, mut n: usize) -> Self {\n    if n == 0 {\n        n = 1;\n    }\n    self.opts.max_open = n;\n    self\n}",
    ],
    [
      "Rust, keeping another bound in step",
      "pub fn max_depth(mut self, depth: usize) -> Self {\n    self.opts.max_depth = depth;\n    if self.opts.max_depth < self.opts.min_depth {\n        self.opts.min_depth = self.opts.max_depth;\n    }\n    self\n}",
    ],
    [
      "Java, asserting its argument and converting its unit",
      "public JwtParserBuilder clockSkewSeconds(long seconds) throws IllegalArgumentException {\n    Assert.isTrue(seconds <= MAX_CLOCK_SKEW_MILLIS, MAX_CLOCK_SKEW_ILLEGAL_MSG);\n    this.allowedClockSkewMillis = Math.max(0, seconds * MILLISECONDS_PER_SECOND);\n    return this;\n}",
    ],
    [
      "TypeScript property, asserting its argument",
      "set followRedirect(value: boolean | ((response: PlainResponse) => boolean)) {\n\tassertAny('followRedirect', [is.boolean, is.function], value);\n\tthis._internals.followRedirect = value;\n}",
    ],
    [
      "Go, returning an error for a bad argument",
      'func (c *Client) SetRetries(n int) error {\n\tif n < 0 {\n\t\treturn errors.New("negative retries")\n\t}\n\tc.retries = n\n\treturn nil\n}',
    ],
    [
      "Python, raising for a bad argument",
      "def set_limit(self, limit):\n    if limit < 1:\n        raise ValueError('limit must be positive')\n    self._limit = limit",
    ],
    [
      "C#, with a one-line guard",
      "public void SetDepth(int depth) {\n  if (depth < 0) throw new ArgumentOutOfRangeException(nameof(depth));\n  _depth = depth;\n}",
    ],
  ])("knows a %s for a setter", (_language, text) => {
    const shape = bodyShape(lines(text));
    expect(shape.setter).toBe(true);
    expect(assignedFields(shape.statements).length).toBeGreaterThan(0);
  });

  it.each([
    [
      "an else branch choosing between two stores",
      "def mode=(value)\n  if value\n    @mode = :strict\n  else\n    @mode = :loose\n  end\nend",
    ],
    [
      "a stored computation",
      "public void total(int price, int count) {\n    this.total = price * count + shipping;\n}",
    ],
    [
      "a guard followed by work",
      'func (c *Client) Do(r *Request) error {\n\tif r == nil {\n\t\treturn errors.New("nil request")\n\t}\n\tc.last = r\n\treturn c.send(r)\n}',
    ],
  ])("does not take %s for a setter", (_case, text) => {
    expect(bodyShape(lines(text)).setter).toBe(false);
  });

  it("does not take a body of several calls for a setter", () => {
    const text =
      "func (p promiseWithReason) Reject(reason string) {\n\tp.errWin.add(reason)\n\tp.promise.Reject()\n}";
    expect(bodyShape(lines(text))).toMatchObject({ setter: false, handsOn: false });
  });
});

describe("bodyStart", () => {
  it("skips a C return type on its own line with the signature after it", () => {
    const text = [
      "static ATTRIBUTE_NOINLINE int",
      "OpenObjectFile(uint64_t pc,",
      "               uint64_t *start) {",
      "  if (pc == 0) return -1;",
      "}",
    ];
    expect(text[bodyStart(text)]).toBe("  if (pc == 0) return -1;");
  });

  it("skips a C++ template head", () => {
    const text = ["template <typename T>", "void write(T value) {", "  if (value) flush();", "}"];
    expect(text[bodyStart(text)]).toBe("  if (value) flush();");
  });

  it("does not take a Ruby body's first call for a signature", () => {
    const text = ["def perform", "  validate(options)", "  send_request", "end"];
    expect(text[bodyStart(text)]).toBe("  validate(options)");
  });

  it("skips a signature over several lines and a Rust where clause", () => {
    const text = [
      "/// Sets the filter.",
      "pub fn with_env_filter(",
      "    self,",
      "    filter: impl Into<EnvFilter>,",
      ") -> CollectorBuilder<N, E, EnvFilter, W>",
      "where",
      "    Formatter<N, E, W>: tracing_core::Collect + 'static,",
      "{",
      "    let filter = filter.into();",
      "}",
    ];
    expect(text[bodyStart(text)]).toBe("    let filter = filter.into();");
  });
});

describe("assignedFields", () => {
  it("names the field or option key each assignment stores, in any language", () => {
    expect(
      assignedFields([
        "r.strictSlash = value",
        "default_options[:follow_redirects] = value",
        "@timeout = t",
        "this.opts['retryLimit'] = n;",
        "self.max_level = level;",
        "$this->immutable = true;",
        "x = 1",
        "this.value = v",
      ]),
    ).toEqual(["strictSlash", "follow_redirects", "timeout", "retryLimit", "max_level", "immutable"]);
  });
});

describe("declaredFields", () => {
  it.each([
    [
      "TypeScript, with free text in its doc comments",
      "export type RetryOptions = {\n\t/**\n\tThe number of retries.\n\n\tretry: {\n\t\tlimit: 5,\n\t}\n\t*/\n\tlimit?: number;\n\n\t/** Methods to retry. */\n\tmethods?: string[];\n\tdelay?: (attemptCount: number) => number;\n};",
      ["limit", "methods", "delay"],
    ],
    [
      "Go",
      "type googleBreaker struct {\n\tk     float64\n\tstat  *collection.RollingWindow\n\tproba *mathx.Proba\n}",
      ["stat", "proba"],
    ],
    [
      "Rust",
      "pub struct EnvFilter {\n    statics: directive::Statics,\n    pub(crate) dynamics: directive::Dynamics,\n    has_dynamics: bool,\n}",
      ["statics", "dynamics", "has_dynamics"],
    ],
    [
      "Java",
      'public final class Options {\n  private final int maxRetries;\n  protected String userAgent = "x";\n  public int retries() { return maxRetries; }\n}',
      ["maxRetries", "userAgent"],
    ],
    [
      "C#",
      "public class Settings {\n    public int Limit { get; set; }\n    public string Name { get; set; }\n}",
      ["Limit", "Name"],
    ],
  ])("reads the fields of a %s type, not its methods", (_language, text, fields) => {
    expect(declaredFields(lines(text))).toEqual(fields);
  });
});

describe("forwards", () => {
  it.each([
    [
      "C#",
      "public static IRuleBuilderOptions<T, string> EmailAddress<T>(this IRuleBuilder<T, string> ruleBuilder) {\n  var validator = new EmailValidator<T>(mode);\n  return ruleBuilder.SetValidator(validator);\n}",
    ],
    [
      "C#, bodied by an arrow",
      "public static IRuleBuilderOptions<T, P> NotEmpty<T, P>(this IRuleBuilder<T, P> ruleBuilder)\n  => ruleBuilder.SetValidator(new NotEmptyValidator<T, P>());",
    ],
    [
      "PHP",
      "public static function createImmutable($paths, $names = null)\n{\n    $repository = RepositoryBuilder::createWithDefaultAdapters()->immutable()->make();\n\n    return self::create($repository, $paths, $names);\n}",
    ],
    [
      "Java, with a generic in the call",
      "public BuilderAudience audience() {\n    return new DelegateAudienceCollection<>(this, claims().audience());\n}",
    ],
    [
      "Rust",
      "pub fn with_default<T>(dispatcher: &Dispatch, f: impl FnOnce() -> T) -> T {\n    let _guard = set_default(dispatcher);\n    f()\n}",
    ],
  ])("knows a %s function handing the work to the call it makes last", (_language, text) => {
    expect(forwards(lines(text))).toBe(true);
  });

  it.each([
    [
      "Go, testing",
      "func (b *googleBreaker) accept() error {\n\tif dropRatio <= 0 {\n\t\treturn nil\n\t}\n\treturn b.drop()\n}",
    ],
    ["Python, computing", "def delay(self, n):\n    return min(self.base * 2 ** n, self.cap)"],
    ["TypeScript, storing", "set retry(value: Partial<RetryOptions>) {\n  this.#internals.retry = value;\n}"],
    [
      "Ruby, choosing",
      "def format(f = nil)\n  if f.nil?\n    default_options[:format]\n  else\n    parser(f)\n  end\nend",
    ],
    [
      "JavaScript, chaining four steps",
      "function build(a) {\n  const b = one(a);\n  const c = two(b);\n  const d = three(c);\n  return four(d);\n}",
    ],
  ])("knows a %s body that does more than forward", (_language, text) => {
    expect(forwards(lines(text))).toBe(false);
  });
});

describe("bodyStartPastDoc", () => {
  const getter = [
    "/**",
    "Whether redirect responses should be followed automatically.",
    "",
    "Optionally, pass a function (response) to decide.",
    "@default true",
    "*/",
    "get followRedirect(): boolean | ((response: PlainResponse) => boolean) {",
    "  return this.#internals.followRedirect;",
    "}",
  ];

  it("reads past a doc comment whose lines do not start with `*`, then past the signature", () => {
    expect(bodyStartPastDoc(getter)).toBe(7);
    expect(bodyStartPastDoc(getter.slice(6))).toBe(1);
  });

  it("finds the getter under that comment, which bodyStart alone reads as statements", () => {
    expect(decidesNothing(getter.slice(pastLeadingComment(getter)))).toBe(true);
    expect(pastLeadingComment(["fn f() {", "  /* not a doc */", "}"])).toBe(0);
  });
});
