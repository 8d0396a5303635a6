// What an answer may make the reader's browser do. An answer quotes documents and model output
// that anyone could have written: it must not load images from hosts nobody allowed (an image URL
// reports the reader, and whatever the text put in it, to its host), nor give its elements ids
// that shadow the page's own (DOM clobbering).
import { defaultRehypePlugins } from "streamdown";
import type { Pluggable } from "unified";

// Relative image URLs are resolved against this to be checked as Vigil's own: an origin that can
// never resolve (RFC 2606), so an absolute URL naming it loads nothing either.
const OWN_ORIGIN = "https://vigil.invalid";

// The image filter below looks at <img> only; a <picture>'s <source srcset> would go around it.
const FETCHING_TAGS_WITHOUT_FILTER = new Set(["picture", "source"]);

/** remark-rehype options: footnote ids stay bare, so the sanitizer prefixes them once, like every id. */
export const ANSWER_REMARK_REHYPE = { clobberPrefix: "" } as const;

type Options = Record<string, unknown>;

function withOptions(plugin: Pluggable, options: (defaults: Options) => Options): Pluggable {
  const [attacher, defaults = {}] = plugin as [unknown, Options?];
  return [attacher, { ...defaults, ...options(defaults) }] as Pluggable;
}

/**
 * Streamdown's rehype pipeline (raw HTML → sanitize → harden) with every id and name prefixed
 * with `user-content-`, and images only from Vigil itself or the admin's allowlisted URL
 * prefixes (`imageSources`).
 */
export function answerRehypePlugins(imageSources: readonly string[]): Pluggable[] {
  const { raw, sanitize, harden } = defaultRehypePlugins;
  return [
    raw,
    withOptions(sanitize, (schema) => ({
      clobberPrefix: "user-content-",
      tagNames: ((schema.tagNames as string[] | undefined) ?? []).filter((t) => !FETCHING_TAGS_WITHOUT_FILTER.has(t)),
    })),
    withOptions(harden, () => ({ defaultOrigin: OWN_ORIGIN, allowedImagePrefixes: ["/", ...imageSources] })),
  ];
}
