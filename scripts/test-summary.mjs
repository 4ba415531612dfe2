// Prints one closing line for the whole gate ("N passed, N failed") from the
// vitest and Playwright JSON reports, and fails if either reports a failure. Before it,
// which groups of tests were skipped (and so proved nothing in this run), by report.
import fs from "node:fs";

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  const report = JSON.parse(fs.readFileSync(file, "utf8"));
  if ("numPassedTests" in report) {
    const groups = new Map();
    for (const result of report.testResults ?? [])
      for (const test of result.assertionResults ?? [])
        if (test.status !== "passed" && test.status !== "failed") {
          const group = test.ancestorTitles?.[0] ?? test.title;
          groups.set(group, (groups.get(group) ?? 0) + 1);
        }
    for (const [group, count] of groups) console.log(`skipped in ${file}: ${count} × ${group}`);
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  } else if (report.stats) {
    passed += report.stats.expected + (report.stats.flaky ?? 0);
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
  }
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
