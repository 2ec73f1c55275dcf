/**
 * A LIKE/ILIKE pattern matching `text` anywhere: `%`, `_` and `\` in what a user typed match themselves, not
 * "anything" (`\` is PostgreSQL's default LIKE escape). Three or more characters let a pg_trgm GIN index
 * serve it (docs/dashboard.md, "Search").
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
