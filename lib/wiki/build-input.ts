/**
 * What a wiki build is given: the generation, the one it was made from, and the files
 * that changed (generate.ts builds, page-candidates.ts chooses the pages).
 */
import type { ConfiguredModel } from "../answerers/providers.ts";

export interface WikiChanges {
  /** changed and added files */
  changedPaths: string[];
  removedPaths: string[];
  /** the added ones among changedPaths */
  addedPaths: string[];
}

export interface WikiBuildInput {
  repositoryName: string;
  generationId: string;
  /** the index format version (pages of another version are never reused) */
  formatVersion: number;
  /** the generation this build was made from, when its rows were reusable */
  previous: { id: string; stats: string } | null;
  /** null: not an incremental build, every page is checked */
  changes: WikiChanges | null;
  /** the model that writes summaries (null: evidence only); by default the one questions use */
  model?: ConfiguredModel | null;
}
