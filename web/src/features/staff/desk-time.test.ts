import { describe, expect, it } from "vitest";
import { formatInZone, todayInZone, wallClockOf, zonedInstant } from "@/features/staff/desk-time";

describe("appointment times on the station's clock", () => {
  it("writes a wall clock with the zone's offset", () => {
    expect(zonedInstant({ date: "2026-12-03", time: "09:00" }, "America/Sao_Paulo")).toBe("2026-12-03T09:00:00-03:00");
    expect(zonedInstant({ date: "2026-12-03", time: "09:00" }, "America/Manaus")).toBe("2026-12-03T09:00:00-04:00");
    expect(zonedInstant({ date: "2026-12-03", time: "09:00" }, "America/Noronha")).toBe("2026-12-03T09:00:00-02:00");
    expect(zonedInstant({ date: "2026-07-01", time: "23:30" }, "Europe/Lisbon")).toBe("2026-07-01T23:30:00+01:00");
  });

  it("follows a daylight-saving zone across its change", () => {
    // Brazil kept summer time until 2019: 2018-11-04 00:00 did not exist in São Paulo.
    expect(zonedInstant({ date: "2018-12-01", time: "10:00" }, "America/Sao_Paulo")).toBe("2018-12-01T10:00:00-02:00");
    expect(zonedInstant({ date: "2018-10-01", time: "10:00" }, "America/Sao_Paulo")).toBe("2018-10-01T10:00:00-03:00");
  });

  it("refuses what is not a date or a time", () => {
    expect(zonedInstant({ date: "", time: "09:00" }, "America/Sao_Paulo")).toBeNull();
    expect(zonedInstant({ date: "2026-02-30", time: "09:00" }, "America/Sao_Paulo")).toBeNull();
    expect(zonedInstant({ date: "2026-12-03", time: "24:00" }, "America/Sao_Paulo")).toBeNull();
  });

  it("reads an instant back on the zone's clock", () => {
    expect(wallClockOf("2026-12-03T12:00:00Z", "America/Sao_Paulo")).toEqual({ date: "2026-12-03", time: "09:00" });
    expect(formatInZone("2026-12-03T12:00:00Z", "America/Rio_Branco")).toBe("03/12/2026 07:00");
    expect(formatInZone(null, "America/Sao_Paulo")).toBe("—");
    expect(todayInZone("America/Sao_Paulo", new Date("2026-12-03T02:00:00Z"))).toBe("2026-12-02");
  });
});
