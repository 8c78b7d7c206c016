// /homepage/politico-sindical/temas/sugerir (spec 002 route line 22): the 'Sugerir tema'
// form on a page of its own; once sent, back to the themes. Only with `political_access`
// (routes.tsx gates it).
import { useNavigate } from "react-router";
import { ListPage } from "@/components/list-page";
import { SuggestThemeForm, SUGGEST_TITLE } from "@/features/political/components/suggest-theme-form";
import { THEMES_PATH } from "@/features/political/paths";
import "./political.css";

export function SuggestThemePage() {
  const navigate = useNavigate();
  return (
    <ListPage title={SUGGEST_TITLE}>
      <p className="political-intro">Conte qual tema você gostaria que o sindicato acompanhasse.</p>
      <SuggestThemeForm onSent={() => void navigate(THEMES_PATH)} onCancel={() => void navigate(THEMES_PATH)} />
    </ListPage>
  );
}
