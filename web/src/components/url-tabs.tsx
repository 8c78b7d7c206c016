// Tabs whose choice is kept in the address (?aba=…), so a reload or a shared link shows the
// same panel: the statement's, the top-up page's and the fuel campaign's. WAI-ARIA tabs pattern, arrow keys move
// between the tabs and selection follows focus.
import { useId, useRef, type KeyboardEvent, type ReactNode } from "react";
import { useSearchParams } from "react-router";
import "./url-tabs.css";

export const TAB_PARAM = "aba";

export interface UrlTab<Id extends string> {
  id: Id;
  label: string;
}

interface UrlTabsProps<Id extends string> {
  /** The first is shown when the address names none (or an unknown one). */
  tabs: readonly [UrlTab<Id>, ...UrlTab<Id>[]];
  /** The tab list's accessible name. */
  label: string;
  /** The current tab's panel; `select` lets it switch tab. */
  children: (current: Id, select: (id: Id) => void) => ReactNode;
}

/** The tabs pattern's keys: arrows move round the list, Home and End go to its ends. */
function targetIndex(key: string, index: number, count: number): number | null {
  switch (key) {
    case "ArrowRight":
      return (index + 1) % count;
    case "ArrowLeft":
      return (index + count - 1) % count;
    case "Home":
      return 0;
    case "End":
      return count - 1;
    default:
      return null;
  }
}

export function UrlTabs<Id extends string>({ tabs, label, children }: UrlTabsProps<Id>) {
  const [searchParams, setSearchParams] = useSearchParams();
  const asked = searchParams.get(TAB_PARAM);
  const current = (tabs.find((tab) => tab.id === asked) ?? tabs[0]).id;
  const baseId = useId();
  const tabRefs = useRef(new Map<Id, HTMLButtonElement>());

  const select = (tab: Id) => {
    setSearchParams(
      (params) => {
        params.set(TAB_PARAM, tab);
        return params;
      },
      { replace: true },
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((tab) => tab.id === current);
    const at = targetIndex(event.key, index, tabs.length);
    if (at === null) return;
    event.preventDefault();
    const next = tabs[at];
    if (!next) return;
    select(next.id);
    tabRefs.current.get(next.id)?.focus();
  };

  return (
    <>
      <div className="url-tabs" role="tablist" aria-label={label} onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab.id}
            ref={(element) => {
              if (element) tabRefs.current.set(tab.id, element);
              else tabRefs.current.delete(tab.id);
            }}
            type="button"
            role="tab"
            id={`${baseId}-${tab.id}-tab`}
            className="url-tabs__tab"
            aria-selected={tab.id === current}
            aria-controls={`${baseId}-${tab.id}-panel`}
            tabIndex={tab.id === current ? 0 : -1}
            onClick={() => select(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div className="url-tabs__panel" role="tabpanel" id={`${baseId}-${current}-panel`} aria-labelledby={`${baseId}-${current}-tab`}>
        {children(current, select)}
      </div>
    </>
  );
}
