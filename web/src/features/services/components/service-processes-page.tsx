// A desk's cases by the member's CPF (spec 002 "Legal consultancy", "Accounting
// consultancy"). Legal splits them into 'Causas coletivas' (published to the portal) and
// 'Causas pessoais', each with its empty text; accounting lists them all. Each card opens a
// dialog with the whole case. A failed load only stops the loading (section 8).
import { useState } from "react";
import { Skeletons } from "@/components/list-page";
import { Modal } from "@/components/modal";
import { useProcesses, type CaseProcess } from "@/features/services/api/services";
import type { CaseDesk } from "@/features/services/desks";
import {
  COLLECTIVE_TITLE,
  NO_COLLECTIVE_TEXT,
  NO_PERSONAL_TEXT,
  NO_PROCESSES_TEXT,
  PERSONAL_TITLE,
} from "@/features/services/components/service-texts";
import { formatBrl } from "@/lib/currency";
import { formatCivilDate } from "@/lib/dates";
import "./services.css";

export const PROCESSES_TITLE = "Processos";
export const CLOSE_BUTTON = "Fechar";

function ProcessCard({ process, onOpen }: { process: CaseProcess; onOpen: () => void }) {
  return (
    <li className="service-card">
      <button type="button" className="service-card__open" onClick={onOpen} aria-haspopup="dialog">
        <span className="service-card__title">{process.numeroProcesso}</span>
        <span className="service-card__subtitle">
          {process.tipo} · {process.situacao}
        </span>
        <span className="service-card__meta">Protocolo: {formatCivilDate(process.dataProtocolo)}</span>
      </button>
    </li>
  );
}

function ProcessList({ label, processes, empty, onOpen }: { label: string; processes: CaseProcess[]; empty: string; onOpen: (process: CaseProcess) => void }) {
  if (processes.length === 0) return <p className="list-page__empty">{empty}</p>;
  return (
    <ul className="service-cards" aria-label={label}>
      {processes.map((process) => (
        <ProcessCard key={process.id} process={process} onOpen={() => onOpen(process)} />
      ))}
    </ul>
  );
}

function ProcessDialog({ process, withTitle, onClose }: { process: CaseProcess; withTitle: boolean; onClose: () => void }) {
  const facts: [string, string][] = [
    ["Número do processo", process.numeroProcesso],
    ["Tipo", process.tipo],
    ["Situação", process.situacao],
    ["Data de protocolo", formatCivilDate(process.dataProtocolo)],
    ["Tribunal / Órgão", process.tribunalOrgao || "—"],
    ...(withTitle ? ([["Título", process.titulo || "—"]] as [string, string][]) : []),
    ["Valor da causa", process.valorCausa === null ? "Não informado" : formatBrl(process.valorCausa)],
  ];
  return (
    <Modal title={`Processo ${process.numeroProcesso}`} onDismiss={onClose}>
      <dl className="service-facts">
        {facts.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <div className="service-dialog__actions">
        {process.linkProcesso && (
          <a className="button button--secondary" href={process.linkProcesso} target="_blank" rel="noopener noreferrer">
            Acompanhar processo
          </a>
        )}
        <button type="button" className="button button--primary" onClick={onClose}>
          {CLOSE_BUTTON}
        </button>
      </div>
    </Modal>
  );
}

export function ServiceProcessesPage({ desk }: { desk: CaseDesk }) {
  const processes = useProcesses(desk);
  const [open, setOpen] = useState<CaseProcess | null>(null);
  const list = processes.data ?? [];
  const legal = desk === "legal";

  let body;
  if (processes.isPending) {
    body = <Skeletons label="Carregando processos" count={5} className="service-cards" itemClassName="service-skeletons__item skeleton-shimmer" />;
  } else if (legal) {
    const collective = list.filter((process) => process.publicadoPortal);
    const personal = list.filter((process) => !process.publicadoPortal);
    body = (
      <>
        <section aria-labelledby="service-collective">
          <h2 id="service-collective" className="service-section__title">
            {COLLECTIVE_TITLE}
          </h2>
          <ProcessList label={COLLECTIVE_TITLE} processes={collective} empty={NO_COLLECTIVE_TEXT} onOpen={setOpen} />
        </section>
        <section aria-labelledby="service-personal">
          <h2 id="service-personal" className="service-section__title">
            {PERSONAL_TITLE}
          </h2>
          <ProcessList label={PERSONAL_TITLE} processes={personal} empty={NO_PERSONAL_TEXT} onOpen={setOpen} />
        </section>
      </>
    );
  } else {
    body = <ProcessList label={PROCESSES_TITLE} processes={list} empty={NO_PROCESSES_TEXT} onOpen={setOpen} />;
  }

  return (
    <section className="service-page">
      <h1 className="page-title">{PROCESSES_TITLE}</h1>
      {body}
      {open && <ProcessDialog process={open} withTitle={legal} onClose={() => setOpen(null)} />}
    </section>
  );
}
