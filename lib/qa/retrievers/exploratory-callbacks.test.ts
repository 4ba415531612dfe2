/**
 * Where a flow goes on past calls the index does not follow: a method of the caller's own class
 * handed on by reference (a C# method group, `self._on_ready`, `this.finish`) runs when it is
 * called back, and an interface method goes on in its implementations even when they do their
 * work with calls the index does not know (a delegate, `Task.WhenAll`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexSources } from "../../../test-support/qa-env.ts";
import { exploratoryFlow } from "../../../test-support/qa-flow.ts";
import { methodArguments } from "./exploratory-references.ts";

const NOTIFIER = `using System.Threading.Tasks;

namespace Events;

public interface INotifier {
	Task Notify(IEnumerable<Func<Message, Task>> handlers, Message message);
}
`;

const SEQUENTIAL = `using System.Threading.Tasks;

namespace Events;

public class SequentialNotifier : INotifier {
	public async Task Notify(IEnumerable<Func<Message, Task>> handlers, Message message) {
		foreach (var handler in handlers) {
			await handler(message).ConfigureAwait(false);
		}
	}
}
`;

const PARALLEL = `using System.Linq;
using System.Threading.Tasks;

namespace Events;

public class ParallelNotifier : INotifier {
	public Task Notify(IEnumerable<Func<Message, Task>> handlers, Message message) {
		var tasks = handlers.Select(handler => handler(message)).ToArray();
		return Task.WhenAll(tasks);
	}
}
`;

const DISPATCHER = `using System.Threading.Tasks;

namespace Events;

public class Dispatcher {
	private readonly INotifier _notifier;

	public Dispatcher(INotifier notifier) {
		_notifier = notifier;
	}

	public Task Publish(Message message) {
		var wrapper = Wrappers.For(message.GetType());
		return wrapper.Handle(message, PublishCore);
	}

	private Task PublishCore(IEnumerable<Func<Message, Task>> handlers, Message message) {
		return _notifier.Notify(handlers, message);
	}
}
`;

const WATCHER = `import asyncio


class Watcher:
    def start(self, loop):
        self.loop = loop
        loop.call_soon(self._on_ready)

    def _on_ready(self):
        events = read_events(self.path)
        self.dispatch(events)

    def dispatch(self, events):
        for event in events:
            print(event)


def read_events(path):
    with open(path) as f:
        return f.readlines()
`;

const STREAM = `export class Copier {
  constructor(source, target) {
    this.source = source;
    this.target = target;
  }

  pipe() {
    this.source.on("data", (chunk) => this.target.write(chunk));
    this.source.once("end", this.finish);
  }

  finish() {
    this.target.end();
    report(this.source);
  }
}

function report(source) {
  console.log("copied", source.bytesRead);
}
`;

let repo: Awaited<ReturnType<typeof indexSources>>;

beforeAll(async () => {
  repo = await indexSources("callbacks", {
    "src/Events/INotifier.cs": NOTIFIER,
    "src/Events/SequentialNotifier.cs": SEQUENTIAL,
    "src/Events/ParallelNotifier.cs": PARALLEL,
    "src/Events/Dispatcher.cs": DISPATCHER,
    "watch/watcher.py": WATCHER,
    "lib/copier.js": STREAM,
  });
});
afterAll(() => repo.close());

describe("methodArguments", () => {
  it("finds names passed whole as arguments, bare or on the object itself", () => {
    const body = `return wrapper.Handle(message, PublishCore);
loop.call_soon(self._on_ready)
stream.once("end", this.finish);
items.forEach(this::visit);
compute(a + b, run(x));`;
    expect(methodArguments(body)).toEqual(["message", "PublishCore", "_on_ready", "finish", "visit", "x"]);
  });
});

describe("the exploratory walk through callbacks and implementations", () => {
  it("goes from a C# method group passed on to the method, then to the interface's implementations", async () => {
    const { flow } = await exploratoryFlow(repo.repositoryId, "Walk me through Dispatcher.Publish(message)");
    expect(flow).toMatch(/Dispatcher\.Publish\(\)[\s\S]*Dispatcher\.PublishCore\(\)/);
    expect(flow).toMatch(/SequentialNotifier\.Notify\(\)/);
    expect(flow).toMatch(/ParallelNotifier\.Notify\(\)/);
    expect(flow).not.toMatch(/INotifier\.Notify\(\)/);
  });

  it("goes from a Python method handed to an event loop to the method", async () => {
    const { flow } = await exploratoryFlow(repo.repositoryId, "Walk me through Watcher.start(loop)");
    expect(flow).toMatch(/Watcher\.start\(\)[\s\S]*Watcher\._on_ready\(\)/);
  });

  it("goes from a JavaScript method given as an event listener to the method", async () => {
    const { flow } = await exploratoryFlow(repo.repositoryId, "Walk me through Copier.pipe()");
    expect(flow).toMatch(/Copier\.pipe\(\)[\s\S]*Copier\.finish\(\)/);
  });
});
