import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

/** One message the workers delivered to the test run's SMTP sink (ops/testkit smtp-sink). */
export interface Mail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
}

function mailboxDir(): string {
  const dir = process.env.FILIA_E2E_MAILBOX;
  if (!dir) throw new Error("FILIA_E2E_MAILBOX is not set: run the browser tests through ops/e2e or ops/test");
  return dir;
}

async function readMailbox(): Promise<Mail[]> {
  const dir = mailboxDir();
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => /^\d+\.json$/.test(name)).sort();
  return Promise.all(names.map(async (name) => JSON.parse(await readFile(join(dir, name), "utf8")) as Mail));
}

/**
 * The latest message to `to` (and whose subject contains `subject`, when given), waiting up
 * to `timeoutMs` for the worker to deliver it.
 */
export async function waitForMail(
  { to, subject }: { to: string; subject?: string },
  timeoutMs = 30_000,
): Promise<Mail> {
  const wanted = to.toLowerCase();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await readMailbox())
      .filter((mail) => mail.to.some((rcpt) => rcpt.toLowerCase().includes(wanted)))
      .filter((mail) => subject === undefined || mail.subject.includes(subject))
      .at(-1);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no e-mail to ${to}${subject ? ` about "${subject}"` : ""} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
