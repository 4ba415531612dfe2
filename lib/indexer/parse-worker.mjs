// A parse worker thread (lib/indexer/parse-pool.ts): loads the TypeScript parse entry
// by module path (through tsx, as the CLI does) with its own tree-sitter grammars, then
// parses one file per message and posts back the rows, or the error.
import { parentPort, workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const { parseFile } = await import(workerData.module);

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
