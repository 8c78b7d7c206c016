// The 27 Brazilian federative units (spec 000 section 9), built in so forms never wait for a
// list. The ids are IBGE's state codes, the ones other Brazilian systems use too.

export type BrazilianRegion = "Norte" | "Nordeste" | "Centro-Oeste" | "Sudeste" | "Sul";

export interface BrazilianState {
  id: number;
  sigla: string;
  nome: string;
  region: BrazilianRegion;
}

export const BRAZILIAN_STATES: readonly BrazilianState[] = [
  { id: 12, sigla: "AC", nome: "Acre", region: "Norte" },
  { id: 27, sigla: "AL", nome: "Alagoas", region: "Nordeste" },
  { id: 16, sigla: "AP", nome: "Amapá", region: "Norte" },
  { id: 13, sigla: "AM", nome: "Amazonas", region: "Norte" },
  { id: 29, sigla: "BA", nome: "Bahia", region: "Nordeste" },
  { id: 23, sigla: "CE", nome: "Ceará", region: "Nordeste" },
  { id: 53, sigla: "DF", nome: "Distrito Federal", region: "Centro-Oeste" },
  { id: 32, sigla: "ES", nome: "Espírito Santo", region: "Sudeste" },
  { id: 52, sigla: "GO", nome: "Goiás", region: "Centro-Oeste" },
  { id: 21, sigla: "MA", nome: "Maranhão", region: "Nordeste" },
  { id: 51, sigla: "MT", nome: "Mato Grosso", region: "Centro-Oeste" },
  { id: 50, sigla: "MS", nome: "Mato Grosso do Sul", region: "Centro-Oeste" },
  { id: 31, sigla: "MG", nome: "Minas Gerais", region: "Sudeste" },
  { id: 15, sigla: "PA", nome: "Pará", region: "Norte" },
  { id: 25, sigla: "PB", nome: "Paraíba", region: "Nordeste" },
  { id: 41, sigla: "PR", nome: "Paraná", region: "Sul" },
  { id: 26, sigla: "PE", nome: "Pernambuco", region: "Nordeste" },
  { id: 22, sigla: "PI", nome: "Piauí", region: "Nordeste" },
  { id: 33, sigla: "RJ", nome: "Rio de Janeiro", region: "Sudeste" },
  { id: 24, sigla: "RN", nome: "Rio Grande do Norte", region: "Nordeste" },
  { id: 43, sigla: "RS", nome: "Rio Grande do Sul", region: "Sul" },
  { id: 11, sigla: "RO", nome: "Rondônia", region: "Norte" },
  { id: 14, sigla: "RR", nome: "Roraima", region: "Norte" },
  { id: 42, sigla: "SC", nome: "Santa Catarina", region: "Sul" },
  { id: 35, sigla: "SP", nome: "São Paulo", region: "Sudeste" },
  { id: 28, sigla: "SE", nome: "Sergipe", region: "Nordeste" },
  { id: 17, sigla: "TO", nome: "Tocantins", region: "Norte" },
];

export function isBrazilianState(sigla: string): boolean {
  return BRAZILIAN_STATES.some((state) => state.sigla === sigla);
}
