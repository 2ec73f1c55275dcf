"use client";

import { TableWrap } from "@/components/ui/table-wrap";
import { formatAxisNumber, formatMoney } from "@/lib/format-money";
import { useState } from "react";
import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { Stats } from "./types";

const AXIS_TICK = { fontSize: 12 };
const X_LABEL = { value: "Day (UTC)", position: "insideBottom", offset: -10, fontSize: 12 } as const;
const yLabel = (value: string) => ({ value, angle: -90, position: "insideLeft", offset: 10, fontSize: 12, style: { textAnchor: "middle" } }) as const;
const MARGIN = { top: 8, right: 12, bottom: 20, left: 8 };

/**
 * Two charts over the same days, each with its own labelled axes: payments per day, and the confirmed volume
 * of one currency per day (never summed across currencies). Charts draw numbers; the exact decimal strings
 * are in the tooltip and in the table under them, which is also what screen readers get.
 */
export function DailyChart({ stats, basisLabel }: { stats: Stats; basisLabel: string }) {
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
        <div>
          <h2 id="daily-heading">Daily payments</h2>
          <p className="muted">Days by {basisLabel}.</p>
        </div>
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
      <div className="chart-pair">
        <div className="chart" role="figure" aria-label="Chart of payments per day; the figures are also in the table below">
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={rows} margin={MARGIN}>
              <CartesianGrid strokeDasharray="3 3" stroke="#d9dce1" />
              <XAxis dataKey="date" tick={AXIS_TICK} label={X_LABEL} />
              <YAxis allowDecimals={false} tick={AXIS_TICK} label={yLabel("Payments")} />
              <Tooltip />
              <Bar dataKey="count" name="Payments" fill="#3b4fd8" isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </div>
        {selected ? (
          <div className="chart" role="figure" aria-label={`Chart of the confirmed ${selected} volume per day; the figures are also in the table below`}>
            <ResponsiveContainer width="100%" height="100%">
              <LineChart data={rows} margin={MARGIN}>
                <CartesianGrid strokeDasharray="3 3" stroke="#d9dce1" />
                <XAxis dataKey="date" tick={AXIS_TICK} label={X_LABEL} />
                <YAxis tick={AXIS_TICK} tickFormatter={(value: number) => formatAxisNumber(value)} label={yLabel(`Confirmed ${selected}`)} />
                <Tooltip formatter={(_value, _name, item) => formatMoney(item.payload.exact, selected)} />
                <Line dataKey="volume" name={`Confirmed ${selected}`} stroke="#067647" dot={false} isAnimationActive={false} />
              </LineChart>
            </ResponsiveContainer>
          </div>
        ) : null}
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
                  <td>{day.volume.map((item) => formatMoney(item.amount, item.currency)).join(", ") || "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      </details>
    </section>
  );
}
