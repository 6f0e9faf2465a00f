/**
 * Go's time.LoadLocation as an oracle of which IANA zone names exist, answered from the ICU data
 * Node ships (`Intl`). Go looks zone files up by exact name; ICU matches case-insensitively, so a
 * name differing only in case from its canonical spelling is refused as Go would.
 */

/** The canonical zone names, read on first use: ICU's zone data stays unread until a zone is asked. */
let canonical: ReadonlySet<string> | undefined;

function resolve(name: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** `undefined` when Go would load the zone, else Go's error text (`unknown time zone X`). */
export function loadLocationError(name: string): string | undefined {
  if (name === '' || name === 'UTC' || name === 'Local') return undefined;
  canonical ??= new Set(Intl.supportedValuesOf('timeZone'));
  if (canonical.has(name)) return undefined;
  const unknown = `unknown time zone ${name}`;
  // ICU also takes offsets (`+05:00`) that are not zone names.
  if (/^[+-]/.test(name) || name.includes(':')) return unknown;
  const resolved = resolve(name);
  if (resolved === undefined) return unknown;
  if (resolved !== name && resolved.toLowerCase() === name.toLowerCase()) return unknown;
  return undefined;
}
