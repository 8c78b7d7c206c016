// /homepage/saude/agendamento-odontologia-info, -psicologia-info and -nutricionista-info
// (spec 002 "Health"): the co-payment cashback (50% of the co-payment paid, credited to the
// wallet within 90 days), the start of the service (24/03/2025), the days it attends (the
// dental clinic's hours, the dental plan's 100+ providers) and who may use it (dependents of
// conventioned plans up to 21, or 24 when studying). Only where the station offers health
// (routes.tsx gates it).
import { Link } from "react-router";
import { ListPage } from "@/components/list-page";
import { BackToHealth } from "@/features/health/components/health-nav";
import { formPath, healthService, type HealthService, type HealthServiceId } from "@/features/health/services";
import "./health.css";

export const CASHBACK_TEXT =
  "Você recebe de volta, como cashback, 50% do valor da coparticipação paga, creditado na sua carteira em até 90 dias.";
export const START_TEXT = "O serviço começa em 24/03/2025.";
export const DEPENDENTS_TEXT =
  "Dependentes dos planos conveniados também podem usar os serviços, com idade limite de 21 anos, ou 24 anos se estiverem estudando.";
export const DENTAL_CLINIC_TEXT =
  "A clínica odontológica atende de segunda a sexta-feira, das 8h às 18h, e aos sábados, das 9h às 13h.";
export const DENTAL_PLAN_TEXT = "O plano odontológico conta com mais de 100 prestadores credenciados.";

function attendanceTexts(service: HealthService): string[] {
  if (service.id === "dental") return [DENTAL_CLINIC_TEXT, DENTAL_PLAN_TEXT];
  return [`Os atendimentos acontecem ${service.daysText}, com horário confirmado pela nossa equipe.`];
}

export function HealthInfoPage({ serviceId }: { serviceId: HealthServiceId }) {
  const service = healthService(serviceId);
  return (
    <ListPage title={service.infoTitle}>
      <section className="health-info" aria-labelledby="health-info-service">
        <h2 id="health-info-service">Atendimento</h2>
        {attendanceTexts(service).map((text) => (
          <p key={text}>{text}</p>
        ))}
        <p>{START_TEXT}</p>
      </section>
      <section className="health-info" aria-labelledby="health-info-cashback">
        <h2 id="health-info-cashback">Cashback da coparticipação</h2>
        <p>{CASHBACK_TEXT}</p>
      </section>
      <section className="health-info" aria-labelledby="health-info-dependents">
        <h2 id="health-info-dependents">Dependentes</h2>
        <p>{DEPENDENTS_TEXT}</p>
      </section>
      <div className="health-actions">
        <Link className="button button--primary" to={formPath(service)}>
          Solicitar agendamento
        </Link>
        <BackToHealth />
      </div>
    </ListPage>
  );
}
