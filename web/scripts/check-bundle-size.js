// Run by `npm run build`, after scripts/compress-assets.js: sums the gzipped JavaScript the
// first page needs when a visitor lands on / (landing page) or /login, as the API ships it
// (the .gz files): the entry chunk with its static imports, the route's own lazy chunk with
// its static imports, and the chunks the page imports on demand as soon as it renders (with
// theirs), which load right after it. Fails the build over the budget.
import { readFileSync, statSync } from "node:fs";

/**
 * The budget of one first page load, in kB (1000 bytes, as Vite prints sizes). The libraries
 * take most of it: react-dom 65.7, react-router 13.1 (its production build, declarative
 * mode; its data router would add 17), react-query 13.8 kB gzipped.
 */
const BUDGET_KB = 100;

/**
 * The 18+ gate, which every page's consent notices load at once for visitors of a station
 * that asks for it (consent-notices.tsx): counted, as the heaviest case.
 */
const AGE_GATE = "src/features/consent/components/age-gate.tsx";

/**
 * Each first page: the chunk its route loads besides the entry (null: in the entry), by the
 * chunk's name (vite.config.ts names the login page's chunk), and the modules it imports on
 * demand when it renders, by their source path (the build manifest's keys of dynamic
 * entries). A module moved or renamed fails the check until it is named here again.
 */
const FIRST_PAGES = [
  // The landing's sections (landing-page.tsx); its heavy sections (public activities, plans,
  // card carousel) load near the viewport, after the first load, and are not counted.
  { name: "landing (/)", chunk: "landing", onRender: [AGE_GATE, "src/features/landing/components/landing-sections.tsx"] },
  { name: "login (/login)", chunk: "login", onRender: [AGE_GATE] },
];

const DIST = new URL("../dist/", import.meta.url);
const manifest = JSON.parse(readFileSync(new URL(".vite/manifest.json", DIST), "utf8"));

/** The chunk files `key` loads at once: its own and those of its static imports, transitively. */
function staticClosure(key, files = new Set()) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the build manifest`);
  if (files.has(chunk.file)) return files;
  files.add(chunk.file);
  for (const imported of chunk.imports ?? []) staticClosure(imported, files);
  return files;
}

/** Bytes on the wire: the precompressed files the API serves (api/src/spa.rs). */
const shippedBytes = (file, encoding) => statSync(new URL(`${file}.${encoding}`, DIST)).size;
const kB = (bytes) => (bytes / 1000).toFixed(2);

/** The .js files of `files`, their gzipped and Brotli bytes. */
function measure(files) {
  const js = [...files].filter((file) => file.endsWith(".js"));
  return {
    count: js.length,
    gzip: js.reduce((sum, file) => sum + shippedBytes(file, "gz"), 0),
    brotli: js.reduce((sum, file) => sum + shippedBytes(file, "br"), 0),
  };
}

const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
let over = false;
for (const page of FIRST_PAGES) {
  const files = staticClosure(entry);
  if (page.chunk) {
    const key = Object.keys(manifest).find((candidate) => manifest[candidate].name === page.chunk);
    if (!key) throw new Error(`no chunk is named ${page.chunk} in the build manifest`);
    staticClosure(key, files);
  }
  const beforeRender = measure(files);
  for (const key of page.onRender) staticClosure(key, files);
  const total = measure(files);
  const verdict = total.gzip <= BUDGET_KB * 1000 ? "ok" : "OVER BUDGET";
  console.log(
    `first load of ${page.name}: ${kB(total.gzip)} kB of gzipped JS in ${total.count} files (budget ${BUDGET_KB} kB) ${verdict}; ` +
      `${kB(beforeRender.gzip)} kB before it renders, ${kB(total.gzip - beforeRender.gzip)} kB on demand at once; ${kB(total.brotli)} kB as brotli`,
  );
  over ||= total.gzip > BUDGET_KB * 1000;
}
if (over) {
  console.error(`The first page load ships more than ${BUDGET_KB} kB of gzipped JavaScript.`);
  process.exit(1);
}
