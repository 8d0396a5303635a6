import { config, type Env } from "@/lib/config";
/** The design's `tools_timeout_default_seconds`: how long a tool call may take unless set otherwise. */
export const TOOLS_TIMEOUT_DEFAULT_SECONDS = 60;

/** A tool call that did not finish in its time. Retrying it would only wait as long again. */
export class ToolTimeoutError extends Error {
  constructor(
    readonly tool: string,
    readonly seconds: number,
  ) {
    super(`The tool ${tool} did not finish within ${seconds} s and was stopped.`);
    this.name = "ToolTimeoutError";
  }
}

/** The deployment's default tool time limit (`VIGIL_TOOLS_TIMEOUT_DEFAULT_SECONDS`, else 60). */
export const defaultToolTimeoutSeconds = (env: Env = process.env): number => config(env).toolsTimeoutDefaultSeconds;

/**
 * A tool call's time limit in seconds: the operator's setting for that tool
 * (`VIGIL_TOOLS_TIMEOUT_SECONDS=literature_search=20,calculator=5`), else the deployment's
 * default (`VIGIL_TOOLS_TIMEOUT_DEFAULT_SECONDS`, 60 as the design has it). The calculator needs
 * no shorter one of its own: its evaluation is limited to a second (CALCULATOR_LIMITS), and
 * the rest of a call is starting its worker, which a busy machine can make slow.
 */
export function toolTimeoutSeconds(tool: string, env: Env = process.env): number {
  const settings = config(env);
  return settings.toolsTimeoutSeconds[tool] ?? settings.toolsTimeoutDefaultSeconds;
}

/**
 * Runs a tool call with a time limit. At the limit the call's signal aborts (a tool that honours
 * it stops its requests) and the caller gets a ToolTimeoutError at once, whether or not the tool
 * noticed; the run's own abort still reaches the tool through the same signal.
 */
export async function withToolTimeout<T>(
  tool: string,
  limitSeconds: number,
  outer: AbortSignal | undefined,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const timeout = new AbortController();
  const signal = outer ? AbortSignal.any([outer, timeout.signal]) : timeout.signal;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new ToolTimeoutError(tool, limitSeconds);
      timeout.abort(error);
      reject(error);
    }, limitSeconds * 1000);
  });
  try {
    return await Promise.race([call(signal), expired]);
  } finally {
    clearTimeout(timer);
  }
}
