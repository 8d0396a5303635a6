import { describe, expect, it } from "vitest";
import { candidatesOf } from "./extractive";
import { compoundRelated, contentTerms, guessLanguage, isStopword, stemAs } from "./lexicon";
import type { Passage } from "./types";

describe("German words as the offline engine reads them", () => {
  it("takes a short question's language from its opening question word", () => {
    expect(guessLanguage("Welche Auszeichnung erhielt Marlee Matlin?")).toBe("de");
    expect(guessLanguage("Wann startete Sky Digital?")).toBe("de");
    // One German-looking word inside English is not enough, nor is an opening English word.
    expect(guessLanguage("civil war casualties")).toBeUndefined();
    expect(guessLanguage("Was Sky Digital launched?")).toBeUndefined();
    expect(guessLanguage("When did Sky Digital launch?")).toBe("en");
  });

  it("gives a past tense or participle the stem of its infinitive", () => {
    expect(stemAs("startete", "de")).toBe(stemAs("starten", "de"));
    expect(stemAs("klassifiziert", "de")).toBe(stemAs("klassifizieren", "de"));
    expect(stemAs("verfasst", "de")).toBe(stemAs("verfassen", "de"));
    // Short words keep their final t: "Welt" is not "Wel".
    expect(stemAs("Welt".toLowerCase(), "de")).toBe("welt");
    expect(stemAs("zeit", "de")).not.toBe(stemAs("zeigen", "de"));
  });

  it("gives a noun in -em and its plural one stem", () => {
    expect(stemAs("rechenproblem", "de")).toBe(stemAs("rechenprobleme", "de"));
    expect(stemAs("systeme", "de")).toBe(stemAs("system", "de"));
    expect(stemAs("problemen", "de")).toBe(stemAs("problem", "de"));
    // An adjective's dative ending goes as before.
    expect(stemAs("grossem", "de")).toBe(stemAs("grosse", "de"));
  });

  it("drops German function words the English lists have counterparts of, only in German", () => {
    expect(contentTerms("Wie viele Fahrgäste befördert das Netz pro Jahr?", "de")).not.toContain("pro");
    expect(isStopword("man", "de")).toBe(true);
    expect(isStopword("man", "en")).toBe(false);
  });

  it("reads a German hyphenated compound's parts as words of the text, an English one's not", () => {
    expect(contentTerms("die Eleutherian-Pulvermühlen", "de")).toContain(stemAs("pulvermühlen", "de"));
    expect(contentTerms("post-market studies", "en")).not.toContain("market");
  });

  it("relates a compound to its parts of five letters or more, not to short ones", () => {
    expect(compoundRelated(stemAs("sauerstoff", "de"), stemAs("sauerstoffkammern", "de"))).toBe(true);
    expect(compoundRelated(stemAs("kohlenmonoxidvergiftung", "de"), stemAs("vergiftungen", "de"))).toBe(true);
    expect(compoundRelated(stemAs("baumarten", "de"), stemAs("arten", "de"))).toBe(false);
    expect(compoundRelated("start", "start")).toBe(false);
  });
});

describe("German sentence picking", () => {
  const passage = (text: string): Passage => ({
    n: 1,
    chunkId: "c",
    documentId: "d",
    title: "Sauerstoff",
    section: null,
    page: null,
    text,
    score: 1,
  });

  it("finds a question's compound in a sentence that writes its parts, and its hyphenated parts joined", () => {
    const text = [
      "Der Druck in der Kammer wird langsam erhöht und später wieder gesenkt.",
      "Vergiftungen mit Kohlenmonoxid werden in Sauerstoffkammern behandelt.",
      "Im Regenwald des Amazonas leben sehr viele Arten von Bäumen.",
    ].join(" ");
    const terms = ["Kohlenmonoxidvergiftung", "Amazonas-Regenwald"].map((w) => stemAs(w.toLowerCase(), "de"));
    const scored = candidatesOf([passage(text)], terms, "de");
    const score = (start: string) => scored.find((c) => c.text.startsWith(start))?.score ?? 0;
    expect(score("Vergiftungen")).toBeGreaterThan(0);
    expect(score("Im Regenwald")).toBeGreaterThan(0);
    expect(score("Der Druck")).toBe(0);
    // Without the German reading, neither compound is found.
    expect(candidatesOf([passage(text)], terms, "en").every((c) => c.score === 0)).toBe(true);
  });
});
