/**
 * The analytical question classes over one small repository per language family (the
 * same shop written in Python, TypeScript, Go, Rust, Java, C#, C with `#include`, Ruby
 * `require` and PHP `use`; __fixtures__/polyglot): a named method's callers, where a
 * helper is used, the most imported files, import cycles, the coupling of two folders,
 * two files or packages named as a pair by their stems ("how coupled are api and store?",
 * "a cycle between client and codec?"),
 * a scoped ranking and a scope named in the language's own way, and a subject described
 * in prose. Each answer must keep to its scope, leave the tests out of a whole-repository
 * question, put the asked files first and state the figure in its first sentence.
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { askOffline } from "../../../test-support/qa-flow.ts";
import { indexFixture, setupQaHome, type IndexedFixture } from "../../../test-support/qa-env.ts";

const POLYGLOT = fileURLToPath(new URL("./__fixtures__/polyglot", import.meta.url));

/** One language's shop: where its parts are, and how its code names them. */
interface Shop {
  dir: string;
  /** the method that saves a record, as a user of the language writes it */
  save: string;
  /** its qualified name as answers write it */
  saveName: string;
  /** the key helper, as written and as answers write it */
  key: string;
  keyName: string;
  util: string;
  store: string;
  api: string;
  worker: string;
  client: string;
  codec: string;
  app: string;
  core: string;
  net: string;
  /** the network folder named the language's way ("the Shop\Net namespace") */
  netNamed: string;
  /** whether the network files depend on each other (Go forbids it; C# files through their calls) */
  cycle: boolean;
}

const SHOPS: Record<string, Shop> = {
  python: {
    dir: "python",
    save: "Store.save",
    saveName: "Store.save",
    key: "format_key",
    keyName: "format_key",
    util: "shop/core/util.py",
    store: "shop/core/store.py",
    api: "shop/app/api.py",
    worker: "shop/app/worker.py",
    client: "shop/net/client.py",
    codec: "shop/net/codec.py",
    app: "shop/app",
    core: "shop/core",
    net: "shop/net",
    netNamed: "the shop.net package",
    cycle: true,
  },
  typescript: {
    dir: "ts",
    save: "Store.save",
    saveName: "Store.save",
    key: "formatKey",
    keyName: "formatKey",
    util: "src/core/util.ts",
    store: "src/core/store.ts",
    api: "src/app/api.ts",
    worker: "src/app/worker.ts",
    client: "src/net/client.ts",
    codec: "src/net/codec.ts",
    app: "src/app",
    core: "src/core",
    net: "src/net",
    netNamed: "the net folder",
    cycle: true,
  },
  go: {
    dir: "go",
    save: "(*Store).Save",
    saveName: "Store.Save",
    key: "core.FormatKey",
    keyName: "FormatKey",
    util: "core/util.go",
    store: "core/store.go",
    api: "app/api.go",
    worker: "app/worker.go",
    client: "net/client.go",
    codec: "net/codec.go",
    app: "app",
    core: "core",
    net: "net",
    netNamed: "the net package",
    cycle: false,
  },
  rust: {
    dir: "rust",
    save: "Store::save",
    saveName: "Store.save",
    key: "format_key",
    keyName: "format_key",
    util: "src/core/util.rs",
    store: "src/core/store.rs",
    api: "src/app/api.rs",
    worker: "src/app/worker.rs",
    client: "src/net/client.rs",
    codec: "src/net/codec.rs",
    app: "src/app",
    core: "src/core",
    net: "src/net",
    netNamed: "crate::net",
    cycle: true,
  },
  java: {
    dir: "java",
    save: "Store.save",
    saveName: "Store.save",
    key: "Keys.formatKey",
    keyName: "Keys.formatKey",
    util: "src/main/java/com/acme/shop/core/Keys.java",
    store: "src/main/java/com/acme/shop/core/Store.java",
    api: "src/main/java/com/acme/shop/app/Api.java",
    worker: "src/main/java/com/acme/shop/app/Worker.java",
    client: "src/main/java/com/acme/shop/net/Client.java",
    codec: "src/main/java/com/acme/shop/net/wire/Codec.java",
    app: "src/main/java/com/acme/shop/app",
    core: "src/main/java/com/acme/shop/core",
    net: "src/main/java/com/acme/shop/net",
    netNamed: "the com.acme.shop.net package",
    cycle: true,
  },
  csharp: {
    dir: "csharp",
    save: "Store.Save",
    saveName: "Acme.Shop.Core.Store.Save",
    key: "Keys.FormatKey",
    keyName: "Acme.Shop.Core.Keys.FormatKey",
    util: "src/Acme.Shop/Core/Keys.cs",
    store: "src/Acme.Shop/Core/Store.cs",
    api: "src/Acme.Shop/App/Api.cs",
    worker: "src/Acme.Shop/App/Worker.cs",
    client: "src/Acme.Shop/Net/Client.cs",
    codec: "src/Acme.Shop/Net/Codec.cs",
    app: "src/Acme.Shop/App",
    core: "src/Acme.Shop/Core",
    net: "src/Acme.Shop/Net",
    netNamed: "the Acme.Shop.Net namespace",
    cycle: true,
  },
  c: {
    dir: "c",
    save: "store_save",
    saveName: "store_save",
    key: "format_key",
    keyName: "format_key",
    util: "src/core/util.h",
    store: "src/core/store.h",
    api: "src/app/api.c",
    worker: "src/app/worker.c",
    client: "src/net/client.h",
    codec: "src/net/codec.h",
    app: "src/app",
    core: "src/core",
    net: "src/net",
    netNamed: "the net folder",
    cycle: true,
  },
  ruby: {
    dir: "ruby",
    save: "Shop::Store#save",
    saveName: "Shop.Store.save",
    key: "Util.format_key",
    keyName: "Shop.Util.format_key",
    util: "lib/shop/core/util.rb",
    store: "lib/shop/core/store.rb",
    api: "lib/shop/app/api.rb",
    worker: "lib/shop/app/worker.rb",
    client: "lib/shop/net/client.rb",
    codec: "lib/shop/net/codec.rb",
    app: "lib/shop/app",
    core: "lib/shop/core",
    net: "lib/shop/net",
    netNamed: "lib/shop/net",
    cycle: true,
  },
  php: {
    dir: "php",
    save: "Store::save",
    saveName: "Shop.Core.Store.save",
    key: "Keys::formatKey",
    keyName: "Shop.Core.Keys.formatKey",
    util: "src/Core/Keys.php",
    store: "src/Core/Store.php",
    api: "src/App/Api.php",
    worker: "src/App/Worker.php",
    client: "src/Net/Client.php",
    codec: "src/Net/Codec.php",
    app: "src/App",
    core: "src/Core",
    net: "src/Net",
    netNamed: "the Shop\\Net namespace",
    cycle: true,
  },
};

const indexed = new Map<string, IndexedFixture>();
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ cleanup } = await setupQaHome("wf-analytical-languages-"));
  for (const [language, shop] of Object.entries(SHOPS))
    indexed.set(language, await indexFixture(`${POLYGLOT}/${shop.dir}`, `shop-${language}`));
});
afterAll(() => cleanup());

async function ask(language: string, question: string) {
  const repo = indexed.get(language) as IndexedFixture;
  return askOffline(repo.repositoryId, question, "analytical");
}

/** The first file an opening names in code (`src/core/util.ts`). */
const firstFile = (opening: string) => opening.match(/`([\w./-]+\.\w+)`/)?.[1];
const isTest = (p: string) => /(^|\/)(tests?|spec)\/|_test\.\w+$|Tests?\.\w+$/.test(p);
const under = (p: string, folder: string) => p.startsWith(`${folder}/`);
/** A path without its extension (C's module is its source and its header), and its file's stem. */
const noExt = (p: string) => p.replace(/\.\w+$/, "");
const stem = (p: string) => noExt(p.split("/").pop() as string);

describe.each(Object.keys(SHOPS))("%s", (language) => {
  const shop = SHOPS[language] as Shop;

  it("a named method's callers: the count, the callers' files, no tests", async () => {
    const { opening, files, cited } = await ask(language, `Who calls ${shop.save}?`);
    expect(opening).toMatch(/^2 functions in 2 files call /);
    expect(opening).toContain(`\`${shop.saveName}\``);
    expect(files.slice(0, 5)).toEqual(expect.arrayContaining([shop.api, shop.worker]));
    // The callers' files are what was asked: one of them leads, not the store's own file.
    expect([shop.api, shop.worker]).toContain(files[0]);
    expect([...files.slice(0, 5), ...cited].filter(isTest)).toEqual([]);
  });

  it("what a method calls: its callees lead the answer, not its callers", async () => {
    const { opening } = await ask(language, `What does ${shop.save} call?`);
    expect(opening.startsWith(`\`${shop.saveName}\` (`)).toBe(true);
    expect(opening).toMatch(/^`[^`]+` \([^)]+\) calls \d+ functions? outside itself: /);
    expect(opening.split(". ")[0]).toContain(`\`${shop.keyName}\``);
  });

  it("what a method calls, named as a plain word before 'call': its callees and theirs", async () => {
    const word = shop.saveName.split(".").pop() as string;
    const { opening } = await ask(
      language,
      `Which functions does ${word} call, directly or through one helper?`,
    );
    expect(opening.startsWith(`\`${shop.saveName}\` (`)).toBe(true);
    expect(opening).toMatch(/^`[^`]+` \([^)]+\) calls \d+ functions? outside itself: /);
  });

  it("a module named by its stem: the file, not the type named like it", async () => {
    const stem = (shop.store.split("/").pop() as string).replace(/\.\w+$/, "");
    const { opening } = await ask(language, `What depends on the ${stem} module most?`);
    // C's module is its source and its header: either file of the stem answers. A file no
    // other file imports (a C# file, whose namespace is imported) is answered by its callers.
    const file = /^`([^`]+)`|^\d+ functions? in \d+ files? outside `([^`]+)`/.exec(opening);
    expect((file?.[1] ?? file?.[2] ?? "").replace(/\.\w+$/, "")).toBe(shop.store.replace(/\.\w+$/, ""));
  });

  it("where a helper is used: its callers over the files", async () => {
    const { opening, files } = await ask(language, `Where is ${shop.key} used?`);
    expect(opening).toMatch(/^\d+ functions? in \d+ files? calls? /);
    expect(opening).toContain(`\`${shop.keyName}\``);
    expect(files.slice(0, 5)).toEqual(expect.arrayContaining([shop.api]));
    expect(files.filter(isTest)).toEqual([]);
  });

  it("the most imported files, tests left out", async () => {
    const { opening, files, cited } = await ask(
      language,
      "Which files are imported or used by the most other files?",
    );
    expect(opening).toMatch(/^The (?:most \w+ files|files .* that the most others depend on)/);
    expect(opening.indexOf(`\`${shop.util}\``)).toBeGreaterThan(-1);
    expect(files.slice(0, 2)).toContain(shop.util);
    // The figure's first file leads the ranked files.
    expect(files[0]).toBe(firstFile(opening));
    expect([...files.slice(0, 5), ...cited].filter(isTest)).toEqual([]);
  });

  it("the least depended-on files: the other end of the ranking, not the most", async () => {
    const { opening, files, cited } = await ask(language, "Which files are depended on the least?");
    expect(opening).toMatch(/\b(?:used|imported|included|required) by no other\b|\bthe fewest dependents\b/);
    // The application's files, which nothing else uses, come before the shared helper.
    expect(files.slice(0, 4)).toEqual(
      expect.arrayContaining([expect.stringMatching(new RegExp(`^${shop.app}/`))]),
    );
    expect(files.indexOf(shop.util) === -1 || files.indexOf(shop.util) > files.indexOf(shop.api)).toBe(true);
    expect(opening).not.toMatch(/\bthe most\b/);
    expect([...files, ...cited].filter(isTest)).toEqual([]);
  });

  it("the functions with the fewest callers, uncalled ones first", async () => {
    const { opening } = await ask(language, "Which functions are called the least?");
    expect(opening).toMatch(/\bno resolved caller\b|\bthe fewest callers\b/);
    expect(opening).not.toMatch(/\bthe most callers\b/);
  });

  it("tests the question sets aside stay out of the figure", async () => {
    const { opening, files, cited } = await ask(
      language,
      "Leaving the tests aside, which files are imported by the most other files?",
    );
    expect(opening).toMatch(/\(tests, [^)]*left out\)/);
    expect(opening).not.toMatch(/\((?:imported by )?0[;, ]/);
    expect(files.slice(0, 2)).toContain(shop.util);
    expect(files[0]).toBe(firstFile(opening));
    expect([...files, ...cited].filter(isTest)).toEqual([]);
  });

  it("import cycles: the cycle, or that there is none", async () => {
    const { opening, files } = await ask(language, "Are there any import cycles?");
    if (shop.cycle) {
      expect(opening).toMatch(
        language === "csharp"
          ? /^One dependency cycle \(through calls: C# `using`s name namespaces/
          : /^One \w+ cycle in /,
      );
      expect(opening).toContain(`\`${shop.client}\``);
      expect(files.slice(0, 3)).toContain(shop.client);
    } else {
      expect(opening).toMatch(/^No \w+ cycle/);
      // The "no" rests on the imports that run one way, each cited at its line.
      expect(opening).toMatch(/run one way: `[^`]+` → `[^`]+` \([\w/.]+:\d+\)/);
    }
    expect(files.filter(isTest)).toEqual([]);
  });

  it("the coupling of two folders, both named", async () => {
    const { opening, files } = await ask(language, `How coupled are ${shop.app}/ and ${shop.core}/?`);
    expect(opening).toContain(`\`${shop.app}\``);
    expect(opening).toContain(`\`${shop.core}\``);
    expect(files.slice(0, 5).some((f) => under(f, shop.app))).toBe(true);
    expect(files.slice(0, 5).some((f) => under(f, shop.core))).toBe(true);
  });

  it("two files named by their stems as a pair: the coupling between those two", async () => {
    const { opening, files } = await ask(
      language,
      `How coupled are ${stem(shop.api)} and ${stem(shop.store)}?`,
    );
    expect(opening).toMatch(new RegExp(`^\`${noExt(shop.api)}\\.\\w+\` → \`${noExt(shop.store)}\\.\\w+\``));
    expect(files.slice(0, 5).map(noExt)).toEqual(
      expect.arrayContaining([noExt(shop.api), noExt(shop.store)]),
    );
  });

  it("a cycle between two files named by their stems: the loop through both, or none", async () => {
    const { opening } = await ask(
      language,
      `Is there an import cycle between ${stem(shop.client)} and ${stem(shop.codec)}?`,
    );
    if (shop.cycle) {
      const loop = /^One \w+ cycle .*?among `[^`]+` and `[^`]+`: ([^(]+)/.exec(opening)?.[1] ?? "";
      expect(loop).toContain(`\`${noExt(shop.client)}.`);
      expect(loop).toContain(`\`${noExt(shop.codec)}.`);
    } else expect(opening).toMatch(/^No \w+ cycle among `[^`]+` and `[^`]+`/);
  });

  it("two folders named as a pair of packages: the coupling between those two", async () => {
    const [app, core] = [shop.app, shop.core].map((f) => f.split("/").pop() as string);
    const { opening } = await ask(language, `How do the ${app} and ${core} packages depend on each other?`);
    // Imports, or calls where the language's files import no files (C#'s namespaces).
    expect(opening).toMatch(
      new RegExp(
        `^\`${shop.app}\` → \`${shop.core}\`: (?:[1-9]\\d* imports?|\\d+ imports? and [1-9]\\d* calls?)`,
      ),
    );
  });

  it("whether one package depends on another, both named as places", async () => {
    const no = await ask(language, "Does the core package depend on the app package?");
    expect(no.opening).toMatch(new RegExp(`^No: \`${shop.core}\` never imports or calls \`${shop.app}\``));
    const yes = await ask(language, "Does the app package depend on the core package?");
    expect(yes.opening).toMatch(new RegExp(`^Yes: \`${shop.app}\` reaches into \`${shop.core}\``));
  });

  it("a scoped question stays inside its folder", async () => {
    const { opening, files, cited } = await ask(
      language,
      `Within ${shop.net}/, which files are used by the most other files?`,
    );
    expect(opening).toMatch(/^The files in `[^`]+` that the most others depend on/);
    expect(opening).toContain(`\`${shop.net}\``);
    expect(files.length).toBeGreaterThan(0);
    expect([...files, ...cited].filter((f) => !under(f, shop.net))).toEqual([]);
  });

  it("a scope named the language's way", async () => {
    const { opening, files } = await ask(language, `Which files in ${shop.netNamed} are used the most?`);
    expect(opening).toMatch(/^The files in `[^`]+` that the most others depend on/);
    expect(opening).toContain(`\`${shop.net}\``);
    expect(files.filter((f) => !under(f, shop.net))).toEqual([]);
  });

  it("a census of definitions per folder, tests left out", async () => {
    const { opening } = await ask(language, "How many functions does each folder define?");
    expect(opening).toMatch(/^\d+ functions and methods in the repository \(tests, .*\), by folder: /);
    expect(opening).toContain(`\`${shop.core}\` `);
    expect(opening).not.toMatch(/\/(?:tests?|spec)\b|_test\.|Tests?\.\w+/);
  });

  it("the functions with the most callers", async () => {
    const { opening } = await ask(language, "Which functions have the most callers?");
    expect(opening).toMatch(/^The functions with the most callers in the repository/);
    expect(opening).toContain(`\`${shop.keyName}\` (`);
  });

  it("a subject described in prose", async () => {
    const { opening, files } = await ask(
      language,
      "Who calls the method that persists a record in the store?",
    );
    expect(opening).toMatch(/^2 functions in 2 files call /);
    expect(opening).toContain(`\`${shop.saveName}\``);
    expect(files.slice(0, 5)).toEqual(expect.arrayContaining([shop.api, shop.worker]));
  });

  it("a method named through its owner's words ('the store's save method')", async () => {
    const { opening, files } = await ask(language, "Who calls the store's save method?");
    expect(opening).toMatch(/^2 functions in 2 files call /);
    expect(opening).toContain(`\`${shop.saveName}\``);
    expect(files.slice(0, 5)).toEqual(expect.arrayContaining([shop.api, shop.worker]));
  });

  it("what a described part depends on: its dependencies, not its callers", async () => {
    const { opening, files } = await ask(language, "Which files does the worker depend on?");
    expect(opening).not.toMatch(/^\d+ functions? in \d+ files? calls? /);
    expect(opening).toContain(`\`${shop.worker}\``);
    expect(opening).toMatch(new RegExp(`\`${shop.store.replace(/\.h$/, "\\.[ch]")}\``));
    expect(files.slice(0, 3)).toEqual(expect.arrayContaining([shop.worker]));
  });

  it("what a file imports, asked with the import verb: its dependencies, its own file first", async () => {
    const { opening, files } = await ask(language, `What does ${shop.worker} import?`);
    expect(opening).toMatch(new RegExp(`^\`${shop.worker.replace(/\./g, "\\.")}\` depends on `));
    expect(opening).toMatch(new RegExp(`\`${shop.store.replace(/\.h$/, "\\.[ch]")}\``));
    expect(files[0]).toBe(shop.worker);
  });

  it("what a folder depends on outside it", async () => {
    const { opening, files } = await ask(language, `What does ${shop.app}/ depend on?`);
    expect(opening).toContain(`\`${shop.app}\``);
    expect(opening).toMatch(new RegExp(`\`${shop.store.replace(/\.h$/, "\\.[ch]")}\``));
    expect(files.slice(0, 5).some((f) => under(f, shop.core))).toBe(true);
  });
});

describe("names nothing calls (fields, options, hook lists)", () => {
  it("are answered with the functions that use them", async () => {
    const { opening, files } = await ask(
      "typescript",
      "Where are the store's hooks invoked? List the methods that run beforeSave and afterSave hooks.",
    );
    expect(opening).toMatch(
      /^Nothing calls `beforeSave` and `afterSave` by name; \d+ functions? in \d+ files? uses? them/,
    );
    expect(opening).toContain("`Store.#runBeforeSaveHooks` (src/core/store.ts:");
    expect(opening).toContain("`Store.save` (src/core/store.ts:");
    expect(files.slice(0, 2)).toContain("src/core/store.ts");
  });
});

describe("a .NET project named by the end of its folder's name", () => {
  it("is the scope: 'the Shop project' is src/Acme.Shop", async () => {
    const { opening, files } = await ask("csharp", "In the Shop project, which files are used the most?");
    expect(opening).toMatch(/^The files in `src\/Acme\.Shop` that the most others depend on/);
    expect(files.filter((f) => !under(f, "src/Acme.Shop"))).toEqual([]);
  });
});
