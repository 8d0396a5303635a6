import { describe, expect, it } from "vitest";
import { phrasingTermsOf } from "@/lib/engine";
import {
  extractInfo,
  matchShare,
  pointsBack,
  quoteOf,
  rankSentences,
  relevanceOf,
  relevantEntries,
  SEARCH_TOP_KEPT,
  tierOf,
} from "./evidence";
import { answerFormTerms } from "./terms";

const CHUNK =
  "A 510(k) is the premarket submission most medium-risk devices need. FDA's performance goal is a decision within 90 FDA days; the clock stops while the agency waits. A successful submission ends in a clearance letter.";

describe("evidence from a passage", () => {
  it("extracts the most relevant sentences and keeps a verbatim quote", () => {
    const terms = ["decision", "days", "FDA"];
    expect(extractInfo(CHUNK, terms)).toContain("within 90 FDA days");
    const quote = quoteOf(CHUNK, terms);
    expect(quote).toContain("90 FDA days");
    expect(CHUNK.includes(quote as string)).toBe(true);
    expect(quoteOf(CHUNK, ["pacemaker"])).toBeNull();
  });

  it("tiers by depth, relevance and entity match", () => {
    expect(tierOf({ depth: 0, relevance: 0.8, entityMatch: true, sourceType: "vector_search" })).toBe(1);
    expect(tierOf({ depth: 0, relevance: 0.8, entityMatch: false, sourceType: "vector_search" })).toBe(2);
    expect(tierOf({ depth: 1, relevance: 0.9, entityMatch: true, sourceType: "reference" })).toBe(2);
    expect(tierOf({ depth: 2, relevance: 0.9, entityMatch: true, sourceType: "reference" })).toBe(3);
    expect(tierOf({ depth: 0, relevance: 0.9, entityMatch: true, sourceType: "hitl" })).toBe(3);
    expect(tierOf({ depth: 0, relevance: 0.1, entityMatch: true, sourceType: "vector_search" })).toBe(3);
  });

  it("picks the German sentence that holds the question's words as inflections and compound parts", () => {
    const chunk =
      "Die Stadt wurde im Mittelalter gegründet und hat heute viele Einwohner. " +
      "Der Betrieb der Anlage begann nach langer Planung erst im Jahr 1961. " +
      "Die Gebühr für den Betrieb legt die Strahlenschutzverordnung fest; sie beträgt 300 Euro im Jahr.";
    // The question's words: "Welche Gebühren nennen die Verordnungen für den Betrieb?"
    const terms = ["Gebühren", "Verordnungen", "Betrieb"];
    expect(quoteOf(chunk, terms, null, [], "de")).toContain("300 Euro");
    // Read as English, "Gebühr" and "Verordnung" match nothing and the picked sentence is another.
    expect(quoteOf(chunk, terms, null, [], "en")).not.toContain("300 Euro");
  });

  it("prefers the sentence in the form the question asks for: a count, a year", () => {
    const chunk =
      "Kuechly führte das Team bei den Tackles an und wurde in den Pro Bowl gewählt. " +
      "Kuechly kam bei den Tackles auf 118, mehr als jeder andere Spieler. " +
      "Die Stadt wurde gegründet, nachdem der Fluss überbrückt war. Die Stadt wurde 1822 gegründet.";
    const count = answerFormTerms("Wie viele Tackles hatte Kuechly?");
    expect(quoteOf(chunk, ["Tackles", "Kuechly"], null, count, "de")).toContain("118");
    expect(quoteOf(chunk, ["Tackles", "Kuechly"], null, [], "de")).not.toContain("118");
    const year = answerFormTerms("Wann wurde die Stadt gegründet?");
    expect(quoteOf(chunk, ["Stadt", "gegründet"], null, year, "de")).toContain("1822");
    expect(answerFormTerms("Wer gründete die Stadt?")).toEqual([]);
  });

  it("keeps the three best sentences, best first, then the sentence that continues the best one", () => {
    const chunk =
      "Die Broncos besiegten die Steelers in der Divisional Round. " +
      "Das Wetter in Denver war kalt und windig. " +
      "Im AFC-Championship-Spiel schlugen die Broncos die New England Patriots. " +
      "Den entscheidenden Pass fing Owen Daniels kurz vor der Pause. " +
      "Die Patriots verloren damit ihr drittes Spiel der Saison. " +
      "Das AFC-Championship-Spiel sahen 66.000 Zuschauer.";
    const terms = ["Broncos", "AFC-Championship-Spiel", "Patriots"];
    const ranked = rankSentences(chunk, terms, null, [], "de");
    expect(ranked[0].text).toContain("New England Patriots");
    // Four sentences hold a term: the three best are kept, best first; the fourth is cut.
    expect(ranked).toHaveLength(4);
    const info = extractInfo(chunk, terms, null, [], "de");
    const top = ranked.slice(0, 3).map((s) => s.text);
    // The sentence after the best holds none of the terms but continues it (who caught the pass).
    const continuation = "Den entscheidenden Pass fing Owen Daniels kurz vor der Pause.";
    expect(info).toBe([...top, continuation].join(" "));
    expect(info).not.toContain(ranked[3].text);
    // A sentence that holds no term and follows no best sentence is not kept.
    expect(info).not.toContain("Wetter");
    // The continuation is not repeated when it is among the best already.
    const twice = "Die Broncos spielten im AFC-Championship-Spiel. Die Broncos schlugen die Patriots.";
    expect(extractInfo(twice, terms, null, [], "de")).toBe(twice);
  });

  it("filters drift by the anchor's terms that the gathered passages hold, not by words no passage uses", () => {
    const entry = (chunk: string, tier: 1 | 2 | 3, document = "Complexity theory") => ({
      document,
      section: null,
      chunk,
      context_tier: tier,
    });
    const answer = entry("Many known complexity classes are suspected to be unequal, but this has not been proved.", 3);
    const other = entry("The classes of problems form a hierarchy of complexity.", 3);
    const drift = entry("The river floods the valley every spring.", 3, "Rivers");
    // Seven words of the question, four of which no passage uses: the answer holds 2 of 7 (< 0.3).
    const terms = ["unproven", "assumption", "generally", "ascribed", "value", "complexity", "classes"];
    expect(relevanceOf(`${answer.document} ${answer.chunk}`, terms)).toBeLessThan(0.3);
    const kept = relevantEntries([answer, other, drift], terms);
    expect(kept).toContain(answer);
    expect(kept).toContain(other);
    expect(kept).not.toContain(drift);
    // A primary entry must still hold half of the terms the context holds.
    const thin = entry("A value.", 1, "Notes");
    expect(relevantEntries([answer, thin], terms)).toEqual([answer]);
  });

  it("keeps a passage the search ranked among its best whatever share of a long question's words it holds", () => {
    const entry = (chunk: string, search_rank?: number) => ({
      document: "Scottish Parliament",
      section: null,
      chunk,
      context_tier: 3 as const,
      ...(search_rank === undefined ? {} : { search_rank }),
    });
    const terms = ["Gesetz", "regelt", "Beurteilung", "Grenzen", "Mitglied", "schottischen", "Parlaments", "werdem"];
    const answer =
      "Eine Person darf nicht Mitglied im schottischen Parlament sein, wenn sie nach dem Mental Health Act 2003 für verrückt befunden wird.";
    const other = "Das Gesetz regelt die Grenzen, die ein Mitglied werdem muss, im schottischen Parlament.";
    // Two of the seven words some passage holds (0.29, under the tertiary 0.3): found without a
    // rank, it is drift …
    const thin = "Eine Person im schottischen Parlament.";
    expect(relevantEntries([entry(other), entry(thin)], terms, "de").map((e) => e.chunk)).toEqual([other]);
    // … ranked second by the search, it is kept; ranked below the top five, it is drift.
    expect(relevantEntries([entry(other, 0), entry(thin, 1)], terms, "de").map((e) => e.chunk)).toEqual([other, thin]);
    expect(relevantEntries([entry(other, 0), entry(thin, SEARCH_TOP_KEPT)], terms, "de").map((e) => e.chunk)).toEqual([
      other,
    ]);
    expect(relevantEntries([entry(answer, 1)], terms, "de")).toHaveLength(1);
  });

  it("continues the best sentence past the sentences picked right after it", () => {
    const chunk =
      "Mit 4:51 verbleibenden Minuten bekam Carolina die Chance, einen Drive zu erzielen. " +
      "Bald darauf standen sie einem 3rd-and-9 gegenüber. " +
      "Beim nächsten Spielzug nahm Miller Newton den Ball ab. " +
      "Newton sprang nicht hinterher. " +
      "Carolina hatte noch zwei weitere Drives.";
    const terms = ["3rd-and-9", "erzielte", "Fumble"];
    const ranked = rankSentences(chunk, terms, null, [], "de");
    // The best sentence and the one after it are both picked: the answer is the one after those.
    expect(ranked[0].text).toContain("4:51");
    expect(ranked.map((r) => r.text)).toContain("Bald darauf standen sie einem 3rd-and-9 gegenüber.");
    const info = extractInfo(chunk, terms, null, [], "de");
    expect(info).toContain("Miller Newton");
    expect(info).not.toContain("Newton sprang");
  });

  it("credits a German compound half in a sentence that names one of its parts alone", () => {
    const chunk =
      "BSkyB und Virgin Media einigten sich darauf, alle Verfahren vor dem Obersten Gerichtshof einzustellen. " +
      "Die Sender zeigen seitdem wieder Spielfilme im Abendprogramm.";
    const [only] = rankSentences(chunk, ["Gerichtsverfahren"], null, [], "de");
    expect(only?.text).toContain("alle Verfahren");
    expect(matchShare(only.text, "Gerichtsverfahren", "de")).toBe(0.5);
    expect(extractInfo(chunk, ["Gerichtsverfahren"], null, [], "de")).toContain("alle Verfahren");
    // A part under five letters is no evidence ("Arten" of "Baumarten"), and English has no such compounds.
    expect(matchShare("Viele Arten leben dort.", "Baumarten", "de")).toBe(0);
    expect(matchShare("All proceedings were dropped.", "courtproceedings", "en")).toBe(0);
  });

  it("credits a hyphenated compound by the parts a sentence holds", () => {
    const chunk = "Der Standort der NASA in Huntsville stimmte zuletzt zu. Die Ingenieure waren zufrieden.";
    expect(quoteOf(chunk, ["NASA-Standort"], null, [], "de")).toContain("Huntsville");
  });

  it("tells a sentence that opens by pointing back from one that opens with an article or an expletive", () => {
    for (const s of [
      "Dazu gehören die Themen Abtreibung und Drogenpolitik.",
      "Sie schlugen daraufhin die Patriots.",
      "Dabei wurde der Ball abgefangen.",
      "Diese Klassen sind ungleich.",
      "It was held by John Elway.",
      "Their decision was final.",
    ])
      expect(pointsBack(s), s).toBe(true);
    for (const s of [
      "Das schottische Parlament erlässt Gesetze.",
      "Die Broncos gewannen.",
      "Es gibt drei Klassen.",
      "There are three classes.",
      "The team won.",
      "Sieben Spieler fehlten.",
      "Daten werden gesammelt.",
    ])
      expect(pointsBack(s), s).toBe(false);
  });

  it("puts the sentence a best sentence points back to before it, and only then", () => {
    const chunk =
      "Das Parlament kann keine Gesetze zu Fragen erlassen, die Westminster vorbehalten sind. " +
      "Dazu gehören die Themen Abtreibung, Rundfunkpolitik und Drogenpolitik. " +
      "Die Liste wurde zuletzt im Jahr 1998 festgelegt.";
    const terms = ["Themen", "Abtreibung", "Drogenpolitik", "geregelt"];
    const info = extractInfo(chunk, terms, null, [], "de");
    expect(info.startsWith("Das Parlament kann keine Gesetze")).toBe(true);
    expect(info).toContain("Westminster");
    expect(info.indexOf("Westminster")).toBeLessThan(info.indexOf("Dazu gehören"));
    // The same best sentence, not pointing back: the sentence before it is not taken.
    const plain = chunk.replace("Dazu gehören", "Vorbehalten sind");
    expect(extractInfo(plain, terms, null, [], "de")).not.toContain("Westminster");
    // A heading before the best sentence is no antecedent.
    const headed = "Vorbehaltene Fragen\n\nDazu gehören die Themen Abtreibung, Rundfunkpolitik und Drogenpolitik.";
    expect(extractInfo(headed, terms, null, [], "de")).not.toContain("Vorbehaltene Fragen");
  });

  it("weighs a word that only phrases the question at half, so the subject's sentence wins", () => {
    const question = "Wer erzielte im Spiel einen Freistoß-Treffer?";
    const text =
      "Beide Mannschaften wollten früh viele Tore erzielen. Die Gäste wollten nach der Pause unbedingt ein Tor erzielen. Ihr Stürmer konnte aber lange keinen Treffer erzielen. Dann gelang Meier ein Freistoß-Treffer zum späten Ausgleich. Das Spiel endete unentschieden.";
    const terms = ["Freistoß-Treffer", "erzielte"];
    const phrasing = phrasingTermsOf(question, "de");
    // Counted in full, the verb carries a sentence that has only half of the subject.
    expect(rankSentences(text, terms, null, [], "de")[0].text).toMatch(/^Ihr Stürmer/);
    expect(rankSentences(text, terms, null, [], "de", phrasing)[0].text).toMatch(/^Dann gelang Meier/);
    expect(quoteOf(text, terms, null, [], "de", phrasing)).toMatch(/^Dann gelang Meier/);
    expect(extractInfo(text, terms, null, [], "de", phrasing)).toMatch(/^Dann gelang Meier/);
  });
});
