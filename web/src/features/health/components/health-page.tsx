// /homepage/saude (spec 002 "Health"): the health desk's three services, each with its
// request form and its info page. Only where the station offers health (routes.tsx gates it).
import { Link } from "react-router";
import { ListPage } from "@/components/list-page";
import { formPath, HEALTH_SERVICES, infoPath } from "@/features/health/services";
import "./health.css";

export const HEALTH_TITLE = "Saúde";

export function HealthPage() {
  return (
    <ListPage title={HEALTH_TITLE}>
      <p className="health-intro">
        Solicite um atendimento de saúde: escolha o serviço e o dia de sua preferência, e nossa equipe entra em contato para
        confirmar o horário.
      </p>
      <ul className="health-services">
        {HEALTH_SERVICES.map((service) => (
          <li key={service.id}>
            <article className="health-service" aria-labelledby={`health-service-${service.id}`}>
              <h2 id={`health-service-${service.id}`} className="health-service__name">
                {service.name}
              </h2>
              <p className="health-service__days">Atendimento {service.daysText}.</p>
              <div className="health-actions">
                <Link className="button button--primary" to={formPath(service)}>
                  Agendar {service.name}
                </Link>
                <Link className="button button--secondary" to={infoPath(service)}>
                  Informações sobre {service.name}
                </Link>
              </div>
            </article>
          </li>
        ))}
      </ul>
    </ListPage>
  );
}
