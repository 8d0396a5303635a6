import { GUIDE_DOMAIN } from "@/lib/rag";
import type { CorpusDocument } from "./types";

const domains = [GUIDE_DOMAIN];

// Vigil's own user guide. Every expert searches the guide domain in addition to its own when a
// question is about the product, so "how do I…" questions get answered from here.
export const GUIDE: CorpusDocument[] = [
  {
    slug: "guide-choosing-an-expert",
    domains,
    markdown: `# Vigil guide: choosing an expert

Vigil gives every tenant a catalog of specialised AI experts. Each expert has a specialty, a short description, a set of skills and the knowledge domains it searches. Picking the right expert matters because an expert answers from the documents in its own domains; questions about Vigil itself are answered from this user guide.

## Finding an expert

Open Experts from the navigation to see the catalog as a grid of cards. The search box filters by name, specialty and description, so typing "drug safety" or "FDA" narrows the list at once. Each card shows the expert's specialty and skills; select a card to start a consultation with that expert.

## Which expert for which question

Ask the FDA Regulatory Specialist about submission pathways such as 510(k), De Novo, NDA and BLA, and about expedited programs. The Clinical Trial Designer handles protocol design, endpoints, randomisation and sample size. The Health Economist covers QALYs, cost-effectiveness and budget impact. The Pharmacovigilance expert answers about adverse event reporting and signal detection. A Research Analyst, which searches several domains at once when a question crosses specialties, and a Data Analyst for questions about your data arrive with their own workflows.

## Safety levels

Every expert has a default safety level: low, medium or high. A higher level sends more of the expert's actions and low-confidence answers to the review inbox before they take effect. Admins set the level per expert.
`,
  },
  {
    slug: "guide-citations",
    domains,
    markdown: `# Vigil guide: answers, citations and confidence

Vigil answers only from the tenant's knowledge base and says so plainly when the sources are silent. Every claim in an answer carries a numbered citation badge, such as [1] or [2], that points to the passage it came from.

## Opening a citation

Click a citation badge to open the source: the document title, the section or page, and the cited passage highlighted in context. The sources panel beside the conversation lists every source retrieved for the answer, in the order of their numbers, so no number is ever left without its passage.

## How sources are found

Each question is matched against the knowledge base with BM25 ranking in the database, restricted to the expert's knowledge domains and to your tenant. When the deployment has an embedding model and the database supports vectors, a semantic search runs alongside and the two rankings are fused. If nothing relevant is found, fallback searches such as PubMed can run when an administrator has configured them; otherwise the answer says that no sources were found.

## Confidence and the offline engine

Each answer shows a confidence computed from the retrieval scores, not invented by the model. Without a model provider, Vigil runs its offline engine, marked with a badge: it builds extractive answers from the best sentences of the retrieved passages and cites each one. Low-confidence answers can be sent to the review inbox, depending on the expert's safety level.
`,
  },
  {
    slug: "guide-review-inbox",
    domains,
    markdown: `# Vigil guide: the review inbox

The review inbox is where reviewers decide what agents want to do. Every human decision in Vigil becomes a case in one queue, whatever asked for it: a checkpoint of an autonomous run, a research plan that needs approval, a low-confidence answer, or an external agent submitting a case.

## Working a case

Open Inbox to see pending cases, newest first, with their type and summary. Opening a case shows its payload, its history of events and what it belongs to, such as a run or a chat session. A reviewer can approve, reject, approve with modifications, or ask for clarification. A clarification question goes back to the person or agent that submitted the case, and the case returns to the queue when they answer.

## Rules that keep decisions safe

The first final decision wins: once a case is approved or rejected, a second decision is refused, even if two reviewers click at the same moment. Every action carries a request id, so retrying a request after a network error does not record the decision twice. Cases and their events are append-only, which makes the history a reliable record for audits.

## Escalation

Case types can have a service level: if no decision arrives in time, the case is escalated to a named role or person and flagged in the inbox. Deciding a case that belongs to a paused run resumes that run automatically.
`,
  },
  {
    slug: "guide-api-keys",
    domains,
    markdown: `# Vigil guide: API keys

Programs and scripts talk to Vigil with API keys. A key belongs to one tenant and carries one role, member, reviewer or admin, which limits what it can do exactly as for a person with that role.

## Creating a key

Admins open API keys in the app, choose a name and a role, and create the key. The key is shown once, when it is created: copy it then, because Vigil stores only a hash of it and cannot show it again. Keys start with the prefix vk_, and the list shows the first characters of each key so you can tell them apart. An operator can also print a key from the command line with npm run apikey.

## Using a key

Send the key in the Authorization header as a bearer token, for example Authorization: Bearer vk_ followed by the rest of the key. Requests made with a key act in the key's tenant; a key cannot switch tenants. The same error shape applies as for signed-in users: a missing or revoked key gets 401, and a key whose role is too low gets 403.

## Revoking a key

Revoke a key from the API keys page when it is no longer needed or may have leaked. Revocation takes effect on the next request. The list records when each key was last used, refreshed at most once a minute, which helps find keys that are safe to remove.
`,
  },
  {
    slug: "guide-knowledge-base",
    domains,
    markdown: `# Vigil guide: managing the knowledge base

Experts answer from the tenant's knowledge base. Admins add documents to it, assign each document to one or more knowledge domains, and remove documents that are out of date. Members can search it.

## Adding documents

Upload Markdown, plain text, HTML or PDF files of up to 20 MiB each, and choose the domains the document belongs to, such as regulatory or safety. Programs can send text directly as JSON with a title, the format and the domains. Uploading the same content twice does nothing the second time: Vigil recognises the content by its hash and returns the document it already has.

## Chunks, sections and pages

Each document is split into passages of roughly one thousand characters at sentence boundaries. A passage keeps the heading path it sits under, and for PDFs the page number, so citations can point to the exact section or page. The document list shows how many passages each document produced.

## Domains and tenants

An expert searches only the domains it is configured for, and this guide when a question is about Vigil itself. Documents never cross tenants: a person in one tenant cannot retrieve another tenant's passages, whatever they search for. Deleting a document removes its passages from search at once.
`,
  },
];
