/**
 * A scope's structure report as the analytical context writes it under its `Answer:`
 * line: the most imported files, modules and their dependencies, the boundary, coupling,
 * cycles, fan-in and fan-out, and the findings.
 */
import { type StructureReport } from "../../wiki/structure.ts";

export function renderReport(report: StructureReport): string {
  const lines: string[] = [];
  lines.push(`Scope: ${report.scope ?? "the whole repository"}`);
  if (report.topImported.length)
    lines.push(
      "Most imported files: " +
        report.topImported
          .slice(0, 6)
          .map((f) => `${f.path} (${f.importers} importers) [${f.path}:1-${f.lines}]`)
          .join(", "),
    );
  lines.push(`Modules (${report.modules.length}):`);
  for (const m of report.modules.slice(0, 12))
    lines.push(`- ${m.name}: ${m.files} files, imported by ${m.fanIn} modules, imports ${m.fanOut}`);
  if (report.moduleEdges.length) {
    lines.push("Module dependencies (count of file imports):");
    for (const e of report.moduleEdges.slice(0, 15)) lines.push(`- ${e.from} → ${e.to} (${e.count})`);
  }
  if (report.boundary) {
    const b = report.boundary;
    const others = (list: { module: string; edges: number }[]) =>
      list.length
        ? list
            .slice(0, 6)
            .map((d) => `${d.module} (${d.edges})`)
            .join(", ")
        : "none";
    lines.push(
      `Boundary of ${b.scope} (${b.files} files): ${b.importsIn} imports and ${b.callsIn} calls come in, ${b.importsOut} imports and ${b.callsOut} calls go out`,
    );
    lines.push(`- depended on by: ${others(b.dependents)}`);
    lines.push(`- depends on: ${others(b.dependencies)}`);
  }
  if (report.coupling.length) {
    lines.push(
      "Coupling between modules (afferent = modules depending on it, efferent = modules it depends on):",
    );
    for (const c of report.coupling.slice(0, 10))
      lines.push(
        `- ${c.module}: afferent ${c.afferent}, efferent ${c.efferent}, instability ${c.instability}, calls in ${c.callsIn}, calls out ${c.callsOut}`,
      );
  }
  const cycles = [
    ...report.cycles.map((c) => c.join(" ↔ ")),
    ...report.fileCycles.map(
      (c) => `${[...c.loop, c.loop[0]].join(" → ")}${c.files > c.loop.length ? ` (${c.files} files)` : ""}`,
    ),
  ];
  lines.push(cycles.length ? `Cycles: ${cycles.slice(0, 6).join("; ")}` : "Cycles: none found");
  lines.push(
    "Highest fan-out: " +
      report.topFanOut
        .slice(0, 5)
        .map((s) => `${s.qualifiedName} (${s.fanOut}) [${s.path}:${s.startLine}-${s.endLine}]`)
        .join(", "),
  );
  lines.push(
    "Highest fan-in: " +
      report.topFanIn
        .slice(0, 5)
        .map((s) => `${s.qualifiedName} (${s.fanIn}) [${s.path}:${s.startLine}-${s.endLine}]`)
        .join(", "),
  );
  if (report.findings.length) {
    const counts = report.findingCounts.map((c) => `${c.count} ${c.severity} ${c.category}`).join(", ");
    lines.push(`Findings (issues store${counts ? `: ${counts}` : ""}), high severity first:`);
    for (const f of report.findings.slice(0, 12)) {
      lines.push(
        `- [${f.severity}] ${f.category}: ${f.title}${f.path ? ` [${f.path}${f.startLine ? `:${f.startLine}-${f.endLine}` : ""}]` : ""}`,
      );
    }
  } else {
    lines.push("Findings: none above the thresholds");
  }
  return lines.join("\n");
}
