import type { Usage } from "./types";

/**
 * Cost estimates. Prices are USD per million tokens as the providers list them for standard
 * (non-batch, non-cached) use, copied by hand: an estimate for budgeting and the audit trail,
 * not a bill. Cached-input discounts, reasoning tokens billed separately, regional and
 * negotiated prices are not modelled. A model matches the longest entry its id starts with, so
 * dated snapshots ("gpt-4.1-mini-2025-04-14") use their family's price. A model not listed gets
 * no estimate (null), never a guess; `VIGIL_MODEL_PRICE` ("input,output" per million tokens)
 * prices the configured model when it is missing here, e.g. a hosted open-weights model.
 */
export interface Price {
  inputPerMTok: number;
  outputPerMTok: number;
}

export const PRICES: Record<string, Price> = {
  "gpt-4o-mini": { inputPerMTok: 0.15, outputPerMTok: 0.6 },
  "gpt-4o": { inputPerMTok: 2.5, outputPerMTok: 10 },
  "gpt-4.1-nano": { inputPerMTok: 0.1, outputPerMTok: 0.4 },
  "gpt-4.1-mini": { inputPerMTok: 0.4, outputPerMTok: 1.6 },
  "gpt-4.1": { inputPerMTok: 2, outputPerMTok: 8 },
  "gpt-5-nano": { inputPerMTok: 0.05, outputPerMTok: 0.4 },
  "gpt-5-mini": { inputPerMTok: 0.25, outputPerMTok: 2 },
  "gpt-5": { inputPerMTok: 1.25, outputPerMTok: 10 },
  "o4-mini": { inputPerMTok: 1.1, outputPerMTok: 4.4 },
  "o3-mini": { inputPerMTok: 1.1, outputPerMTok: 4.4 },
  o3: { inputPerMTok: 2, outputPerMTok: 8 },
  "claude-3-5-haiku": { inputPerMTok: 0.8, outputPerMTok: 4 },
  "claude-haiku-4-5": { inputPerMTok: 1, outputPerMTok: 5 },
  "claude-sonnet-4": { inputPerMTok: 3, outputPerMTok: 15 },
  "claude-3-7-sonnet": { inputPerMTok: 3, outputPerMTok: 15 },
  "claude-3-5-sonnet": { inputPerMTok: 3, outputPerMTok: 15 },
  "claude-opus-4-5": { inputPerMTok: 5, outputPerMTok: 25 },
  "claude-opus-4": { inputPerMTok: 15, outputPerMTok: 75 },
};

/** The listed price of a model id (longest matching prefix), or undefined. */
export function priceOf(model: string, prices: Record<string, Price> = PRICES): Price | undefined {
  const id = model.toLowerCase();
  let best: string | undefined;
  for (const key of Object.keys(prices)) {
    if ((id === key || id.startsWith(`${key}-`) || id.startsWith(`${key}.`)) && (!best || key.length > best.length))
      best = key;
  }
  return best ? prices[best] : undefined;
}

/** `"0.4,1.6"` → a price; anything else → undefined. */
export function parsePrice(value: string | undefined): Price | undefined {
  const parts = value?.split(",").map((s) => Number(s.trim()));
  if (parts?.length !== 2 || parts.some((n) => !Number.isFinite(n) || n < 0)) return undefined;
  return { inputPerMTok: parts[0], outputPerMTok: parts[1] };
}

/** USD for one call (to a billionth of a dollar: one token can cost less than a millionth); null when the price is unknown. */
export function estimateCost(usage: Usage | undefined, price: Price | undefined): number | null {
  if (!usage || !price) return null;
  const usd = (usage.inputTokens * price.inputPerMTok + usage.outputTokens * price.outputPerMTok) / 1_000_000;
  return Math.round(usd * 1e9) / 1e9;
}
