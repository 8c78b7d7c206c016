// The texts of a station's content screens: the spec's own (spec 002 section 2) and ours.
export const NEWS_TITLE = "Notícias";
export const NO_NEWS_TEXT = "Não há notícias";
export const SEE_MORE_TEXT = "Ver Mais";
export const DOWNLOADS_TITLE = "Arquivos";
export const NO_DOWNLOADS_TEXT = "Não há arquivos para download";
export const TRANSPARENCY_TITLE = "Prestação de contas";
export const NO_DOCUMENTS_TEXT = "Não há documentos a serem exibidos.";
/** The group of documents whose names carry no year. */
export const NO_YEAR_TEXT = "Outros";
export const DOWNLOAD_TEXT = "Baixar arquivo";
export const MEMBERS_ONLY_TEXT = "Exclusivo para associados";
export const DOWNLOADS_FAILED_TEXT = "Não foi possível carregar os arquivos.";
export const FILE_FAILED_TEXT = "Não foi possível baixar o arquivo. Tente novamente.";
export const TRY_AGAIN_TEXT = "Tentar novamente";
export const BACK_TO_NEWS_TEXT = "Voltar para notícias";
export const BACK_TO_DOWNLOADS_TEXT = "Voltar para arquivos";
