import { describe, expect, it } from "vitest";
import { appUrl, detectPlatform, webActivityPath } from "@/features/public-pages/deep-link";

describe("detectPlatform", () => {
  it.each([
    ["Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36", 5, "android"],
    ["Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148", 5, "ios"],
    ["Mozilla/5.0 (iPad; CPU OS 15_7 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148", 5, "ios"],
    ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/17.5 Safari/605.1.15", 5, "ios"],
    ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/17.5 Safari/605.1.15", 0, "desktop"],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36", 0, "desktop"],
  ] as const)("reads %s (%i touch points)", (userAgent, touchPoints, platform) => {
    expect(detectPlatform(userAgent, touchPoints)).toBe(platform);
  });
});

describe("addresses", () => {
  it("builds the app address from the scheme and the encoded segments", () => {
    expect(appUrl("filiademo", { resource: "atividades", type: "quiz", actionId: "42" })).toBe(
      "filiademo://atividades/quiz/42",
    );
    expect(appUrl("app", { resource: "a b", type: "x/y", actionId: "1" })).toBe("app://a%20b/x%2Fy/1");
    expect(webActivityPath("42")).toBe("/homepage/atividades/42");
  });
});
