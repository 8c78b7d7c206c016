// A theme's detail (spec 002 "Political", "Political theme"): its description, who it
// concerns (interessados), the highlighted items with the union's position, the union's
// actions and the court cases. Sections without entries are left out.
import { Modal } from "@/components/modal";
import type { PoliticalTheme } from "@/types/api";
import { formatCivilDate, formatDate } from "@/lib/dates";

/** A civil date ("2025-03-14") as DD/MM/AAAA, without a time zone moving it a day; any other text as it came. */
export function formatActionDate(value: string): string {
  return formatCivilDate(value, formatDate(value, value));
}

export function ThemeDialog({ theme, onClose }: { theme: PoliticalTheme; onClose: () => void }) {
  return (
    <Modal title={theme.titulo} onDismiss={onClose}>
      <div className="political-theme-detail">
        {theme.tipo_tema ? <p className="political-theme__kind">{theme.tipo_tema}</p> : null}
        <p>{theme.descricao}</p>
        {theme.interessados.length > 0 ? (
          <section aria-labelledby={`theme-${theme.id}-interessados`}>
            <h3 id={`theme-${theme.id}-interessados`}>Interessados</h3>
            <ul>
              {theme.interessados.map((who) => (
                <li key={who}>{who}</li>
              ))}
            </ul>
          </section>
        ) : null}
        {theme.itens_destaque.length > 0 ? (
          <section aria-labelledby={`theme-${theme.id}-itens`}>
            <h3 id={`theme-${theme.id}-itens`}>Itens em destaque</h3>
            <dl className="political-theme-detail__pairs">
              {theme.itens_destaque.map((item, index) => (
                <div key={index}>
                  <dt>{item.descricao_item}</dt>
                  <dd>{item.posicionamento}</dd>
                </div>
              ))}
            </dl>
          </section>
        ) : null}
        {theme.acoes_sindicato.length > 0 ? (
          <section aria-labelledby={`theme-${theme.id}-acoes`}>
            <h3 id={`theme-${theme.id}-acoes`}>Ações do sindicato</h3>
            <dl className="political-theme-detail__pairs">
              {theme.acoes_sindicato.map((action, index) => (
                <div key={index}>
                  <dt>{formatActionDate(action.data_acao)}</dt>
                  <dd>{action.descricao_acao}</dd>
                </div>
              ))}
            </dl>
          </section>
        ) : null}
        {theme.processos.length > 0 ? (
          <section aria-labelledby={`theme-${theme.id}-processos`}>
            <h3 id={`theme-${theme.id}-processos`}>Processos</h3>
            <dl className="political-theme-detail__pairs">
              {theme.processos.map((process, index) => (
                <div key={index}>
                  <dt>{process.identificacao_processo}</dt>
                  <dd>{process.tribunalOrgao}</dd>
                </div>
              ))}
            </dl>
          </section>
        ) : null}
        <div className="political-actions">
          <button type="button" className="button button--secondary" onClick={onClose}>
            Fechar
          </button>
        </div>
      </div>
    </Modal>
  );
}
