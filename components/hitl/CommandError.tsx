import { Button } from "@/components/ui/Button";
import { HitlApiError, isNetworkFailure } from "./api";

interface PayloadIssue {
  path: string;
  message: string;
}

/** Why a command was refused, with the failing fields when the server named them. */
export function CommandError({ error, onRetry }: { error: Error; onRetry?: () => void }) {
  // PAYLOAD_INVALID, VALIDATION_FAILED, QUESTION_REQUIRED…: `details` lists the failing fields.
  const issues: PayloadIssue[] =
    error instanceof HitlApiError && Array.isArray(error.details) ? (error.details as PayloadIssue[]) : [];
  const offline = isNetworkFailure(error);
  return (
    <div role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300">
      <p>{offline ? "The server could not be reached." : error.message}</p>
      {issues.length > 0 && (
        <ul className="mt-1 list-disc pl-5 text-xs">
          {issues.map((issue) => (
            <li key={`${issue.path}:${issue.message}`}>
              <code>{issue.path || "/"}</code> {issue.message}
            </li>
          ))}
        </ul>
      )}
      {offline && onRetry && (
        <Button
          variant="link"
          size="inline"
          onClick={onRetry}
          className="mt-1 text-xs text-current underline dark:text-current"
        >
          Try again
        </Button>
      )}
    </div>
  );
}

/** What a form says under its button: the local problem (a field left empty), then the server's refusal. */
export function CommandFeedback({
  problem,
  error,
  onRetry,
}: {
  problem: string | null;
  error: Error | null;
  onRetry?: () => void;
}) {
  return (
    <>
      {problem && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {problem}
        </p>
      )}
      {error && <CommandError error={error} onRetry={onRetry} />}
    </>
  );
}
