// /homepage/consultoria-contabil and its pages (spec 002 "Accounting consultancy"), made of
// the shared service pages. routes.tsx shows them only where the station offers the desk.
import { ServiceAppointmentsPage } from "@/features/services/components/service-appointments-page";
import { ServiceContactsPage, ServiceTextPage } from "@/features/services/components/service-content";
import { ServiceEventsPage } from "@/features/services/components/service-events-page";
import { ServiceLanding, type ServiceLink } from "@/features/services/components/service-landing";
import { ServiceNewsPage } from "@/features/services/components/service-news-page";
import { ServiceProcessesPage } from "@/features/services/components/service-processes-page";
import { DESK_PATHS } from "@/features/services/desks";

export const ACCOUNTING_TITLE = "Consultoria Contábil";
const BASE = DESK_PATHS.accounting;

export const ACCOUNTING_ATTENDANCE = [
  "A consultoria contábil atende às quintas-feiras, das 9h às 18h, mediante agendamento.",
  "Seus processos e agendamentos são encontrados pelo CPF do seu cadastro.",
];

const ACCOUNTING_LINKS: ServiceLink[] = [
  { to: `${BASE}/processos`, label: "Processos", description: "Seus processos" },
  { to: `${BASE}/agendamentos`, label: "Agendamentos", description: "Seus atendimentos e novas solicitações" },
  { to: `${BASE}/orientacoes`, label: "Orientações", description: "Como usar o serviço" },
  { to: `${BASE}/contato`, label: "Contato", description: "Quem atende" },
  { to: `${BASE}/informacoes`, label: "Informações" },
  { to: `${BASE}/noticias`, label: "Notícias" },
  { to: `${BASE}/eventos`, label: "Eventos" },
];

export function AccountingLandingPage() {
  return (
    <ServiceLanding
      desk="accounting"
      title={ACCOUNTING_TITLE}
      intro={ACCOUNTING_ATTENDANCE.map((text) => (
        <p key={text}>{text}</p>
      ))}
      links={ACCOUNTING_LINKS}
    />
  );
}

export const AccountingProcessesPage = () => <ServiceProcessesPage desk="accounting" />;
export const AccountingAppointmentsPage = () => <ServiceAppointmentsPage desk="accounting" />;
export const AccountingGuidancePage = () => <ServiceTextPage desk="accounting" field="orientacoes" title="Orientações" />;
export const AccountingContactsPage = () => <ServiceContactsPage desk="accounting" />;
export const AccountingInformationPage = () => <ServiceTextPage desk="accounting" field="informacoes" title="Informações" />;
export const AccountingNewsPage = () => <ServiceNewsPage desk="accounting" />;
export const AccountingEventsPage = () => <ServiceEventsPage title="Eventos" />;
