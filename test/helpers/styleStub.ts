/** A stylesheet a view imports, under Jest: Vite bundles the real one; jsdom lays nothing out, so it is empty. */
export {};
