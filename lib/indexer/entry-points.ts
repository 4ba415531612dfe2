/**
 * Entry points of a repository: where execution starts from the outside. HTTP routes
 * and their handlers, CLI commands, `main` functions and `if __name__ == "__main__"`
 * blocks, and the scripts a package manifest installs. One language-agnostic pass
 * over a file's text and its extracted symbols, driven by the table of framework
 * patterns below: supporting another framework or language is a new row, not new code.
 *
 * Detection runs at index time (the file text is at hand there) and the results are
 * stored with the file's facts; exploratory questions start their walks from them.
 */

export type EntryKind = "http" | "cli" | "main" | "script";

export interface EntryPoint {
  kind: EntryKind;
  /** the row that found it: "flask", "express", "net/http", "click", "console_scripts", … */
  framework: string;
  /** what a user calls it by: a route ("GET /users/<id>"), a command or script name */
  name: string;
  /** qualified name of the handler when it is defined in this file */
  symbol: string | null;
  /** the handler as written when it is defined elsewhere ("views.index", "pylint:run_pylint", "lib/cli/main.ts") */
  target: string | null;
  line: number;
}

/** What detection needs to know of a file's symbols. */
export interface EntrySymbol {
  name: string;
  qualifiedName: string;
  kind: string;
  parent: string | null;
  exported: boolean;
  decorators: string[];
  startLine: number;
}

// ------------------------------------------------------------------ the table

/** A decorator or attribute on a symbol marks it as an entry (`@app.get("/x")`, `@GetMapping`, `@click.command`). */
interface DecoratorRow {
  kind: EntryKind;
  framework: string;
  /** tested against each decorator as stored (without `@`); groups `method` and `route` name the entry */
  decorator: RegExp;
  /** HTTP method when the decorator does not carry it */
  method?: string;
}

/**
 * A call registers a handler (`app.get('/x', handler)`, `http.HandleFunc("/x", h)`,
 * `Route::get('/x', [C::class, 'show'])`). Groups: `method`, `route`, `handler`; a row
 * without a `handler` group registers an inline block (Sinatra's `get '/x' do`).
 */
interface RegistrationRow {
  kind: EntryKind;
  framework: string;
  languages: readonly string[];
  pattern: RegExp;
  method?: string;
  /** only in files whose path matches (Django's `urls.py`) */
  path?: RegExp;
}

/** A file-system convention: the file's exported names are handlers (Next.js `app/.../route.ts` exporting GET). */
interface FileRow {
  kind: EntryKind;
  framework: string;
  path: RegExp;
  /** exported top-level names that are handlers; the name is the method */
  exports: RegExp;
}

/** A top-level function name that is a program's start (`main` in Go, Rust, C, Java's static main). */
interface NameRow {
  kind: EntryKind;
  framework: string;
  languages: readonly string[];
  name: RegExp;
  /** whether a method counts (Java's `static void main` lives in a class) */
  methods?: boolean;
}

/** A manifest installs commands: each row reads one format's list of `name → target`. */
interface ManifestRow {
  framework: string;
  /** the manifest's file name (any folder) */
  file: RegExp;
  read: (text: string) => { name: string; target: string }[];
}

const HTTP_METHODS = "get|post|put|patch|delete|head|options|all|any";

const DECORATOR_ROWS: readonly DecoratorRow[] = [
  // Flask, Quart, Sanic, FastAPI, Starlette, Litestar: @app.route("/x"), @bp.get("/x"), @router.post("/x")
  {
    kind: "http",
    framework: "python-web",
    decorator: new RegExp(
      String.raw`^[\w.]*\b(?:route|websocket|(?<method>${HTTP_METHODS}))\(\s*(?:path\s*=\s*)?["'](?<route>[^"']*)["']`,
      "i",
    ),
  },
  // Django REST framework and similar: @api_view(["GET", "POST"])
  { kind: "http", framework: "django-rest", decorator: /^api_view\(\s*\[?\s*["'](?<method>\w+)["']/i },
  // Spring: @GetMapping("/x"), @RequestMapping(value = "/x"), @PostMapping
  {
    kind: "http",
    framework: "spring",
    decorator:
      /^(?:(?<method>Get|Post|Put|Patch|Delete)|Request)Mapping\b(?:\(\s*(?:(?:value|path)\s*=\s*)?\{?\s*"(?<route>[^"]*)")?/,
  },
  // JAX-RS and ASP.NET attributes: @GET @Path("/x"), [HttpGet("x")], [Route("x")]
  { kind: "http", framework: "jax-rs", decorator: /^(?<method>GET|POST|PUT|PATCH|DELETE)$/ },
  { kind: "http", framework: "jax-rs", decorator: /^Path\(\s*"(?<route>[^"]*)"/ },
  {
    kind: "http",
    framework: "aspnet",
    decorator: /^(?:Http(?<method>Get|Post|Put|Patch|Delete)|Route)(?:\(\s*"(?<route>[^"]*)")?/,
  },
  // NestJS: @Get("x"), @Post()
  {
    kind: "http",
    framework: "nestjs",
    decorator: /^(?<method>Get|Post|Put|Patch|Delete|All)\(\s*(?:["'`](?<route>[^"'`]*)["'`])?\s*\)/,
  },
  // Click, Typer, and click-style groups: @click.command("run"), @app.command(), @cli.group()
  {
    kind: "cli",
    framework: "click",
    decorator: /^[\w.]*\b(?:command|group)\(\s*(?:name\s*=\s*)?(?:["'](?<route>[^"']*)["'])?/,
  },
];

const REGISTRATION_ROWS: readonly RegistrationRow[] = [
  // Express, Koa routers, Hono, Fastify: app.get("/x", handler), router.post('/x', auth, handler)
  {
    kind: "http",
    framework: "express",
    languages: ["javascript", "typescript", "tsx"],
    pattern: new RegExp(
      String.raw`\b(?:app|router|server|api|routes?|\w+Router)\.(?<method>${HTTP_METHODS}|use)\(\s*["'\`](?<route>[^"'\`]*)["'\`]\s*,(?:[^,()]*,)*\s*(?<handler>[A-Za-z_$][\w$.]*)\s*\)`,
      "g",
    ),
  },
  // Go net/http and routers: http.HandleFunc("/x", h), mux.Handle("/x", h), r.GET("/x", h) (gin), e.POST (echo)
  {
    kind: "http",
    framework: "go-http",
    languages: ["go"],
    pattern: new RegExp(
      String.raw`\b\w+\.(?:HandleFunc|Handle|(?<method>GET|POST|PUT|PATCH|DELETE|Get|Post|Put|Patch|Delete))\(\s*"(?<route>[^"]*)"\s*,\s*(?<handler>[A-Za-z_][\w.]*)`,
      "g",
    ),
  },
  // Django URLconf: path("users/<int:id>/", views.user_detail)
  {
    kind: "http",
    framework: "django",
    languages: ["python"],
    path: /(?:^|\/)urls\.py$/,
    pattern: /\b(?:re_)?path\(\s*r?["'](?<route>[^"']*)["']\s*,\s*(?<handler>[A-Za-z_][\w.]*)/g,
  },
  // Flask without decorators: app.add_url_rule("/x", view_func=handler)
  {
    kind: "http",
    framework: "flask",
    languages: ["python"],
    pattern: /\.add_url_rule\(\s*["'](?<route>[^"']*)["'][^)]*?view_func\s*=\s*(?<handler>[A-Za-z_][\w.]*)/g,
  },
  // Sinatra, Rails routes and Rack maps: get '/x' do … end, post "/x", to: "orders#create", map "/x" do
  {
    kind: "http",
    framework: "sinatra",
    languages: ["ruby"],
    // Rack::Test requests in tests look the same (`get '/'`): not where the program starts.
    path: /^(?!(?:.*\/)?(?:test|spec)s?\/)(?!.*_(?:test|spec)\.rb$)/,
    pattern: new RegExp(
      String.raw`^[ \t]*(?:(?<method>${HTTP_METHODS}|patch|link|unlink)|map)\(?[ \t]*["'](?<route>[^"']*)["'](?:[^\n]*?\bto:\s*["'](?<handler>[\w/]+#\w+)["'])?`,
      "gm",
    ),
  },
  // Slim and Laravel: $app->get('/x', Handler::class), $group->post('/x', [C::class, 'm']), Route::get('/x', 'C@m')
  {
    kind: "http",
    framework: "slim-laravel",
    languages: ["php"],
    pattern: new RegExp(
      String.raw`(?:\$(?:app|group|router|routes?|api|r)\w*->|\bRoute::)(?<method>${HTTP_METHODS}|map|match)\(\s*(?:\[[^\]]*\]\s*,\s*)?["'](?<route>[^"']*)["']\s*,\s*(?:\[\s*|["'])?(?<handler>(?!function\b|fn\b)[A-Za-z_\\][\w\\]*(?:[@:]\w+)?)?`,
      "gi",
    ),
  },
  // ASP.NET minimal APIs: app.MapGet("/x", Handler), group.MapPost("/x", async (…) => …)
  {
    kind: "http",
    framework: "aspnet-minimal",
    languages: ["csharp"],
    pattern: new RegExp(
      String.raw`\.Map(?<method>Get|Post|Put|Patch|Delete|Methods)?\(\s*"(?<route>[^"]*)"\s*,\s*(?<handler>[A-Za-z_][\w.]*(?=\s*\)))?`,
      "g",
    ),
  },
  // Python argparse sub-commands wired to functions: parser.set_defaults(func=handler)
  {
    kind: "cli",
    framework: "argparse",
    languages: ["python"],
    pattern: /\.set_defaults\(\s*(?:func|handler|command)\s*=\s*(?<handler>[A-Za-z_][\w.]*)/g,
  },
];

const FILE_ROWS: readonly FileRow[] = [
  // Next.js App Router: app/**/route.ts exporting GET, POST, …
  {
    kind: "http",
    framework: "nextjs",
    path: /(?:^|\/)app\/(?:.*\/)?route\.[cm]?[jt]sx?$/,
    exports: /^(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$/,
  },
  // Next.js Pages Router and Vercel functions: pages/api/**, api/** default export
  {
    kind: "http",
    framework: "nextjs-pages",
    path: /(?:^|\/)pages\/api\/.+\.[cm]?[jt]sx?$/,
    exports: /^(?:default|handler)$/,
  },
];

const NAME_ROWS: readonly NameRow[] = [
  {
    kind: "main",
    framework: "main",
    languages: ["go", "rust", "c", "cpp", "python", "javascript", "typescript"],
    name: /^main$/,
  },
  { kind: "main", framework: "main", languages: ["java", "csharp"], name: /^[Mm]ain$/, methods: true },
];

/** `if __name__ == "__main__":` and the first function it calls. */
const PYTHON_MAIN_BLOCK =
  /^if\s+__name__\s*==\s*["']__main__["']\s*:[ \t]*\n(?:[ \t]*(?:#.*)?\n)*?[ \t]+(?:\w+\s*=\s*)?(?:sys\.exit\(\s*|exit\(\s*|raise\s+SystemExit\(\s*)?(?<handler>[A-Za-z_][\w.]*)\s*\(/m;

const MANIFEST_ROWS: readonly ManifestRow[] = [
  // package.json: "bin" (string or map) and the npm scripts that run a source file
  { framework: "package.json", file: /^package\.json$/, read: packageJsonEntries },
  // pyproject.toml: [project.scripts], [project.gui-scripts], [tool.poetry.scripts]
  {
    framework: "pyproject",
    file: /^pyproject\.toml$/,
    read: (text) =>
      ["project.scripts", "project.gui-scripts", "tool.poetry.scripts"].flatMap((t) => tomlTable(text, t)),
  },
  // setup.cfg: [options.entry_points] console_scripts =
  {
    framework: "console_scripts",
    file: /^setup\.cfg$/,
    read: (text) => iniListEntries(text, "options.entry_points", "console_scripts"),
  },
  // setup.py: entry_points={"console_scripts": ["name = module:function"]}
  {
    framework: "console_scripts",
    file: /^setup\.py$/,
    read: (text) => quotedAssignments(/console_scripts["']\s*:\s*\[([^\]]*)\]/.exec(text)?.[1] ?? ""),
  },
  // Cargo.toml: [[bin]] name = "x" path = "src/bin/x.rs"
  { framework: "cargo", file: /^Cargo\.toml$/, read: cargoBins },
];

// ------------------------------------------------------------------ detection

const MAX_ENTRIES = 200;

/** Every entry point a file declares, in line order. */
export function detectEntryPoints(input: {
  path: string;
  language: string;
  content: string;
  symbols: readonly EntrySymbol[];
}): EntryPoint[] {
  const out: EntryPoint[] = [];
  const base = input.path.slice(input.path.lastIndexOf("/") + 1);
  for (const row of MANIFEST_ROWS) {
    if (!row.file.test(base)) continue;
    for (const { name, target } of safeRead(row, input.content)) {
      out.push({ kind: "script", framework: row.framework, name, symbol: null, target, line: 1 });
    }
  }
  for (const s of input.symbols) {
    for (const decorator of s.decorators) {
      for (const row of DECORATOR_ROWS) {
        const m = row.decorator.exec(decorator);
        if (!m) continue;
        const method = (m.groups?.method ?? row.method ?? "").toUpperCase();
        const route = m.groups?.route ?? "";
        const name =
          row.kind === "http" ? [method, route].filter(Boolean).join(" ") || s.name : route || s.name;
        out.push({
          kind: row.kind,
          framework: row.framework,
          name,
          symbol: s.qualifiedName,
          target: null,
          line: s.startLine,
        });
        break;
      }
    }
  }
  for (const row of FILE_ROWS) {
    if (!row.path.test(input.path)) continue;
    for (const s of input.symbols) {
      if (s.parent === null && s.exported && row.exports.test(s.name))
        out.push({
          kind: row.kind,
          framework: row.framework,
          name: `${s.name} /${routeOfPath(input.path)}`,
          symbol: s.qualifiedName,
          target: null,
          line: s.startLine,
        });
    }
  }
  for (const row of NAME_ROWS) {
    if (!row.languages.includes(input.language)) continue;
    for (const s of input.symbols) {
      const callable =
        s.parent === null ? s.kind === "function" : row.methods === true && s.kind === "method";
      if (callable && row.name.test(s.name))
        out.push({
          kind: row.kind,
          framework: row.framework,
          name: s.qualifiedName,
          symbol: s.qualifiedName,
          target: null,
          line: s.startLine,
        });
    }
  }
  if (input.language === "python" && input.content.includes("__main__")) {
    const m = PYTHON_MAIN_BLOCK.exec(input.content);
    if (m) {
      const handler = m.groups?.handler ?? "";
      const line = lineAt(input.content, m.index);
      out.push({
        kind: "main",
        framework: "python-main",
        name: "__main__",
        ...handlerRef(handler, input.symbols),
        line,
      });
    }
  }
  for (const row of REGISTRATION_ROWS) {
    if (!row.languages.includes(input.language) || (row.path && !row.path.test(input.path))) continue;
    for (const m of input.content.matchAll(row.pattern)) {
      const method = (m.groups?.method ?? row.method ?? "").toUpperCase();
      const route = m.groups?.route ?? "";
      const name = row.kind === "http" ? [method, route].filter(Boolean).join(" ") : route;
      const handler = m.groups?.handler ?? "";
      out.push({
        kind: row.kind,
        framework: row.framework,
        name: name || handler,
        ...(handler ? handlerRef(handler, input.symbols) : { symbol: null, target: null }),
        line: lineAt(input.content, m.index ?? 0),
      });
      if (out.length >= MAX_ENTRIES) break;
    }
  }
  return out.sort((a, b) => a.line - b.line).slice(0, MAX_ENTRIES);
}

/** A handler as written: the symbol of this file it names, else the text for a lookup by name. */
function handlerRef(
  handler: string,
  symbols: readonly EntrySymbol[],
): { symbol: string | null; target: string | null } {
  const last = handler.split(".").pop() ?? handler;
  const local =
    symbols.find((s) => s.qualifiedName === handler) ??
    symbols.find((s) => s.parent === null && s.name === last);
  return local ? { symbol: local.qualifiedName, target: null } : { symbol: null, target: handler };
}

function routeOfPath(path: string): string {
  const m = /(?:^|\/)(?:app|pages)\/(.*?)(?:\/route|\/index)?\.[cm]?[jt]sx?$/.exec(path);
  return (m?.[1] ?? "").replace(/\((?:[^)]*)\)\//g, "");
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function safeRead(row: ManifestRow, text: string): { name: string; target: string }[] {
  try {
    return row
      .read(text)
      .filter((e) => e.name && e.target)
      .slice(0, MAX_ENTRIES);
  } catch {
    return [];
  }
}

// ------------------------------------------------------------------ manifest readers

/** `bin` entries, and npm scripts whose command runs one of the repository's source files. */
function packageJsonEntries(text: string): { name: string; target: string }[] {
  const json = JSON.parse(text) as { name?: unknown; bin?: unknown; scripts?: unknown };
  const out: { name: string; target: string }[] = [];
  const packageName = typeof json.name === "string" ? json.name.replace(/^@[^/]+\//, "") : "";
  if (typeof json.bin === "string" && packageName)
    out.push({ name: packageName, target: cleanPath(json.bin) });
  else if (json.bin && typeof json.bin === "object") {
    for (const [name, target] of Object.entries(json.bin as Record<string, unknown>))
      if (typeof target === "string") out.push({ name, target: cleanPath(target) });
  }
  if (json.scripts && typeof json.scripts === "object") {
    for (const [name, command] of Object.entries(json.scripts as Record<string, unknown>)) {
      if (typeof command !== "string") continue;
      const file =
        /(?:^|\s)(?:node|tsx|ts-node|bun|deno run|python3?)\s+(?:--?[\w=-]+\s+)*([\w./-]+\.(?:[cm]?[jt]sx?|py))\b/.exec(
          command,
        )?.[1];
      if (file) out.push({ name, target: cleanPath(file) });
    }
  }
  return out;
}

function cleanPath(p: string): string {
  return p.replace(/^\.\//, "");
}

/** `name = "module:function"` lines of one TOML table. */
function tomlTable(text: string, table: string): { name: string; target: string }[] {
  const header = new RegExp(String.raw`^\[${table.replace(/[.-]/g, (c) => `\\${c}`)}\][ \t]*$`, "m").exec(
    text,
  );
  if (!header) return [];
  const body = text.slice(header.index + header[0].length);
  const end = body.search(/^\[/m);
  return quotedAssignments(end < 0 ? body : body.slice(0, end));
}

/** Entries of an INI key whose value is a list (`console_scripts =` then indented `name = module:fn` lines). */
function iniListEntries(text: string, section: string, key: string): { name: string; target: string }[] {
  const start = new RegExp(String.raw`^\[${section.replace(/\./g, "\\.")}\][ \t]*$`, "m").exec(text);
  if (!start) return [];
  const body = text.slice(start.index + start[0].length);
  const end = body.search(/^\[/m);
  const sectionText = end < 0 ? body : body.slice(0, end);
  const keyAt = new RegExp(String.raw`^${key}\s*=(.*)$`, "m").exec(sectionText);
  if (!keyAt) return [];
  const lines = [keyAt[1] ?? ""];
  for (const line of sectionText.slice(keyAt.index + keyAt[0].length + 1).split("\n")) {
    if (!/^\s+\S/.test(line)) break;
    lines.push(line);
  }
  return lines.flatMap((l) => {
    const m = /^\s*([\w.-]+)\s*=\s*([\w.:]+)/.exec(l);
    return m?.[1] && m[2] ? [{ name: m[1], target: m[2] }] : [];
  });
}

/** `name = "target"` or `"name = target"` pairs in a block of text. */
function quotedAssignments(block: string): { name: string; target: string }[] {
  const out: { name: string; target: string }[] = [];
  for (const m of block.matchAll(/["']?([\w.-]+)["']?\s*=\s*["']?([\w.:/-]+)["']?/g)) {
    if (m[1] && m[2] && m[2].includes(":")) out.push({ name: m[1], target: m[2] });
  }
  return out;
}

function cargoBins(text: string): { name: string; target: string }[] {
  const out: { name: string; target: string }[] = [];
  for (const block of text.split(/^\[\[bin\]\][ \t]*$/m).slice(1)) {
    const body = block.split(/^\[/m)[0] ?? "";
    const name = /^name\s*=\s*"([^"]+)"/m.exec(body)?.[1];
    const file = /^path\s*=\s*"([^"]+)"/m.exec(body)?.[1];
    if (name) out.push({ name, target: file ?? `src/bin/${name}.rs` });
  }
  return out;
}
