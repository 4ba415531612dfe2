// A parse worker thread (lib/indexer/parse-pool.ts): loads the TypeScript parse entry
// by module path (through tsx, as the CLI does) with its own tree-sitter grammars, then
// parses one file per message and posts back the rows, or the error.
import { parentPort, workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const loaded = await import(workerData.module);
// Loaded as CommonJS (a package without "type": "module"), the exports sit under `default`.
const parseFile = loaded.parseFile ?? loaded.default?.parseFile;
// Fails the worker at start (the pool then parses in the build's thread), not every file.
if (typeof parseFile !== "function") throw new Error(`${workerData.module} does not export parseFile`);

parentPort.on("message", async ({ id, file }) => {
  try {
    parentPort.postMessage({ id, result: await parseFile(file) });
  } catch (error) {
    parentPort.postMessage({
      id,
      error: { message: error instanceof Error ? error.message : String(error), stack: error?.stack },
    });
  }
});
