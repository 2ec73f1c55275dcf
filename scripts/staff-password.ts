import { createInterface } from "node:readline/promises";
import { Writable } from "node:stream";

export interface PasswordSources {
  /** `--password`, if given. */
  flag: string | undefined;
  /** `STAFF_PASSWORD`. */
  env: string | undefined;
  /** Where a person types; prompted only when it is a terminal. */
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  /** stderr: prompts and warnings, never the password. */
  messages: NodeJS.WritableStream;
}

export const ARGV_WARNING =
  "Warning: --password is visible to other users of this machine (ps, /proc) while this runs, and stays in your " +
  "shell history and npm's output. Prefer STAFF_PASSWORD=… or, in a terminal, the prompt.\n";

/**
 * The new staff user's password: `STAFF_PASSWORD`, else typed twice at a prompt that does not echo (stdin a
 * terminal). `--password` still works, with a warning. Undefined when there is none (or the two entries differ).
 */
export async function readStaffPassword(sources: PasswordSources): Promise<string | undefined> {
  if (sources.flag !== undefined) {
    sources.messages.write(ARGV_WARNING);
    return sources.flag;
  }
  if (sources.env) return sources.env;
  if (!sources.input.isTTY) return undefined;
  const [first, again] = await promptHidden(sources, ["Password (not shown): ", "Repeat it: "]);
  if (first === again) return first;
  sources.messages.write("The two entries differ.\n");
  return undefined;
}

async function promptHidden({ input, messages }: PasswordSources, questions: string[]): Promise<string[]> {
  // readline echoes what is typed to its output: give it one that discards everything (it also puts the
  // terminal in raw mode, so the terminal does not echo either) and write the prompts ourselves.
  const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
  const lines = createInterface({ input, output: discard, terminal: true });
  lines.on("SIGINT", () => {
    messages.write("\n");
    process.exit(130);
  });
  try {
    const answers: string[] = [];
    for (const question of questions) {
      const answer = lines.question(""); // listening before the prompt shows: no early keystroke is lost
      messages.write(question);
      answers.push(await answer);
      messages.write("\n");
    }
    return answers;
  } finally {
    lines.close();
  }
}
