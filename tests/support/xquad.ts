import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { sharedCollectionsDir } from "../../bench/support/ir-collection";

// XQuAD (../shared/ir/xquad, or VIGIL_IR_DIR): the same 120 Wikipedia paragraphs and 612
// questions in English and German, as JSON Lines. Read in place by the tests that use it.

export interface XquadParagraph {
  _id: string;
  title: string;
  text: string;
}
export interface XquadQuestion {
  _id: string;
  question: string;
  answers: string[];
  paragraph: string;
}

export const XQUAD_DIR = path.join(sharedCollectionsDir(), "xquad");

const readLines = <T>(file: string): T[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as T);

/** Whether both languages are there. */
export const xquadPresent = () =>
  existsSync(path.join(XQUAD_DIR, "de", "questions.jsonl")) &&
  existsSync(path.join(XQUAD_DIR, "en", "questions.jsonl"));

/** One language's paragraphs and questions. */
export function xquadCollection(language: "en" | "de") {
  return {
    paragraphs: readLines<XquadParagraph>(path.join(XQUAD_DIR, language, "corpus.jsonl")),
    questions: readLines<XquadQuestion>(path.join(XQUAD_DIR, language, "questions.jsonl")),
  };
}
