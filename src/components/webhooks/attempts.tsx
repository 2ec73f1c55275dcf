import { formatDateTime } from "@/components/ui/format";
import type { AttemptView } from "./types";
import { statusLabel } from "@/lib/statuses";

/** Every attempt of a delivery, oldest first, with the receiver's answer. */
export function Attempts({ attempts }: { attempts: AttemptView[] }) {
  if (attempts.length === 0) return <p className="muted">No attempt has been made yet.</p>;
  return (
    <ol className="form" style={{ paddingLeft: "1.2rem" }}>
      {attempts.map((attempt, index) => (
        <li key={index}>
          <strong>{formatDateTime(attempt.at)}</strong> · {statusLabel("attemptTrigger", attempt.trigger)} ·{" "}
          {attempt.statusCode ? `HTTP ${attempt.statusCode}` : `no answer (${attempt.errorClass ? statusLabel("errorClass", attempt.errorClass) : "error"})`}
          {attempt.latencyMs !== null ? ` · ${attempt.latencyMs} ms` : ""}
          {attempt.error ? <p className="field-error">{attempt.error}</p> : null}
          {attempt.responseHeaders || attempt.responseBody ? (
            <details>
              <summary>Response</summary>
              {attempt.responseHeaders ? (
                <pre className="code">
                  {Object.entries(attempt.responseHeaders)
                    .map(([name, value]) => `${name}: ${value}`)
                    .join("\n")}
                </pre>
              ) : null}
              {attempt.responseBody ? <pre className="code">{attempt.responseBody}</pre> : <p className="muted">Empty body.</p>}
            </details>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
