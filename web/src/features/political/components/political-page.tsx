// /homepage/politico-sindical (spec 002 "Political"): the union desk's landing, leading to
// its themes, the suggestion form and its other pages. Only where the station offers it
// (`political_access`: routes.tsx gates it).
import { Link } from "react-router";
import { ListPage } from "@/components/list-page";
import { POLITICAL_PATH, SUGGEST_PATH, THEMES_PATH } from "@/features/political/paths";
import "./political.css";

export const POLITICAL_TITLE = "Político-sindical";

/** The desk's other pages (spec 002 "Political"), made of the desks' shared pages. */
const MORE_PAGES = [
  { path: "noticias", label: "Notícias" },
  { path: "cafe-com-politica", label: "Café com Política" },
  { path: "transforma", label: "Transforma" },
  { path: "contato", label: "Contato" },
  { path: "informacoes", label: "Informações" },
];

export function PoliticalPage() {
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
      <nav aria-label="Mais do político-sindical">
        <ul className="political-more">
          {MORE_PAGES.map(({ path, label }) => (
            <li key={path}>
              <Link to={`${POLITICAL_PATH}/${path}`}>{label}</Link>
            </li>
          ))}
        </ul>
      </nav>
    </ListPage>
  );
}
