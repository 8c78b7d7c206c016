// /homepage/politico-sindical/temas (spec 002 "Political"): 'Temas de interesse', the
// station's published themes as cards, each opening its detail in a dialog; 'Sugerir tema'
// opens the suggestion dialog. Empty: 'Não foram encontrados temas.'. Only where the station
// offers the political desk (`political_access`: routes.tsx gates it), as the API's 404.
import { useState } from "react";
import { Link } from "react-router";
import { ListPage, Skeletons } from "@/components/list-page";
import { Modal } from "@/components/modal";
import { usePoliticalThemes } from "@/features/political/api/political";
import type { PoliticalTheme } from "@/types/api";
import { SuggestThemeForm, SUGGEST_TITLE } from "@/features/political/components/suggest-theme-form";
import { ThemeDialog } from "@/features/political/components/theme-dialog";
import { POLITICAL_PATH } from "@/features/political/paths";
import "./political.css";

export const THEMES_TITLE = "Temas de interesse";
export const NO_THEMES_TEXT = "Não foram encontrados temas.";
export const THEMES_FAILED_TEXT = "Não foi possível carregar os temas.";
export const RETRY_BUTTON = "Tentar novamente";

function ThemeCard({ theme, onOpen }: { theme: PoliticalTheme; onOpen: () => void }) {
  const titleId = `political-theme-${theme.id}`;
  return (
    <li>
      <article className="political-theme" aria-labelledby={titleId}>
        {theme.tipo_tema ? <p className="political-theme__kind">{theme.tipo_tema}</p> : null}
        <h2 id={titleId} className="political-theme__title">
          {theme.titulo}
        </h2>
        <p className="political-theme__description">{theme.descricao}</p>
        <button type="button" className="button button--secondary political-theme__open" onClick={onOpen} aria-describedby={titleId}>
          Ver detalhes
        </button>
      </article>
    </li>
  );
}

function ThemesList() {
  const themes = usePoliticalThemes();
  const [openId, setOpenId] = useState<number | null>(null);
  if (themes.isPending) {
    return <Skeletons label="Carregando temas" count={6} className="political-themes" itemClassName="political-themes__skeleton skeleton-shimmer" />;
  }
  if (themes.isError) {
    return (
      <div className="political-failed">
        <p role="alert">{THEMES_FAILED_TEXT}</p>
        <button type="button" className="button button--secondary" onClick={() => void themes.refetch()}>
          {RETRY_BUTTON}
        </button>
      </div>
    );
  }
  if (themes.data.length === 0) return <p className="list-page__empty">{NO_THEMES_TEXT}</p>;
  const open = themes.data.find((theme) => theme.id === openId) ?? null;
  return (
    <>
      <ul className="political-themes">
        {themes.data.map((theme) => (
          <ThemeCard key={theme.id} theme={theme} onOpen={() => setOpenId(theme.id)} />
        ))}
      </ul>
      {open ? <ThemeDialog theme={open} onClose={() => setOpenId(null)} /> : null}
    </>
  );
}

export function ThemesPage() {
  const [suggesting, setSuggesting] = useState(false);
  return (
    <ListPage title={THEMES_TITLE}>
      <div className="political-actions">
        <button type="button" className="button button--primary" onClick={() => setSuggesting(true)}>
          {SUGGEST_TITLE}
        </button>
        <Link to={POLITICAL_PATH}>Voltar para Político-sindical</Link>
      </div>
      <ThemesList />
      {suggesting ? (
        <Modal title={SUGGEST_TITLE} onDismiss={() => setSuggesting(false)}>
          <SuggestThemeForm onSent={() => setSuggesting(false)} onCancel={() => setSuggesting(false)} />
        </Modal>
      ) : null}
    </ListPage>
  );
}
