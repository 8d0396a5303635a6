"use client";

import { Printer, RefreshCw } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/Button";
import { verifyNow } from "./api";

/** Prints the report (the browser's dialog saves it as PDF); not part of the printed page itself. */
export function PrintButton() {
  return (
    <Button variant="outline" size="sm" onClick={() => window.print()} className="print:hidden">
      <Printer aria-hidden className="h-4 w-4" /> Print
    </Button>
  );
}

/** Walks the chain now and records the result, then reads the report again with it. */
export function VerifyChainButton() {
  const router = useRouter();
  const [verifying, setVerifying] = useState(false);
  const [refreshing, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const busy = verifying || refreshing;

  async function verify() {
    setVerifying(true);
    setError(null);
    try {
      await verifyNow();
      startTransition(() => router.refresh());
    } catch (e) {
      setError(e instanceof Error ? e.message : "The verification failed.");
    } finally {
      setVerifying(false);
    }
  }

  return (
    <div className="print:hidden">
      <Button variant="outline" size="sm" onClick={() => void verify()} disabled={busy}>
        <RefreshCw aria-hidden className={`h-4 w-4 ${busy ? "animate-spin" : ""}`} />
        {busy ? "Verifying…" : "Verify the chain now"}
      </Button>
      {error && (
        <p role="alert" className="mt-1 text-sm text-red-600">
          {error}
        </p>
      )}
    </div>
  );
}
