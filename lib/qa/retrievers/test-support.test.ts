import { describe, expect, it } from "vitest";
import { findTestSupport, inTestSupport } from "./test-support.ts";

const edge = (srcPath: string, dstPath: string) => ({ srcPath, dstPath });

describe("test support found by who imports it", () => {
  it("finds a server folder only tests import, which imports the package under test (Python)", () => {
    const edges = [
      edge("dummyserver/testcase.py", "src/httpkit/poolmanager.py"),
      edge("dummyserver/testcase.py", "dummyserver/socketserver.py"),
      edge("dummyserver/socketserver.py", "src/httpkit/util/ssl_.py"),
      edge("test/test_pool.py", "dummyserver/testcase.py"),
      edge("test/with_server/test_proxy.py", "dummyserver/socketserver.py"),
      edge("test/test_pool.py", "src/httpkit/connectionpool.py"),
      edge("src/httpkit/poolmanager.py", "src/httpkit/connectionpool.py"),
    ];
    const support = findTestSupport(edges);
    expect(support).toEqual(["dummyserver"]);
    expect(inTestSupport("dummyserver/socketserver.py", support)).toBe(true);
    expect(inTestSupport("src/httpkit/poolmanager.py", support)).toBe(false);
  });

  it("keeps a package that tests and its own users import (TypeScript monorepo)", () => {
    const edges = [
      edge("packages/cli/src/main.ts", "packages/core/src/index.ts"),
      edge("tools/release.ts", "packages/core/src/index.ts"),
      edge("test/core.test.ts", "packages/core/src/index.ts"),
      edge("test/cli.test.ts", "packages/cli/src/main.ts"),
    ];
    expect(findTestSupport(edges)).toEqual([]);
  });

  it("keeps an application's entry folder that a test or two import (Next.js)", () => {
    const edges = [
      edge("app/page.tsx", "components/repos/dashboard.tsx"),
      edge("app/admin/page.tsx", "components/admin/shell.tsx"),
      edge("app/admin/settings/page.tsx", "components/admin/settings-form.tsx"),
      edge("app/api/qa/route.ts", "lib/qa/ask.ts"),
      edge("app/api/repos/route.ts", "lib/db/repositories.ts"),
      edge("components/admin/shell.tsx", "lib/settings/config.ts"),
      edge("lib/admin/settings.test.ts", "app/api/qa/route.ts"),
      edge("lib/indexer/worker.test.ts", "app/api/repos/route.ts"),
    ];
    expect(findTestSupport(edges)).toEqual([]);
  });

  it("keeps a package folder nested inside the source, whoever imports it (Go)", () => {
    const edges = [
      edge("internal/testutil/server.go", "client/client.go"),
      edge("client/client_test.go", "internal/testutil/server.go"),
      edge("middleware/retry_test.go", "internal/testutil/server.go"),
      edge("cmd/tool/main.go", "client/client.go"),
    ];
    // `internal/testutil` lives in `internal`, whose other code a program may import: only a
    // whole top-level folder counts, and `internal` imports `client` for tests alone here.
    expect(findTestSupport(edges)).toEqual(["internal"]);
    edges.push(edge("cmd/tool/main.go", "internal/config/config.go"));
    expect(findTestSupport(edges)).toEqual([]);
  });

  it("needs more than one test importing it, and code of its own to exercise (Ruby)", () => {
    const once = [
      edge("support/fake_server.rb", "lib/faraday/connection.rb"),
      edge("spec/connection_spec.rb", "support/fake_server.rb"),
    ];
    expect(findTestSupport(once)).toEqual([]);
    const helpers = [
      edge("spec/connection_spec.rb", "helpers/strings.rb"),
      edge("spec/request_spec.rb", "helpers/strings.rb"),
    ];
    expect(findTestSupport(helpers)).toEqual([]);
  });
});
