// Deep research (the "Rabbithole" design): clarify, plan, dig, validate, synthesise, attribute.
export * from "./contract";
export { buildDeepResearch, deepResearch, publicStateOf as researchPublicState } from "./graph";
