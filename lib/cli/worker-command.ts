/**
 * `wayfinder worker [--once]`: claims and builds queued index jobs until stopped
 * (lib/builds/worker.ts). SIGTERM or SIGINT stops it gracefully: no new job is
 * claimed, a build in progress is interrupted at its next phase and queued again.
 * It also makes the due polls of Git sources (lib/builds/refresh.ts).
 */
import type { Command } from "./context.ts";

export const workerCommand: Command = async (ctx) => {
  const { startIndexWorker } = await import("../builds/worker.ts");
  const worker = startIndexWorker({
    once: Boolean(ctx.values.once),
    log: (line) => ctx.err.write(`${line}\n`),
  });
  // Workers also poll Git sources on their schedules (a lease in the database keeps
  // several workers and web instances from polling one repository twice).
  const { startPollScheduler } = await import("../builds/refresh.ts");
  const scheduler = ctx.values.once ? null : startPollScheduler((line) => ctx.err.write(`${line}\n`));
  const onSignal = (signal: NodeJS.Signals) => worker.stop(`stopped (${signal})`);
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  try {
    const { failed } = await worker.done;
    return failed > 0 && ctx.values.once ? 1 : 0;
  } finally {
    scheduler?.stop();
    process.off("SIGTERM", onSignal);
    process.off("SIGINT", onSignal);
  }
};
