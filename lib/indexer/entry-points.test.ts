/**
 * Entry-point detection over file text and symbols: each row of the framework table
 * (decorators, registrations, file conventions, main functions, manifests) on a
 * small real-looking file, and files that declare nothing.
 */
import { describe, expect, it } from "vitest";
import { detectEntryPoints, type EntrySymbol } from "./entry-points.ts";

function sym(name: string, extra: Partial<EntrySymbol> = {}): EntrySymbol {
  return {
    name,
    qualifiedName: extra.qualifiedName ?? name,
    kind: "function",
    parent: null,
    exported: true,
    decorators: [],
    startLine: 1,
    ...extra,
  };
}

const detect = (path: string, language: string, content: string, symbols: EntrySymbol[] = []) =>
  detectEntryPoints({ path, language, content, symbols }).map(
    ({ kind, framework, name, symbol, target }) => ({
      kind,
      framework,
      name,
      symbol,
      target,
    }),
  );

describe("decorated handlers", () => {
  it("reads Flask/FastAPI routes, with the method from the decorator or the verb", () => {
    const found = detect("app/views.py", "python", "", [
      sym("index", { decorators: ['app.route("/")'], startLine: 3 }),
      sym("create_user", { decorators: ['router.post("/users")'], startLine: 9 }),
      sym("helper", { decorators: ["functools.lru_cache()"] }),
    ]);
    expect(found).toEqual([
      { kind: "http", framework: "python-web", name: "/", symbol: "index", target: null },
      { kind: "http", framework: "python-web", name: "POST /users", symbol: "create_user", target: null },
    ]);
  });

  it("reads Spring mappings and click commands", () => {
    expect(
      detect("src/UserController.java", "java", "", [
        sym("list", { kind: "method", parent: "UserController", decorators: ['GetMapping("/users")'] }),
      ]).map((e) => e.name),
    ).toEqual(["GET /users"]);
    expect(
      detect("src/flask/cli.py", "python", "", [
        sym("run_command", {
          decorators: ['click.command("run", short_help="Run a server.")', "click.option()"],
        }),
        sym("cli", { decorators: ["click.group()"] }),
      ]).map((e) => [e.kind, e.name, e.symbol]),
    ).toEqual([
      ["cli", "run", "run_command"],
      ["cli", "cli", "cli"],
    ]);
  });
});

describe("registrations", () => {
  it("reads Express routes and resolves a handler defined in the file", () => {
    const content = [
      "const app = express();",
      "function listUsers(req, res) {}",
      "app.get('/users', auth, listUsers);",
      'router.post("/orders", handlers.createOrder);',
      "app.get('/inline', (req, res) => res.send('x'));",
    ].join("\n");
    const found = detect("server.js", "javascript", content, [sym("listUsers", { startLine: 2 })]);
    expect(found).toEqual([
      { kind: "http", framework: "express", name: "GET /users", symbol: "listUsers", target: null },
      {
        kind: "http",
        framework: "express",
        name: "POST /orders",
        symbol: null,
        target: "handlers.createOrder",
      },
    ]);
  });

  it("reads Go net/http and Django URLconfs (only in urls.py)", () => {
    const go =
      'func main() {\n\thttp.HandleFunc("/health", healthHandler)\n\tr.GET("/items", h.ListItems)\n}';
    expect(
      detect("cmd/server/main.go", "go", go, [sym("main")]).map((e) => [e.kind, e.name, e.target]),
    ).toEqual([
      ["main", "main", null],
      ["http", "/health", "healthHandler"],
      ["http", "GET /items", "h.ListItems"],
    ]);
    const urls = 'urlpatterns = [path("users/<int:pk>/", views.user_detail)]';
    expect(detect("shop/urls.py", "python", urls).map((e) => [e.name, e.target])).toEqual([
      ["users/<int:pk>/", "views.user_detail"],
    ]);
    expect(detect("shop/models.py", "python", urls)).toEqual([]);
  });
});

describe("Ruby, PHP and C# registrations", () => {
  it("reads Sinatra and Rails routes, inline blocks without a handler", () => {
    const content =
      "get '/' do\n  erb :index\nend\n  post \"/orders\", to: \"orders#create\"\nmap '/admin' do\nend\n";
    expect(detect("app.rb", "ruby", content).map((e) => [e.name, e.target])).toEqual([
      ["GET /", null],
      ["POST /orders", "orders#create"],
      ["/admin", null],
    ]);
  });

  it("reads Slim and Laravel routes with class, array and string handlers", () => {
    const content = [
      "$app->get('/users/{id}', UserAction::class);",
      "$group->post('/orders', [OrderController::class, 'create']);",
      "Route::put('/items', 'ItemController@update');",
      "$app->delete('/x', function ($request, $response) { return $response; });",
      "$this->container->get(Foo::class);",
    ].join("\n");
    expect(detect("app/routes.php", "php", content).map((e) => [e.name, e.target])).toEqual([
      ["GET /users/{id}", "UserAction"],
      ["POST /orders", "OrderController"],
      ["PUT /items", "ItemController@update"],
      ["DELETE /x", null],
    ]);
  });

  it("reads ASP.NET minimal API maps", () => {
    const content =
      'app.MapGet("/todos", GetTodos);\napp.MapPost("/todos", async (Todo t, Db db) => await db.Add(t));';
    expect(detect("Program.cs", "csharp", content, [sym("GetTodos")]).map((e) => [e.name, e.symbol])).toEqual(
      [
        ["GET /todos", "GetTodos"],
        ["POST /todos", null],
      ],
    );
  });
});

describe("conventions and mains", () => {
  it("treats the exported methods of a Next.js route file as handlers", () => {
    const found = detect("app/api/qa/route.ts", "typescript", "", [
      sym("POST"),
      sym("dynamic", { kind: "type" }),
      sym("helper", { exported: false }),
    ]);
    expect(found).toEqual([
      { kind: "http", framework: "nextjs", name: "POST /api/qa", symbol: "POST", target: null },
    ]);
  });

  it("finds main functions and the function a __main__ block calls", () => {
    const py = "def main(argv=None):\n    pass\n\n\nif __name__ == '__main__':\n    sys.exit(main())\n";
    expect(detect("tool.py", "python", py, [sym("main")]).map((e) => [e.framework, e.symbol])).toEqual([
      ["main", "main"],
      ["python-main", "main"],
    ]);
    expect(
      detect("src/App.java", "java", "", [
        sym("main", { kind: "method", parent: "App", qualifiedName: "App.main" }),
      ]),
    ).toHaveLength(1);
    // A method called main in Python is not a program's start.
    expect(detect("x.py", "python", "", [sym("main", { kind: "method", parent: "Runner" })])).toEqual([]);
  });
});

describe("manifests", () => {
  it("reads console scripts from pyproject.toml, setup.cfg and setup.py", () => {
    const pyproject =
      '[project]\nname = "pylint"\n\n[project.scripts]\npylint = "pylint:run_pylint"\nsymilar = "pylint:run_symilar"\n\n[tool.x]\na = "b:c"\n';
    expect(detect("pyproject.toml", "toml", pyproject).map((e) => [e.name, e.target])).toEqual([
      ["pylint", "pylint:run_pylint"],
      ["symilar", "pylint:run_symilar"],
    ]);
    const cfg =
      "[options.entry_points]\nconsole_scripts =\n    pytest=pytest:console_main\n    py.test=pytest:console_main\n\n[options.extras_require]\n";
    expect(detect("setup.cfg", "ini", cfg).map((e) => e.name)).toEqual(["pytest", "py.test"]);
    const setup = 'setup(entry_points={"console_scripts": ["flask = flask.cli:main"]})';
    expect(detect("setup.py", "python", setup).map((e) => e.target)).toEqual(["flask.cli:main"]);
  });

  it("reads package.json bins and the npm scripts that run a source file", () => {
    const pkg = JSON.stringify({
      name: "@acme/tool",
      bin: { acme: "./bin/acme.js" },
      scripts: { wayfinder: "tsx --conditions=react-server lib/cli/main.ts", lint: "eslint ." },
    });
    expect(detect("package.json", "json", pkg).map((e) => [e.name, e.target])).toEqual([
      ["acme", "bin/acme.js"],
      ["wayfinder", "lib/cli/main.ts"],
    ]);
    expect(detect("package.json", "json", "{ not json")).toEqual([]);
  });
});
