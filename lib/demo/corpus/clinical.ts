import type { CorpusDocument } from "./types";

const domains = ["clinical"];

export const CLINICAL: CorpusDocument[] = [
  {
    slug: "trial-phases",
    domains,
    markdown: `# Phases of clinical development

Clinical development of a new medicine is traditionally described in phases. Each phase answers different questions, and a program moves to the next phase only when the evidence so far supports it. Modern programs often blur the boundaries, for example with seamless designs that combine phases.

## Phase 1

Phase 1 trials are usually the first studies in humans. They enrol a small number of healthy volunteers or, in oncology, patients, and they focus on safety, tolerability, pharmacokinetics and pharmacodynamics. Dose escalation designs, such as the 3+3 design or model-based designs like the continual reassessment method, find the maximum tolerated dose or a recommended phase 2 dose. A phase 0 or microdosing study sometimes precedes phase 1 to study pharmacokinetics at sub-therapeutic doses.

## Phase 2

Phase 2 trials explore efficacy in patients with the target condition and refine the dose. Phase 2a studies are often proof-of-concept studies, while phase 2b studies compare several doses to characterise the dose-response relationship. Results guide the go or no-go decision for the expensive confirmatory stage.

## Phase 3 and phase 4

Phase 3 trials are large confirmatory studies, often randomised and controlled, that provide the pivotal evidence of efficacy and safety for a marketing application. They may enrol hundreds to thousands of patients across many sites and countries. Phase 4 studies take place after approval: post-marketing requirements and commitments, long-term safety studies, and trials in new populations.
`,
  },
  {
    slug: "randomisation",
    domains,
    markdown: `# Randomisation in clinical trials

Randomisation assigns participants to treatment groups by chance. It protects against selection bias, because neither investigators nor participants can choose who receives which treatment, and it tends to balance both known and unknown prognostic factors between the groups, which is what allows differences in outcome to be attributed to the treatment.

## Methods of randomisation

Simple randomisation, like tossing a coin for each participant, can produce imbalanced group sizes in small trials. Block randomisation assigns treatments within blocks of fixed or varying size, for example four participants per block with two on each arm, so that group sizes stay close throughout enrolment. Stratified randomisation performs block randomisation separately within strata defined by important prognostic factors such as site or disease severity. Minimisation is a dynamic method that assigns each new participant to the arm that best reduces imbalance across several factors.

## Allocation concealment

Allocation concealment means the person enrolling a participant cannot know the next assignment in advance. It is distinct from blinding and is achieved with central interactive response systems (IRT) rather than sealed envelopes at the site. Trials with inadequate concealment have been shown to overestimate treatment effects.

## Unequal allocation and cluster randomisation

Some trials allocate participants unequally, for example two to one in favour of the experimental arm, to gain more safety experience or to make participation more attractive, at some cost in statistical efficiency. Cluster randomised trials randomise groups such as hospitals or villages instead of individuals; their sample size must account for the intracluster correlation coefficient.
`,
  },
  {
    slug: "blinding",
    domains,
    markdown: `# Blinding and masking

Blinding, also called masking, keeps participants, investigators or outcome assessors unaware of which treatment each participant receives. Knowledge of the assignment can change behaviour, the reporting of symptoms and the assessment of outcomes, so blinding reduces performance bias and detection bias.

## Levels of blinding

In a single-blind trial the participants do not know their assignment. In a double-blind trial neither participants nor the investigators who treat and assess them know it. The term triple-blind is sometimes used when the data analysts or the committee monitoring the data are also kept unaware. Because these labels are used inconsistently, reporting guidelines such as CONSORT ask authors to state exactly who was blinded.

## Techniques

A placebo that looks, tastes and is packaged like the active treatment is the classic tool. When two active treatments differ in appearance or dosing schedule, a double-dummy design gives each participant one active product and a placebo matching the other. When the treatments cannot be disguised, for example surgery against medical therapy, a blinded independent outcome assessor or a blinded central reading of images can still protect the primary endpoint.

## Unblinding

Emergency unblinding procedures let an investigator learn a participant's assignment when it is needed for medical care, and each such event is documented. Safety reporting of suspected unexpected serious adverse reactions requires the sponsor to unblind the individual case for the regulators while keeping the study team blinded. The success of blinding can be assessed by asking participants and investigators to guess the assignment.
`,
  },
  {
    slug: "adaptive-designs",
    domains,
    markdown: `# Adaptive trial designs

An adaptive design allows prospectively planned modifications to one or more aspects of a trial based on accumulating data from participants in the trial. Adaptations can make a trial more efficient, more likely to answer its question, or more ethical, but they must be specified in the protocol before the data are seen and must preserve the trial's integrity and control of the type I error rate.

## Common adaptations

Group sequential designs include interim analyses at which the trial may stop early for efficacy or for futility, using alpha-spending functions such as O'Brien-Fleming boundaries. Sample size re-estimation recalculates the number of participants at an interim analysis, for example when the variance or event rate differs from the planning assumptions. Response-adaptive randomisation shifts allocation probabilities towards arms that appear to perform better. Adaptive enrichment restricts later enrolment to a subgroup that appears to benefit.

## Seamless and platform trials

Seamless phase 2/3 designs select a dose or population at the end of a learning stage and continue into a confirmatory stage without stopping the trial, sometimes combining data from both stages with appropriate statistical methods. Master protocols go further: platform trials evaluate several treatments against a shared control arm and add or drop arms over time, while basket trials test one targeted therapy across several diseases sharing a biomarker.

## Regulatory expectations

FDA guidance on adaptive designs for clinical trials of drugs and biologics, finalised in 2019, and the ICH E20 guideline ask sponsors to prespecify the adaptation rules, to demonstrate control of the type I error, often by simulation, and to limit access to interim results to an independent data monitoring committee so that knowledge of comparative results does not influence the conduct of the trial.
`,
  },
  {
    slug: "endpoints",
    domains,
    markdown: `# Choosing trial endpoints

An endpoint is the outcome measured to judge whether a treatment works. The choice of primary endpoint drives the sample size, the duration and the regulatory value of a trial, so it is one of the first and most important design decisions.

## Primary and secondary endpoints

The primary endpoint answers the main question of the trial and is the basis of the sample size calculation. Secondary endpoints support the primary result or address further questions; when several are tested, a hierarchical testing strategy or another multiplicity adjustment keeps the overall type I error under control. Exploratory endpoints generate hypotheses for future research.

## Clinical, surrogate and composite endpoints

A clinical endpoint directly measures how a patient feels, functions or survives, such as overall survival or stroke. A surrogate endpoint, such as blood pressure, LDL cholesterol or tumour shrinkage, substitutes for a clinical endpoint and is useful only when it is validated or reasonably likely to predict clinical benefit. Composite endpoints combine several events, such as cardiovascular death, myocardial infarction or stroke, to increase the event rate; they are easiest to interpret when the components are of similar importance.

## Patient-reported outcomes and estimands

Patient-reported outcomes capture symptoms and quality of life directly from patients with validated instruments. The ICH E9(R1) addendum introduced the estimand framework, which defines precisely the treatment effect of interest: the population, the variable, how intercurrent events such as treatment discontinuation or rescue medication are handled, and the population-level summary measure.
`,
  },
  {
    slug: "sample-size",
    domains,
    markdown: `# Sample size calculation

The sample size of a trial is chosen so that the trial has a high probability of detecting a clinically relevant treatment effect if it exists, while limiting the chance of a false positive conclusion. Too small a trial wastes resources and exposes participants to risk without answering its question; too large a trial delays results and exposes more people than necessary.

## Ingredients

A sample size calculation needs the significance level (alpha, usually two-sided 0.05), the desired power (commonly 80 or 90 percent, meaning a type II error rate beta of 0.20 or 0.10), the smallest effect size worth detecting, and an estimate of variability, such as the standard deviation of a continuous outcome or the control group event rate of a binary outcome. For a comparison of two means with equal groups, the number per group is approximately 2 times (z for alpha plus z for beta) squared times the variance, divided by the squared difference to detect.

## Time-to-event outcomes

For survival analyses, power depends on the number of events rather than the number of participants. Schoenfeld's formula gives the number of events required to detect a given hazard ratio; the number of participants and the duration of follow-up are then chosen so that enough events are expected.

## Practical adjustments

The calculated number is inflated for expected dropout and loss to follow-up, for example dividing by 0.9 when 10 percent attrition is expected. Non-inferiority trials usually need more participants than superiority trials because the margin is small. Cluster randomised designs multiply the size by the design effect, 1 plus the cluster size minus 1 times the intracluster correlation. Assumptions should be justified from earlier trials or pilot data and explored in sensitivity analyses.
`,
  },
  {
    slug: "non-inferiority-trials",
    domains,
    markdown: `# Non-inferiority and equivalence trials

Not every trial aims to show that a new treatment is better. A non-inferiority trial aims to show that a new treatment is not unacceptably worse than an active comparator, usually because it offers other advantages such as fewer side effects, easier administration or lower cost. An equivalence trial aims to show that two treatments differ by no more than a prespecified margin in either direction.

## The non-inferiority margin

The margin is the largest loss of efficacy that would still be clinically acceptable. Regulators expect it to be justified both statistically and clinically: it should preserve a meaningful fraction of the active comparator's effect over placebo, as estimated from historical trials. Non-inferiority is concluded when the confidence interval of the difference lies entirely on the favourable side of the margin.

## Assay sensitivity and constancy

A non-inferiority trial has no internal proof that it could have detected a difference: two ineffective treatments may look similar. The trial therefore relies on assay sensitivity, the assumption that the comparator would have beaten placebo in this trial, and on the constancy assumption that the comparator's historical effect still applies under current conditions. Careful choice of population, dose and endpoints similar to the historical trials supports these assumptions.

## Analysis populations

In superiority trials the intention-to-treat analysis is conservative, but in non-inferiority trials it can bias results towards similarity. Guidelines therefore ask for both intention-to-treat and per-protocol analyses, with consistent conclusions, or for an estimand that handles intercurrent events explicitly.
`,
  },
];
