import type { ReactNode } from 'react';

/** The demo page's header, shared by its views: the brand, a title and a line about the view, then `children` (links, origins). */
export function DemoHeader({ title, description, children }: { title: ReactNode; description: ReactNode; children?: ReactNode }) {
  return (
    <header className="demo-header">
      <div className="brand">
        <span className="logo" aria-hidden="true">
          ▶
        </span>
        <div>
          <h1>{title}</h1>
          <p>{description}</p>
        </div>
      </div>
      {children}
    </header>
  );
}

/** A link to another demo view that keeps the `?host=` the page was opened with. */
export const viewHref = (view: string, embedHost: string): string =>
  `/?view=${view}${location.search.includes('host=') ? `&host=${encodeURIComponent(embedHost)}` : ''}`;
