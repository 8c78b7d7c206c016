// One research question as a form field, its text as the label: choices (with 'Outro' and
// its text for types 4 and 5), free text with its counter, or a video or file to upload.
// A single choice refuses a second option with the spec's snackbar instead of switching.
import { useId, type CSSProperties, type ReactNode } from "react";
import { useSnackbar } from "@/components/toasts/use-toast";
import { FieldError, TextField } from "@/components/form/fields";
import {
  acceptedFiles,
  hasOther,
  isChoice,
  isFileQuestion,
  isSingleChoice,
  ONE_OPTION_ONLY_TEXT,
  TEXT_LIMIT,
  type Draft,
} from "@/features/activities/research-answers";
import type { ResearchAnswer, ResearchOption, ResearchQuestion } from "@/types/api";
import "./research.css";

export const OTHER_LABEL = "Outro";
export const OTHER_TEXT_LABEL = "Especifique";
export const SAVED_FILE_TEXT = "Arquivo enviado:";

/** The colours the research gives a question or an option. */
export function colorsOf(item: Pick<ResearchOption, "color" | "textColor">): CSSProperties {
  return { backgroundColor: item.color ?? undefined, color: item.textColor ?? undefined };
}

function characterCount(text: string): number {
  return [...text].length;
}

export interface QuestionInputProps {
  question: ResearchQuestion;
  draft: Draft;
  onChange: (draft: Draft) => void;
  error?: string;
  /** The answer on the server (a file uploaded before). */
  saved?: ResearchAnswer;
  /** Options that may no longer be chosen (a quiz's wrong ones). */
  disabledOptions?: readonly number[];
  /** Nothing may change (a quiz question answered right, a save under way). */
  locked?: boolean;
}

export function QuestionInput(props: QuestionInputProps) {
  const { question } = props;
  if (isChoice(question)) return <ChoiceInput {...props} />;
  if (isFileQuestion(question)) return <FileInput {...props} />;
  return <TextInput {...props} />;
}

/** The question's text, marked when an answer is required (multiple choice is not, spec 001). */
export function QuestionText({ question }: { question: ResearchQuestion }) {
  return (
    <>
      {question.question}
      {question.required && (
        <span className="research-question__required" aria-hidden="true">
          {" *"}
        </span>
      )}
    </>
  );
}

export function QuestionImage({ question }: { question: ResearchQuestion }) {
  return question.image ? <img className="research-question__image" src={question.image} alt="" /> : null;
}

/** A question's box, in the research's colours. */
export function QuestionBox({ question, children }: { question: ResearchQuestion; children: ReactNode }) {
  return (
    <div className="research-question" style={colorsOf(question)}>
      {children}
    </div>
  );
}

function ChoiceInput({ question, draft, onChange, error, disabledOptions = [], locked = false }: QuestionInputProps) {
  const showSnackbar = useSnackbar();
  const errorId = `${useId()}-error`;
  const single = isSingleChoice(question);
  const chosenCount = draft.options.length + (draft.other === null ? 0 : 1);

  // A single choice takes a second option only once the first is unticked (spec 001 "Survey").
  const mayAdd = () => {
    if (single && chosenCount > 0) {
      showSnackbar(ONE_OPTION_ONLY_TEXT);
      return false;
    }
    return true;
  };
  const toggle = (id: number) => {
    if (draft.options.includes(id)) onChange({ ...draft, options: draft.options.filter((chosen) => chosen !== id) });
    else if (mayAdd()) onChange({ ...draft, options: [...draft.options, id] });
  };
  const toggleOther = () => {
    if (draft.other !== null) onChange({ ...draft, other: null });
    else if (mayAdd()) onChange({ ...draft, other: "" });
  };

  return (
    <QuestionBox question={question}>
      <fieldset className="research-choices" aria-describedby={error ? errorId : undefined}>
        <legend className="research-question__text">
          <QuestionText question={question} />
        </legend>
        <QuestionImage question={question} />
        {question.options.map((option) => (
          <label key={option.id} className="research-choice" style={colorsOf(option)}>
            <input
              type="checkbox"
              checked={draft.options.includes(option.id)}
              disabled={locked || disabledOptions.includes(option.id)}
              onChange={() => toggle(option.id)}
            />
            {option.image && <img className="research-choice__image" src={option.image} alt="" />}
            <span>{option.label}</span>
          </label>
        ))}
        {hasOther(question) && (
          <label className="research-choice">
            <input type="checkbox" checked={draft.other !== null} disabled={locked} onChange={toggleOther} />
            <span>{OTHER_LABEL}</span>
          </label>
        )}
      </fieldset>
      {draft.other !== null && (
        <TextField
          label={OTHER_TEXT_LABEL}
          value={draft.other}
          maxLength={TEXT_LIMIT}
          disabled={locked}
          onChange={(other) => onChange({ ...draft, other })}
        />
      )}
      <FieldError id={errorId} error={error} />
    </QuestionBox>
  );
}

function TextInput({ question, draft, onChange, error, locked = false }: QuestionInputProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const counterId = `${id}-counter`;
  return (
    <QuestionBox question={question}>
      <div className="field">
        <label className="field__label research-question__text" htmlFor={id}>
          <QuestionText question={question} />
        </label>
        <QuestionImage question={question} />
        <textarea
          id={id}
          className="field__input research-text"
          rows={5}
          maxLength={TEXT_LIMIT}
          value={draft.text}
          disabled={locked}
          aria-required={question.required}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${counterId} ${errorId}` : counterId}
          onChange={(event) => onChange({ ...draft, text: event.target.value })}
        />
        <span id={counterId} className="field__hint research-text__counter">
          {characterCount(draft.text)}/{TEXT_LIMIT}
        </span>
        <FieldError id={errorId} error={error} />
      </div>
    </QuestionBox>
  );
}

function FileInput({ question, draft, onChange, error, saved, locked = false }: QuestionInputProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <QuestionBox question={question}>
      <div className="field">
        <label className="field__label research-question__text" htmlFor={id}>
          <QuestionText question={question} />
        </label>
        <QuestionImage question={question} />
        <input
          id={id}
          type="file"
          className="research-file"
          accept={acceptedFiles(question)}
          disabled={locked}
          aria-required={question.required}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => onChange({ ...draft, file: event.target.files?.[0] ?? null })}
        />
        {saved?.file && !draft.file && (
          <span className="field__hint">{`${SAVED_FILE_TEXT} ${saved.file.name}`}</span>
        )}
        <FieldError id={errorId} error={error} />
      </div>
    </QuestionBox>
  );
}
