import { vi } from "vitest";

/** "METHOD /api/path" → the answer to give; a function makes a fresh Response per call. */
export type ApiAnswers = Record<string, () => Response>;

/**
 * Stubs fetch with an answer per method and path; any other call fails the way a network
 * error would, so an unexpected request shows up as an error toast.
 */
export function stubApi(answers: ApiAnswers) {
  const fetchMock = vi.fn((url: string, init?: RequestInit) => {
    const answer = answers[`${init?.method ?? "GET"} ${url}`];
    return answer ? Promise.resolve(answer()) : Promise.reject(new TypeError(`unexpected ${url}`));
  });
  vi.stubGlobal("fetch", fetchMock);

  const callsTo = (key: string) =>
    fetchMock.mock.calls.filter(([url, init]) => `${init?.method ?? "GET"} ${url}` === key);

  return {
    fetchMock,
    callsTo,
    /** The JSON body sent in the `index`th call to `key`. */
    bodySentTo: (key: string, index = 0): unknown => {
      const call = callsTo(key)[index];
      return call ? (JSON.parse(call[1]?.body as string) as unknown) : undefined;
    },
    /** The Authorization header of the `index`th call to `key`. */
    authorizationSentTo: (key: string, index = 0) =>
      new Headers(callsTo(key)[index]?.[1]?.headers).get("Authorization"),
  };
}
