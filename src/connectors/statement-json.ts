// Reading the JSON statements of providers whose statement is what their report API answers: the
// document as a whole, and each item's fields, failing with the item's number (the "line" the
// operator is told) when one is not what the documented format says.
import { StatementFormatError } from './statement.js';

export type JsonObject = Readonly<Record<string, unknown>>;

export function jsonDocument(content: string): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch (error) {
    throw new StatementFormatError(1, `the file is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new StatementFormatError(1, 'the file is not a JSON object');
  return value as JsonObject;
}

/** The array at `field` of the document (missing: none); its items must be objects. */
export function jsonItems(document: JsonObject, field: string, firstNumber: number): { readonly number: number; readonly item: JsonObject }[] {
  const value = document[field];
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new StatementFormatError(1, `${field} is not an array`);
  return value.map((item: unknown, index) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) throw new StatementFormatError(firstNumber + index, 'the item is not an object');
    return { number: firstNumber + index, item: item as JsonObject };
  });
}

export function text(item: JsonObject, field: string, number: number): string {
  const value = item[field];
  if (typeof value !== 'string' || value === '') throw new StatementFormatError(number, `${field} is missing or not a string`);
  return value;
}

/** A non-negative JSON integer of minor units. */
export function minorUnits(item: JsonObject, field: string, number: number): bigint {
  const value = item[field];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new StatementFormatError(number, `${field} is not a whole number of minor units`);
  return BigInt(value);
}

/** An ISO 8601 time from the first of `fields` present. */
export function isoTime(item: JsonObject, fields: readonly string[], number: number): number {
  const field = fields.find((f) => item[f] !== undefined && item[f] !== null);
  const value = field === undefined ? undefined : item[field];
  const ms = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) throw new StatementFormatError(number, `${fields.join(' or ')} is not an ISO 8601 time`);
  return ms;
}
