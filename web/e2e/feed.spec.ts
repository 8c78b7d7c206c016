import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { logIn, memberApi, type Member } from "./demo-member";
import { STAFF_EMAIL, STAFF_PASSWORD } from "./demo-staff";
import { confirmAgeIfAsked, fetchHostStation, type StationFlags } from "./demo-station";
import { signUpAndActivate } from "./signup-flow";

// The Mural (spec 001 "Wall feed", docs/api-feed.md) on the demo station, whose feed is
// open. The media are made here: a PNG and a 2-second H.264 clip drawn by ffmpeg.
const TRANSCODE_QUEUE = "video.transcode";
const NO_COMMENTS = "Ainda não há comentários aqui. Seja o primeiro e diga o que está pensando.";

const media = mkdtempSync(join(tmpdir(), "filia-feed-"));
test.afterAll(() => rmSync(media, { recursive: true, force: true }));

function ffmpeg(args: string[], output: string): string {
  const path = join(media, output);
  execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...args, path]);
  return path;
}

function drawImage(): Buffer {
  return readFileSync(ffmpeg(["-f", "lavfi", "-i", "color=c=0x0E7C66:s=96x96", "-frames:v", "1"], "quadrado.png"));
}

function drawVideo(): string {
  return ffmpeg(
    ["-f", "lavfi", "-i", "testsrc=duration=2:size=320x240:rate=25", "-c:v", "libx264", "-pix_fmt", "yuv420p"],
    "passeio.mp4",
  );
}

async function staffHeaders(request: APIRequestContext, station: StationFlags) {
  const login = await request.post(`/api/auth/login/establishment/${station.id}`, {
    data: { email: STAFF_EMAIL, password: STAFF_PASSWORD },
  });
  expect(login.ok()).toBe(true);
  const { token } = (await login.json()) as { token: string };
  return { Authorization: `Bearer ${token}` };
}

/** Pauses the transcode queue, so the video's processing state stays on screen until resumed. */
async function setTranscodePaused(request: APIRequestContext, headers: Record<string, string>, paused: boolean) {
  const answer = await request.post(`/api/ops/queues/${TRANSCODE_QUEUE}/${paused ? "pause" : "resume"}`, { headers });
  expect(answer.ok()).toBe(true);
}

/** The feed's post holding `text` (posts are found by what they say: others may be there too). */
function postWith(page: Page, text: string): Locator {
  return page.getByRole("list", { name: "Posts do mural" }).getByRole("article").filter({ hasText: text });
}

async function publish(page: Page, text: string): Promise<number> {
  await page.getByLabel("O que você quer compartilhar?").fill(text);
  const answer = page.waitForResponse((response) => response.request().method() === "POST" && /\/api\/posts(-image)?$/.test(new URL(response.url()).pathname));
  await page.getByRole("button", { name: "Publicar" }).click();
  const response = await answer;
  expect(response.status()).toBe(201);
  await expect(page.getByLabel("O que você quer compartilhar?")).toHaveValue("");
  return ((await response.json()) as { id: number }).id;
}

async function deleteByApi(request: APIRequestContext, member: Member, postId: number) {
  const answer = await request.delete(`/api/posts/${postId}`, { headers: member.headers });
  expect([204, 404]).toContain(answer.status());
}

test("the demo member posts text, an image and a video, likes, comments and deletes a post", async ({ page, request }) => {
  test.setTimeout(180_000);
  const station = await fetchHostStation(request);
  const member = await memberApi(request, station);
  const staff = await staffHeaders(request, station);
  const stamp = Date.now();
  const created: number[] = [];

  try {
    await logIn(page, station);
    await page.getByRole("button", { name: "Menu" }).click();
    await page.getByRole("link", { name: "Mural" }).click();
    await expect(page).toHaveURL(/\/homepage\/feed$/);
    await expect(page.getByRole("heading", { level: 1, name: "Mural" })).toBeVisible();

    // Text.
    const text = `Bom dia, clube! ${stamp}`;
    await page.getByLabel("O que você quer compartilhar?").fill(text);
    await expect(page.getByText(`${text.length}/320`)).toBeVisible();
    const textPost = await publish(page, text);
    created.push(textPost);
    const post = postWith(page, text);
    await expect(post).toBeVisible();

    // Likes: the count moves at once, and the server keeps it.
    const liked = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/likes-web");
    await post.getByRole("button", { name: "Curtir: 0 curtidas" }).click();
    await expect(post.getByRole("button", { name: "Curtir: 1 curtida" })).toHaveAttribute("aria-pressed", "true");
    expect((await liked).status()).toBe(200);
    await page.reload();
    await expect(post.getByRole("button", { name: "Curtir: 1 curtida" })).toHaveAttribute("aria-pressed", "true");
    await post.getByRole("button", { name: "Curtir: 1 curtida" }).click();
    await expect(post.getByRole("button", { name: "Curtir: 0 curtidas" })).toHaveAttribute("aria-pressed", "false");

    // Comments: the panel opens, Enter sends, the author deletes after the confirmation.
    await post.getByRole("button", { name: "Comentários (0)" }).click();
    await expect(post.getByText(NO_COMMENTS)).toBeVisible();
    const box = post.getByRole("textbox", { name: "Escreva um comentário" });
    await box.fill("Que dia bonito!");
    await expect(post.getByText("15/200")).toBeVisible();
    await box.press("Enter");
    const comment = post.getByRole("article", { name: /^Comentário de / }).filter({ hasText: "Que dia bonito!" });
    await expect(comment).toBeVisible();
    await expect(box).toHaveValue("");
    await expect(post.getByRole("button", { name: "Comentários (1)" })).toBeVisible();
    await comment.getByRole("button", { name: "Deletar comentário" }).click();
    const commentDialog = page.getByRole("dialog", { name: "Você vai deletar esse comentário" });
    await expect(commentDialog).toContainText("Tem certeza?");
    await commentDialog.getByRole("button", { name: "Sim" }).click();
    await expect(comment).toHaveCount(0);
    await expect(post.getByRole("button", { name: "Comentários (0)" })).toBeVisible();

    // An image.
    const imageText = `Nossa sede ${stamp}`;
    await page.getByLabel("Escolher imagem").setInputFiles({ name: "quadrado.png", mimeType: "image/png", buffer: drawImage() });
    await expect(page.getByRole("img", { name: "Prévia da imagem" })).toBeVisible();
    created.push(await publish(page, imageText));
    await expect(page.getByRole("img", { name: "Prévia da imagem" })).toHaveCount(0);
    const image = postWith(page, imageText).getByRole("img", { name: /^Imagem do post de / });
    await expect(image).toBeVisible();
    const imageFile = await request.get((await image.getAttribute("src")) ?? "");
    expect(imageFile.ok()).toBe(true);
    expect(imageFile.headers()["content-type"]).toMatch(/^image\/(jpeg|png)$/);

    // A video: the upload shows its progress and survives a dropped connection; the post
    // then waits for the transcode (held here by pausing its queue), then plays.
    let chunks = 0;
    await page.route("**/api/uploads/videos/*", async (route) => {
      if (route.request().method() !== "PATCH") return route.continue();
      chunks += 1;
      if (chunks === 1) return route.abort("connectionreset");
      // Slow enough for the progress to be seen.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      return route.continue();
    });
    await setTranscodePaused(request, staff, true);
    const videoText = `Nosso passeio ${stamp}`;
    await page.getByLabel("Escolher vídeo").setInputFiles(drawVideo());
    await expect(page.getByText("passeio.mp4")).toBeVisible();
    await page.getByLabel("O que você quer compartilhar?").fill(videoText);
    const videoPosted = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/posts-vimeo");
    await page.getByRole("button", { name: "Publicar" }).click();

    await expect(page.getByText(/^Subindo o vídeo\.\.\./)).toBeVisible();
    await expect(page.getByRole("progressbar", { name: "Subindo o vídeo..." })).toBeVisible();
    await expect(page.getByLabel("O que você quer compartilhar?")).toBeDisabled();
    await expect(page.getByRole("button", { name: "Publicar" })).toBeDisabled();

    const posted = await videoPosted;
    expect(posted.status()).toBe(201);
    const videoPost = (await posted.json()) as { id: number; published: boolean; video: { status: string; jobId: string | null } };
    created.push(videoPost.id);
    expect(videoPost.published).toBe(false);
    expect(videoPost.video.status).toBe("processing");
    expect(videoPost.video.jobId).not.toBeNull();
    expect(chunks).toBeGreaterThanOrEqual(2);
    await expect(page.getByText("Seu vídeo está sendo processado e pode levar alguns minutos para aparecer.")).toBeVisible();
    await expect(page.getByText(/^Subindo o vídeo/)).toHaveCount(0);
    await page.unroute("**/api/uploads/videos/*");

    const own = postWith(page, videoText);
    await expect(own.getByText(/^Processando o vídeo\.\.\./)).toBeVisible();
    await expect(own.getByRole("progressbar", { name: "Processando o vídeo..." })).toBeVisible();
    await setTranscodePaused(request, staff, false);

    const video = own.getByLabel(/^Vídeo do post de /);
    await expect(video).toHaveJSProperty("tagName", "VIDEO", { timeout: 60_000 });
    const src = (await video.getAttribute("src")) ?? "";
    expect(src).not.toBe("");
    const clip = await request.get(src);
    expect(clip.headers()["content-type"]).toBe("video/mp4");
    await video.evaluate((element: HTMLVideoElement) => {
      element.muted = true;
      return element.play();
    });
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState)).toBeGreaterThan(0);
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeGreaterThan(0);

    // The author deletes the text post after the confirmation; the feed is read again.
    await post.getByRole("button", { name: "Deletar post" }).click();
    const dialog = page.getByRole("dialog", { name: "Você vai deletar esse post" });
    await expect(dialog).toContainText("Tem certeza?");
    await dialog.getByRole("button", { name: "Cancelar" }).click();
    await expect(post).toBeVisible();
    await post.getByRole("button", { name: "Deletar post" }).click();
    await dialog.getByRole("button", { name: "Sim" }).click();
    await expect(post).toHaveCount(0);
    const feed = await request.get(`/api/posts/${station.id}?limit=30`, { headers: member.headers });
    const { posts } = (await feed.json()) as { posts: { id: number }[] };
    expect(posts.map((shown) => shown.id)).not.toContain(textPost);
  } finally {
    await setTranscodePaused(request, staff, false);
    for (const id of created) await deleteByApi(request, member, id);
  }
});

test("another member cannot delete the post, reports it, and staff keep it", async ({ page, browser, request }) => {
  test.setTimeout(180_000);
  const station = await fetchHostStation(request);
  const author = await memberApi(request, station);
  const text = `Post do membro demo ${Date.now()}`;
  const created = await request.post("/api/posts", {
    headers: author.headers,
    data: { description: text, station_id: station.id },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: number };

  try {
    const email = `mural-${Date.now()}@exemplo.com.br`;
    const password = "Mural12345";
    await signUpAndActivate(page, station, { name: "Pessoa do Mural", email, password });
    await page.goto("/homepage/feed");
    const post = postWith(page, text);
    await expect(post).toBeVisible();
    await expect(post.getByRole("button", { name: "Deletar post" })).toHaveCount(0);

    // Nor through the API.
    const login = await request.post(`/api/auth/login/establishment/${station.id}`, { data: { email, password } });
    expect(login.ok()).toBe(true);
    const { token } = (await login.json()) as { token: string };
    const denied = await request.delete(`/api/posts/${id}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(denied.status()).toBe(403);
    expect(await denied.json()).toEqual({ messages: ["Apenas o autor pode apagar."] });

    // Likes and comments from someone else show on the author's post.
    await post.getByRole("button", { name: "Curtir: 0 curtidas" }).click();
    await expect(post.getByRole("button", { name: "Curtir: 1 curtida" })).toHaveAttribute("aria-pressed", "true");
    await post.getByRole("button", { name: "Comentários (0)" }).click();
    await post.getByRole("textbox", { name: "Escreva um comentário" }).fill("Muito bom!");
    await post.getByRole("textbox", { name: "Escreva um comentário" }).press("Enter");
    await expect(post.getByRole("article", { name: "Comentário de Pessoa do Mural" })).toBeVisible();

    await post.getByRole("button", { name: "Denunciar" }).click();
    const report = page.getByRole("dialog", { name: "Denunciar este post" });
    await report.getByLabel("Motivo (opcional)").fill("Teste de denúncia");
    await report.getByRole("button", { name: "Denunciar" }).click();
    await expect(page.getByRole("region", { name: "Notificações" })).toContainText("Denúncia enviada. Nossa equipe vai analisar.");

    // Staff find the report in the console and keep the post.
    const staffContext = await browser.newContext();
    const staff = await staffContext.newPage();
    await staff.goto("/login");
    await confirmAgeIfAsked(staff, station);
    await staff.getByLabel("E-mail").fill(STAFF_EMAIL);
    await staff.getByLabel("Senha").fill(STAFF_PASSWORD);
    await staff.getByRole("button", { name: "Entrar" }).click();
    await expect(staff).toHaveURL(/\/homepage$/);
    await staff.goto("/ops");
    await staff.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Denúncias" }).click();
    const row = staff.getByRole("table", { name: "Denúncias" }).getByRole("row").filter({ hasText: text });
    await expect(row).toContainText("1 denúncia");
    await expect(row).toContainText("Teste de denúncia");
    await row.getByRole("button", { name: "Manter" }).click();
    await staff.getByRole("dialog", { name: "Manter o conteúdo?" }).getByRole("button", { name: "Manter" }).click();
    await expect(staff.getByText("Conteúdo mantido.")).toBeVisible();
    await staff.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Auditoria" }).click();
    await expect(
      staff.getByRole("table", { name: "Auditoria" }).getByRole("row").filter({ hasText: "Manteve o conteúdo denunciado" }).first(),
    ).toBeVisible();
    await staffContext.close();

    // Kept, the post is still in the feed.
    await page.reload();
    await expect(postWith(page, text)).toBeVisible();
  } finally {
    await deleteByApi(request, author, id);
  }
});
