// The one way the web app talks to the API: JSON in and out under /api, the stored token
// as a bearer header, and failures turned into the toast of the error catalogue
// (spec 000 section 8).
import { getStoredSession } from "@/lib/session-store";

export const API_BASE_PATH = "/api";
export const ERROR_TOAST_TITLE = "Erro";
export const INTERNAL_SERVER_ERROR_TEXT = "Erro interno no servidor";

/** Status given to an ApiError when no answer came back at all. */
export const NO_RESPONSE_STATUS = 0;

/** What an error answer carries besides its toast text. */
export interface ApiErrorDetails {
  /** The parsed JSON answer, for calls whose error says more than a message. */
  body?: unknown;
  /** The answer's Retry-After, in seconds (a 429 tells when to try again). */
  retryAfterSeconds?: number;
}

/** A failed call; `message` is the text its toast shows. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, message: string, details: ApiErrorDetails = {}) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.body = details.body;
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

function firstText(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

/** The catalogue's order: first of `messages`, then `error`, then the first item of an array body. */
export function errorTextFromBody(body: unknown): string {
  if (typeof body === "object" && body !== null && !Array.isArray(body)) {
    const { messages, error } = body as { messages?: unknown; error?: unknown };
    const fromMessages = Array.isArray(messages) ? firstText(messages[0]) : null;
    const text = fromMessages ?? firstText(error);
    if (text !== null) return text;
  }
  if (Array.isArray(body)) {
    const text = firstText(body[0]);
    if (text !== null) return text;
  }
  return INTERNAL_SERVER_ERROR_TEXT;
}

/** The first of a refusal's `messages`, if it has one (forms that else say 'Erro', spec 002 section 8). */
export function firstMessageOf(error: unknown): string | null {
  if (!(error instanceof ApiError) || typeof error.body !== "object" || error.body === null) return null;
  const { messages } = error.body as { messages?: unknown };
  return Array.isArray(messages) ? firstText(messages[0]) : null;
}

export interface Toast {
  title: string;
  text: string;
}

/** The toast for any error thrown while talking to the API. */
export function toastForError(error: unknown): Toast {
  const text = error instanceof ApiError ? error.message : INTERNAL_SERVER_ERROR_TEXT;
  return { title: ERROR_TOAST_TITLE, text };
}

type ParsedBody = { kind: "empty" } | { kind: "json"; value: unknown } | { kind: "invalid" };

async function parseBody(response: Response): Promise<ParsedBody> {
  let text: string;
  try {
    text = await response.text();
  } catch {
    return { kind: "invalid" };
  }
  if (text.trim() === "") return { kind: "empty" };
  try {
    return { kind: "json", value: JSON.parse(text) as unknown };
  } catch {
    return { kind: "invalid" };
  }
}

type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

export interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
  /** A bearer token to send instead of the stored session's (a login-token link's own). */
  token?: string;
  /** A successful answer that is not JSON (a PDF) is handed back as a Blob. */
  file?: boolean;
  /**
   * A 401 is this call's own answer (a wrong password, an account not activated yet), not
   * a sign that the server no longer knows the stored session.
   */
  unauthorizedIsAnswer?: boolean;
}

type SessionRejectedListener = () => void;

const sessionRejectedListeners = new Set<SessionRejectedListener>();

/**
 * Calls `listener` whenever the API answers 401 to a call made with the stored session (or
 * with none): the session has ended on the server (logged out elsewhere, revoked, expired)
 * and the app must forget it. Calls that expect a 401 as their answer never report.
 */
export function onSessionRejected(listener: SessionRejectedListener): () => void {
  sessionRejectedListeners.add(listener);
  return () => {
    sessionRejectedListeners.delete(listener);
  };
}

/**
 * Whether a 401 speaks about the stored session: not for a call that expects it, nor for a
 * token the call brought itself, nor once the session it was sent with was replaced (a late
 * answer to the previous session must not end the new one).
 */
function rejectsStoredSession(options: RequestOptions, sentToken: string | undefined): boolean {
  if (options.unauthorizedIsAnswer || options.token !== undefined) return false;
  return getStoredSession()?.token === sentToken;
}

/** Retry-After in seconds; the HTTP-date form is not used by our API. */
function retryAfterOf(response: Response): number | undefined {
  const value = response.headers.get("Retry-After")?.trim();
  return value && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** A successful answer: its JSON body, and its headers for calls whose answer says more there. */
export interface ApiAnswer<T> {
  body: T;
  headers: Headers;
}

async function send<T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<ApiAnswer<T>> {
  const { body, signal } = options;
  const headers = new Headers({ Accept: "application/json" });
  // A form (a file upload) goes as multipart, its boundary set by the browser.
  const form = body instanceof FormData;
  if (body !== undefined && !form) headers.set("Content-Type", "application/json");
  const token = options.token ?? getStoredSession()?.token;
  if (token) headers.set("Authorization", `Bearer ${token}`);

  let response: Response;
  try {
    response = await fetch(`${API_BASE_PATH}${path}`, {
      method,
      headers,
      body: body === undefined || form ? body : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    // A cancelled request (react-query aborts stale ones) is not a failure to report.
    if (signal?.aborted) throw error;
    throw new ApiError(NO_RESPONSE_STATUS, INTERNAL_SERVER_ERROR_TEXT);
  }

  if (response.status === 401 && rejectsStoredSession(options, token)) {
    sessionRejectedListeners.forEach((listener) => listener());
  }
  if (options.file && response.ok && !response.headers.get("Content-Type")?.includes("json")) {
    return { body: (await response.blob()) as T, headers: response.headers };
  }
  const parsed = await parseBody(response);
  if (!response.ok) {
    const json = parsed.kind === "json" ? parsed.value : undefined;
    const text = parsed.kind === "json" ? errorTextFromBody(json) : INTERNAL_SERVER_ERROR_TEXT;
    throw new ApiError(response.status, text, { body: json, retryAfterSeconds: retryAfterOf(response) });
  }
  if (parsed.kind === "invalid") throw new ApiError(response.status, INTERNAL_SERVER_ERROR_TEXT);
  return { body: (parsed.kind === "json" ? parsed.value : undefined) as T, headers: response.headers };
}

async function request<T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<T> {
  return (await send<T>(method, path, options)).body;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, "body">) => request<T>("GET", path, options),
  /** A GET whose answer's headers matter too (a paged list's X-Total-Count, lib/paging.ts; a file). */
  getAnswer: <T>(path: string, options?: Omit<RequestOptions, "body">) => send<T>("GET", path, options),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, "body">) =>
    request<T>("POST", path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, "body">) =>
    request<T>("PUT", path, { ...options, body }),
  delete: <T>(path: string, options?: Omit<RequestOptions, "body">) => request<T>("DELETE", path, options),
};
