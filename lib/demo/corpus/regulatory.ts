import type { CorpusDocument } from "./types";

const domains = ["regulatory"];

export const REGULATORY: CorpusDocument[] = [
  {
    slug: "fda-510k",
    domains,
    markdown: `# FDA 510(k) premarket notification

A 510(k) is the premarket submission most medium-risk medical devices need before they can be sold in the United States. It takes its name from section 510(k) of the Federal Food, Drug, and Cosmetic Act. Instead of proving safety and effectiveness from scratch, the sponsor shows that the new device is substantially equivalent to a device already legally on the market, called the predicate.

## Substantial equivalence

A device is substantially equivalent when it has the same intended use as the predicate and either the same technological characteristics, or different characteristics that do not raise different questions of safety and effectiveness and are shown to be as safe and effective. Sponsors usually present a side-by-side comparison table covering indications, materials, energy source, software and performance. Bench testing, biocompatibility, electrical safety and, less often, clinical data support the comparison.

## Types of 510(k)

The Traditional 510(k) is the default route. A Special 510(k) suits a change to the sponsor's own cleared device when the change can be verified with well-established methods. An Abbreviated 510(k) relies on FDA guidance documents, special controls or recognised consensus standards to reduce the amount of data in the file. Most Class I and some Class II devices are exempt from premarket notification altogether.

## Review timeline and outcome

FDA's performance goal is a decision within 90 FDA days; the clock stops while the agency waits for answers to an additional information request. Before substantive review, the submission passes an acceptance review against the eSTAR or refuse-to-accept checklist. A successful submission ends in a clearance letter stating that the device is substantially equivalent (SE). A not substantially equivalent (NSE) decision places the device in Class III by default, after which the sponsor may pursue De Novo classification or premarket approval.
`,
  },
  {
    slug: "fda-pma",
    domains,
    markdown: `# FDA premarket approval (PMA)

Premarket approval is the most demanding FDA pathway for medical devices. It applies to Class III devices, which support or sustain human life, are of substantial importance in preventing impairment of health, or present a potential unreasonable risk of illness or injury. Examples include implantable pacemakers, heart valves and many in vitro diagnostics used to select cancer therapies.

## What a PMA must show

Unlike a 510(k), a PMA must demonstrate on its own evidence that there is reasonable assurance the device is safe and effective for its intended use. The application usually contains non-clinical laboratory studies, one or more pivotal clinical investigations conducted under an investigational device exemption (IDE), manufacturing information and proposed labeling. FDA also inspects the manufacturing site for compliance with the quality system requirements before approval.

## Review process

The statute gives FDA 180 days to review a PMA, although total time is longer in practice because of clock stops and major deficiency letters. Many original PMAs are referred to an advisory committee panel of outside experts, who vote on whether the benefits outweigh the risks. Sponsors may use a modular PMA, submitting sections such as preclinical data and manufacturing as they are completed, which suits long development programs.

## After approval

An approved PMA is specific to the device and its manufacturer. Significant changes to design, labeling or manufacturing need a PMA supplement, such as a 180-day supplement or a panel-track supplement for new indications. Approval orders often include conditions such as post-approval studies, and the holder must submit annual reports and medical device reports of adverse events.
`,
  },
  {
    slug: "fda-de-novo",
    domains,
    markdown: `# De Novo classification request

The De Novo pathway lets FDA classify a novel medical device of low to moderate risk for which no legally marketed predicate exists. Without it, any device that is not substantially equivalent to a predicate would fall into Class III automatically and need premarket approval, even when its risks are modest.

## When to use De Novo

A sponsor can file a De Novo request directly when it believes no predicate exists, or after receiving a not substantially equivalent decision on a 510(k). The request must describe the device, its risks and the general and special controls that would give reasonable assurance of safety and effectiveness. A pre-submission meeting with FDA is strongly recommended to agree on the evidence needed, which often includes clinical performance data.

## Review and outcome

FDA's performance goal is to decide on a De Novo request within 150 review days. When the request is granted, FDA creates a new classification regulation, usually placing the device in Class I or Class II with special controls. The granted device then becomes a predicate: later devices of the same type can reach the market through the ordinary 510(k) route by showing substantial equivalence to it.

## Examples

De Novo has been used for software functions that detect atrial fibrillation on a consumer watch, for autonomous artificial intelligence that screens for diabetic retinopathy, and for direct-to-consumer genetic health risk tests. Each of these created a device type that did not exist before.
`,
  },
  {
    slug: "fda-nda",
    domains,
    markdown: `# New Drug Application (NDA)

The New Drug Application is the request a sponsor submits to the FDA Center for Drug Evaluation and Research for permission to market a new small-molecule drug in the United States. It collects everything learned during development: nonclinical pharmacology and toxicology, human pharmacokinetics, the results of the clinical trials, chemistry, manufacturing and controls (CMC), and the proposed labeling.

## Content and format

NDAs are submitted electronically in the Common Technical Document format, organised in five modules: regional administrative information, summaries, quality, nonclinical study reports and clinical study reports. The clinical module must show substantial evidence of effectiveness, traditionally from two adequate and well-controlled trials, or from one trial with confirmatory evidence.

## Filing and review clocks

FDA decides within 60 days whether the application is complete enough to file. Under the user fee program, a standard review of a new molecular entity targets an action ten months after the 60-day filing date, and a priority review six months after it. The review ends in an approval letter or a complete response letter that lists the deficiencies to resolve before the application can be approved.

## Variants

A 505(b)(2) application relies in part on studies the sponsor did not conduct, such as published literature or FDA's previous finding of safety for a listed drug; it suits new formulations, routes or combinations. Generic drugs use an Abbreviated New Drug Application (ANDA), which shows bioequivalence to a reference listed drug instead of repeating clinical trials.
`,
  },
  {
    slug: "fda-bla",
    domains,
    markdown: `# Biologics License Application (BLA)

A Biologics License Application is the request to introduce a biological product into interstate commerce in the United States, under section 351 of the Public Health Service Act. Biological products include vaccines, blood products, cellular and gene therapies, and therapeutic proteins such as monoclonal antibodies. Most therapeutic proteins are reviewed by CDER, while vaccines, blood products and cell and gene therapies are reviewed by CBER.

## Safe, pure and potent

The legal standard for licensure is that the product is safe, pure and potent, and that the facility where it is made meets standards designed to assure it continues to be so. Because biological products are made by living systems, manufacturing process control is central to the application, and a pre-license inspection of the manufacturing facility is part of the review.

## Biosimilars

The Biologics Price Competition and Innovation Act created an abbreviated licensure pathway, section 351(k), for biosimilars. A biosimilar must be highly similar to an already licensed reference product, with no clinically meaningful differences in safety, purity and potency. A biosimilar can additionally be designated interchangeable, allowing substitution at the pharmacy subject to state law.

## Timelines

BLA review goals under the user fee program mirror those for new molecular entity NDAs: ten months from the 60-day filing date for a standard review and six months for a priority review. Expedited programs such as breakthrough therapy designation and accelerated approval apply to biologics as well as to drugs.
`,
  },
  {
    slug: "fda-accelerated-approval",
    domains,
    markdown: `# Accelerated approval

Accelerated approval allows FDA to approve a drug or biologic for a serious or life-threatening condition on the basis of an effect on a surrogate endpoint, or on an intermediate clinical endpoint, rather than waiting for a direct measure of clinical benefit. It was introduced in 1992, largely in response to the HIV epidemic, and is now used most often in oncology.

## Surrogate endpoints

A surrogate endpoint is a marker, such as a laboratory measurement, radiographic image or physical sign, that is not itself a measure of clinical benefit. For accelerated approval, the surrogate must be reasonably likely to predict clinical benefit. Tumour response rate, for example, has supported many accelerated approvals in cancer, where overall survival would take years to measure.

## Confirmatory trials

Approval under this pathway is conditional on confirmatory trials that verify the anticipated clinical benefit. The Food and Drug Omnibus Reform Act of 2022 allows FDA to require that such a trial be underway before approval, and it streamlined the procedure for withdrawing an indication when the confirmatory trial fails or is not conducted with due diligence. Several oncology indications have been withdrawn after confirmatory studies did not show improved survival.

## Relation to other programs

Accelerated approval is an approval pathway, not a designation. It can be combined with fast track, breakthrough therapy designation and priority review, which speed development and review but do not change the evidence standard for approval.
`,
  },
  {
    slug: "fda-expedited-programs",
    domains,
    markdown: `# FDA expedited programs: fast track, breakthrough therapy and priority review

FDA offers several programs to speed the development and review of drugs and biologics for serious conditions. They differ in what they require and what they give, and a product can hold more than one at the same time.

## Fast track designation

Fast track is for a drug intended to treat a serious condition that nonclinical or clinical data show has the potential to address an unmet medical need. It can be requested as early as the IND stage. Benefits include more frequent communication with FDA and rolling review, under which completed sections of the marketing application can be submitted before the whole application is ready.

## Breakthrough therapy designation

Breakthrough therapy designation requires preliminary clinical evidence that the drug may demonstrate substantial improvement over available therapy on one or more clinically significant endpoints. It brings all the fast track features plus intensive guidance on an efficient development program from early in phase 1 and an organisational commitment involving senior FDA managers. FDA responds to a designation request within 60 days. For medical devices, the separate Breakthrough Devices Program offers prioritised interaction for devices that provide more effective treatment or diagnosis of life-threatening or irreversibly debilitating conditions.

## Priority review

Priority review is assigned when the marketing application is filed, for a drug that would be a significant improvement in the safety or effectiveness of treatment of a serious condition. It shortens the review goal to six months instead of ten. Priority review vouchers, earned for example by developing treatments for rare paediatric diseases or neglected tropical diseases, can confer priority review on a different application and can be sold.
`,
  },
  {
    slug: "fda-ind",
    domains,
    markdown: `# Investigational New Drug application (IND)

Before a new drug or biologic can be given to people in a clinical trial in the United States, the sponsor must have an Investigational New Drug application in effect. The IND is also the legal exemption that allows an unapproved product to be shipped across state lines to investigators.

## What an IND contains

An initial IND includes animal pharmacology and toxicology data showing the product is reasonably safe for initial testing in humans, information on the composition, manufacture and controls of the drug substance and product, and the clinical protocol with investigator information. Commitments to obtain informed consent and institutional review board approval are part of the submission.

## The 30-day wait and clinical holds

An IND goes into effect 30 days after FDA receives it unless FDA places the study on clinical hold. A hold can be issued when subjects would be exposed to an unreasonable and significant risk, when investigators are not qualified, or when the investigator brochure is misleading. During the program, the sponsor submits protocol amendments, IND safety reports of serious and unexpected suspected adverse reactions, and annual reports.

## Meetings with FDA

Sponsors commonly request a pre-IND meeting to agree on the nonclinical package and first-in-human design, an end-of-phase 2 meeting to agree on the design of pivotal trials, and a pre-NDA or pre-BLA meeting to discuss the content of the marketing application. Type A, B and C meetings have different scheduling timelines.
`,
  },
  {
    slug: "fda-orphan-designation",
    domains,
    markdown: `# Orphan drug designation

Orphan drug designation encourages the development of medicines for rare diseases, whose small patient populations would otherwise make development uneconomic. In the United States, FDA's Office of Orphan Products Development grants it under the Orphan Drug Act of 1983 to a drug or biologic intended to treat, diagnose or prevent a disease affecting fewer than 200,000 people in the country, or more when there is no reasonable expectation that sales will recover the cost of development. In the European Union the criterion is a prevalence of no more than 5 in 10,000 people.

## Requesting designation

A sponsor can request orphan designation at any stage of development, as long as the marketing application has not yet been submitted. The request describes the rare disease, gives a documented estimate of its prevalence and sets out the scientific rationale for using the product in it. A drug already approved for a common disease can be designated for a rare one. In the European Union, the Committee for Orphan Medicinal Products (COMP) gives an opinion on each application and the European Commission grants the designation.

## Benefits

Designation brings incentives meant to offset the cost of developing a medicine for few patients. In the United States these are seven years of market exclusivity after approval for the designated use, tax credits for qualified clinical testing costs, eligibility for orphan products clinical trial grants, and exemption from the user fee of the marketing application. In the European Union, an authorised orphan medicine receives ten years of market exclusivity, protocol assistance from the agency and reduced fees.

## Relation to other programs

Orphan designation does not lower the standard of evidence needed for approval and does not by itself shorten review. Many orphan products also qualify for fast track, breakthrough therapy designation or priority review, and for accelerated approval on a surrogate endpoint when the disease is serious and few treatments exist.
`,
  },
  {
    slug: "ema-centralised-procedure",
    domains,
    markdown: `# EMA centralised procedure

The centralised procedure gives a single marketing authorisation valid in every member state of the European Union and in the European Economic Area countries. The application is assessed by the European Medicines Agency, whose Committee for Medicinal Products for Human Use (CHMP) issues an opinion, and the legally binding decision is then adopted by the European Commission.

## Which medicines must use it

The procedure is mandatory for medicines derived from biotechnology, advanced therapy medicinal products such as gene and cell therapies, orphan medicines, and new active substances intended to treat cancer, diabetes, HIV/AIDS, neurodegenerative disorders, autoimmune diseases and viral diseases. Other innovative medicines may use it optionally. Generics and medicines for other conditions can instead use national, decentralised or mutual recognition procedures.

## Timetable

The CHMP assessment takes up to 210 active days, not counting clock stops while the applicant answers the lists of questions raised at day 120 and day 180. A rapporteur and a co-rapporteur from two member states lead the scientific assessment. After a positive opinion, the European Commission normally adopts its decision within 67 days. Accelerated assessment shortens the active assessment to 150 days for medicines of major public health interest.

## Flexible tools

A conditional marketing authorisation can be granted on less comprehensive data for medicines addressing unmet medical needs, with annual renewal until the obligations are fulfilled. Authorisation under exceptional circumstances applies when comprehensive data can never be obtained, for example in very rare diseases. The PRIME scheme offers early and enhanced scientific support to medicines that target an unmet need, similar in spirit to FDA breakthrough therapy designation.
`,
  },
];
