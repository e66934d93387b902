// Browser tests wait on real playback and real network: a longer budget than unit tests.
jest.setTimeout(60_000);
