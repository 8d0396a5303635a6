"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { ReviewTimesPerDay } from "./api";
import { ChartFigure } from "./ChartFigure";
import {
  compactNumber,
  durationUnit,
  formatCount,
  formatDuration,
  longDay,
  plural,
  shortDay,
  sum,
  TICK,
} from "./format";

/** Median review latency and clarification turnaround per day, on an axis in the unit that fits them. */
export function ReviewTimesChart({ days }: { days: ReviewTimesPerDay[] }) {
  const reviews = sum(days, (d) => d.reviews);
  const clarifications = sum(days, (d) => d.clarifications);
  const unit = durationUnit(Math.max(0, ...days.flatMap((d) => [d.reviewMedianMs ?? 0, d.clarificationMedianMs ?? 0])));
  const scaled = days.map((d) => ({
    day: d.day,
    review: d.reviewMedianMs === null ? null : d.reviewMedianMs / unit.ms,
    clarification: d.clarificationMedianMs === null ? null : d.clarificationMedianMs / unit.ms,
  }));
  return (
    <ChartFigure
      id="chart-review-times"
      testId="review-times-chart"
      title="Review latency and clarification turnaround"
      summary={`Daily medians (UTC) over ${plural(reviews, "first decision")} and ${plural(clarifications, "answered question")}`}
      empty={reviews + clarifications === 0}
      emptyText={`No reviews or answered questions in these ${days.length} days.`}
      chartLabel={`Line chart of the daily median time from submission to decision and from question to answer, over ${days.length} days`}
      total={reviews + clarifications}
      rows={days}
      rowKey={(d) => d.day}
      columns={[
        { label: "Day", value: (d) => longDay(d.day) },
        { label: "Median review latency", value: (d) => formatDuration(d.reviewMedianMs) },
        { label: "Decisions", value: (d) => formatCount(d.reviews) },
        { label: "Median clarification turnaround", value: (d) => formatDuration(d.clarificationMedianMs) },
        { label: "Answers", value: (d) => formatCount(d.clarifications) },
      ]}
    >
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={scaled} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#cbd5e1" />
          <XAxis dataKey="day" tickFormatter={shortDay} tick={TICK} minTickGap={16} />
          <YAxis tick={TICK} width={64} tickFormatter={(v: number) => `${compactNumber(v)} ${unit.label}`} />
          <Tooltip
            labelFormatter={(day) => shortDay(String(day))}
            formatter={(value) => formatDuration(typeof value === "number" ? value * unit.ms : null)}
          />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Line
            dataKey="review"
            name="Submission → decision"
            stroke="#2f6fed"
            strokeWidth={2}
            dot={{ r: 2 }}
            isAnimationActive={false}
          />
          <Line
            dataKey="clarification"
            name="Question → answer"
            stroke="#f59e0b"
            strokeWidth={2}
            dot={{ r: 2 }}
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}
