/**
 * Conceptual retrieval: find the code that implements the concept a question asks
 * about, then what is written about it. Definitions weigh more than mentions: a
 * function whose name carries the concept (`resolve_redirects` for "follow a
 * redirect") and the code the question names lead; BM25 and vector search over code,
 * file summaries and the generated wiki pages add evidence per file, and a symbol in
 * the best files ranks above an equal one elsewhere. Tests, docs, examples and
 * vendored code rank below source unless the question is about them. The context is
 * the leading definitions' source, the wiki page of the leading file, and a little of
 * the repository's own documentation.
 */
import "server-only";
import type { ChunkHit } from "../../db/code-graph.ts";
import { getWikiPage, pageChunkText } from "../../db/wiki-store.ts";
import { getFile } from "../../db/index-store.ts";
import { hybridSearch, lexicalSearch } from "../../search/hybrid.ts";
import { chunkPathOf, slugForPath } from "../../wiki/slugs.ts";
import { conceptTerms, questionTopics } from "../concepts.ts";
import { textItem } from "../context.ts";
import { type ContextItem } from "../../answerers/contract.ts";
import { attachSymbols } from "./diagnostic.ts";
import {
  chunkCandidate,
  definitionCandidates,
  demoteAuxiliary,
  docsItems,
  fuseFiles,
  fuseSignals,
  namedSymbolCandidates,
  packCandidates,
  retrievalTopics,
  withFilePrior,
  type RetrievalInput,
  type RetrievalOutput,
  type SignalList,
} from "./shared.ts";

export async function retrieveConceptual(input: RetrievalInput): Promise<RetrievalOutput> {
  const { generationId, config, repositoryId, question } = input;
  const topics = await retrievalTopics(input, questionTopics(question));
  // Names are read from the code index; with it switched off only text search remains.
  const useIndex = config.features.useCodeIndex;
  const [definitions, named, code, files, wiki, semantic] = await Promise.all([
    useIndex ? definitionCandidates(generationId, conceptTerms(question), 30, topics) : [],
    useIndex ? namedSymbolCandidates(generationId, input.anchors) : [],
    lexicalSearch(generationId, question, { limit: 40, kinds: ["code"], stems: true }),
    lexicalSearch(generationId, question, { limit: 20, kinds: ["file"], stems: true }),
    hybridSearch(repositoryId, generationId, question, { limit: 10, kinds: ["wiki"], stems: true }),
    hybridSearch(repositoryId, generationId, question, { limit: 10, kinds: ["code"], stems: true }),
  ]);
  const lists: SignalList[] = [
    { name: "named", weight: 4, candidates: named },
    { name: "definitions", weight: 3, candidates: definitions },
    { name: "bm25", weight: 2, candidates: code.map((c) => chunkCandidate(c, "code on the topic")) },
    {
      name: "semantic",
      weight: 0.8,
      candidates: semantic.map((c) => chunkCandidate(c, "similar to the question")),
    },
  ];
  const fileLists: SignalList[] = [
    ...lists,
    {
      name: "wiki",
      weight: 1.5,
      candidates: wiki.filter(isFilePage).map((c) => chunkCandidate(c, "wiki page on the topic")),
    },
    { name: "files", weight: 1.5, candidates: files.map((c) => chunkCandidate(c, "file overview")) },
  ];
  const rankedFiles = fuseFiles(fileLists, [], 30, topics);
  const ranked = withFilePrior(demoteAuxiliary(fuseSignals(lists), [], topics), rankedFiles);
  await attachSymbols(
    generationId,
    ranked.map((r) => r.candidate),
  );
  const symbols = ranked.filter((r) => r.candidate.symbol);

  const budget = config.modeBudgets.conceptual;
  const room = config.initialRetrievalBudget;
  const items: ContextItem[] = [];
  // The leading definitions: their source when a source budget is set, else signature and docstring.
  const sourceBudget = Math.min(room, budget.source > 0 ? budget.source : Math.floor(budget.docs / 2));
  const sourceInput =
    budget.source > 0
      ? input
      : { ...input, config: { ...config, features: { ...config.features, useSourceFetching: false } } };
  items.push(
    ...(await packCandidates(sourceInput, symbols, sourceBudget, {
      maxItems: 6,
      perItemTokens: Math.max(250, Math.floor(sourceBudget / 3)),
    })),
  );
  const used = () => items.reduce((n, i) => n + i.tokens, 0);
  const page = rankedFiles[0] ? await filePage(input, rankedFiles[0], Math.min(500, room - used())) : null;
  if (page) items.push(page);
  items.push(
    ...(await docsItems(input, question, {
      budget: Math.max(0, budget.docs - (page?.tokens ?? 0)),
      used: used(),
      limit: 2,
      kinds: ["doc"],
    })),
  );
  return {
    items,
    diagram: null,
    rankedFiles,
    rankedSymbols: symbols.map((r) => r.candidate.symbol?.qualifiedId as string).slice(0, 50),
  };
}

/** Wiki pages of files (folder pages and the overview describe no single file). */
function isFilePage(hit: ChunkHit): boolean {
  return /\.[A-Za-z0-9]+$/.test(hit.path);
}

/** The wiki page of a file, cut to fit: what the file is for and what it defines. */
async function filePage(input: RetrievalInput, path: string, maxTokens: number): Promise<ContextItem | null> {
  if (maxTokens < 120) return null;
  const [file, page] = await Promise.all([
    getFile(input.generationId, path),
    getWikiPage(input.generationId, slugForPath(path, true)),
  ]);
  if (!file || !page) return null;
  return textItem(
    {
      path: chunkPathOf(page),
      startLine: 1,
      endLine: Math.max(1, file.lines),
      title: `Wiki: ${page.title}`,
      text: pageChunkText(page),
      kind: "wiki",
    },
    {
      reason: "wiki page of the file that defines it",
      score: 0.9,
      origin: "initial",
      pass: input.pass,
      maxTokens,
    },
  );
}
