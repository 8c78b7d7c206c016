// The political desk's calls and answers (docs/api-services.md "Political"), for component tests.
import type { PoliticalTheme, ServiceRequestCreated } from "@/types/api";
import { buildStation } from "@/testing/fixtures";

export const THEMES_CALL = "GET /api/political";
export const SUGGEST_CALL = "POST /api/political";

export const POLITICAL_STATION = buildStation({ political_access: true });

export function buildTheme(overrides: Partial<PoliticalTheme> = {}): PoliticalTheme {
  return {
    id: 4,
    tipo_tema: "Projeto de lei",
    titulo: "Reajuste salarial dos servidores",
    descricao: "Acompanhamento do projeto que trata da recomposição salarial da categoria.",
    interessados: ["Servidores ativos", "Aposentados"],
    itens_destaque: [{ descricao_item: "Índice de reajuste", posicionamento: "Favorável à reposição integral da inflação" }],
    acoes_sindicato: [{ data_acao: "2025-03-14", descricao_acao: "Reunião com a comissão de orçamento" }],
    processos: [{ identificacao_processo: "PL 1234/2025", tribunalOrgao: "Assembleia Legislativa" }],
    ...overrides,
  };
}

export function buildSuggestionCreated(overrides: Partial<ServiceRequestCreated> = {}): ServiceRequestCreated {
  return { id: 21, message: "Solicitação enviada com sucesso.", ...overrides };
}
