import { describe, expect, it } from "vitest";
import { answerTypeTermsOf } from "./answer-type";

const terms = (q: string, language?: string) => [...answerTypeTermsOf(q, language)].sort();

describe("answerTypeTermsOf", () => {
  it("takes the words after what/which up to a function word, never a name", () => {
    expect(terms("What actress did the ASL translation for the game?")).toEqual(["actress"]);
    expect(terms("What Panther defender was called for holding?")).toEqual([]);
    expect(terms("What group of scientists seek to measure oxygen?")).toEqual(["group"]);
    expect(terms("What is the term for a task a computer solves?")).toEqual(["term"]);
    expect(terms("What does Japan's PMDA require?")).toEqual([]);
    // After a copula only one noun is the type: a longer run is the subject asked about.
    expect(terms("What is the boiling point of tungsten?")).toEqual([]);
    expect(terms("What was the name of the play performed in the 1970's?")).toEqual(["name"]);
    expect(terms("How long does Health Canada take to review a submission?")).toEqual([]);
  });

  it("takes the noun after welch-, was für, wie heißt and wie lautet in German", () => {
    expect(terms("Welcher berühmte Autor verwendete ähnliche Motive?", "de")).toEqual(["autor"]);
    expect(terms("Wie lautet der Begriff für eine Aufgabe?", "de")).toEqual(["begriff"]);
    expect(terms("Zu welchem Musikgenre wird Lindisfarne gezählt?", "de")).toEqual(["musikgenr"]);
    expect(terms("Wie viele Baumarten gibt es im Amazonas-Regenwald?", "de")).toEqual([]);
  });
});
