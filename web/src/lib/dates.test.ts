import { describe, expect, it } from "vitest";
import { formatCivilDate, formatDate, formatDateTime } from "@/lib/dates";

// The expected texts are built from local Date parts, so the tests hold in any time zone.
const ISO = "2026-11-21T12:34:56Z";
const local = new Date(ISO);
const pad = (value: number) => String(value).padStart(2, "0");
const localDate = `${pad(local.getDate())}/${pad(local.getMonth() + 1)}/${local.getFullYear()}`;
const localTime = `${pad(local.getHours())}:${pad(local.getMinutes())}:${pad(local.getSeconds())}`;

describe("formatDate", () => {
  it("shows a timestamp as DD/MM/AAAA", () => {
    expect(formatDate(ISO)).toBe(localDate);
  });

  it("answers the fallback, empty by default, for an absent or broken timestamp", () => {
    expect(formatDate(null)).toBe("");
    expect(formatDate(undefined)).toBe("");
    expect(formatDate("amanhã")).toBe("");
    expect(formatDate("", "—")).toBe("—");
  });
});

describe("formatDateTime", () => {
  it("shows a timestamp as DD/MM/AAAA HH:MM:SS, without a comma", () => {
    expect(formatDateTime(ISO)).toBe(`${localDate} ${localTime}`);
  });

  it("answers '—', or the fallback, for an absent or broken timestamp", () => {
    expect(formatDateTime(null)).toBe("—");
    expect(formatDateTime(undefined)).toBe("—");
    expect(formatDateTime("ontem")).toBe("—");
    expect(formatDateTime(null, "Nunca")).toBe("Nunca");
  });
});

describe("formatCivilDate", () => {
  it("shows a civil date as DD/MM/AAAA, in any time zone", () => {
    expect(formatCivilDate("2025-03-14")).toBe("14/03/2025");
  });

  it("answers '—', or the fallback, for anything else", () => {
    expect(formatCivilDate(null)).toBe("—");
    expect(formatCivilDate("2025-03-14T12:00:00Z")).toBe("—");
    expect(formatCivilDate("amanhã", "amanhã")).toBe("amanhã");
  });
});
