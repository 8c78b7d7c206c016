// The Mural's texts (spec 001 "Wall feed", "Comments and likes on activities") and limits
// (sections 5 and 9).

export const FEED_TITLE = "Mural";
export const FEED_END_TEXT = "Isso é tudo por enquanto!";
export const FEED_EMPTY_TEXT = "Ainda não há posts no mural. Seja o primeiro a publicar!";
export const FEED_FAILED_TEXT = "Não foi possível carregar o mural.";
export const PUBLISH_LABEL = "Publicar";
export const UPLOADING_TEXT = "Subindo o vídeo...";
export const VIDEO_PROCESSING_NOTE = "Seu vídeo está sendo processado e pode levar alguns minutos para aparecer.";
export const NO_COMMENTS_TEXT = "Ainda não há comentários aqui. Seja o primeiro e diga o que está pensando.";
export const NO_REPLIES_TEXT = "Ainda não há respostas aqui.";
export const DELETE_POST_TITLE = "Você vai deletar esse post";
export const DELETE_COMMENT_TITLE = "Você vai deletar esse comentário";
export const DELETE_QUESTION = "Tem certeza?";

export const POST_MAX_LENGTH = 320;
export const POST_IMAGE_MAX_BYTES = 1_200_000;
export const POST_VIDEO_MAX_BYTES = 200_000_000;
export const POST_IMAGE_TYPES: readonly string[] = ["image/jpeg", "image/png"];
/** The spec's .wmw is kept beside .wmv, the extension such files really have. */
export const POST_VIDEO_EXTENSIONS: readonly string[] = [".mov", ".mp4", ".wmw", ".wmv"];

const DATE_TIME = new Intl.DateTimeFormat("pt-BR", { dateStyle: "short", timeStyle: "short" });

/** "01/12/2026 às 09:00", in the browser's time zone. */
export function postedAt(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return DATE_TIME.format(date).replace(", ", " às ");
}

/** "1 curtida", "3 curtidas". */
export function likesText(likes: number): string {
  return `${likes} ${likes === 1 ? "curtida" : "curtidas"}`;
}
