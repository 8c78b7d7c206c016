// The political desk's wire shapes, written by hand to mirror docs/api-services.md
// ("Political", "Common rules") until the routes are in docs/openapi.json; then these become
// `Schemas["..."]` aliases in @/types/api, under the same names.

export interface PoliticalThemeItem {
  descricao_item: string;
  posicionamento: string;
}

export interface PoliticalThemeAction {
  data_acao: string;
  descricao_acao: string;
}

export interface PoliticalThemeProcess {
  identificacao_processo: string;
  tribunalOrgao: string;
}

/** One of GET /political: the station's published themes, in their order. */
export interface PoliticalTheme {
  id: number;
  tipo_tema: string;
  titulo: string;
  descricao: string;
  interessados: string[];
  itens_destaque: PoliticalThemeItem[];
  acoes_sindicato: PoliticalThemeAction[];
  processos: PoliticalThemeProcess[];
}

/** The body of POST /political: a theme suggested to the desk. */
export interface PoliticalSuggestion {
  description: string;
}

/** 201 of every member request: `{ "id": 12, "message": "Solicitação enviada com sucesso." }`. */
export interface ServiceRequestCreated {
  id: number;
  message: string;
}
