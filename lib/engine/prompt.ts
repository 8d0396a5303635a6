import type { AgentProfile, ChatTurn, Passage } from "./types";

/**
 * What the LLM engine tells a model. The agent's own instructions come first and the engine's
 * rules last, so an agent can shape tone and focus but not talk the model out of citing.
 * Sources travel with the question rather than in the system prompt: the system prompt stays
 * the same across a conversation (cacheable), and each answer sees only its own sources.
 */

const RULES = `How to answer:
1. Answer only from the numbered sources given with the question. Do not add outside knowledge, even when you know the answer.
2. Cite every statement with the number of its source in square brackets, right after the statement: [1], or [1][3] for several. Use only the numbers of the sources given; never invent one.
3. First think inside <thinking>…</thinking>: which sources are relevant and what they say. The reader never sees this part. Then write the answer after the closing tag.
4. If the sources do not cover the question, or cover only part of it, say so plainly (for example "The knowledge base does not cover …") instead of guessing.
5. If the message only greets or thanks you, reply briefly and without sources.
6. Answer in the language of the question, concisely.
Citation numbers in earlier messages referred to the sources of those messages; cite only the sources given with the current question.`;

export function systemPromptFor(agent: AgentProfile): string {
  const own = agent.systemPrompt?.trim();
  return [`You are ${agent.name}, a specialist in ${agent.domain}.`, own, RULES].filter(Boolean).join("\n\n");
}

// Source text is data: it must not close its own element or pose as reasoning.
function quote(text: string): string {
  return text.replace(/<(?=\s*\/?\s*(?:source|think|answer))/gi, "‹");
}

function attribute(value: string): string {
  return value.replace(/["<>\n]/g, " ").trim();
}

export function sourcesBlock(passages: Passage[]): string {
  if (passages.length === 0) return "There are no sources for this question: the knowledge base returned nothing.";
  const blocks = passages.map((p) => {
    const attrs = [`n="${p.n}"`, `title="${attribute(p.title)}"`];
    if (p.section) attrs.push(`section="${attribute(p.section)}"`);
    if (p.page != null) attrs.push(`page="${p.page}"`);
    return `<source ${attrs.join(" ")}>\n${quote(p.text.trim())}\n</source>`;
  });
  return `Sources:\n\n${blocks.join("\n\n")}`;
}

export function userPromptFor(question: string, passages: Passage[]): string {
  return `${sourcesBlock(passages)}\n\nQuestion: ${question.trim()}`;
}

/** The conversation as model messages: earlier turns, then the question with its sources. */
export function messagesFor(
  question: string,
  passages: Passage[],
  history: ChatTurn[] = [],
): { role: "user" | "assistant"; content: string }[] {
  const earlier = history
    .filter((t) => (t.role === "user" || t.role === "assistant") && t.content.trim())
    .map((t) => ({ role: t.role, content: t.content }));
  return [...earlier, { role: "user", content: userPromptFor(question, passages) }];
}

export const ANALYZE_SYSTEM = `You prepare a user's message for a search of a knowledge base.
Classify the message:
- "question": asks for information (also a request such as "explain X").
- "greeting", "thanks", "farewell": small talk only.
- "out_of_scope": a question clearly unrelated to the assistant's domain.
Rewrite it as a standalone search query: the subject words only, with what earlier turns make it refer to ("what about children?" after a question on dosing of drug X → "drug X dosing children"). Keep names, numbers and acronyms exactly as written.
Give the message's language as an ISO 639-1 code.`;

export function analyzePromptFor(question: string, history: ChatTurn[], agent?: Pick<AgentProfile, "name" | "domain">) {
  const recent = history
    .slice(-6)
    .map((t) => `${t.role === "user" ? "User" : "Assistant"}: ${t.content.slice(0, 500)}`)
    .join("\n");
  return [
    agent ? `The assistant is ${agent.name}, a specialist in ${agent.domain}.` : null,
    recent ? `Earlier turns:\n${recent}` : null,
    `Message: ${question.trim()}`,
  ]
    .filter(Boolean)
    .join("\n\n");
}
