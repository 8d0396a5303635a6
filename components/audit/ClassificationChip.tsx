import { Chip, type Tone } from "@/components/runs/Badges";
import type { DataClassification } from "./phi-api";

const TONES: Record<DataClassification, Tone> = {
  public: "grey",
  confidential: "blue",
  restricted: "amber",
  phi: "red",
};
const LABELS: Record<DataClassification, string> = {
  public: "public",
  confidential: "confidential",
  restricted: "restricted",
  phi: "PHI",
};

/** How sensitive the data was, colour-coded and spelled out (never colour alone). */
export function ClassificationChip({ value, prefix }: { value: DataClassification | null; prefix?: string }) {
  if (!value) return <Chip title="No event of it carried a class">{prefix ? `${prefix}: ` : ""}unclassified</Chip>;
  return (
    <Chip tone={TONES[value]}>
      {prefix ? `${prefix}: ` : ""}
      {LABELS[value]}
    </Chip>
  );
}
