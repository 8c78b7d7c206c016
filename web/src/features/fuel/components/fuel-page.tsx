// /homepage/legisclub-gasolina (spec 002 "Fuel campaign"): tabs 'Campanhas' and 'Meus
// Vouchers'. The member picks one of the station's open campaigns and asks 'Gerar voucher'
// (a campaign must be picked first); the voucher made shows in 'Meus Vouchers' with its
// code, fuel, litres, value and dates. A failure shows the answer's text, else 'Erro interno
// do sistema' (spec 002 section 8). Only where the station offers the campaign
// (`fuel_campaign_access`); elsewhere the address is not found, as the API's 404.
import { useState } from "react";
import { ListPage, Skeletons } from "@/components/list-page";
import { NotFoundPage } from "@/components/not-found-page";
import { useSnackbar, useToast } from "@/components/toasts/use-toast";
import { UrlTabs } from "@/components/url-tabs";
import { useStation } from "@/features/stations";
import { fuelFailureText, useFuelCampaigns, useFuelVouchers, useTakeFuelVoucher } from "@/features/fuel/api/fuel-campaigns";
import { ERROR_TOAST_TITLE } from "@/lib/api-client";
import { formatBrl } from "@/lib/currency";
import { formatDate } from "@/lib/dates";
import type { FuelCampaign, FuelVoucher } from "@/types/api";
import "./fuel.css";

export const FUEL_TITLE = "Campanha de combustível";
export const CAMPAIGNS_TAB = "Campanhas";
export const VOUCHERS_TAB = "Meus Vouchers";
export const GENERATE_BUTTON = "Gerar voucher";
export const NO_CAMPAIGNS_TEXT = "Não há campanhas disponíveis.";
export const NO_VOUCHERS_TEXT = "Você ainda não possui vouchers de combustível.";
export const PICK_A_CAMPAIGN_TEXT = "Selecione uma campanha para gerar o voucher.";
export const TAKEN_TEXT = "Voucher gerado com sucesso!";
export const ALREADY_HELD_TEXT = "Você já possui o voucher desta campanha.";
export const CAMPAIGNS_FAILED_TEXT = "Não foi possível carregar as campanhas.";
export const VOUCHERS_FAILED_TEXT = "Não foi possível carregar seus vouchers.";
export const RETRY_BUTTON = "Tentar novamente";

const TABS = [
  { id: "campanhas", label: CAMPAIGNS_TAB },
  { id: "vouchers", label: VOUCHERS_TAB },
] as const;

type TabId = (typeof TABS)[number]["id"];

const LITRES = new Intl.NumberFormat("pt-BR", { maximumFractionDigits: 2 });

/** "20 litros", "20,5 litros", "1 litro". */
export function formatLitres(litres: number): string {
  return `${LITRES.format(litres)} ${litres === 1 ? "litro" : "litros"}`;
}

const STATUS_LABELS: Record<FuelVoucher["status"], string> = {
  issued: "Válido",
  expired: "Vencido",
  used: "Utilizado",
};

function LoadFailed({ text, retry }: { text: string; retry: () => void }) {
  return (
    <div className="fuel-failed">
      <p role="alert">{text}</p>
      <button type="button" className="button button--secondary" onClick={retry}>
        {RETRY_BUTTON}
      </button>
    </div>
  );
}

function CampaignOption({ campaign, selected, onSelect }: { campaign: FuelCampaign; selected: boolean; onSelect: () => void }) {
  const nameId = `fuel-campaign-${campaign.id}-name`;
  const detailsId = `fuel-campaign-${campaign.id}-details`;
  return (
    <li className={`fuel-campaign${selected ? " fuel-campaign--selected" : ""}`}>
      <label className="fuel-campaign__choice">
        <input
          type="radio"
          name="fuel-campaign"
          value={campaign.id}
          checked={selected}
          disabled={campaign.possuiVoucher}
          onChange={onSelect}
          aria-labelledby={nameId}
          aria-describedby={detailsId}
        />
        {campaign.imagem ? <img className="fuel-campaign__image" src={campaign.imagem} alt="" /> : null}
        <span className="fuel-campaign__body">
          <span id={nameId} className="fuel-campaign__name">
            {campaign.nomeCampanha}
          </span>
          <span id={detailsId} className="fuel-campaign__details">
            <span className="fuel-campaign__description">{campaign.descricao}</span>
            <span className="fuel-campaign__offer">
              {formatLitres(campaign.volume)} de {campaign.tipoVoucher} · {formatBrl(campaign.valorVoucher)}
            </span>
            <span className="fuel-campaign__validity">Válido por {campaign.diasValidade} dias após a emissão</span>
            {campaign.possuiVoucher ? <span className="fuel-campaign__held">{ALREADY_HELD_TEXT}</span> : null}
          </span>
        </span>
      </label>
    </li>
  );
}

function CampaignsPanel({ onTaken }: { onTaken: () => void }) {
  const campaigns = useFuelCampaigns();
  const take = useTakeFuelVoucher();
  const showToast = useToast();
  const showSnackbar = useSnackbar();
  const [selected, setSelected] = useState<number | null>(null);
  const [needsPick, setNeedsPick] = useState(false);

  if (campaigns.isPending) {
    return <Skeletons label="Carregando campanhas" count={3} className="fuel-skeletons" itemClassName="fuel-skeletons__item skeleton-shimmer" />;
  }
  if (campaigns.isError) {
    return <LoadFailed text={CAMPAIGNS_FAILED_TEXT} retry={() => void campaigns.refetch()} />;
  }
  const list = campaigns.data;
  if (list.length === 0) return <p className="list-page__empty">{NO_CAMPAIGNS_TEXT}</p>;
  // A campaign picked before the lists were read again may now be held or gone.
  const picked = list.find((campaign) => campaign.id === selected && !campaign.possuiVoucher) ?? null;

  const generate = () => {
    if (picked === null) {
      setNeedsPick(true);
      return;
    }
    setNeedsPick(false);
    take.mutate(picked.id, {
      onSuccess: () => {
        setSelected(null);
        showSnackbar(TAKEN_TEXT);
        onTaken();
      },
      onError: (error) => showToast({ title: ERROR_TOAST_TITLE, text: fuelFailureText(error) }),
    });
  };

  return (
    <form
      className="fuel-campaigns"
      onSubmit={(event) => {
        event.preventDefault();
        generate();
      }}
    >
      <fieldset className="fuel-campaigns__fieldset">
        <legend className="fuel-campaigns__legend">Escolha uma campanha</legend>
        <ul className="fuel-campaigns__list">
          {list.map((campaign) => (
            <CampaignOption
              key={campaign.id}
              campaign={campaign}
              selected={picked?.id === campaign.id}
              onSelect={() => {
                setSelected(campaign.id);
                setNeedsPick(false);
              }}
            />
          ))}
        </ul>
      </fieldset>
      {needsPick ? (
        <p className="fuel-campaigns__hint" role="alert">
          {PICK_A_CAMPAIGN_TEXT}
        </p>
      ) : null}
      <button type="submit" className="button button--primary fuel-campaigns__generate" disabled={take.isPending} aria-busy={take.isPending}>
        {take.isPending ? "Gerando..." : GENERATE_BUTTON}
      </button>
    </form>
  );
}

function VoucherCard({ voucher }: { voucher: FuelVoucher }) {
  const headingId = `fuel-voucher-${voucher.id}`;
  return (
    <li className={`fuel-voucher fuel-voucher--${voucher.status}`}>
      <article aria-labelledby={headingId}>
        <h2 id={headingId} className="fuel-voucher__name">
          {voucher.nomeCampanha}
        </h2>
        <p className="fuel-voucher__code">
          <span className="fuel-voucher__code-label">Código</span> <strong>{voucher.codigo}</strong>
        </p>
        <dl className="fuel-voucher__facts">
          <div>
            <dt>Tipo</dt>
            <dd>{voucher.tipoVoucher}</dd>
          </div>
          <div>
            <dt>Volume</dt>
            <dd>{formatLitres(voucher.volume)}</dd>
          </div>
          <div>
            <dt>Valor</dt>
            <dd>{formatBrl(voucher.valorVoucher)}</dd>
          </div>
          <div>
            <dt>Emissão</dt>
            <dd>{formatDate(voucher.dataEmissao)}</dd>
          </div>
          <div>
            <dt>Validade</dt>
            <dd>{formatDate(voucher.dataValidade)}</dd>
          </div>
          <div>
            <dt>Situação</dt>
            <dd className="fuel-voucher__status">{STATUS_LABELS[voucher.status]}</dd>
          </div>
        </dl>
      </article>
    </li>
  );
}

function VouchersPanel() {
  const vouchers = useFuelVouchers();
  if (vouchers.isPending) {
    return <Skeletons label="Carregando vouchers" count={2} className="fuel-skeletons" itemClassName="fuel-skeletons__item skeleton-shimmer" />;
  }
  if (vouchers.isError) {
    return <LoadFailed text={VOUCHERS_FAILED_TEXT} retry={() => void vouchers.refetch()} />;
  }
  if (vouchers.data.length === 0) return <p className="list-page__empty">{NO_VOUCHERS_TEXT}</p>;
  return (
    <ul className="fuel-vouchers" aria-label={VOUCHERS_TAB}>
      {vouchers.data.map((voucher) => (
        <VoucherCard key={voucher.id} voucher={voucher} />
      ))}
    </ul>
  );
}

export function FuelPage() {
  const shown = useStation().fuel_campaign_access;
  if (!shown) return <NotFoundPage />;
  return (
    <ListPage title={FUEL_TITLE}>
      <UrlTabs<TabId> tabs={TABS} label={FUEL_TITLE}>
        {(current, select) => (current === "campanhas" ? <CampaignsPanel onTaken={() => select("vouchers")} /> : <VouchersPanel />)}
      </UrlTabs>
    </ListPage>
  );
}
