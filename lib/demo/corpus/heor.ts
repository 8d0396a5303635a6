import type { CorpusDocument } from "./types";

const domains = ["heor"];

export const HEOR: CorpusDocument[] = [
  {
    slug: "qaly",
    domains,
    markdown: `# Quality-adjusted life years (QALY)

The quality-adjusted life year is a measure of health outcome that combines length of life and health-related quality of life in a single number. One QALY equals one year lived in perfect health. A year lived in a health state valued at 0.5 counts as half a QALY, and death is valued at zero.

## Utility weights

The quality adjustment uses utility weights, also called health state values, anchored at 1 for full health and 0 for death; some states judged worse than death receive negative values. Utilities are usually obtained from generic preference-based instruments such as the EQ-5D, whose five dimensions (mobility, self-care, usual activities, pain or discomfort, anxiety or depression) describe a health state that is then valued with a country-specific tariff. Direct elicitation methods include the standard gamble and the time trade-off.

## Calculating QALYs

QALYs are calculated by multiplying the time spent in each health state by its utility and summing over time, usually with discounting of future health, for example at 3 to 3.5 percent per year. A treatment that extends life by two years at a utility of 0.7 yields 1.4 QALYs before discounting. In decision models, QALYs accumulate in each cycle according to the proportion of the cohort in each health state.

## Criticisms

QALYs are criticised for possibly undervaluing life extension for people with disabilities or chronic illness, for insensitivity of generic instruments in some conditions, and for ignoring how health gains are distributed. Some agencies respond with severity modifiers or alternative measures such as the equal value of life years gained (evLYG), which values each year of life gained at full health regardless of quality.
`,
  },
  {
    slug: "icer",
    domains,
    markdown: `# Incremental cost-effectiveness ratio (ICER)

The incremental cost-effectiveness ratio compares two interventions by dividing the difference in their costs by the difference in their health effects. When effects are measured in quality-adjusted life years, the ICER is expressed as cost per QALY gained. For example, a new therapy that costs 30,000 more than standard care and yields 1.5 additional QALYs has an ICER of 20,000 per QALY gained.

## Dominance

When a new intervention is both cheaper and more effective, it dominates the comparator and no ratio is needed. When it is more costly and less effective, it is dominated. Extended dominance occurs when an option is less efficient than a combination of two other options; such options are removed before ICERs are calculated along the cost-effectiveness frontier, comparing each remaining option with the next less costly one.

## Net monetary benefit

Because ratios behave poorly in statistics, especially when the difference in effect is close to zero, analysts often use net monetary benefit instead: the health gain multiplied by the willingness-to-pay threshold, minus the additional cost. A positive net monetary benefit at a given threshold means the intervention is cost-effective at that threshold.

## Uncertainty

Probabilistic sensitivity analysis samples every uncertain model parameter from a distribution and recalculates costs and effects thousands of times. The results are shown on a cost-effectiveness plane and summarised as a cost-effectiveness acceptability curve, which plots the probability that each intervention is cost-effective against a range of threshold values. Deterministic one-way analyses, displayed as tornado diagrams, show which parameters drive the result.
`,
  },
  {
    slug: "cost-effectiveness-thresholds",
    domains,
    markdown: `# Cost-effectiveness thresholds

A cost-effectiveness threshold is the maximum cost per unit of health gain, usually per QALY, that a decision maker considers acceptable. An intervention whose incremental cost-effectiveness ratio falls below the threshold is considered good value for money. Thresholds make explicit the opportunity cost of spending a fixed health budget on one intervention rather than another.

## Examples by country

The National Institute for Health and Care Excellence (NICE) in England has long used a range of about 20,000 to 30,000 pounds per QALY gained, with higher values accepted for severe diseases through a severity modifier and for highly specialised technologies for very rare conditions. In the United States, the Institute for Clinical and Economic Review commonly reports value-based price benchmarks at 100,000 to 150,000 dollars per QALY or per equal value life year gained. Several countries do not publish an explicit threshold but weigh cost-effectiveness alongside other criteria.

## Supply-side and demand-side thresholds

A demand-side threshold reflects society's willingness to pay for a unit of health. A supply-side threshold estimates the health forgone elsewhere in the health system when money is diverted to a new intervention; empirical estimates of this opportunity cost are often lower than published thresholds. The World Health Organization once suggested thresholds of one to three times gross domestic product per capita, but this rule has been widely criticised and is no longer recommended.

## Beyond the ratio

Decision makers also consider the certainty of the evidence, budget impact, equity, innovation and unmet need. An intervention can have an acceptable ICER and still be unaffordable if the eligible population is large, which is why cost-effectiveness analysis is usually accompanied by a budget impact analysis.
`,
  },
  {
    slug: "budget-impact-analysis",
    domains,
    markdown: `# Budget impact analysis

A budget impact analysis estimates the financial consequences of adopting a new health technology within a specific health care setting. Where cost-effectiveness analysis asks whether an intervention is good value, budget impact analysis asks whether the payer can afford it, over a short time horizon and for a defined population.

## Structure of the analysis

The analysis compares two scenarios: the current mix of treatments, and a future mix in which the new technology takes up a growing market share. It needs the size of the eligible population, including incidence and prevalence, the expected uptake of the new technology over time, and which treatments it displaces. Costs include drug acquisition, administration, monitoring, and treatment of adverse events, along with any offsetting savings.

## Perspective and horizon

Good practice guidance from ISPOR recommends taking the perspective of the budget holder, such as a national health service or an insurer, and reporting results for each year over a time horizon of one to five years. Costs are usually not discounted, because the question is the cash flow the budget holder will face in each year. Results are presented as total and incremental annual costs, and often per member per month for insurers.

## Use in decisions

Budget impact results inform pricing negotiations, managed entry agreements such as discounts, price-volume agreements and outcome-based contracts, and the phasing of access. In England, technologies whose net budget impact is expected to exceed 20 million pounds a year in any of the first three years may be subject to a commercial discussion before funding is introduced.
`,
  },
  {
    slug: "decision-models",
    domains,
    markdown: `# Decision-analytic models in health economics

Economic evaluations rarely rely on a single trial. Decision-analytic models combine evidence from trials, observational studies and other sources to estimate costs and outcomes over a longer time horizon and for the population and comparators that matter to the decision maker.

## Decision trees

A decision tree represents choices, chance events and their consequences as branches with probabilities, costs and outcomes. Trees suit acute conditions with short time horizons, such as the choice of a diagnostic test, but become unwieldy when events can recur over time.

## Markov and partitioned survival models

A Markov model describes a cohort moving between a set of mutually exclusive health states in discrete cycles, such as monthly or yearly, according to transition probabilities. Each state carries a cost and a utility, and the model accumulates costs and QALYs over the cycles. A half-cycle correction adjusts for the assumption that transitions happen at the start or end of a cycle. In oncology, partitioned survival models are common: the proportion of patients in the progression-free, progressed and dead states is read directly from the progression-free survival and overall survival curves.

## Microsimulation and validation

Individual-level microsimulation models follow simulated patients one at a time and can capture patient history and heterogeneity at the cost of computation time. Whatever the structure, models should be validated: face validity with clinical experts, internal verification of the calculations, and external validation against observed data. Extrapolating survival beyond trial follow-up is often the largest source of uncertainty.
`,
  },
];
