import type { CorpusDocument } from "./types";

const domains = ["safety"];

export const SAFETY: CorpusDocument[] = [
  {
    slug: "icsr",
    domains,
    markdown: `# Individual case safety reports (ICSR)

An individual case safety report describes one or more suspected adverse reactions in a single patient at a specific point in time. ICSRs are the basic unit of pharmacovigilance: marketing authorisation holders, regulators and the World Health Organization collect them from spontaneous reports, clinical studies, literature and patient support programs.

## Minimum criteria for a valid case

A case is valid for reporting when four minimum elements are known: an identifiable patient, an identifiable reporter, at least one suspect medicinal product, and at least one suspected adverse reaction. An identifiable patient does not require a name; initials, age, sex or a patient number are enough. When an element is missing, the company should follow up to obtain it and document the attempts.

## Seriousness and expedited timelines

A case is serious when the reaction results in death, is life-threatening, requires or prolongs hospitalisation, results in persistent or significant disability, is a congenital anomaly, or is otherwise medically important. Serious cases generally must be reported to the authorities within 15 calendar days of the day the company first receives the minimum information, known as day zero. In the European Union, non-serious cases are reported within 90 days.

## Format and transmission

ICSRs are exchanged electronically in the ICH E2B(R3) format, which structures patient details, reactions coded in MedDRA, drugs, dosage, medical history, and the narrative. European reports go to EudraVigilance; in the United States, postmarketing reports go to the FDA Adverse Event Reporting System (FAERS), and national centres share cases with the WHO global database VigiBase.
`,
  },
  {
    slug: "susar",
    domains,
    markdown: `# Suspected unexpected serious adverse reactions (SUSAR)

During clinical trials, sponsors must report to regulators and ethics committees, on an expedited basis, the adverse reactions that are at the same time suspected, serious and unexpected. These are known as SUSARs in the European Union; the United States uses the term IND safety report for the equivalent obligation.

## The three conditions

Suspected means there is a reasonable possibility that the investigational product caused the event, as judged by the investigator or the sponsor. Serious follows the usual definition: death, a life-threatening event, hospitalisation, persistent disability, a congenital anomaly or another medically important event. Unexpected means the nature or severity of the reaction is not consistent with the reference safety information, usually a section of the investigator's brochure, or the summary of product characteristics for an authorised product.

## Reporting timelines

A fatal or life-threatening SUSAR must be reported as soon as possible and no later than 7 calendar days after the sponsor first becomes aware of it, with follow-up information within a further 8 days. All other SUSARs must be reported within 15 calendar days. Under the EU Clinical Trials Regulation, SUSARs are submitted to the EudraVigilance clinical trials module. Cases from blinded trials are unblinded by the sponsor for reporting purposes, while the study team stays blinded.

## Aggregate reporting

Beyond individual cases, sponsors summarise the safety of an investigational product once a year in the development safety update report (DSUR), described in ICH E2F. Trends across cases, such as a rising frequency of a known reaction, may also require expedited communication.
`,
  },
  {
    slug: "psur-pbrer",
    domains,
    markdown: `# Periodic safety reports: PSUR and PBRER

After a medicine is authorised, the marketing authorisation holder periodically evaluates its benefit-risk balance and reports the evaluation to regulators. The periodic safety update report (PSUR) was redefined by the ICH E2C(R2) guideline as the periodic benefit-risk evaluation report (PBRER), which puts the emphasis on an integrated assessment of benefits and risks rather than a listing of cases.

## Content

A PBRER covers a defined reporting interval and contains the worldwide marketing authorisation status, actions taken for safety reasons, changes to reference safety information, estimated exposure, summaries of clinical trial and post-marketing data, literature findings, signal and risk evaluation, and an evaluation of benefit in the authorised indications. It ends with an integrated benefit-risk analysis and conclusions, including any proposed actions such as label changes.

## Frequency

In the European Union, submission frequency and dates are set by the list of Union reference dates (EURD list), which harmonises the data lock points for all products containing the same active substance. Newly authorised products typically report every six months for the first two years, annually for the next two years and every three years thereafter, unless the EURD list specifies otherwise. In the United States, periodic adverse drug experience reports are required quarterly for three years after approval and annually thereafter, and FDA accepts the PBRER format in their place.

## Single assessment

For substances authorised in several EU member states, a single assessment of the PSUR is performed at EU level by the Pharmacovigilance Risk Assessment Committee (PRAC), and its recommendation may lead to variations of all the marketing authorisations concerned.
`,
  },
  {
    slug: "meddra",
    domains,
    markdown: `# MedDRA terminology

The Medical Dictionary for Regulatory Activities (MedDRA) is the international medical terminology developed under the auspices of ICH for registering, documenting and monitoring medical products before and after authorisation. It is used to code adverse events, medical history, indications and investigations in clinical trials, individual case safety reports and product labels.

## The five-level hierarchy

MedDRA is organised in five levels. System organ classes (SOCs), of which there are 27, are the broadest groupings, by aetiology, manifestation site or purpose. Below them come high level group terms (HLGTs), high level terms (HLTs), preferred terms (PTs) and lowest level terms (LLTs). A preferred term is a distinct descriptor for a single medical concept, such as a symptom or diagnosis, and is the level most often used for analysis. Lowest level terms capture how the concept is expressed in practice, including synonyms and lexical variants, and are the level used for coding.

## Multiaxiality

A preferred term can belong to more than one system organ class; for example, a term for an infection in a specific organ sits in the infections SOC and in the SOC of the affected organ. Each preferred term has exactly one primary SOC, which is used so that events are counted only once in summary tables.

## Standardised MedDRA queries and versioning

Standardised MedDRA Queries (SMQs) are validated groupings of terms that relate to a defined medical condition, such as drug-related hepatic disorders, and help retrieve all potentially relevant cases. MedDRA is updated twice a year, in March and September, and organisations should agree on version management so that coding stays consistent across datasets.
`,
  },
  {
    slug: "signal-detection",
    domains,
    markdown: `# Signal detection in pharmacovigilance

A safety signal is information arising from one or multiple sources that suggests a new potentially causal association, or a new aspect of a known association, between a medicine and an event, and that warrants further investigation. Signal management covers detection, validation, prioritisation, assessment and recommendation for action.

## Sources of signals

Signals come from spontaneous reports, clinical trials, epidemiological studies, the scientific literature, and regulatory databases such as EudraVigilance, FAERS and VigiBase. Clinical review of individual cases remains essential, especially for rare and serious events like Stevens-Johnson syndrome or agranulocytosis, where a few well-documented cases can be enough to raise a signal.

## Disproportionality analysis

In large spontaneous reporting databases, statistical methods screen for drug-event combinations that are reported more often than expected. The proportional reporting ratio (PRR) compares the proportion of a given event among reports for the drug with that proportion among reports for all other drugs. The reporting odds ratio (ROR) is computed from the same two-by-two table. Bayesian methods shrink estimates based on few reports towards the null: the multi-item gamma Poisson shrinker used by FDA reports the EB05 lower bound, and the Bayesian confidence propagation neural network used by the Uppsala Monitoring Centre reports the information component (IC). A common screening rule flags a PRR of at least 2 with at least three cases and a chi-squared value of at least 4.

## From signal to action

Disproportionality does not prove causality: reporting is influenced by publicity, notoriety and time on the market. A validated signal is assessed with all available data, including clinical trials and observational studies, and may lead to label updates, direct healthcare professional communications, additional risk minimisation measures or post-authorisation safety studies.
`,
  },
  {
    slug: "risk-management",
    domains,
    markdown: `# Risk management plans and REMS

A risk management plan describes what is known and not known about a medicine's safety and how the marketing authorisation holder will characterise and minimise its risks. In the European Union, a risk management plan is required with every new marketing authorisation application; the United States uses Risk Evaluation and Mitigation Strategies (REMS) for a smaller set of products with serious risks.

## Safety specification

The EU risk management plan begins with a safety specification listing important identified risks, important potential risks and missing information, such as the absence of data in pregnancy or in patients with hepatic impairment. The pharmacovigilance plan then describes routine activities, such as signal detection and periodic reporting, and additional activities such as post-authorisation safety studies and registries.

## Risk minimisation

Routine risk minimisation consists of the product information, labeling, pack size and legal status. Additional risk minimisation measures include educational materials for healthcare professionals and patients, patient alert cards, controlled access programs and pregnancy prevention programs. Their effectiveness should be measured, for example with surveys of prescriber knowledge or drug utilisation studies.

## REMS in the United States

A REMS can include a medication guide, a communication plan and elements to assure safe use (ETASU), such as prescriber certification, pharmacy certification, dispensing only in certain settings, or documentation of safe use conditions like laboratory tests. FDA can require a REMS before or after approval and periodically assesses whether it meets its goals.
`,
  },
];
