import { defineConfig } from "@playwright/test";

// End-to-end tests run against the real API serving the built app (web/dist), with the demo
// station seeded. Chromium is Debian's package: Playwright's own browser builds cannot be
// downloaded here.
export default defineConfig({
  testDir: "./e2e",
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  reporter: "list",
  use: {
    baseURL: process.env.FILIA_E2E_URL ?? "http://127.0.0.1:8080",
    browserName: "chromium",
    headless: true,
    locale: "pt-BR",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
    trace: "retain-on-failure",
  },
  // Renewals move the sandbox's clock a month on for every process: they run after the rest.
  projects: [
    { name: "main", testIgnore: /subscription-renewals\.spec\.ts/ },
    { name: "renewals", testMatch: /subscription-renewals\.spec\.ts/, dependencies: ["main"] },
  ],
});
