import "server-only";

export { keptSecret } from "./kept";
export { assertServerSecrets, exitIfServerSecretsMissing } from "./required";
