/**
 * The main line an exploratory walk follows, on real indexes: a level check in a condition
 * and a rescue's calls are side branches, the call under the check carries the flow (Go); a
 * hook a module declares for others to fill in goes on in the method filling it in (Ruby); a
 * call on an instance a factory made starts in the factory's function (TypeScript).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexSources } from "../../../test-support/qa-env.ts";
import { exploratoryFlow } from "../../../test-support/qa-flow.ts";
import { factoryStart } from "./exploratory-factory.ts";
import { hookBody } from "./exploratory-walk.ts";

const BASE_RB = `module Cli
  module Base
    module ClassMethods
      # Parses the arguments and runs the command.
      def start(given_args = ARGV, config = {})
        config[:shell] ||= Cli::Shell.new
        dispatch(nil, given_args.dup, nil, config)
      rescue Cli::Error => e
        config[:shell].error(e.message)
        exit(false) if exit_on_failure?
      end

      # The hook invoked by start.
      def dispatch(command, given_args, given_opts, config)
        raise NotImplementedError
      end

      def exit_on_failure?
        false
      end
    end
  end
end
`;

const CLI_RB = `module Cli
  class Command
    extend Base::ClassMethods

    def self.dispatch(meth, given_args, given_opts, config)
      meth ||= retrieve_command_name(given_args)
      instance = new(given_args, config)
      instance.invoke_command(meth)
    end

    def self.retrieve_command_name(args)
      args.shift
    end
  end
end
`;

const SHELL_RB = `module Cli
  class Shell
    def error(message)
      warn_line(message)
      flush_all
    end

    def warn_line(message)
      $stderr.puts(message)
    end

    def flush_all
      $stderr.flush
    end
  end
end
`;

const CREATE_TS = `import { Request } from "./request.js";

export default function create(defaults: { prefix: string }) {
  const makeRequest = (url: string) => {
    const request = new Request(defaults.prefix + url);
    return request.flush();
  };

  const got = (url: string) => makeRequest(url);

  return got;
}
`;

const REQUEST_TS = `export class Request {
  constructor(readonly url: string) {}

  flush(): Promise<string> {
    return this.send(this.url);
  }

  send(url: string): Promise<string> {
    return fetch(url).then((r) => r.text());
  }
}
`;

const INDEX_TS = `import create from "./create.js";

const got = create({ prefix: "https://" });

export default got;
`;

let repo: Awaited<ReturnType<typeof indexSources>>;

beforeAll(async () => {
  repo = await indexSources("hooks", {
    "lib/cli/base.rb": BASE_RB,
    "lib/cli.rb": CLI_RB,
    "lib/cli/shell.rb": SHELL_RB,
    "package.json": '{ "name": "fetcher", "type": "module" }\n',
    "source/create.ts": CREATE_TS,
    "source/request.ts": REQUEST_TS,
    "source/index.ts": INDEX_TS,
  });
});
afterAll(() => repo.close());

describe("where a walk goes on past what the index links", () => {
  it("Ruby: a hook raising NotImplementedError goes on in the method filling it in", async () => {
    const { flow } = await exploratoryFlow(
      repo.repositoryId,
      "Walk me through what happens when I call MyCLI.start(ARGV)",
    );
    expect(flow).toMatch(/→ Cli\.Command\.dispatch\(\)/);
    // The declaration that only raises is no step of its own.
    expect(flow).not.toMatch(/Cli\.Base\.ClassMethods\.dispatch\(\)/);
  });

  it("TypeScript: a call on an instance a factory made starts in the function the factory returns", async () => {
    const start = await factoryStart(repo.generationId, "What happens when I call `await got('/items')`?");
    expect(start?.qualifiedId).toBe("source/create.ts::create.got");
    const made = await factoryStart(repo.generationId, "What happens when I call `client.get('/items')`?");
    expect(made).toBeNull();
  });
});

describe("hooks left for others to implement", () => {
  it("a body that only says it is not implemented is a hook, in several languages", () => {
    expect(
      hookBody([
        "      # SIGNATURE: The hook invoked by start.",
        "      def dispatch(command, given_args, given_opts, config) #:nodoc:",
        "        raise NotImplementedError",
        "      end",
      ]),
    ).toBe(true);
    expect(hookBody(["    def handle(self, request):", "        raise NotImplementedError()"])).toBe(true);
    expect(
      hookBody([
        "    public Object visit(Node node) {",
        "        throw new UnsupportedOperationException();",
        "    }",
      ]),
    ).toBe(true);
    expect(hookBody(["    fn poll(&mut self) -> Poll<()> {", "        unimplemented!()", "    }"])).toBe(
      true,
    );
  });

  it("a body that does work, or does nothing at all, is no hook", () => {
    expect(
      hookBody(["func (l *Logger) level() Level {", "\treturn Level(atomic.LoadUint32(&l.Level))", "}"]),
    ).toBe(false);
    expect(hookBody(["      def initialize_added #:nodoc:", "      end"])).toBe(false);
    expect(
      hookBody([
        "    def run(self):",
        "        if self.closed:",
        "            raise NotImplementedError('closed')",
        "        return self.loop()",
      ]),
    ).toBe(false);
  });
});
