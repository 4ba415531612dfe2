/**
 * `wayfinder worker [--once]`: claims and builds queued index jobs until stopped
 * (lib/indexer/worker.ts). SIGTERM or SIGINT stops it gracefully: no new job is
 * claimed, a build in progress is interrupted at its next phase and queued again.
 */
import type { Command } from "./commands.ts";

export const workerCommand: Command = async (ctx) => {
  const { startIndexWorker } = await import("../indexer/worker.ts");
  const worker = startIndexWorker({
    once: Boolean(ctx.values.once),
    log: (line) => ctx.err.write(`${line}\n`),
  });
  const onSignal = (signal: NodeJS.Signals) => worker.stop(`stopped (${signal})`);
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  try {
    const { failed } = await worker.done;
    return failed > 0 && ctx.values.once ? 1 : 0;
  } finally {
    process.off("SIGTERM", onSignal);
    process.off("SIGINT", onSignal);
  }
};
