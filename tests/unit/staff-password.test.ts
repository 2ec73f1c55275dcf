import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { ARGV_WARNING, readStaffPassword, type PasswordSources } from "../../scripts/staff-password";

const SECRET = "correct horse battery staple";

/**
 * A terminal stand-in: stdin marked as a TTY, and a stderr that records what the person sees and, like a
 * person, types the next answer when a prompt appears.
 */
function terminal(answers: string[] = [], isTTY = true) {
  const input = Object.assign(new PassThrough(), { isTTY });
  let seen = "";
  const messages = new Writable({
    write(chunk, _encoding, done) {
      seen += String(chunk);
      if (/: $/.test(String(chunk)) && answers.length > 0) input.write(`${answers.shift()}\n`);
      done();
    },
  });
  return { input, messages, seen: () => seen };
}

const sources = (overrides: Partial<PasswordSources>, term = terminal()): PasswordSources => ({
  flag: undefined,
  env: undefined,
  input: term.input,
  messages: term.messages,
  ...overrides,
});

describe("npm run staff:create: where the password comes from", () => {
  it("takes STAFF_PASSWORD without prompting or printing anything", async () => {
    const term = terminal();
    expect(await readStaffPassword(sources({ env: SECRET }, term))).toBe(SECRET);
    expect(term.seen()).toBe("");
  });

  it("in a terminal, prompts twice and shows neither the prompt's answer nor the password", async () => {
    const term = terminal([SECRET, SECRET]);
    expect(await readStaffPassword(sources({}, term))).toBe(SECRET);
    expect(term.seen()).toMatch(/Password \(not shown\): [\s\S]*Repeat it: /);
    expect(term.seen()).not.toContain(SECRET);
  });

  it("refuses two different entries", async () => {
    const term = terminal([SECRET, `${SECRET}!`]);
    expect(await readStaffPassword(sources({}, term))).toBeUndefined();
    expect(term.seen()).toContain("The two entries differ.");
  });

  it("does not prompt when stdin is not a terminal (a pipe, CI)", async () => {
    const term = terminal([SECRET], false);
    expect(await readStaffPassword(sources({}, term))).toBeUndefined();
    expect(term.seen()).toBe("");
  });

  it("still takes --password, warning that other users can see it", async () => {
    const term = terminal();
    expect(await readStaffPassword(sources({ flag: SECRET, env: "from the environment" }, term))).toBe(SECRET);
    expect(term.seen()).toBe(ARGV_WARNING);
    expect(ARGV_WARNING).toMatch(/visible to other users/);
  });
});
