// The parts of wink's CommonJS packages the ranking evaluation uses (they ship no types).

declare module "wink-bm25-text-search" {
  type PrepTask = (input: never) => unknown;
  interface Bm25Engine {
    defineConfig(config: {
      fldWeights: Record<string, number>;
      bm25Params?: { k1?: number; b?: number; k?: number };
    }): boolean;
    definePrepTasks(tasks: PrepTask[], field?: string): number;
    addDoc(doc: Record<string, string>, id: string | number): number;
    consolidate(fp?: number): boolean;
    /** `[id, score]` pairs, best first. */
    search(text: string, limit?: number): [string, number][];
  }
  export default function bm25(): Bm25Engine;
}

declare module "wink-nlp-utils" {
  const nlp: {
    string: {
      lowerCase(text: string): string;
      removeExtraSpaces(text: string): string;
      tokenize0(text: string): string[];
    };
    tokens: {
      removeWords(tokens: string[]): string[];
      stem(tokens: string[]): string[];
    };
  };
  export default nlp;
}
