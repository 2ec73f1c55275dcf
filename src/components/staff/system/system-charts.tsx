"use client";

import { Bar, BarChart, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { SystemView } from "./types";

const OUTCOME_COLOURS: Record<string, string> = {
  ok: "#067647",
  http: "#b54708",
  timeout: "#b42318",
  connect: "#7a2e0e",
  dns: "#6941c6",
  tls: "#344054",
  blocked: "#667085",
};

const time = (iso: string) => iso.slice(11, 16);

/** Queue depth (due, not yet sent) at each minute mark, and the p99 due → sent lag of that minute's attempts. */
export function QueueChart({ minutes }: { minutes: SystemView["minutes"] }) {
  const rows = minutes.map((minute) => ({ time: time(minute.at), due: minute.due, lag: minute.lagP99Ms }));
  return (
    <div className="chart" role="figure" aria-label="Chart of the queue depth and the lag per minute; the figures are also in the table below">
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={rows} margin={{ top: 8, right: 0, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#d9dce1" />
          <XAxis dataKey="time" tick={{ fontSize: 12 }} minTickGap={24} />
          <YAxis yAxisId="due" allowDecimals={false} tick={{ fontSize: 12 }} width={40} />
          <YAxis yAxisId="lag" orientation="right" tick={{ fontSize: 12 }} width={48} />
          <Tooltip />
          <Legend />
          <Bar yAxisId="due" dataKey="due" name="Due, not sent" fill="#3b4fd8" isAnimationActive={false} />
          <Line yAxisId="lag" dataKey="lag" name="Lag p99 (ms)" stroke="#b42318" dot={{ r: 2 }} connectNulls={false} isAnimationActive={false} />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}

/** Attempts sent each minute, stacked by outcome. */
export function AttemptsChart({ minutes }: { minutes: SystemView["minutes"] }) {
  const outcomes = [...new Set(minutes.flatMap((minute) => Object.keys(minute.attempts)))].sort((a, b) => (a === "ok" ? -1 : b === "ok" ? 1 : a.localeCompare(b)));
  const rows = minutes.map((minute) => ({ time: time(minute.at), ...minute.attempts }));
  return (
    <div className="chart" role="figure" aria-label="Chart of the attempts per minute by outcome; the figures are also in the table below">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} margin={{ top: 8, right: 0, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#d9dce1" />
          <XAxis dataKey="time" tick={{ fontSize: 12 }} minTickGap={24} />
          <YAxis allowDecimals={false} tick={{ fontSize: 12 }} width={40} />
          <Tooltip />
          <Legend />
          {outcomes.map((outcome) => (
            <Bar key={outcome} dataKey={outcome} name={outcome === "ok" ? "delivered" : outcome} stackId="attempts" fill={OUTCOME_COLOURS[outcome] ?? "#98a2b3"} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
