/**
 * Baseline for the localization benchmark: textbook BM25 (k1 = 1.2, b = 0.75) over
 * whole files, with the same identifier-aware tokenization as the index.
 */
import { indexText, queryTerms } from "../lib/db/tokenize.ts";

export class WholeFileBm25 {
  private readonly docs: { path: string; tf: Map<string, number>; length: number }[] = [];
  private readonly df = new Map<string, number>();
  private avgLength = 0;

  constructor(files: { path: string; content: string }[]) {
    for (const f of files) {
      const tf = new Map<string, number>();
      const words = indexText(`${f.path}\n${f.content}`).split(/\s+/).filter(Boolean);
      for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
      for (const w of tf.keys()) this.df.set(w, (this.df.get(w) ?? 0) + 1);
      this.docs.push({ path: f.path, tf, length: words.length });
    }
    this.avgLength = this.docs.reduce((n, d) => n + d.length, 0) / Math.max(1, this.docs.length);
  }

  rank(query: string, k = 10): string[] {
    const terms = queryTerms(query, 200);
    const n = this.docs.length;
    const scored = this.docs.map((d) => {
      let score = 0;
      for (const t of terms) {
        const f = d.tf.get(t);
        if (!f) continue;
        const df = this.df.get(t) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * d.length) / this.avgLength));
      }
      return { path: d.path, score };
    });
    return scored
      .filter((s) => s.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, k)
      .map((s) => s.path);
  }
}
