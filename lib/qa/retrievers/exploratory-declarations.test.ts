/**
 * A walk through a declaration goes on in the code it dispatches to, on a real index:
 * a PHP trait's method calling the trait's abstract method reaches the class that uses
 * the trait, a TypeScript call of an abstract method reaches the one subclass implementing
 * it, and a declaration implemented in many places is left as it is (no one of them is the
 * flow).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexSources } from "../../../test-support/qa-env.ts";
import { askOffline, exploratoryFlow } from "../../../test-support/qa-flow.ts";

const TRAIT = `<?php
namespace Http;

trait ClientTrait
{
    /** Sends a GET request. */
    public function get(string $uri): string
    {
        return $this->request('GET', $uri);
    }

    /** Sends a request. */
    abstract public function request(string $method, string $uri): string;
}
`;

const CLIENT = `<?php
namespace Http;

class Client
{
    use ClientTrait;

    public function request(string $method, string $uri): string
    {
        $prepared = $this->prepare($method, $uri);
        return $this->transfer($prepared);
    }

    private function prepare(string $method, string $uri): array
    {
        return ['method' => strtoupper($method), 'uri' => trim($uri)];
    }

    private function transfer(array $request): string
    {
        return implode(' ', $request);
    }
}
`;

const JOB = `/** A job runs its steps; each kind of job says what its work is. */
export abstract class Job {
  run(input: string): string {
    const ready = this.prepare(input);
    return this.execute(ready);
  }

  prepare(input: string): string {
    return input.trim().toLowerCase();
  }

  abstract execute(input: string): string;
}

export class ExportJob extends Job {
  execute(input: string): string {
    const rows = this.collect(input);
    return this.write(rows);
  }

  collect(input: string): string[] {
    return input.split(",").filter((r) => r.length > 0);
  }

  write(rows: string[]): string {
    return rows.join("\\n");
  }
}
`;

/** A shape with three implementations: drawing one of them would be a guess. */
const SHAPES = `export abstract class Shape {
  describe(): string {
    return "area " + this.area();
  }
  abstract area(): number;
}

export class Square extends Shape {
  area(): number { return this.side() * this.side(); }
  side(): number { return 2; }
}

export class Circle extends Shape {
  area(): number { return Math.PI * this.radius() * this.radius(); }
  radius(): number { return 1; }
}

export class Ring extends Shape {
  area(): number { return this.outer() - this.inner(); }
  outer(): number { return 4; }
  inner(): number { return 1; }
}
`;

/** A decorator declared for type checkers by two stubs before the one implementation. */
const DECORATOR = `import functools
import typing as t


class Retrying:
    def __init__(self, attempts: int = 3) -> None:
        self.attempts = attempts

    def wraps(self, f):
        @functools.wraps(f)
        def wrapped(*args, **kw):
            return self.call(f, *args, **kw)

        return wrapped

    def call(self, f, *args, **kw):
        for attempt in range(self.attempts):
            try:
                return f(*args, **kw)
            except Exception:
                self.pause(attempt)
        return f(*args, **kw)

    def pause(self, attempt: int) -> None:
        pass


@t.overload
def retry(func: t.Callable) -> t.Callable: ...


@t.overload
def retry(*, attempts: int = 3) -> t.Callable: ...


def retry(*dargs, **dkw):
    """Wraps a function so that failed calls are tried again."""
    if len(dargs) == 1 and callable(dargs[0]):
        return retry()(dargs[0])

    def wrap(f):
        r = Retrying(**dkw)
        return r.wraps(f)

    return wrap
`;

let repo: Awaited<ReturnType<typeof indexSources>>;

beforeAll(async () => {
  repo = await indexSources("declarations", {
    "src/ClientTrait.php": TRAIT,
    "src/Client.php": CLIENT,
    "ts/jobs.ts": JOB,
    "ts/shapes.ts": SHAPES,
    "py/retrying.py": DECORATOR,
  });
});
afterAll(() => repo.close());

async function flowOf(question: string): Promise<string> {
  return (await exploratoryFlow(repo.repositoryId, question)).flow;
}

describe("a walk through a declaration", () => {
  it("goes from a trait's abstract method to the class that uses the trait", async () => {
    const flow = await flowOf("Walk me through what happens when I call $client->get($uri)");
    expect(flow).toMatch(
      /ClientTrait\.get\(\)[\s\S]*→ Http\.Client\.request\(\)[\s\S]*→ Http\.Client\.(?:prepare|transfer)\(\)/,
    );
    expect(flow).not.toMatch(/ClientTrait\.request\(\)/);
  });

  it("goes from an abstract method to the one subclass implementing it", async () => {
    const flow = await flowOf("Walk me through Job.run");
    expect(flow).toMatch(
      /Job\.run\(\)[\s\S]*→ ExportJob\.execute\(\)[\s\S]*→ ExportJob\.(?:collect|write)\(\)/,
    );
    expect(flow).not.toMatch(/→ Job\.execute\(\)/);
  });

  it("stays at a declaration implemented in more places than a flow can follow", async () => {
    const flow = await flowOf("Walk me through Shape.describe");
    expect(flow).toMatch(/Shape\.describe\(\)[\s\S]*→ Shape\.area\(\)/);
    expect(flow).not.toMatch(/(?:Square|Circle|Ring)\.area\(\)/);
  });
});

describe("a function declared by overload stubs", () => {
  it("starts at the implementation that does the work, not at a stub", async () => {
    const { flow, opening } = await exploratoryFlow(
      repo.repositoryId,
      "What happens when I call a function decorated with @retry?",
    );
    const lines = DECORATOR.split("\n");
    const implementation = lines.findIndex((l) => l.startsWith("def retry(*dargs")) + 1;
    expect(opening).toContain(`\`retry\` (py/retrying.py:${implementation}-`);
    expect(flow.split("\n")[0]).toMatch(/^retry\(\)/);
    // The stub `retry()` inside the implementation resolves to is no step.
    expect(flow).not.toMatch(/→ retry\(\)/);
  });

  it("goes on in the functions a step hands back: the decorator's wrapper, then the wrapped call", async () => {
    const { flow } = await exploratoryFlow(
      repo.repositoryId,
      "What happens when I call a function decorated with @retry?",
    );
    expect(flow).toMatch(
      /retry\(\)[\s\S]*→ retry\.wrap\(\)[\s\S]*→ Retrying\.wraps\(\)[\s\S]*→ Retrying\.wraps\.wrapped\(\)/,
    );
  });

  it("keeps the nested steps in the context beside the function defining them: none is reported missing", async () => {
    const { answer } = await askOffline(
      repo.repositoryId,
      "What happens when I call a function decorated with @retry?",
      "exploratory",
    );
    expect(answer).toContain("`retry.wrap` (py/retrying.py:");
    expect(answer).not.toMatch(/Still looking for/);
  });
});
