import { ACME } from "./acme";
import { CLINICAL } from "./clinical";
import { GUIDE } from "./guide";
import { HEOR } from "./heor";
import { REGULATORY } from "./regulatory";
import { SAFETY } from "./safety";
import type { CorpusDocument } from "./types";

export type { CorpusDocument };

/** The demo knowledge bases, by tenant slug. */
export const KNOWLEDGE_CORPUS: Record<string, CorpusDocument[]> = {
  demo: [...REGULATORY, ...CLINICAL, ...HEOR, ...SAFETY, ...GUIDE],
  acme: ACME,
};
