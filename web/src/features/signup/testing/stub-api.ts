import { vi } from "vitest";
import { jsonResponse } from "@/testing/fixtures";
import type { StationConfig } from "@/types/api";

export interface RecordedCall {
  method: string;
  url: string;
  body: unknown;
}

// A promise lets a test hold an answer back (races).
type Handler = (body: unknown) => Response | Promise<Response>;

/**
 * Stubs fetch: `handlers` answer "METHOD url" keys, /api/config answers `config` (captcha
 * off unless told), anything else 404. Every call is recorded with its JSON body.
 */
export function stubApi(
  handlers: Record<string, Handler> = {},
  config: StationConfig = { station_id: 7, captcha: { provider: "off", site_key: null } },
) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn((input: string, init?: RequestInit) => {
    const method = init?.method ?? "GET";
    const body: unknown = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
    calls.push({ method, url: input, body });
    const key = `${method} ${input}`;
    if (key === "GET /api/config") return Promise.resolve(jsonResponse(config));
    const handler = handlers[key];
    return Promise.resolve(handler ? handler(body) : jsonResponse({ error: "Não encontrado" }, 404));
  });
  vi.stubGlobal("fetch", fetchMock);
  return {
    calls,
    /** The bodies sent to "METHOD url", in order. */
    bodiesOf: (key: string) => calls.filter((call) => `${call.method} ${call.url}` === key).map((call) => call.body),
  };
}
