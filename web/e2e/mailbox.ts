import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
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

/** Every message delivered so far to `to` (and whose subject contains `subject`, when given). */
export async function mailsTo({ to, subject }: { to: string; subject?: string }): Promise<Mail[]> {
  const wanted = to.toLowerCase();
  return (await readMailbox())
    .filter((mail) => mail.to.some((rcpt) => rcpt.toLowerCase().includes(wanted)))
    .filter((mail) => subject === undefined || mail.subject.includes(subject));
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
    const found = (await mailsTo({ to: wanted, subject })).at(-1);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no e-mail to ${to}${subject ? ` about "${subject}"` : ""} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** While this file is in the mailbox the SMTP sink refuses connections (ops/testkit smtp-sink). */
const UNREACHABLE_FLAG = ".unreachable";

/** The sink's port, from the SMTP URL the platform was started with. */
function smtpPort(): number {
  const url = process.env.FILIA_SMTP_URL;
  const port = url ? Number(new URL(url).port) : NaN;
  if (!Number.isInteger(port) || port <= 0) throw new Error("FILIA_SMTP_URL names no port: run through ops/e2e");
  return port;
}

/** Whether the sink greets a connection; it is left with QUIT so the sink closes it cleanly. */
function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("data", () => {
      socket.end("QUIT\r\n");
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

async function waitUntilAccepting(wanted: boolean, timeoutMs = 5_000): Promise<void> {
  const port = smtpPort();
  const deadline = Date.now() + timeoutMs;
  while ((await acceptsConnections(port)) !== wanted) {
    if (Date.now() > deadline) {
      throw new Error(`the SMTP sink is still ${wanted ? "down" : "up"} after ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Takes the SMTP server down: from now on the workers' connections are refused. */
export async function smtpUnreachable(): Promise<void> {
  await mkdir(mailboxDir(), { recursive: true });
  await writeFile(join(mailboxDir(), UNREACHABLE_FLAG), "");
  await waitUntilAccepting(false);
}

/** Brings the SMTP server back on the same port. */
export async function smtpRestored(): Promise<void> {
  await rm(join(mailboxDir(), UNREACHABLE_FLAG), { force: true });
  await waitUntilAccepting(true);
}
