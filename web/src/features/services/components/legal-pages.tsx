// /homepage/consultoria-juridica and its pages (spec 002 "Legal consultancy"), made of the
// shared service pages. routes.tsx shows them only where the station offers the desk.
import { ServiceAppointmentsPage } from "@/features/services/components/service-appointments-page";
import { ServiceContactsPage, ServiceTextPage, ServiceVideosPage } from "@/features/services/components/service-content";
import { ServiceEventsPage } from "@/features/services/components/service-events-page";
import { ServiceLanding, type ServiceLink } from "@/features/services/components/service-landing";
import { ServiceNewsPage } from "@/features/services/components/service-news-page";
import { ServiceProcessesPage } from "@/features/services/components/service-processes-page";
import { DESK_PATHS } from "@/features/services/desks";

export const LEGAL_TITLE = "Consultoria Jurídica";
const BASE = DESK_PATHS.legal;

/** The spec's words on who the service is for and when it attends. */
export const LEGAL_ATTENDANCE = [
  "O serviço jurídico é destinado aos filiados: a assistência jurídica é gratuita e exclusiva para filiados. O atendimento na área criminal é destinado aos policiais legislativos em serviço.",
  "Atendimento de segunda a sexta-feira, das 9h às 18h. Os advogados atendem às segundas, quartas e sextas-feiras, das 9h às 13h, mediante agendamento.",
];

const LEGAL_LINKS: ServiceLink[] = [
  { to: `${BASE}/processos`, label: "Processos", description: "Suas causas coletivas e pessoais" },
  { to: `${BASE}/agendamentos`, label: "Agendamentos", description: "Seus atendimentos e novas solicitações" },
  { to: `${BASE}/orientacoes`, label: "Orientações", description: "Como usar o serviço" },
  { to: `${BASE}/contato`, label: "Contato", description: "Quem atende" },
  { to: `${BASE}/informacoes`, label: "Informações" },
  { to: `${BASE}/videos`, label: "Vídeos" },
  { to: `${BASE}/noticias`, label: "Notícias" },
  { to: `${BASE}/eventos`, label: "Eventos" },
];

export function LegalLandingPage() {
  return (
    <ServiceLanding
      desk="legal"
      title={LEGAL_TITLE}
      intro={LEGAL_ATTENDANCE.map((text) => (
        <p key={text}>{text}</p>
      ))}
      links={LEGAL_LINKS}
    />
  );
}

export const LegalProcessesPage = () => <ServiceProcessesPage desk="legal" />;
export const LegalAppointmentsPage = () => <ServiceAppointmentsPage desk="legal" />;
export const LegalGuidancePage = () => <ServiceTextPage desk="legal" field="orientacoes" title="Orientações" />;
export const LegalContactsPage = () => <ServiceContactsPage desk="legal" />;
export const LegalInformationPage = () => <ServiceTextPage desk="legal" field="informacoes" title="Informações" />;
export const LegalVideosPage = () => <ServiceVideosPage desk="legal" slug="videos" title="Vídeos" />;
export const LegalNewsPage = () => <ServiceNewsPage desk="legal" />;
export const LegalEventsPage = () => <ServiceEventsPage title="Eventos" />;
