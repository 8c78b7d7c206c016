// A calendar date as the API sends it ("yyyy-MM-dd", no time zone) read as the spec shows
// dates, DD/MM/YYYY: taken apart as text, so no time zone can move it a day.
export function civilDate(value: string | null | undefined, fallback = ""): string {
  const match = value ? /^(\d{4})-(\d{2})-(\d{2})/.exec(value) : null;
  return match ? `${match[3]}/${match[2]}/${match[1]}` : fallback;
}
