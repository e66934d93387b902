/** What a stylesheet import is in the unit tests (jest.config.ts maps `*.css` here): nothing. */
export {};
