// The one fetch stub of component tests: answers by "METHOD /api/path", records every call.
import { vi } from "vitest";
import { getStoredSession } from "@/lib/session-store";
import { jsonResponse } from "@/testing/fixtures";
import type { StationConfig } from "@/types/api";

/** Answers one "METHOD url"; a promise lets a test hold the answer back (races). */
export type ApiHandler = (body: unknown) => Response | Promise<Response>;

export interface RecordedCall {
  method: string;
  url: string;
  body: unknown;
  headers: Headers;
}

/** What /api/config answers unless a test says otherwise: captcha off. */
export const DEFAULT_CONFIG: StationConfig = { station_id: 7, captcha: { provider: "off", site_key: null }, payments_sandbox: false, card_tokenizer: null, test_environment: false };

export const VALIDATE_TOKEN = "GET /api/auth/validate-token";

function storedSessionValidity() {
  const session = getStoredSession();
  return { valid: session !== null, user: session?.user ?? null };
}

/**
 * Stubs fetch: `handlers` answer their "METHOD url" keys, GET /api/config answers `config`,
 * GET /api/auth/validate-token finds the stored session valid (the app asks at start), and
 * any other call fails as a network error would, so an unexpected request shows up.
 */
export function stubApi(handlers: Record<string, ApiHandler> = {}, config: StationConfig = DEFAULT_CONFIG) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn((url: string, init?: RequestInit) => {
    const method = init?.method ?? "GET";
    const body: unknown = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
    calls.push({ method, url, body, headers: new Headers(init?.headers) });
    const key = `${method} ${url}`;
    const handler = handlers[key];
    if (handler) return Promise.resolve(handler(body));
    if (key === "GET /api/config") return Promise.resolve(jsonResponse(config));
    if (key === VALIDATE_TOKEN) return Promise.resolve(jsonResponse(storedSessionValidity()));
    return Promise.reject(new TypeError(`unexpected ${key}`));
  });
  vi.stubGlobal("fetch", fetchMock);

  const callsTo = (key: string) => calls.filter((call) => `${call.method} ${call.url}` === key);
  return {
    fetchMock,
    calls,
    callsTo,
    /** The bodies sent to "METHOD url", in order. */
    bodiesOf: (key: string) => callsTo(key).map((call) => call.body),
    /** The JSON body of the `index`th call to `key`. */
    bodySentTo: (key: string, index = 0): unknown => callsTo(key)[index]?.body,
    /** The Authorization header of the `index`th call to `key`. */
    authorizationSentTo: (key: string, index = 0) => callsTo(key)[index]?.headers.get("Authorization") ?? null,
  };
}
