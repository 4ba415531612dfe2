/**
 * The whole-generation rows structure analyses read (files, imports, file classes,
 * cross-file calls), kept per active generation: every analytical question of a
 * repository reads the same ones, and a generation never changes once active.
 */
import "server-only";
import { STORED_STRUCTURE_READS, type StructureReads } from "../../wiki/structure.ts";
import { generationCache } from "../generation-cache.ts";

export const QUESTION_STRUCTURE_READS: StructureReads = {
  files: generationCache(STORED_STRUCTURE_READS.files, 3),
  imports: generationCache(STORED_STRUCTURE_READS.imports, 3),
  classified: generationCache(STORED_STRUCTURE_READS.classified, 3),
  crossFileCalls: generationCache(STORED_STRUCTURE_READS.crossFileCalls, 3),
};
