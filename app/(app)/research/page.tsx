import type { Metadata } from "next";
import { NewResearchForm } from "@/components/research/NewResearchForm";
import { ResearchList } from "@/components/research/ResearchList";

export const metadata: Metadata = { title: "Research" };

/** Deep research: a question clarified with you, a plan you agree, and a report citing your documents. */
export default function ResearchPage() {
  return (
    <div>
      <h1 className="text-2xl font-semibold">Research</h1>
      <p className="mb-6 text-sm text-slate-600 dark:text-slate-400">
        Your research runs. The analyst clarifies the question with you, agrees a plan, works through your documents and
        writes a report in your question&apos;s language that cites the page of every claim.
      </p>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <div className="min-w-0 lg:order-2">
          <NewResearchForm />
        </div>
        <section aria-label="Your research" className="min-w-0 lg:order-1">
          <ResearchList />
        </section>
      </div>
    </div>
  );
}
