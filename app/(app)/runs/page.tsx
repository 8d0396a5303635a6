import type { Metadata } from "next";
import { NewRunForm } from "@/components/runs/NewRunForm";
import { RunList } from "@/components/runs/RunList";

export const metadata: Metadata = { title: "Runs" };

/** Autonomous runs: an expert works a goal step by step, stopping at checkpoints for approval. */
export default function RunsPage() {
  return (
    <div>
      <h1 className="text-2xl font-semibold">Runs</h1>
      <p className="mb-6 text-sm text-slate-600 dark:text-slate-400">
        Your autonomous runs. An expert plans the work, asks for approval at its checkpoints and answers with citations.
      </p>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <div className="min-w-0 lg:order-2">
          <NewRunForm />
        </div>
        <section aria-label="Your runs" className="min-w-0 lg:order-1">
          <RunList />
        </section>
      </div>
    </div>
  );
}
