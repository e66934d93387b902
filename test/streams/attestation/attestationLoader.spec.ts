import { type Observable, filter, merge, switchMap, throwError } from 'rxjs';
import { attestationLoader, type AttestationLoaderOptions } from '../../../streams/attestation/attestationLoader';
import {
  BOTGUARD_LOAD_FAILED_MESSAGE,
  BOTGUARD_NO_PROGRAM_MESSAGE,
  isAttestationProgramUrl,
  type AttestationProgram,
  type AttestationSnapshot,
} from '../../../streams/attestation/attestationStates';
import { ATTESTATION_LOAD_TIMEOUT_MS, ATTESTATION_RUN_TIMEOUT_MS } from '../../../streams/timing';
import { createTestScheduler } from '../../helpers/testScheduler';

const URL = '/attestation/program.js';
const s = (state: 1 | 2 | 5 | 8): AttestationSnapshot => ({ state });
/** The states without their payload's function: ready is compared as "ready with some response()". */
const values = {
  i: s(1),
  l: s(2),
  u: { state: 3, message: BOTGUARD_LOAD_FAILED_MESSAGE, cause: expect.any(String) },
  p: { state: 4, message: BOTGUARD_NO_PROGRAM_MESSAGE, cause: expect.any(String) },
  r: s(5),
  y: { state: 6, response: expect.any(Function) },
  d: s(8),
} as const;

/** A program whose solve answers `answer(challenge)` (a cold observable per call). */
const programOf = (answer: (challenge: unknown) => Observable<string>): AttestationProgram => ({ solve: jest.fn(answer) });

const options = (over: Partial<AttestationLoaderOptions>): AttestationLoaderOptions => ({
  url: URL,
  loadScript: () => throwError(() => new Error('unexpected load')),
  startProgram: () => undefined,
  fetchChallenge: () => throwError(() => new Error('unexpected challenge')),
  ...over,
});

describe('attestationLoader', () => {
  it('uses its production timeouts (product choices, spec §4 names none)', () => {
    expect(ATTESTATION_LOAD_TIMEOUT_MS).toBe(10_000);
    expect(ATTESTATION_RUN_TIMEOUT_MS).toBe(10_000);
  });

  it('stays initial (1) and loads nothing until started', () => {
    const loadScript = jest.fn();
    createTestScheduler().run(({ hot, expectObservable }) => {
      expectObservable(attestationLoader(hot('-'), hot('-'), options({ loadScript })), '^ 60000ms !').toBe('i', values);
    });
    expect(loadScript).not.toHaveBeenCalled();
  });

  it('loads (2), runs the program (5) and is ready (6)', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const start = hot('   --s----------');
      const script = cold('   --l|');
      const challenge = cold('   -c|');
      const program = programOf((c) => cold('-t|', { t: `token-for-${c}` }));
      const loader$ = attestationLoader(start, hot('-'), options({ loadScript: () => script, startProgram: () => program, fetchChallenge: () => challenge }));
      // start at 2 → loading; script at 4 → running; challenge at 5, token at 6 → ready.
      expectObservable(loader$).toBe('i-l-r-y', values);
      // The script load and the first challenge end with their first value.
      expectSubscriptions(script.subscriptions).toBe('--^-!');
      expectSubscriptions(challenge.subscriptions).toBe('----^!');
    });
  });

  it('when ready, each response() fetches and solves a fresh challenge', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      let n = 0;
      const fetchChallenge = jest.fn(() => cold('-c|', { c: `c${++n}` }));
      const program = programOf((c) => cold('-t|', { t: `token-for-${c}` }));
      const loader$ = attestationLoader(hot('s'), hot('-'), options({ loadScript: () => cold('|'), startProgram: () => program, fetchChallenge }));
      // Ready at 2 (challenge c1 at 1, its token at 2); two response() calls then: challenges c2 and c3 at 3, tokens at 4.
      const responses$ = loader$.pipe(
        filter((x): x is Extract<AttestationSnapshot, { state: 6 }> => x.state === 6),
        switchMap((ready) => merge(ready.response(), ready.response())),
      );
      expectObservable(responses$).toBe('----(tu)', { t: 'token-for-c2', u: 'token-for-c3' });
    });
  });

  it('fails by URL (3) with "Unable to load Botguard" when the URL is missing or not root-relative', () => {
    const loadScript = jest.fn();
    createTestScheduler().run(({ hot, expectObservable }) => {
      for (const url of [undefined, '', 'https://elsewhere.example/program.js', '//elsewhere.example/p.js', 'program.js', '/\\evil']) {
        expectObservable(attestationLoader(hot('-s'), hot('-'), options({ url, loadScript }))).toBe('iu', values);
      }
    });
    expect(loadScript).not.toHaveBeenCalled();
    expect(isAttestationProgramUrl('/attestation/program.js?variant=throw')).toBe(true);
  });

  it('fails by URL (3) with "Unable to load Botguard" when the script fails to load', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const script = cold('-----#', {}, new Error('404'));
      const startProgram = jest.fn();
      expectObservable(attestationLoader(hot('s'), hot('-'), options({ loadScript: () => script, startProgram }))).toBe('(il)-u', {
        ...values,
        u: { state: 3, message: BOTGUARD_LOAD_FAILED_MESSAGE, cause: '404' },
      });
      expect(startProgram).not.toHaveBeenCalled();
    });
  });

  it('fails by URL (3) when the script neither loads nor fails within 10 s (production constant)', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const script = cold('-');
      // started at 0: (il) takes frames 0–3 of the diagram, so 9996 ms more brings the timeout's 'u' to frame 10 000.
      expectObservable(attestationLoader(hot('s'), hot('-'), options({ loadScript: () => script }))).toBe('(il) 9996ms u', values);
      expectSubscriptions(script.subscriptions).toBe('^ 9999ms !');
    });
  });

  it('fails by script (4) with "Cannot initialize botguard without program" when the script gave no program', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const fetchChallenge = jest.fn();
      const loader$ = attestationLoader(hot('s'), hot('-'), options({ loadScript: () => cold('----|'), startProgram: () => undefined, fetchChallenge }));
      expectObservable(loader$).toBe('(il)p', values);
      // An object without solve() is no program either.
      const odd$ = attestationLoader(hot('s'), hot('-'), options({ loadScript: () => cold('----|'), startProgram: () => ({}) as AttestationProgram }));
      expectObservable(odd$).toBe('(il)p', values);
      expect(fetchChallenge).not.toHaveBeenCalled();
    });
  });

  it('fails by script (4) when the program throws while starting, keeping the cause', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const startProgram = () => {
        throw new Error('program exploded');
      };
      expectObservable(attestationLoader(hot('s'), hot('-'), options({ loadScript: () => cold('----l|'), startProgram }))).toBe('(il)p', {
        ...values,
        p: { state: 4, message: BOTGUARD_NO_PROGRAM_MESSAGE, cause: 'program exploded' },
      });
    });
  });

  it('fails (7) when the program cannot meet its challenge, with the cause as message', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const program = programOf(() => cold('--#', {}, new Error('proof refused')));
      const loader$ = attestationLoader(
        hot('s'),
        hot('-'),
        options({ loadScript: () => cold('----|'), startProgram: () => program, fetchChallenge: () => cold('c|') }),
      );
      expectObservable(loader$).toBe('(il)r-f', { ...values, f: { state: 7, message: 'proof refused' } });
    });
  });

  it('fails (7) when fetching the challenge fails, or no token comes within 10 s (production constant)', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const failing = attestationLoader(
        hot('s'),
        hot('-'),
        options({
          loadScript: () => cold('|'),
          startProgram: () => programOf(() => cold('t|')),
          fetchChallenge: () => cold('-----#', {}, new Error('Request failed, status=503')),
        }),
      );
      expectObservable(failing).toBe('(ilr)f', { ...values, f: { state: 7, message: 'Request failed, status=503' } });

      const solve = cold('-');
      const stalled = attestationLoader(
        hot('s'),
        hot('-'),
        options({ loadScript: () => cold('|'), startProgram: () => programOf(() => solve), fetchChallenge: () => cold('c') }),
      );
      // running at 0; (ilr) fills frames 0–4, 9995 ms more puts 'f' at 10 000.
      expectObservable(stalled).toBe('(ilr) 9995ms f', { ...values, f: { state: 7, message: 'The attestation program did not answer in time' } });
      expectSubscriptions(solve.subscriptions).toBe('^ 9999ms !');
    });
  });

  it('is disposed (8) from the initial state, and from a failed one', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      expectObservable(attestationLoader(hot('-'), hot('---d'), options({}))).toBe('i--(d|)', values);
      expectObservable(attestationLoader(hot('s'), hot('-----d'), options({ loadScript: () => cold('#') }))).toBe('(ilu)(d|)', values);
    });
  });

  it('is disposed (8) while loading: the script load stops and nothing runs after it', () => {
    const startProgram = jest.fn();
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const script = cold('-----l|');
      const loader$ = attestationLoader(hot('-s'), hot('---d'), options({ loadScript: () => script, startProgram }));
      expectObservable(loader$).toBe('il-(d|)', values);
      expectSubscriptions(script.subscriptions).toBe('-^-!');
    });
    expect(startProgram).not.toHaveBeenCalled();
  });

  it('is disposed (8) while running: the challenge stops', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const solve = cold('---------t|');
      const loader$ = attestationLoader(
        hot('s'),
        hot('------d'),
        options({ loadScript: () => cold('|'), startProgram: () => programOf(() => solve), fetchChallenge: () => cold('c|') }),
      );
      expectObservable(loader$).toBe('(ilr)-(d|)', values);
      expectSubscriptions(solve.subscriptions).toBe('^-----!');
    });
  });

  it('is disposed (8) when ready: response() then refuses to run', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const fetchChallenge = jest.fn(() => cold('c|'));
      const loader$ = attestationLoader(
        hot('s'),
        hot('-------d'),
        options({ loadScript: () => cold('|'), startProgram: () => programOf(() => cold('t|')), fetchChallenge }),
      );
      let ready: Extract<AttestationSnapshot, { state: 6 }> | undefined;
      loader$.subscribe((x) => {
        if (x.state === 6) ready = x;
      });
      expectObservable(loader$).toBe('(ilry)-(d|)', values);
      const afterDispose$ = hot('---------a').pipe(switchMap(() => ready!.response()));
      expectObservable(afterDispose$).toBe('---------#', undefined, new Error('The attestation loader was disposed'));
    });
  });
});
