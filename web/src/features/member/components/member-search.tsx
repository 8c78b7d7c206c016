import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";

/** Searches the member area at /homepage/search/{term}; an empty or blank term goes nowhere. */
export function MemberSearch() {
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
        aria-label="Termo de busca"
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
