"use client";
/**
 * What a citation inside an answer needs to render itself: the message's checked
 * citations, where the source view lives, and whether the list may still arrive
 * (while streaming an unknown citation is "checking", afterwards "unverified").
 */
import { createContext, useContext } from "react";
import type { CitationPart } from "@/lib/qa/types";

export interface CitationContextValue {
  repositoryId: string;
  /** set on share pages so links open the generation the answer was written against */
  generationId: string | null;
  citations: CitationPart[];
  pending: boolean;
}

export const CitationContext = createContext<CitationContextValue>({
  repositoryId: "",
  generationId: null,
  citations: [],
  pending: false,
});

export function useCitationContext(): CitationContextValue {
  return useContext(CitationContext);
}
