"use client";

import { TableWrap } from "@/components/ui/table-wrap";
import { useState } from "react";
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { Stats } from "./types";

/**
 * Daily payment count (bars) and the confirmed volume of one currency (line). The chart draws volumes as
 * numbers; the exact decimal strings are in the table under it, which is also what screen readers get.
 */
export function DailyChart({ stats }: { stats: Stats }) {
  const currencies = stats.volume.map((item) => item.currency);
  const [currency, setCurrency] = useState(currencies[0] ?? "");
  const selected = currencies.includes(currency) ? currency : (currencies[0] ?? "");
  const rows = stats.daily.map((day) => {
    const amount = day.volume.find((item) => item.currency === selected)?.amount ?? "0";
    return { date: day.date.slice(5), count: day.count, volume: Number(amount), exact: amount };
  });

  return (
    <section className="card" aria-labelledby="daily-heading">
      <div className="page-header" style={{ marginBottom: "0.5rem" }}>
        <h2 id="daily-heading">Daily payments</h2>
        {currencies.length > 1 ? (
          <div className="field">
            <label htmlFor="chart-currency">Volume currency</label>
            <select id="chart-currency" value={selected} onChange={(event) => setCurrency(event.target.value)}>
              {currencies.map((code) => (
                <option key={code}>{code}</option>
              ))}
            </select>
          </div>
        ) : null}
      </div>
      <div className="chart" role="figure" aria-label="Chart of the daily figures; they are also in the table below">
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={rows} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#d9dce1" />
            <XAxis dataKey="date" tick={{ fontSize: 12 }} />
            <YAxis yAxisId="count" allowDecimals={false} tick={{ fontSize: 12 }} />
            {selected ? <YAxis yAxisId="volume" orientation="right" tick={{ fontSize: 12 }} /> : null}
            <Tooltip formatter={(value, name, item) => (name === "volume" ? `${item.payload.exact} ${selected}` : value)} />
            <Legend />
            <Bar yAxisId="count" dataKey="count" name="Payments" fill="#3b4fd8" isAnimationActive={false} />
            {selected ? <Line yAxisId="volume" dataKey="volume" name={`Confirmed ${selected}`} stroke="#067647" dot={false} isAnimationActive={false} /> : null}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      <details>
        <summary>Show the daily figures as a table</summary>
        <TableWrap label="Daily figures">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                <th scope="col" className="num">Payments</th>
                <th scope="col">Confirmed volume</th>
              </tr>
            </thead>
            <tbody>
              {stats.daily.map((day) => (
                <tr key={day.date}>
                  <td>{day.date}</td>
                  <td className="num">{day.count}</td>
                  <td>{day.volume.map((item) => `${item.amount} ${item.currency}`).join(", ") || "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      </details>
    </section>
  );
}
