import type { Metadata } from "next";
import { ExpertGrid } from "@/components/experts/ExpertGrid";

export const metadata: Metadata = { title: "Experts" };

export default function ExpertsPage() {
  return (
    <div>
      <h1 className="text-2xl font-semibold">Experts</h1>
      <p className="mb-6 text-sm text-slate-600 dark:text-slate-400">Pick a specialist to start a consultation.</p>
      <ExpertGrid />
    </div>
  );
}
