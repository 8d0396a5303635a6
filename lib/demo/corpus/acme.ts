import type { CorpusDocument } from "./types";

// Acme Devices keeps a small knowledge base of its own, in its own domains.
export const ACME: CorpusDocument[] = [
  {
    slug: "acme-capa-procedure",
    domains: ["quality"],
    markdown: `# Acme corrective and preventive action (CAPA) procedure

This procedure describes how Acme Devices handles nonconformities, complaints and audit findings that need corrective or preventive action, in line with ISO 13485 and the FDA quality management system regulation.

## Opening a CAPA

Any employee can propose a CAPA. The quality engineer triages the proposal within five working days and records the problem statement, the affected products and lots, and a risk rating using the product risk management file. Containment actions, such as quarantining stock, start at once when patient safety may be affected.

## Investigation and root cause

The owner investigates the root cause with a structured method such as five whys or a fishbone diagram, and documents the evidence. Corrective actions address the root cause of an existing problem; preventive actions address potential problems found through trend analysis. Each action has an owner and a due date.

## Verification of effectiveness

A CAPA is closed only after the quality team verifies that the actions were effective, for example by monitoring complaint rates or process capability for three months. Overdue CAPAs are reviewed at the monthly management review.
`,
  },
  {
    slug: "acme-design-controls",
    domains: ["quality"],
    markdown: `# Acme design controls overview

Design controls make sure that Acme's infusion pumps and monitoring devices meet user needs and their intended use. Every development project keeps a design history file.

## Inputs and outputs

Design inputs translate user needs into measurable requirements, including performance, safety, usability and regulatory requirements. Design outputs, such as drawings, software and specifications, must be traceable to inputs in the traceability matrix.

## Verification, validation and reviews

Design verification confirms that outputs meet inputs through testing and inspection. Design validation confirms, with production-equivalent units and representative users, that the device meets user needs, including summative usability testing. Formal design reviews with an independent reviewer take place at each phase gate before design transfer to manufacturing.
`,
  },
  {
    slug: "acme-premarket-cybersecurity",
    domains: ["cyber"],
    markdown: `# Acme premarket cybersecurity checklist

Connected Acme devices need cybersecurity documentation in every premarket submission. This checklist summarises what the product security team prepares.

## Threat model and architecture

The team maintains a threat model for each connected product and security architecture views showing trust boundaries, interfaces and data flows. Each identified threat has a mitigation and a residual risk assessment.

## Software bill of materials

Every release ships with a software bill of materials listing commercial, open-source and off-the-shelf components with versions. Known vulnerabilities in those components are assessed, and the team documents a plan to monitor, patch and disclose vulnerabilities after release through coordinated disclosure.

## Testing

Security testing includes static analysis, fuzzing of external interfaces and penetration testing by an independent team before submission.
`,
  },
];
