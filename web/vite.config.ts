import path from "node:path";
import react from "@vitejs/plugin-react";
import { defaultClientConditions } from "vite";
import { defineConfig } from "vitest/config";

// The Rust API serves /api and the health probes; in development Vite forwards them to it.
const API_ORIGIN = "http://127.0.0.1:8080";

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: { "@": path.resolve(import.meta.dirname, "src") },
    // Vite's own client defaults, so the browser build is unchanged. Stated here because
    // Vitest otherwise drops "module" and loads react-router's CommonJS build, where
    // "react-router" and "react-router/dom" hold separate router contexts.
    conditions: [...defaultClientConditions],
  },
  build: {
    // The manifest tells scripts/check-bundle-size.js which chunks a first page load needs.
    manifest: true,
    rollupOptions: {
      output: {
        // The libraries in one chunk: every page needs them, and they stay cached across
        // releases that change only our code. Our screens are split per route (lazy).
        manualChunks: (id: string) => (id.includes("node_modules") ? "vendor" : undefined),
      },
    },
  },
  server: {
    proxy: {
      "/api": API_ORIGIN,
      "/healthz": API_ORIGIN,
      "/readyz": API_ORIGIN,
    },
  },
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}"],
    setupFiles: ["src/testing/setup-tests.ts"],
  },
});
