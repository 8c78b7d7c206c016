import path from "node:path";
import react from "@vitejs/plugin-react";
import { defaultClientConditions } from "vite";
import { defineConfig } from "vitest/config";

// The Rust API serves /api and the health probes; in development Vite forwards them to it.
const API_ORIGIN = "http://127.0.0.1:8080";

/**
 * react-router 7 exports only its development build, whose warnings (ENABLE_DEV_WARNINGS)
 * then ship to production (remix-run/react-router#14102). The package carries the production
 * build beside it, the same code with them off and 0.5 kB lighter gzipped: the browser build
 * takes it; tests and the dev server keep the warnings.
 */
const REACT_ROUTER_PRODUCTION = {
  find: /^react-router$/,
  replacement: path.resolve(import.meta.dirname, "node_modules/react-router/dist/production/index.mjs"),
};

/**
 * Tests of plain modules (`*.test.ts`) run in Node, without a DOM to set up for each file;
 * components' tests (`*.test.tsx`) and these, which read the session from localStorage,
 * run in jsdom.
 */
const BROWSER_GLOBALS_TESTS = ["src/lib/api-client.test.ts", "src/features/feed/api/upload-video.test.ts"];

/**
 * Component tests run in VM contexts inside one long-lived worker ("vmThreads"): jsdom and
 * the libraries load once instead of once per file, which was most of the run's set-up
 * time. These files fail there and keep a worker of their own per file: they replace a
 * module (vi.mock) that the screens they render import lazily, test the lazy loading
 * itself, or (the Mural's post box) pick video files, which the VM contexts did not
 * always hand over intact. A new test that mocks a module goes here.
 */
const OWN_WORKER_TESTS = [
  "src/app/lazy-routes.test.tsx",
  "src/features/accounts/components/login-page.test.tsx",
  "src/features/accounts/components/login-token-page.test.tsx",
  "src/features/activities/components/activity-page.test.tsx",
  "src/features/activities/components/quiz-runner-page.test.tsx",
  "src/features/activities/components/survey-page.test.tsx",
  "src/features/consent/components/consent-notices.test.tsx",
  "src/features/feed/components/feed-page.test.tsx",
  "src/features/feed/components/post-box.test.tsx",
  "src/features/public-pages/components/deep-link-page.test.tsx",
  "src/features/public-pages/components/share-redirect-page.test.tsx",
];

export default defineConfig(({ command }) => ({
  plugins: [react()],
  resolve: {
    alias: [
      { find: "@", replacement: path.resolve(import.meta.dirname, "src") },
      ...(command === "build" ? [REACT_ROUTER_PRODUCTION] : []),
    ],
    // Vite's own client defaults, so the browser build is unchanged. Stated here because
    // Vitest otherwise drops "module" and loads react-router's CommonJS build, where
    // "react-router" and "react-router/dom" hold separate router contexts.
    conditions: [...defaultClientConditions],
  },
  build: {
    // The manifest tells scripts/check-bundle-size.js which chunks a first page load needs.
    manifest: true,
    // Fonts stay files: the Content-Security-Policy (api/src/lib.rs) allows fonts from
    // the app's own origin only, so an inlined data: font would be refused.
    assetsInlineLimit: (file: string) => (/\.(woff2?|ttf|otf)$/.test(file) ? false : undefined),
    // Every browser the app supports knows <link rel="modulepreload">.
    modulePreload: { polyfill: false },
    rollupOptions: {
      output: {
        // Chunks are named by their hash alone: the entry lists every lazy chunk's files for
        // preloading, and the names would cost the first load bytes of every page (the
        // manifest still maps each chunk to its source for tools).
        chunkFileNames: "assets/[hash].js",
        // Style sheets likewise, for the same reason (the entry lists them beside the chunks);
        // fonts and images keep their names.
        assetFileNames: (asset) =>
          asset.names.some((name) => name.endsWith(".css")) ? "assets/[hash][extname]" : "assets/[name]-[hash][extname]",
        codeSplitting: {
          groups: [
            // The libraries in one chunk: every page needs them, and they stay cached across
            // releases that change only our code. The Lottie player is left to its own lazy
            // chunk: only a feedback dialog with an animation needs it; so are the QR encoder
            // and the HTML sanitiser, which only the voucher dialog and the validator load.
            { name: "vendor", test: /node_modules[\\/](?!(?:lottie-web|uqr|dompurify)[\\/])/, priority: 2 },
            // Our code every page loads, in one chunk rather than a handful of small shared
            // ones (each costs a request and compresses worse). Screens are split per route.
            { name: "shell", tags: ["$initial"], priority: 1 },
            // The login page with the form kit it needs, in one chunk: the first page of most
            // visits. Sign-up and recovery load it too, for the same fields and validators.
            { name: "login", test: /features[\\/]accounts[\\/]components[\\/]login-page/ },
            // The visitors' landing page at / with what it needs before its sections load.
            {
              name: "landing",
              // With the picture that offers its widths (components/responsive-image), which the
              // sections, the about page and the news share: a chunk of its own would cost the
              // landing's first load a request and worse compression for a few hundred bytes.
              test: /features[\\/]landing[\\/](index|links|api[\\/]get-landing|components[\\/](landing-page|near-viewport))|components[\\/]responsive-image/,
            },
          ],
        },
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
    projects: [
      {
        extends: true,
        test: {
          name: "node",
          environment: "node",
          include: ["src/**/*.test.ts"],
          exclude: BROWSER_GLOBALS_TESTS,
          setupFiles: ["src/testing/setup-node-tests.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "dom",
          environment: "jsdom",
          pool: "vmThreads",
          include: ["src/**/*.test.tsx", ...BROWSER_GLOBALS_TESTS],
          exclude: OWN_WORKER_TESTS,
          setupFiles: ["src/testing/setup-tests.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "dom-own-worker",
          environment: "jsdom",
          include: OWN_WORKER_TESTS,
          setupFiles: ["src/testing/setup-tests.ts"],
        },
      },
    ],
  },
}));
