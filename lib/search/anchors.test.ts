import { describe, expect, it } from "vitest";

import { extractAnchors, looksLikeCode, splitFences, withoutEnvironment } from "./anchors";
import { isPathLike, normalizePath } from "./written-paths";
import { frameFunction, framesInnermostFirst, functionFrames } from "./stack-frames";

const FENCE = "```";

// Excerpts of real SWE-bench Lite problem statements.
const SEABORN_2848 = `pairplot fails with hue_order not containing all hue values in seaborn 0.11.1
In seaborn < 0.11, one could plot only a subset of the values in the hue column, by passing a hue_order list containing only the desired values. Points with hue values not in the list were simply not plotted.
${FENCE}python
iris = sns.load_dataset("iris")\`
# The hue column contains three different species; here we want to plot two
sns.pairplot(iris, hue="species", hue_order=["setosa", "versicolor"])
${FENCE}

This no longer works in 0.11.1. Passing a hue_order list that does not contain some of the values in the hue column raises a long, ugly error traceback. The first exception arises in seaborn/_core.py:
${FENCE}
TypeError: ufunc 'isnan' not supported for the input types, and the inputs could not be safely coerced to any supported types according to the casting rule ''safe''
${FENCE}
seaborn version: 0.11.1
matplotlib version: 3.3.2`;

const REQUESTS_2148 = `socket.error exception not caught/wrapped in a requests exception (ConnectionError perhaps?)
I just noticed a case where I had a socket reset on me, and was raised to me as a raw socket error as opposed to something like a requests.exceptions.ConnectionError:

${FENCE}
  File "/home/rtdean/.pyenv/versions/2.7.6/lib/python2.7/site-packages/requests-2.3.0-py2.7.egg/requests/models.py", line 694, in content
    self._content = bytes().join(self.iter_content(CONTENT_CHUNK_SIZE)) or bytes()
  File "/home/rtdean/.pyenv/versions/2.7.6/lib/python2.7/site-packages/requests-2.3.0-py2.7.egg/requests/models.py", line 627, in generate
    for chunk in self.raw.stream(chunk_size, decode_content=True):
  File "/home/rtdean/.pyenv/versions/2.7.6/lib/python2.7/socket.py", line 380, in read
    data = self._sock.recv(left)
socket.error: [Errno 104] Connection reset by peer
${FENCE}`;

const PYLINT_6506 = `Traceback printed for unrecognized option
### Bug description

A traceback is printed when an unrecognized option is passed to pylint.

### Configuration

_No response_

${FENCE}shell
Traceback (most recent call last):
  File "/Users/markbyrne/programming/pylint/pylint/lint/run.py", line 135, in __init__
    args = _config_initialization(
  File "/Users/markbyrne/programming/pylint/pylint/config/config_initialization.py", line 85, in _config_initialization
    raise _UnrecognizedOptionError(options=unrecognized_options)
pylint.config.exceptions._UnrecognizedOptionError
${FENCE}`;

const SEABORN_3407 = `pairplot raises KeyError with MultiIndex DataFrame
When trying to pairplot a MultiIndex DataFrame, \`pairplot\` raises a \`KeyError\`:
${FENCE}
[c:\\Users\\KLuu\\anaconda3\\lib\\site-packages\\seaborn\\axisgrid.py](file:///C:/Users/KLuu/anaconda3/lib/site-packages/seaborn/axisgrid.py) in map_diag(self, func, **kwargs)
   1488                 plt.sca(ax)
   1489 
-> 1490             vector = self.data[var]
${FENCE}`;

describe("extractAnchors on real bug reports", () => {
  it("mines the seaborn hue_order report", () => {
    const a = extractAnchors(SEABORN_2848);
    expect(a.exceptionTypes).toEqual(["TypeError"]);
    expect(a.identifiers.slice(0, 3)).toEqual(expect.arrayContaining(["pairplot", "hue_order"]));
    expect(a.paths).toContain("seaborn/_core.py");
    expect(a.messages[0]).toMatch(/^ufunc 'isnan' not supported for the input types/);
    expect(a.identifiers).not.toContain("0.11.1");
    expect(a.keywords).toContain("hue");
    expect(a.keywords).not.toContain("pairplot");
  });

  it("strips installed-package prefixes from traceback paths and reads a lower-case exception", () => {
    const a = extractAnchors(REQUESTS_2148);
    expect(a.exceptionTypes).toEqual(expect.arrayContaining(["ConnectionError", "socket.error"]));
    expect(a.messages).toContain("[Errno 104] Connection reset by peer");
    expect(a.stackFrames).toContainEqual({ path: "requests/models.py", line: 627, func: "generate" });
    expect(a.paths[0]).toBe("requests/models.py");
    expect(a.identifiers).toEqual(expect.arrayContaining(["generate", "iter_content"]));
  });

  it("reads a qualified private exception and ignores Markdown emphasis", () => {
    const a = extractAnchors(PYLINT_6506);
    expect(a.exceptionTypes).toEqual(["_UnrecognizedOptionError"]);
    expect(a.stackFrames.at(-1)).toEqual({
      path: "/Users/markbyrne/programming/pylint/pylint/config/config_initialization.py",
      line: 85,
      func: "_config_initialization",
    });
    expect(a.identifiers).not.toContain("_No");
    expect(a.identifiers).not.toContain("pylint.config.exceptions._UnrecognizedOptionError");
  });

  it("reads legacy IPython frames with Windows paths", () => {
    const a = extractAnchors(SEABORN_3407);
    expect(a.stackFrames).toEqual([{ path: "seaborn/axisgrid.py", line: 1490, func: "map_diag" }]);
    expect(a.paths).toEqual(["seaborn/axisgrid.py"]);
    expect(a.exceptionTypes).toEqual(["KeyError"]);
    expect(a.identifiers[0]).toBe("pairplot");
  });
});

describe("extractAnchors stack frames", () => {
  it("parses Python traceback frames", () => {
    const a = extractAnchors(
      'Traceback (most recent call last):\n  File "app/auth.py", line 12, in login\nValueError: bad',
    );
    expect(a.stackFrames).toEqual([{ path: "app/auth.py", line: 12, func: "login" }]);
    expect(a.messages).toEqual(["bad"]);
  });

  it("parses JavaScript frames, with and without a function name", () => {
    const a = extractAnchors(
      [
        "TypeError: Cannot read properties of undefined (reading 'map')",
        "    at MessageList (src/components/MessageList.tsx:42:17)",
        "    at async POST (file:///app/api/chat/route.ts:10:3)",
        "    at src/lib/boot.js:7:1",
        "    at Object.<anonymous> (src/index.js:1:1)",
      ].join("\n"),
    );
    expect(a.stackFrames).toEqual([
      { path: "src/components/MessageList.tsx", line: 42, func: "MessageList" },
      { path: "/app/api/chat/route.ts", line: 10, func: "POST" },
      { path: "src/lib/boot.js", line: 7, func: null },
      { path: "src/index.js", line: 1, func: null },
    ]);
    expect(a.messages).toContain("Cannot read properties of undefined (reading 'map')");
  });

  it("parses Java frames into package paths", () => {
    const a = extractAnchors(
      'Exception in thread "main" java.lang.NullPointerException: session is null\n\tat com.acme.store.SessionStore.save(SessionStore.java:57)\n\tat com.acme.Main.main(Main.java:12)',
    );
    expect(a.exceptionTypes).toEqual(["NullPointerException"]);
    expect(a.messages).toContain("session is null");
    expect(a.stackFrames).toEqual([
      { path: "com/acme/store/SessionStore.java", line: 57, func: "SessionStore.save" },
      { path: "com/acme/Main.java", line: 12, func: "Main.main" },
    ]);
  });

  it("parses Go panics, pairing each file line with the function above it (without its package)", () => {
    const a = extractAnchors(
      "panic: runtime error: index out of range [3] with length 3\n\ngoroutine 1 [running]:\nmain.parse(0xc000010000)\n\t/app/parser.go:42 +0x1d\nmain.main()\n\t/app/main.go:9 +0x25",
    );
    expect(a.stackFrames).toEqual([
      { path: "/app/parser.go", line: 42, func: "parse" },
      { path: "/app/main.go", line: 9, func: "main" },
    ]);
    expect(a.messages).toContain("runtime error: index out of range [3] with length 3");
  });

  it("reads an error message as a command-line tool prints it", () => {
    const a = extractAnchors('jq: error (at <stdin>:0): Cannot index string with number ("a")');
    expect(a.messages).toEqual(['Cannot index string with number ("a")']);
  });

  it("reads the failure a tool logs as a warning and goes past", () => {
    const a = extractAnchors(
      "Running as a normal user it prints\n\nwarning: IO error for operation on /root: Permission denied (os error 13)\nWARN: connection reset by peer, retrying",
    );
    expect(a.messages).toEqual([
      "IO error for operation on /root: Permission denied (os error 13)",
      "connection reset by peer, retrying",
    ]);
    // A warning word inside prose is not a logged line.
    expect(extractAnchors("Why do I get a warning about the cache size?").messages).toEqual([]);
  });

  it("reads an upper-case ERROR: in a sentence, without the question asked after it", () => {
    expect(
      extractAnchors(
        'Running my CLI prints ERROR: "mycli deploy" was called with arguments ["x"] — what triggers that?',
      ).messages[0],
    ).toBe('"mycli deploy" was called with arguments ["x"]');
    expect(extractAnchors('I get Error: could not find command "x". Why?').messages[0]).toBe(
      'could not find command "x".',
    );
    // A logged line after the words that introduce it, in the same sentence.
    expect(
      extractAnchors(
        "My program prints: warning: invalid logging spec 'verbose', ignoring it. Where does that come from?",
      ).messages,
    ).toEqual(["invalid logging spec 'verbose', ignoring it."]);
    expect(
      extractAnchors("Since the upgrade I get error: no such key 'region' when loading").messages,
    ).toEqual(["no such key 'region' when loading"]);
    expect(extractAnchors("Why do I get a warning about the cache size: it is too small?").messages).toEqual(
      [],
    );
    // A dash inside the message, with no question after it, stays.
    expect(extractAnchors("Error: token - is not a valid name").messages[0]).toBe(
      "token - is not a valid name",
    );
  });

  it("reads the message of a PHP exception named with its namespace", () => {
    const a = extractAnchors(
      "Dotenv\\Exception\\InvalidFileException: Failed to parse dotenv file. Encountered unexpected whitespace at [My Shop Name].",
    );
    expect(a.exceptionTypes).toEqual(["InvalidFileException"]);
    expect(a.messages).toEqual([
      "Failed to parse dotenv file. Encountered unexpected whitespace at [My Shop Name].",
    ]);
  });

  it("parses Ruby, PHP, C# and native (gdb) frames", () => {
    const a = extractAnchors(
      [
        "lib/sinatra/base.rb:1065:in 'Sinatra::Base#route!'",
        "#0 /app/Slim/App.php(215): Slim\\App->handle(Object(Request))",
        "   at Serilog.Core.Logger.Dispatch(LogEvent logEvent) in /src/Serilog/Core/Logger.cs:line 470",
        "#1  0x0000555555558f2a in jq_next (jq=0x5555) at src/execute.c:342",
      ].join("\n"),
    );
    expect(a.stackFrames).toEqual([
      { path: "lib/sinatra/base.rb", line: 1065, func: "route!" },
      { path: "/app/Slim/App.php", line: 215, func: "handle" },
      { path: "/src/Serilog/Core/Logger.cs", line: 470, func: "Logger.Dispatch" },
      { path: "src/execute.c", line: 342, func: "jq_next" },
    ]);
  });

  it("reads plain path:line locations but not clock times, and a link's file only as a path", () => {
    const a = extractAnchors(
      "It broke at lib/db/queries.ts:120 around 10:30, see https://github.com/o/r/blob/main/x.py#L4",
    );
    expect(a.stackFrames).toEqual([{ path: "lib/db/queries.ts", line: 120, func: null }]);
    expect(a.paths).toEqual(["lib/db/queries.ts", "x.py"]);
  });
});

describe("extractAnchors identifiers, paths and keywords", () => {
  it("ranks backticked and called names above shape-only names and drops English words", () => {
    const a = extractAnchors(
      "Why does `SessionStore.save` call flush() twice when RetryPolicy is set? The cache_key seems fine.",
    );
    expect(a.identifiers.slice(0, 2)).toEqual(["SessionStore.save", "save"]);
    expect(a.identifiers).toEqual(expect.arrayContaining(["flush", "RetryPolicy", "cache_key"]));
    expect(a.identifiers).not.toContain("Why");
    expect(a.identifiers).not.toContain("twice");
  });

  it("mines calls, keyword arguments and attributes from code fences", () => {
    const a = extractAnchors(
      `Plotting fails:\n${FENCE}python\nplot = so.Plot(df, color=flag_values)\nplot.add_layer(so.Bar())\n${FENCE}`,
    );
    expect(a.identifiers).toEqual(expect.arrayContaining(["so.Plot", "Plot", "add_layer", "flag_values"]));
    expect(a.identifiers).not.toContain("df");
  });

  it("collects relative, dotted and directory paths but not look-alikes", () => {
    const a = extractAnchors(
      "Compare src/auth/ with ./lib/session.ts and deps.py; Node.js, and/or I/O, v1.2.3 and example.com are not files.",
    );
    expect(a.paths).toEqual(["src/auth/", "lib/session.ts", "deps.py"]);
  });

  it("reads the file a code-browser link points at, not the rest of the link", () => {
    const a = extractAnchors(
      "tuple-formatter doesn't check the elements:\n" +
        "https://github.com/fmtlib/fmt/blob/master/include/fmt/ranges.h#L285-L287\n" +
        "see https://gitlab.com/a/b/-/blob/v1.2/src/jv.c, https://raw.githubusercontent.com/o/r/main/core/logx/logs.go " +
        "and the demo at https://godbolt.org/z/G3zsT4q4W or https://github.com/o/r/issues/12",
    );
    expect(a.paths).toEqual(["include/fmt/ranges.h", "src/jv.c", "core/logx/logs.go"]);
  });

  it("returns keywords lower-cased, without stopwords or names already taken", () => {
    const a = extractAnchors("The Indexer crashes when parse_tree meets a BOM in the Indexer input");
    expect(a.keywords[0]).toBe("indexer");
    expect(a.keywords).toEqual(expect.arrayContaining(["crashes", "bom", "input"]));
    expect(a.keywords).not.toContain("the");
    expect(a.keywords).not.toContain("parse_tree");
    expect(a.identifiers).toContain("parse_tree");
  });

  it("reports quoted multi-word strings as messages and errno codes as exception types", () => {
    const a = extractAnchors(
      `Error: ENOENT: no such file, open 'index.db' — I also see "readonly database" sometimes`,
    );
    expect(a.exceptionTypes).toEqual(["ENOENT"]);
    expect(a.messages).toEqual(
      expect.arrayContaining([
        "ENOENT: no such file, open 'index.db' — I also see \"readonly database\" sometimes",
        "readonly database",
      ]),
    );
  });

  it("returns empty anchors for empty input", () => {
    expect(extractAnchors("")).toEqual({
      exceptionTypes: [],
      messages: [],
      stackFrames: [],
      identifiers: [],
      paths: [],
      keywords: [],
      literals: [],
    });
  });
});

describe("anchor helpers", () => {
  it("splits fenced code from prose, including an unclosed fence", () => {
    const { prose, code } = splitFences(`before\n${FENCE}py\nx = 1\n${FENCE}\nafter\n~~~\nopen`);
    expect(prose).toBe("before\nafter");
    expect(code).toBe("x = 1\nopen");
  });

  it.each([
    ["snake_case", true],
    ["camelCase", true],
    ["PascalCase", true],
    ["a.b.c", true],
    ["run()", true],
    ["Hello", false],
    ["hello", false],
    ["1.2.3", false],
  ])("looksLikeCode(%j) is %s", (token, expected) => {
    expect(looksLikeCode(token)).toBe(expected);
  });

  it.each([
    ["C:\\Users\\me\\venv\\Lib\\site-packages\\flask\\app.py", "flask/app.py"],
    ["file:///home/u/.local/lib/python3.11/dist-packages/requests/api.py", "requests/api.py"],
    ["/x/requests-2.3.0-py2.7.egg/requests/models.py", "requests/models.py"],
    ["./src//index.ts", "src/index.ts"],
    ["/home/ci/app/node_modules/dayjs/plugin/utc.js", "dayjs/plugin/utc.js"],
    ["/app/node_modules/@acme/ui/dist/button.js", "@acme/ui/dist/button.js"],
  ])("normalizePath(%j) is %j", (raw, expected) => {
    expect(normalizePath(raw)).toBe(expected);
  });

  it.each([
    ["src/auth/", true],
    ["lib/db/queries.ts", true],
    ["README.md", true],
    ["and/or", false],
    ["Node.js", false],
    ["1.2.py", false],
    ["10/12/2023", false],
  ])("isPathLike(%j) is %s", (token, expected) => {
    expect(isPathLike(token)).toBe(expected);
  });
});

describe("framesInnermostFirst", () => {
  const at = (path: string, line: number) => ({ path, line, func: null });

  it("reverses Python tracebacks, also pytest's reports that do not say 'most recent call last'", () => {
    const report = `${FENCE}
src/pkg/runner.py:341: in from_call
    result = func()
src/pkg/rewrite.py:760: in is_disabled
    return "X" in docstring
E   TypeError: argument of type 'int' is not iterable
${FENCE}`;
    const { stackFrames } = extractAnchors(report);
    expect(framesInnermostFirst(stackFrames, report).map((f) => f.path)).toEqual([
      "src/pkg/rewrite.py",
      "src/pkg/runner.py",
    ]);
  });

  it("keeps the order of runtimes that print the innermost frame first", () => {
    const frames = [at("src/app/Handler.java", 10), at("src/app/Server.java", 20)];
    expect(framesInnermostFirst(frames, "java.lang.IllegalStateException")).toEqual(frames);
    const js = [at("lib/router.js", 5), at("lib/app.js", 9)];
    expect(framesInnermostFirst(js, "TypeError: x is undefined")).toEqual(js);
  });

  it("reverses any traceback that says 'most recent call last'", () => {
    const frames = [at("lib/a.rb", 1), at("lib/b.rb", 2)];
    expect(framesInnermostFirst(frames, "Traceback (most recent call last):")).toEqual([...frames].reverse());
  });
});

describe("extractAnchors literals", () => {
  it("takes long options without their values, and skips --help and --version", () => {
    const report =
      "Running `pylint --recursive=y src/` ignores it; see `pylint --version` output.\n```\n$ pytest --collect-only -q\n```";
    expect(extractAnchors(report).literals).toEqual(["--recursive", "--collect-only"]);
  });

  it("takes configuration keys from config snippets and backticks, not package pins or version dumps", () => {
    const report = `\`max-line-length\` is not read from my config:
${FENCE}ini
[tool.pylint.MASTER]
ignore-paths = ["^src/gen/.*$"]
${FENCE}
${FENCE}
importlib-metadata==1.3.0
python-bits: 64
${FENCE}`;
    expect(extractAnchors(report).literals).toEqual(["max-line-length", "ignore-paths"]);
  });

  it("takes headings of pasted output, not one-word labels or prose", () => {
    const report = `Units should show in the repr. Data variables: are listed below.
${FENCE}
<xarray.Dataset>
Dimensions:  (time: 3)
Data variables:
    rainfall  (time) float32 ...
Expected:
${FENCE}`;
    expect(extractAnchors(report).literals).toEqual(["Data variables"]);
  });

  it("ignores dashes in URLs and prose", () => {
    expect(
      extractAnchors("See https://example.com/docs/--foo and the well-known bug -- again").literals,
    ).toEqual([]);
  });
});

describe("withoutEnvironment", () => {
  it("drops version dumps, package lists and the collapsed section holding them", () => {
    const report = `Dataset.update evaluates dask arrays eagerly

<details><summary>Output of <tt>xr.show_versions()</tt></summary>

commit: None
python: 3.8.3 (default, Jul  2 2020, 11:26:31)
OS: Darwin
LANG: en_US.UTF-8
xarray: 0.16.0
dask: 2.20.0

</details>
Successfully installed attrs-23.1.0 pluggy-1.2.0
attrs==19.3.0
pluggy==0.13.1

pylint 2.14.4
astroid 2.11.7
The end.`;
    expect(
      withoutEnvironment(report)
        .split("\n")
        .filter((l) => l.trim() !== ""),
    ).toEqual(["Dataset.update evaluates dask arrays eagerly", "The end."]);
    expect(extractAnchors(report).identifiers).not.toContain("xr.show_versions");
  });

  it("keeps code, tracebacks and single version mentions", () => {
    const report = `Since seaborn 0.11.1 this fails:
${FENCE}python
x = 1.5
y: int = 2
${FENCE}
${FENCE}
ValueError: bad value
${FENCE}`;
    expect(withoutEnvironment(report)).toBe(report);
  });
});

describe("extractAnchors blockquoted messages", () => {
  it("takes a sentence a report quotes as a blockquote as a message", () => {
    const report = `Skipping a module is unpolished
This issues this error:

>Using pytest.skip outside of a test is not allowed. To skip a module use \`pytestmark\`.

> ok then`;
    expect(extractAnchors(report).messages).toEqual([
      "Using pytest.skip outside of a test is not allowed. To skip a module use `pytestmark`.",
    ]);
  });

  it("does not read comparison operators in code as blockquotes", () => {
    const report = `${FENCE}python\nif a > b and c > d:\n    pass\n${FENCE}`;
    expect(extractAnchors(report).messages).toEqual([]);
  });
});

describe("extractAnchors in every language's diagnostics", () => {
  it("reads a Rust panic and its backtrace, each function paired with the place below it", () => {
    const a = extractAnchors(
      [
        "thread 'main' panicked at tracing-subscriber/src/registry/sharded.rs:364:9:",
        "tried to clone a span (Id(1)) that already closed",
        "stack backtrace:",
        "   0: rust_begin_unwind",
        "             at /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/std/src/panicking.rs:645:5",
        "  13: <tracing_subscriber::registry::sharded::Registry as tracing_core::subscriber::Subscriber>::clone_span",
        "             at ./tracing-subscriber/src/registry/sharded.rs:364:9",
        "  14: tracing_core::dispatcher::Dispatch::clone_span",
        "             at ./tracing-core/src/dispatcher.rs:477:9",
      ].join("\n"),
    );
    expect(a.messages).toContain("tried to clone a span (Id(1)) that already closed");
    expect(a.stackFrames).toContainEqual({
      path: "tracing-subscriber/src/registry/sharded.rs",
      line: 364,
      func: "Registry.clone_span",
    });
    expect(a.stackFrames).toContainEqual({
      path: "tracing-core/src/dispatcher.rs",
      line: 477,
      func: "Dispatch.clone_span",
    });
  });

  it("reads the message of a panic as Rust printed it before 1.73", () => {
    const a = extractAnchors(
      "thread 'main' panicked at 'attempt to subtract with overflow', src/time.rs:88:21",
    );
    expect(a.messages).toContain("attempt to subtract with overflow");
    expect(a.stackFrames).toContainEqual({ path: "src/time.rs", line: 88, func: null });
  });

  it("reads a C++ exception named in a sentence: its snake_case type and its message", () => {
    const a = extractAnchors(
      "fmt::format throws fmt::format_error: invalid format specifier. What raises it?",
    );
    expect(a.exceptionTypes).toEqual(["format_error"]);
    expect(a.messages).toEqual(["invalid format specifier"]);
  });

  it("reads an uncaught C++ exception as libstdc++ reports it", () => {
    const a = extractAnchors(
      [
        "terminate called after throwing an instance of 'toml::v3::parse_error'",
        "  what():  Error while parsing key: expected bare key starting character",
        "Aborted (core dumped)",
      ].join("\n"),
    );
    expect(a.exceptionTypes).toContain("parse_error");
    expect(a.messages).toContain("Error while parsing key: expected bare key starting character");
  });

  it("reads AddressSanitizer reports: the fault, the frames with their functions, the summary", () => {
    const a = extractAnchors(
      [
        "==31337==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000010 at pc 0x55d1 bp 0x7ffc sp 0x7ffc",
        "READ of size 4 at 0x602000000010 thread T0",
        "    #0 0x55d1c3 in jv_get_refcnt /src/jq/src/jv.c:130:13",
        "    #1 0x55d2a1 in jv_free /src/jq/src/jv.c:1803:7",
        "    #2 0x7f0a in __libc_start_main (/lib/x86_64-linux-gnu/libc.so.6+0x21b96)",
        "SUMMARY: AddressSanitizer: heap-use-after-free /src/jq/src/jv.c:130:13 in jv_get_refcnt",
      ].join("\n"),
    );
    expect(a.messages).toContain("heap-use-after-free");
    expect(a.stackFrames.slice(0, 2)).toEqual([
      { path: "/src/jq/src/jv.c", line: 130, func: "jv_get_refcnt" },
      { path: "/src/jq/src/jv.c", line: 1803, func: "jv_free" },
    ]);
  });

  it("reads gdb's innermost frame, which has no address", () => {
    const a = extractAnchors(
      "#0  jv_dump_term (C=0x0, x=...) at src/jv_print.c:245\n#1  0x0000555555558f2a in jv_dumpf (x=...) at src/jv_print.c:330",
    );
    expect(a.stackFrames).toEqual([
      { path: "src/jv_print.c", line: 245, func: "jv_dump_term" },
      { path: "src/jv_print.c", line: 330, func: "jv_dumpf" },
    ]);
  });

  it("reads compiler errors: the place and the message, in gcc, Go, tsc and rustc form", () => {
    const gcc = extractAnchors("src/builtin.c:1422:10: error: implicit declaration of function 'jv_sort_by'");
    expect(gcc.stackFrames).toContainEqual({ path: "src/builtin.c", line: 1422, func: null });
    expect(gcc.messages).toContain("implicit declaration of function 'jv_sort_by'");
    const go = extractAnchors("# github.com/acme/svc/rest\n./server.go:57:12: undefined: newEngine");
    expect(go.messages).toContain("undefined: newEngine");
    expect(go.stackFrames).toContainEqual({ path: "server.go", line: 57, func: null });
    const tsc = extractAnchors(
      "src/plugin/utc/index.js(41,7): error TS2339: Property 'utcOffset' does not exist",
    );
    expect(tsc.stackFrames).toContainEqual({ path: "src/plugin/utc/index.js", line: 41, func: null });
    expect(tsc.messages).toContain("Property 'utcOffset' does not exist");
    const rustc = extractAnchors(
      "error[E0599]: no method named `with_filter` found for struct `Layer` in the current scope\n  --> examples/examples/fmt.rs:12:10",
    );
    expect(rustc.messages).toContain(
      "no method named `with_filter` found for struct `Layer` in the current scope",
    );
    expect(rustc.stackFrames).toContainEqual({ path: "examples/examples/fmt.rs", line: 12, func: null });
  });

  it("reads UndefinedBehaviorSanitizer's message after the place", () => {
    const a = extractAnchors(
      "src/jv_dtoa.c:2713:13: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'",
    );
    expect(a.messages).toContain(
      "signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'",
    );
    expect(a.stackFrames).toContainEqual({ path: "src/jv_dtoa.c", line: 2713, func: null });
  });

  it("takes configuration keys of YAML and JSON snippets and environment variables as literals", () => {
    const report = [
      "Setting `JQ_COLORS` has no effect, and neither does this config:",
      FENCE + "yaml",
      "Log:",
      "  service_name: api",
      "  keep_days: 7",
      FENCE,
      FENCE + "json",
      '{ "maxConns": 10, "timeout": 3000 }',
      FENCE,
      FENCE + "sh",
      "LOG_LEVEL=debug ./server -f etc/api.yaml",
      FENCE,
    ].join("\n");
    const literals = extractAnchors(report).literals;
    expect(literals).toEqual(expect.arrayContaining(["JQ_COLORS", "service_name", "keep_days", "LOG_LEVEL"]));
    expect(literals).not.toContain("Log");
  });

  it("names the symbol a linker could not find", () => {
    const gnu = extractAnchors(
      "/usr/bin/ld: main.o: in function `main':\nmain.c:(.text+0x1f): undefined reference to `jq_set_colors'",
    );
    expect(gnu.identifiers).toContain("jq_set_colors");
    const mac = extractAnchors(
      'Undefined symbols for architecture arm64:\n  "_fmt_vformat", referenced from:\n      _main in main.o',
    );
    expect(mac.identifiers).toContain("fmt_vformat");
  });
});

describe("frameFunction", () => {
  it.each([
    ["main.(*Server).Start", "Server.Start"],
    ["github.com/acme/svc/rest.(*engine).bindRoutes.func1", "engine.bindRoutes"],
    [
      "<tracing_subscriber::fmt::Layer<S, N> as tracing_subscriber::layer::Layer<S>>::on_event",
      "Layer.on_event",
    ],
    ["tracing_core::dispatcher::get_default::{{closure}}", "get_default"],
    ["fmt::v10::detail::format_handler::on_text", "format_handler.on_text"],
    ["fmt::v10::detail::vformat_to", "vformat_to"],
    ["Serilog.Core.Logger.Dispatch", "Logger.Dispatch"],
    ["jv_free", "jv_free"],
  ])("%s is %s", (raw, expected) => {
    expect(frameFunction(raw)).toBe(expected);
  });
});

describe("frames that name a function without its file", () => {
  it("reads glog, gdb without debug information, Rust entries without a place, and Java without line numbers", () => {
    const glog = [
      "*** Check failure stack trace: ***",
      "    @     0x7f3a2c1b4a2d  google::LogMessage::Fail()",
      "    @     0x7f3a2c1b9c9f  google::LogMessageFatal::~LogMessageFatal()",
      "    @     0x7f3a2c1b9c9f  (unknown)",
    ].join("\n");
    expect(functionFrames(glog)).toEqual(["LogMessage.Fail", "LogMessageFatal.~LogMessageFatal"]);
    const mixed = [
      "#0  0x00007ffff7a42428 in __GI_raise (sig=6) at ../sysdeps/unix/sysv/linux/raise.c:54",
      "#2  0x0000555555555189 in jv_free (j=...) from /usr/lib/libjq.so.1",
      "   4: <tracing::fmt::Layer<S> as tracing::Subscribe>::on_event",
      "\tat com.acme.pool.Pool.take(Unknown Source)",
      "  1: error code 12",
    ].join("\n");
    // The frame with its file is read with the other frames, not here.
    expect(functionFrames(mixed)).toEqual(["jv_free", "Layer.on_event", "Pool.take"]);
  });
});
