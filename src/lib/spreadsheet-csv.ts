import { stringify, type Stringifier } from "csv-stringify";

/**
 * A streaming CSV writer (with a header row) for exports that people open in spreadsheet programs. A cell
 * starting with = + - @, a tab or a carriage return would be run as a formula there (CSV injection): such a
 * cell is written as text, with a leading quote.
 */
export function spreadsheetSafeCsv(columns: readonly string[]): Stringifier {
  return stringify({ header: true, columns: [...columns], cast: { string: asSpreadsheetText } });
}

export function asSpreadsheetText(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}
