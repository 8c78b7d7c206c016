// Campaigns and vouchers as /fuel-campaigns answers them, for the signed-in member (id 1).
import type { FuelCampaign, FuelVoucher } from "@/types/api";

export const CAMPAIGNS_CALL = "GET /api/fuel-campaigns";
export const VOUCHERS_CALL = "GET /api/fuel-campaigns/1";
export const TAKE_CALL = "POST /api/fuel-campaigns";

export function buildFuelCampaign(overrides: Partial<FuelCampaign> = {}): FuelCampaign {
  return {
    id: 3,
    nomeCampanha: "Gasolina do associado",
    descricao: "20 litros de gasolina comum por associado.",
    imagem: "/api/media/demo/fuel/0.png",
    tipoVoucher: "Gasolina comum",
    volume: 20,
    valorVoucher: 11_980,
    diasValidade: 30,
    dataInicio: "2026-12-01T03:00:00Z",
    dataFim: "2027-03-01T03:00:00Z",
    possuiVoucher: false,
    ...overrides,
  };
}

export function buildFuelVoucher(overrides: Partial<FuelVoucher> = {}): FuelVoucher {
  return {
    id: 9,
    fuel_id: 3,
    nomeCampanha: "Gasolina do associado",
    tipoVoucher: "Gasolina comum",
    volume: 20,
    valorVoucher: 11_980,
    codigo: "ABCD-EFGH-JKLM",
    dataEmissao: "2026-12-10T15:00:00Z",
    dataValidade: "2027-01-09T15:00:00Z",
    status: "issued",
    ...overrides,
  };
}
