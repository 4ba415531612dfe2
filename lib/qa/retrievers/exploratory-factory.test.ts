import { describe, expect, it } from "vitest";
import { factoryOf, writtenInstanceCall } from "./exploratory-factory.ts";

describe("calls on an instance a factory made", () => {
  it("reads the first call the question writes, on an instance or not", () => {
    expect(
      writtenInstanceCall("Walk me through what happens when I call `await got('https://x.io/items')`"),
    ).toEqual({ instance: "got", method: null });
    expect(
      writtenInstanceCall("What happens when I call await ky.post('https://x.io', { json: {} }).json()?"),
    ).toEqual({ instance: "ky", method: "post" });
    expect(writtenInstanceCall("What happens when a request arrives?")).toBeNull();
  });

  it("finds the factory an instance is assigned from, in several languages", () => {
    const ts = "import create from './create.js';\n\nconst got = create(defaults);\n\nexport default got;\n";
    expect(factoryOf(ts, "got")).toBe("create");
    const typed = "export const ky: KyInstance = createInstance();\n";
    expect(factoryOf(typed, "ky")).toBe("createInstance");
    const go = "func main() {\n\tapp := server.NewApp(cfg)\n\tapp.Run()\n}\n";
    expect(factoryOf(go, "app")).toBe("NewApp");
    const py = "session = make_session(retries=3)\n";
    expect(factoryOf(py, "session")).toBe("make_session");
  });

  it("a class constructed, a module required or a comparison is no factory", () => {
    expect(factoryOf("const client = new Client(options);\n", "client")).toBeNull();
    expect(factoryOf("const got = require('got');\n", "got")).toBeNull();
    expect(factoryOf("if (got == check(x)) {}\n", "got")).toBeNull();
    expect(factoryOf("const gotten = create(defaults);\n", "got")).toBeNull();
  });
});
