// Times in human output read relative to now ("in 1h59m", "3 min ago"); JSON keeps ISO 8601.

function span(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h${String(m % 60).padStart(2, "0")}m`;
  return `${Math.floor(h / 24)} days`;
}

const ISO = /\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z\b/;

/**
 * Every ISO time in a sentence (a lock's text, a liveness signal's detail) as a relative one:
 * "valid until <ISO>" reads "valid for another 1h59m", any other "3 min ago" or "in 5 min".
 */
export function humanTimes(text: string, now = Date.now()): string {
  return text
    .replace(new RegExp(`until (${ISO.source})`, "g"), (_, iso: string) => {
      const rel = relativeTime(iso, now);
      return rel.startsWith("in ") ? `for another ${rel.slice(3)}` : `until ${rel}`;
    })
    .replace(new RegExp(ISO.source, "g"), (iso) => relativeTime(iso, now));
}

/** "in 1h59m", "3 min ago", "now"; "never" for no time; the text itself when it is not a time. */
export function relativeTime(iso: string | null, now = Date.now()): string {
  if (iso === null) return "never";
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const ms = at - now;
  if (Math.abs(ms) < 1000) return "now";
  return ms > 0 ? `in ${span(ms)}` : `${span(-ms)} ago`;
}
