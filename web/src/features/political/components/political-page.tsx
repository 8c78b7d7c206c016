// /homepage/politico-sindical (spec 002 "Political"): the union desk's landing, leading to
// its themes and the suggestion form. Only where the station offers it (`political_access`).
import { Link } from "react-router";
import { ListPage } from "@/components/list-page";
import { NotFoundPage } from "@/components/not-found-page";
import { useStation } from "@/features/stations";
import { SUGGEST_PATH, THEMES_PATH } from "@/features/political/paths";
import "./political.css";

export const POLITICAL_TITLE = "Político-sindical";

export function PoliticalPage() {
  const shown = useStation().political_access;
  if (!shown) return <NotFoundPage />;
  return (
    <ListPage title={POLITICAL_TITLE}>
      <p className="political-intro">Acompanhe os temas em que o sindicato atua e sugira novos temas de interesse.</p>
      <ul className="political-sections">
        <li>
          <article className="political-section" aria-labelledby="political-section-temas">
            <h2 id="political-section-temas">Temas de interesse</h2>
            <p>As pautas acompanhadas pelo sindicato, com seus posicionamentos, ações e processos.</p>
            <Link className="button button--primary" to={THEMES_PATH}>
              Ver temas
            </Link>
          </article>
        </li>
        <li>
          <article className="political-section" aria-labelledby="political-section-sugerir">
            <h2 id="political-section-sugerir">Sugerir tema</h2>
            <p>Indique um assunto que o sindicato deveria acompanhar.</p>
            <Link className="button button--secondary" to={SUGGEST_PATH}>
              Sugerir um tema
            </Link>
          </article>
        </li>
      </ul>
    </ListPage>
  );
}
