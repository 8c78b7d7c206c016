import { describe, expect, it } from "vitest";
import { readableTextColor } from "@/features/stations/branding";

describe("readableTextColor", () => {
  it("puts white on dark colours and dark text on light ones", () => {
    expect(readableTextColor("#0E7C66")).toBe("#ffffff");
    expect(readableTextColor("#F2A541")).toBe("#1a1d21");
  });

  it("falls back to white for a colour it cannot read", () => {
    expect(readableTextColor("teal")).toBe("#ffffff");
  });
});
