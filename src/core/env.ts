// Parsing of single environment settings, shared by every module that reads its own part of the
// configuration (config.ts, connectors, the simulated bank, webhooks), so each rule exists once.
export type Env = Readonly<Record<string, string | undefined>>;

/** An integer in [min, max], or the fallback when unset or empty. */
export function envInt(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`config: ${name} must be an integer in [${min}, ${max}], got "${raw}"`);
  }
  return value;
}

/** true/false (also 1/0, yes/no, any case), or the fallback when unset or empty. */
export function envBool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
  throw new Error(`config: ${name} must be true or false, got "${raw}"`);
}

/** The setting's value; `why` completes the message when it is unset or empty. */
export function envRequired(env: Env, name: string, why: string): string {
  const value = env[name];
  if (value === undefined || value === '') throw new Error(`config: ${name} is required ${why}`);
  return value;
}

/** An http(s) URL without trailing slashes. */
export function envHttpUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`config: ${name} must be an http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`config: ${name} must be an http(s) URL, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}
