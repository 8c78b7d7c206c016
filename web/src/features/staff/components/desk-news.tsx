// The 'Notícias' tab of the legal, accounting and political desks: staff publish a news item
// for the desk's page, carrying the desk's tag (legal 13752, accounting 13754, political
// 13755); the body is HTML, cleaned by the server. Viewers cannot publish.
import { useId, useState } from "react";
import { FieldError, TextField, bindText } from "@/components/form/fields";
import { useForm, type FormRules } from "@/components/form/use-form";
import { useSnackbar } from "@/components/toasts/use-toast";
import { usePublishDeskNews } from "@/features/staff/api/desk";
import { OpsEmpty } from "@/features/staff/components/ops-states";
import { DESK_LABELS, DESK_NEWS_TAGS, type DeskGrant } from "@/features/staff/desk-labels";
import { toastForError } from "@/lib/api-client";
import { required } from "@/lib/validators";

export const NEWS_PUBLISHED = "Notícia publicada.";

interface NewsValues {
  title: string;
  subtitle: string;
  body: string;
}

const EMPTY: NewsValues = { title: "", subtitle: "", body: "" };

const RULES: FormRules<NewsValues> = {
  title: [(value) => required(value.trim())],
  body: [(value) => required(value.trim())],
};

function NewsForm({ grant, tag, onPublished }: { grant: DeskGrant; tag: number; onPublished: () => void }) {
  const form = useForm<NewsValues>(EMPTY, RULES);
  const publish = usePublishDeskNews(grant.station_id);
  const showSnackbar = useSnackbar();
  const bodyId = useId();
  const body = bindText(form, "body");
  return (
    <form
      className="desk-form desk-form--single"
      noValidate
      onSubmit={form.handleSubmit((values) =>
        publish.mutate(
          { title: values.title.trim(), subtitle: values.subtitle.trim(), body: values.body.trim(), tags: [tag] },
          {
            onSuccess: () => {
              showSnackbar(NEWS_PUBLISHED);
              onPublished();
            },
          },
        ),
      )}
    >
      <TextField label="Título" {...bindText(form, "title")} />
      <TextField label="Subtítulo" {...bindText(form, "subtitle")} />
      <div className="field">
        <label className="field__label" htmlFor={bodyId}>
          Texto
        </label>
        <textarea
          id={bodyId}
          className="field__input"
          rows={10}
          value={body.value}
          aria-invalid={body.error ? true : undefined}
          aria-describedby={`${bodyId}-hint${body.error ? ` ${bodyId}-error` : ""}`}
          onChange={(event) => body.onChange(event.target.value)}
          onBlur={body.onBlur}
        />
        <span id={`${bodyId}-hint`} className="field__hint">
          Aceita HTML simples: parágrafos (&lt;p&gt;), negrito, listas e links.
        </span>
        <FieldError id={`${bodyId}-error`} error={body.error} />
      </div>
      {publish.isError && (
        <p className="ops-error-summary" role="alert">
          {toastForError(publish.error).text}
        </p>
      )}
      <div className="ops-actions">
        <button type="submit" className="button button--primary" disabled={publish.isPending} aria-busy={publish.isPending}>
          Publicar notícia
        </button>
      </div>
    </form>
  );
}

export function DeskNews({ grant }: { grant: DeskGrant }) {
  // A new, empty form after each publication.
  const [formKey, setFormKey] = useState(0);
  const tag = DESK_NEWS_TAGS[grant.desk];
  if (tag === null) return <OpsEmpty text="Este atendimento não tem página de notícias." />;
  if (!grant.can_act) return <OpsEmpty text="Seu perfil não permite publicar notícias neste atendimento." />;
  return (
    <section className="ops-card" aria-labelledby="desk-news-title">
      <h2 className="desk-card__title" id="desk-news-title">
        Publicar notícia
      </h2>
      <p className="ops-muted">
        A notícia aparece em 'Notícias' da página {DESK_LABELS[grant.desk]} dos membros da estação {grant.station_name}.
      </p>
      <NewsForm key={formKey} grant={grant} tag={tag} onPublished={() => setFormKey((key) => key + 1)} />
    </section>
  );
}
