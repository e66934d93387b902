import { firstValueFrom, type Observable, toArray } from 'rxjs';
import { AD_STATUS_STORAGE_KEY, loadScript$, startAttestation, type Attestation } from '../../../../src/embed/services/attestation';
import { BOTGUARD_LOAD_FAILED_MESSAGE, BOTGUARD_NO_PROGRAM_MESSAGE } from '../../../../streams/attestation/attestationStates';
import type { PlayerConfig } from '../../../../streams/config/playerConfig';
import { configFor } from '../../../streams/player/fixtures';
import { SCHEDULER_EMULATED_IDLE_DELAY_MS } from '../../../../streams/timing';

const PROGRAM_URL = '/attestation/program.js?v=test';
const withArgs = (args: Partial<PlayerConfig['args']>): PlayerConfig => {
  const base = configFor();
  return { ...base, args: { ...base.args, ...args } };
};
/** The value a state stream replays now. */
const latest = <T>(state$: Observable<T>): T | 'none' => {
  let value: T | 'none' = 'none';
  state$.subscribe((v) => (value = v)).unsubscribe();
  return value;
};
const scripts = () => [...document.head.querySelectorAll('script')];

let attestation: Attestation | undefined;
afterEach(() => {
  attestation?.dispose();
  attestation = undefined;
  document.head.innerHTML = '';
  delete window.vidframeAttestationProgram;
  localStorage.clear();
});

describe('loadScript$', () => {
  it('adds one async script and emits once it loaded (the element stays)', async () => {
    const loaded = firstValueFrom(loadScript$(window, '/a.js').pipe(toArray()));
    expect(scripts().map((s) => [s.getAttribute('src'), s.async])).toEqual([['/a.js', true]]);
    scripts()[0]!.dispatchEvent(new Event('load'));
    expect(await loaded).toHaveLength(1);
    expect(scripts()).toHaveLength(1);
  });

  it('errors when the script cannot be loaded, and removes a script given up on', async () => {
    const failed = firstValueFrom(loadScript$(window, '/b.js'));
    scripts()[0]!.dispatchEvent(new Event('error'));
    await expect(failed).rejects.toThrow('The script /b.js could not be loaded');
    document.head.innerHTML = '';
    loadScript$(window, '/c.js').subscribe().unsubscribe();
    expect(scripts()).toHaveLength(0);
  });
});

describe('startAttestation', () => {
  it('without a program URL: response() starts it, it fails by URL (3) and no token is given', async () => {
    attestation = startAttestation(withArgs({}), window);
    expect(attestation.state).toBe(1);
    expect(await attestation.response()).toBeUndefined();
    expect([attestation.state, attestation.message]).toEqual([3, BOTGUARD_LOAD_FAILED_MESSAGE]);
    expect(scripts()).toHaveLength(0);
  });

  it('loads the program from the configured URL, and each response() solves a fresh challenge', async () => {
    let n = 0;
    const fetch = jest.fn(async () => ({ ok: true, status: 200, json: async () => ({ challenge: `c${++n}`, difficulty: 1, expiresAtMs: 0 }) }));
    Object.defineProperty(window, 'fetch', { value: fetch, configurable: true, writable: true });
    attestation = startAttestation(withArgs({ attestation_program_url: PROGRAM_URL }), window);
    const token = attestation.response();
    expect(attestation.state).toBe(2);
    expect(scripts()[0]!.getAttribute('src')).toBe(PROGRAM_URL);
    // The script "runs": it sets the program's global, then the load event fires.
    window.vidframeAttestationProgram = { start: () => ({ solve: async (c: unknown) => `token-for-${(c as { challenge: string }).challenge}` }) };
    scripts()[0]!.dispatchEvent(new Event('load'));
    // c1 proved the program works (running → ready); this call's own challenge is c2.
    expect(await token).toBe('token-for-c2');
    expect(attestation.state).toBe(6);
    expect(await attestation.response()).toBe('token-for-c3');
    expect(fetch).toHaveBeenCalledWith('/attestation/challenge', expect.objectContaining({ method: 'POST', cache: 'no-store' }));
    attestation.dispose();
    expect(attestation.state).toBe(8);
    expect(await attestation.response()).toBeUndefined();
  });

  it('an idle page does not load the program (1): prepare(), as the controls mount, starts the loader once, when idle', async () => {
    const idle = () => new Promise((done) => setTimeout(done, SCHEDULER_EMULATED_IDLE_DELAY_MS + 100));
    attestation = startAttestation(withArgs({ attestation_program_url: PROGRAM_URL }), window);
    // jsdom has no requestIdleCallback: the emulated idle callback (the one that starts the ad-status check) has run.
    await idle();
    expect(attestation.state).toBe(1);
    expect(scripts()).toHaveLength(0);
    attestation.prepare();
    attestation.prepare();
    // Not at once: at the browser's next idle moment, so the program never competes with the controls' first render.
    expect(attestation.state).toBe(1);
    await idle();
    expect(attestation.state).toBe(2);
    expect(scripts().map((script) => script.getAttribute('src'))).toEqual([PROGRAM_URL]);
    attestation.prepare();
    await idle();
    expect(scripts()).toHaveLength(1);
  });

  it('tells each state once: 1 at the start, then 2 when started (the loader built then says nothing new)', () => {
    attestation = startAttestation(withArgs({ attestation_program_url: PROGRAM_URL }), window);
    const states: number[] = [];
    attestation.state$.subscribe((s) => states.push(s.state));
    void attestation.response();
    expect(states).toEqual([1, 2]);
  });

  it('disposed before anything started it: disposed (8), no program loaded, and no token after', async () => {
    attestation = startAttestation(withArgs({ attestation_program_url: PROGRAM_URL }), window);
    const states: number[] = [];
    attestation.state$.subscribe((s) => states.push(s.state));
    attestation.dispose();
    attestation.prepare();
    expect(await attestation.response()).toBeUndefined();
    expect(states).toEqual([1, 8]);
    expect(scripts()).toHaveLength(0);
  });

  it('a script that sets no program fails by script (4)', async () => {
    attestation = startAttestation(withArgs({ attestation_program_url: PROGRAM_URL }), window);
    const token = attestation.response();
    scripts()[0]!.dispatchEvent(new Event('load'));
    expect(await token).toBeUndefined();
    expect([attestation.state, attestation.message]).toEqual([4, BOTGUARD_NO_PROGRAM_MESSAGE]);
  });

  it('starts requests with the ad-status value the previous page stored; no check without an ads host', () => {
    localStorage.setItem(AD_STATUS_STORAGE_KEY, '3');
    attestation = startAttestation(withArgs({}), window);
    expect(latest(attestation.adStatusSignal$)).toBe(3);
    expect(attestation.adStatus$.value).toBeUndefined();
    localStorage.setItem(AD_STATUS_STORAGE_KEY, 'nonsense');
    const other = startAttestation(withArgs({}), window);
    expect(latest(other.adStatusSignal$)).toBeUndefined();
    other.dispose();
  });
});
