import { afterEach, describe, expect, it, vi } from "vitest";
import { api, ApiError, INTERNAL_SERVER_ERROR_TEXT, onSessionRejected, toastForError } from "@/lib/api-client";
import { jsonResponse, signIn } from "@/testing/fixtures";

/** Stubs fetch with an answer, or with a failure to reject with. */
function stubFetch(answer: Response | Error | DOMException) {
  const fetchMock = vi.fn(() => (answer instanceof Response ? Promise.resolve(answer) : Promise.reject(answer)));
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

function sentRequest(fetchMock: ReturnType<typeof stubFetch>): { url: string; init: RequestInit; headers: Headers } {
  const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
  return { url, init, headers: new Headers(init.headers) };
}

async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("api client", () => {
  it("calls the API under /api and returns the JSON answer", async () => {
    const fetchMock = stubFetch(jsonResponse({ station_id: 7 }));

    await expect(api.get("/config")).resolves.toEqual({ station_id: 7 });

    const { url, init } = sentRequest(fetchMock);
    expect(url).toBe("/api/config");
    expect(init.method).toBe("GET");
  });

  it("sends a body as JSON", async () => {
    const fetchMock = stubFetch(jsonResponse({ token: "abc" }));

    await api.post("/auth/login/establishment/7", { email: "maria@filia.example", password: "Segredo123" });

    const { init, headers } = sentRequest(fetchMock);
    expect(init.method).toBe("POST");
    expect(headers.get("Content-Type")).toBe("application/json");
    expect(JSON.parse(init.body as string)).toEqual({ email: "maria@filia.example", password: "Segredo123" });
  });

  it("sends a form (a file upload) as it is, leaving its multipart type to the browser", async () => {
    const fetchMock = stubFetch(jsonResponse({ question_id: 3 }));
    const form = new FormData();
    form.append("file", new Blob(["%PDF-1.4"]), "nota.pdf");
    await api.post("/research/1/answers/3/file", form);
    const { init, headers } = sentRequest(fetchMock);
    expect(init.body).toBe(form);
    expect(headers.get("Content-Type")).toBeNull();
  });

  it("gives the answer's headers with its body to a call that asks for them", async () => {
    stubFetch(new Response("[1,2]", { headers: { "Content-Type": "application/json", "X-Total-Count": "30" } }));

    const answer = await api.getAnswer<number[]>("/actions/?limit=2");

    expect(answer.body).toEqual([1, 2]);
    expect(answer.headers.get("X-Total-Count")).toBe("30");
  });

  it("returns undefined for an answer without a body", async () => {
    stubFetch(new Response(null, { status: 204 }));

    await expect(api.delete("/sessions/current")).resolves.toBeUndefined();
  });

  it("sends the stored token as a bearer header", async () => {
    signIn({}, "stored-token");
    const fetchMock = stubFetch(jsonResponse({}));

    await api.get("/users-web/1");

    expect(sentRequest(fetchMock).headers.get("Authorization")).toBe("Bearer stored-token");
  });

  it("sends no Authorization header without a session", async () => {
    const fetchMock = stubFetch(jsonResponse({}));

    await api.get("/stations/7");

    expect(sentRequest(fetchMock).headers.has("Authorization")).toBe(false);
  });

  it.each([
    ["the first of messages", 422, { messages: ["CPF inválido", "Email inválido"] }, "CPF inválido"],
    ["error", 404, { error: "Estação não encontrada" }, "Estação não encontrada"],
    ["messages before error", 400, { messages: ["Primeira"], error: "Segunda" }, "Primeira"],
    ["error when messages is empty", 400, { messages: [], error: "Segunda" }, "Segunda"],
    ["the first item of an array body", 400, ["Senha incorreta"], "Senha incorreta"],
    ["the generic text for an envelope without text", 400, { detail: "x" }, INTERNAL_SERVER_ERROR_TEXT],
    ["the server's own text on a 500", 500, { messages: ["Erro interno no servidor"] }, "Erro interno no servidor"],
  ])("shows %s", async (_case, status, body, text) => {
    stubFetch(jsonResponse(body, status));

    const error = await failureOf(api.get("/anything"));

    expect(error.status).toBe(status);
    expect(toastForError(error)).toEqual({ title: "Erro", text });
  });

  it("sends a given token instead of the stored one", async () => {
    signIn({}, "stored-token");
    const fetchMock = stubFetch(jsonResponse({}));

    await api.post("/auth/login-token", undefined, { token: "link-token" });

    expect(sentRequest(fetchMock).headers.get("Authorization")).toBe("Bearer link-token");
  });

  it("keeps the error answer's body and Retry-After for callers that need more than the text", async () => {
    const body = { messages: ["Confirme o seu cadastro"], affiliate: { id: 5 } };
    stubFetch(
      new Response(JSON.stringify(body), {
        status: 429,
        headers: { "Content-Type": "application/json", "Retry-After": "42" },
      }),
    );

    const error = await failureOf(api.post("/anything", {}));

    expect(error.message).toBe("Confirme o seu cadastro");
    expect(error.body).toEqual(body);
    expect(error.retryAfterSeconds).toBe(42);
  });

  it("leaves body and Retry-After undefined when the answer has none", async () => {
    stubFetch(new Response(null, { status: 401 }));

    const error = await failureOf(api.get("/anything"));

    expect(error.body).toBeUndefined();
    expect(error.retryAfterSeconds).toBeUndefined();
  });

  it("shows the generic text for an error without a body", async () => {
    stubFetch(new Response(null, { status: 401 }));

    const error = await failureOf(api.get("/anything"));

    expect(toastForError(error)).toEqual({ title: "Erro", text: INTERNAL_SERVER_ERROR_TEXT });
  });

  it("shows the generic text for a 500 that is not JSON", async () => {
    stubFetch(new Response("<h1>Bad gateway</h1>", { status: 500, headers: { "Content-Type": "text/html" } }));

    const error = await failureOf(api.get("/anything"));

    expect(error.status).toBe(500);
    expect(toastForError(error)).toEqual({ title: "Erro", text: INTERNAL_SERVER_ERROR_TEXT });
  });

  it("treats a successful answer that is not JSON as a failure", async () => {
    stubFetch(new Response("<!doctype html>", { status: 200, headers: { "Content-Type": "text/html" } }));

    const error = await failureOf(api.get("/config"));

    expect(error.message).toBe(INTERNAL_SERVER_ERROR_TEXT);
  });

  it("shows the generic text when the network fails", async () => {
    stubFetch(new TypeError("Failed to fetch"));

    const error = await failureOf(api.get("/config"));

    expect(error.status).toBe(0);
    expect(toastForError(error)).toEqual({ title: "Erro", text: INTERNAL_SERVER_ERROR_TEXT });
  });

  it("lets a cancelled request end as a cancellation, not as an API error", async () => {
    const controller = new AbortController();
    controller.abort();
    stubFetch(new DOMException("Aborted", "AbortError"));

    await expect(api.get("/config", { signal: controller.signal })).rejects.toHaveProperty("name", "AbortError");
  });

  it("gives any other error the generic toast", () => {
    expect(toastForError(new Error("boom"))).toEqual({ title: "Erro", text: INTERNAL_SERVER_ERROR_TEXT });
  });
});

describe("a 401 to the stored session", () => {
  let unsubscribe: () => void = () => undefined;
  afterEach(() => unsubscribe());

  function listen() {
    const listener = vi.fn();
    unsubscribe = onSessionRejected(listener);
    return listener;
  }

  it("is reported, and the call still fails with the server's text", async () => {
    signIn({}, "stored-token");
    const listener = listen();
    stubFetch(jsonResponse({ error: "Você não possui autorização para acessar esta página." }, 401));

    const error = await failureOf(api.get("/users-points/1"));

    expect(listener).toHaveBeenCalledTimes(1);
    expect(error.message).toBe("Você não possui autorização para acessar esta página.");
  });

  it("is reported for a call made without a session", async () => {
    const listener = listen();
    stubFetch(jsonResponse({ error: "Você não possui autorização para acessar esta página." }, 401));

    await failureOf(api.get("/users-points/1"));

    expect(listener).toHaveBeenCalledTimes(1);
  });

  it("is not reported when the 401 is the call's own answer", async () => {
    signIn({}, "stored-token");
    const listener = listen();
    stubFetch(jsonResponse({ messages: ["E-mail, CPF ou senha incorretos."] }, 401));

    await failureOf(api.post("/auth/login/establishment/7", {}, { unauthorizedIsAnswer: true }));

    expect(listener).not.toHaveBeenCalled();
  });

  it("is not reported for a token the call brought itself", async () => {
    signIn({}, "stored-token");
    const listener = listen();
    stubFetch(jsonResponse({ error: "Link inválido" }, 401));

    await failureOf(api.post("/auth/login-token", undefined, { token: "link-token" }));

    expect(listener).not.toHaveBeenCalled();
  });

  it("is not reported once the session it was sent with was replaced", async () => {
    signIn({}, "old-token");
    const listener = listen();
    vi.stubGlobal(
      "fetch",
      vi.fn(() => {
        signIn({}, "new-token");
        return Promise.resolve(jsonResponse({ error: "Você não possui autorização para acessar esta página." }, 401));
      }),
    );

    await failureOf(api.get("/users-points/1"));

    expect(listener).not.toHaveBeenCalled();
  });

  it("is not reported for other failures", async () => {
    signIn({}, "stored-token");
    const listener = listen();
    stubFetch(jsonResponse({ error: "O seu acesso está supenso..." }, 403));

    await failureOf(api.get("/users-points/1"));

    expect(listener).not.toHaveBeenCalled();
  });
});
