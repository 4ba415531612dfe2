// A parse worker thread (lib/indexer/parse-pool.ts): loads the TypeScript parse entry
// by module path (through tsx, as the CLI does) with its own tree-sitter grammars, then
// parses the files it is sent one after the other, posting back each one's rows or error.
import { parentPort, workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const loaded = await import(workerData.module);
// Loaded as CommonJS (a package without "type": "module"), the exports sit under `default`.
const parseFile = loaded.parseFile ?? loaded.default?.parseFile;
// Fails the worker at start (the pool then parses in the build's thread), not every file.
if (typeof parseFile !== "function") throw new Error(`${workerData.module} does not export parseFile`);
// Loaded: from now on a worker that stops has stopped on a file, and is replaced.
parentPort.postMessage({ ready: true });

// Files arrive ahead of their turn (the pool keeps a few queued here) and are parsed one
// at a time, in the order they came: grammars and parsers are shared per language.
const queue = [];
let draining = false;
async function drain() {
  draining = true;
  while (queue.length > 0) {
    const { id, file } = queue.shift();
    try {
      parentPort.postMessage({ id, result: await parseFile(file, { budget: workerData.budget }) });
    } catch (error) {
      parentPort.postMessage({
        id,
        error: { message: error instanceof Error ? error.message : String(error), stack: error?.stack },
      });
    }
  }
  draining = false;
}
parentPort.on("message", (message) => {
  queue.push(message);
  if (!draining) void drain();
});
