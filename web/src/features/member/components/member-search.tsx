import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";

interface MemberSearchProps {
  /** The field's accessible name (the top bar's and /homepage/search's differ). */
  label?: string;
  /** Ties the field to a hint shown beside the form. */
  describedBy?: string;
}

/** Searches the member area at /homepage/search/{term}; an empty or blank term goes nowhere. */
export function MemberSearch({ label = "Termo de busca", describedBy }: MemberSearchProps = {}) {
  const navigate = useNavigate();
  const [term, setTerm] = useState("");
  const trimmed = term.trim();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (trimmed === "") return;
    void navigate(`/homepage/search/${encodeURIComponent(trimmed)}`);
  };

  return (
    <form role="search" className="member-search" onSubmit={onSubmit}>
      <input
        type="search"
        className="member-search__input"
        aria-label={label}
        aria-describedby={describedBy}
        placeholder="Buscar..."
        value={term}
        onChange={(event) => setTerm(event.target.value)}
      />
      <button type="submit" className="member-search__button" disabled={trimmed === ""}>
        Buscar
      </button>
    </form>
  );
}
