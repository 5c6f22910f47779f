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

/** "in 1h59m", "3 min ago", "now"; "never" for no time; the text itself when it is not a time. */
export function relativeTime(iso: string | null, now = Date.now()): string {
  if (iso === null) return "never";
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const ms = at - now;
  if (Math.abs(ms) < 1000) return "now";
  return ms > 0 ? `in ${span(ms)}` : `${span(-ms)} ago`;
}
