import { Link } from "react-router";

/** What a page shows when its activity or category does not exist for the member. */
export function NotFoundView({ homePath = "/homepage" }: { homePath?: string }) {
  return (
    <section className="activities-not-found">
      <h1 className="page-title">Página não encontrada</h1>
      <p>Erro! Esta atividade não está disponível.</p>
      <Link className="button button--primary" to={homePath}>
        Página inicial
      </Link>
    </section>
  );
}
