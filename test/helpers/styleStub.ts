/** What a stylesheet import is under Jest: nothing (the browser tests see the styles). */
export {};
