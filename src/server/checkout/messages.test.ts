import { describe, expect, it } from "vitest";
import { CATALOGUES, LANGUAGE_NAMES, LANGUAGES, message } from "./messages";

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe("the checkout's message catalogue", () => {
  const reference = CATALOGUES.en;

  it.each(LANGUAGES.filter((language) => language !== "en"))("%s has every key of English, no other, each with the same placeholders", (language) => {
    const catalogue: Record<string, string> = CATALOGUES[language];
    expect(Object.keys(catalogue).sort()).toEqual(Object.keys(reference).sort());
    for (const [key, text] of Object.entries(reference)) {
      expect(catalogue[key]!.trim(), `${language} ${key}`).not.toBe("");
      expect(placeholders(catalogue[key]!), `${language} ${key}`).toEqual(placeholders(text));
    }
  });

  it("speaks at least English, German, French and Spanish, each named in itself", () => {
    expect(LANGUAGES).toEqual(expect.arrayContaining(["en", "de", "fr", "es"]));
    expect(Object.keys(LANGUAGE_NAMES).sort()).toEqual([...LANGUAGES].sort());
  });

  it("fills placeholders and leaves an unknown one visible rather than blank", () => {
    expect(message("de", "return", { merchant: "Acme" })).toBe("Zurück zu Acme");
    expect(message("en", "return")).toBe("Return to {merchant}");
  });
});
